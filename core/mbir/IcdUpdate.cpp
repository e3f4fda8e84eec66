#include "core/mbir/IcdUpdate.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tomo {
namespace {

/// theta sums of voxel j over every view: t1 += sum w c e, t2 += sum w c^2 per slice (c the
/// stored entry; the caller applies the voxel's scale).
template <class Entry, bool kSingle>
void accumulateThetas(const MbirSliceGeometry& g, const Entry* column, const SinoBand& band,
                      double* t1, double* t2, const std::size_t* starts) {
    const int nz = kSingle ? 1 : band.nz;
    if constexpr (kSingle) {
        // Two accumulators each, for even and odd views: half the add-latency chain.
        double s1[2] = {0, 0}, s2[2] = {0, 0};
        for (int v = 0; v < g.views(); ++v) {
            const Entry* a = column + g.offset(v);
            const std::size_t base = starts[v];
            const float* e = band.e + base;
            const float* w = band.w + base;
            double p1 = 0, p2 = 0;
            for (int k = 0; k < g.count(v); ++k) {
                const double c = double(a[k]);  // zeros at the run's ends add nothing
                const double wc = double(w[k]) * c;
                p1 += wc * double(e[k]);
                p2 += wc * c;
            }
            s1[v & 1] += p1;
            s2[v & 1] += p2;
        }
        t1[0] += s1[0] + s1[1];
        t2[0] += s2[0] + s2[1];
        return;
    }
    for (int v = 0; v < g.views(); ++v) {
        const Entry* a = column + g.offset(v);
        const std::size_t base = starts[v];
        const float* e = band.e + base;
        const float* w = band.w + base;
        for (int k = 0; k < g.count(v); ++k, e += nz, w += nz) {
            const double c = double(a[k]);
            for (int z = 0; z < nz; ++z) {
                const double wc = double(w[z]) * c;
                t1[z] += wc * double(e[z]);
                t2[z] += wc * c;
            }
        }
    }
}

template <class Entry, bool kSingle>
void writeBack(const MbirSliceGeometry& g, const Entry* column, float scale, const SinoBand& band,
               const std::size_t* starts, const float* delta) {
    if constexpr (kSingle && std::is_same_v<Entry, std::uint8_t>) {
        // One slice, 8-bit entries: the 256 possible changes once per voxel, then a lookup.
        float change[256];
        const float step = scale * delta[0];
        for (int c = 0; c < 256; ++c)
            change[c] = step * float(c);
        for (int v = 0; v < g.views(); ++v) {
            const Entry* a = column + g.offset(v);
            float* e = band.e + starts[v];
            for (int k = 0; k < g.count(v); ++k)
                e[k] -= change[a[k]];
        }
        return;
    }
    const int nz = kSingle ? 1 : band.nz;
    for (int v = 0; v < g.views(); ++v) {
        const Entry* a = column + g.offset(v);
        float* e = band.e + starts[v];
        for (int k = 0; k < g.count(v); ++k, e += nz) {
            const float entry = scale * float(a[k]);
            for (int z = 0; z < nz; ++z)
                e[z] -= entry * delta[z];
        }
    }
}

#if defined(__x86_64__) || defined(__i386__)
#define TOMO_MBIR_AVX2 1
/// The vector kernels of one slice with 8-bit entries read each view's run where it lies: the
/// error, the weight and the codes are contiguous there (the run is count(v) channels of one
/// row of the band, and count(v) codes of the column), so four taps are one unaligned load of
/// each, the codes past the run masked to zero. A load may reach up to 3 elements past the run:
/// into the band's next row (whose values add nothing: their codes are zero) or past the last
/// row, so the last view is done one tap at a time.

/// Four codes from @p at with the taps from @p live on set to zero (as floats).
__attribute__((target("avx2,fma"))) inline __m128 codesAt(const std::uint8_t* at, int live) {
    static constexpr std::uint32_t kLow[5] = {0u, 0xffu, 0xffffu, 0xffffffu, 0xffffffffu};
    std::uint32_t raw = 0;
    std::memcpy(&raw, at, sizeof raw);  // inside the column or its kCodePadding
    raw &= kLow[live < 4 ? live : 4];
    return _mm_cvtepi32_ps(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(int(raw))));
}

/// Adds view @p v's terms w c e and w c^2 to @p s1 and @p s2 (float products and sums).
__attribute__((target("avx2,fma"))) inline void runTerms(const MbirSliceGeometry& g,
                                                         const std::uint8_t* column,
                                                         const SinoBand& band,
                                                         const std::int32_t* starts, int v,
                                                         __m128& s1, __m128& s2) {
    const int count = g.counts()[v];
    const float* e = band.e + starts[v];
    const float* w = band.w + starts[v];
    const std::uint8_t* a = column + g.offsets32()[v];
    for (int k = 0; k < count; k += 4) {
        const __m128 c = codesAt(a + k, count - k);
        const __m128 wc = _mm_mul_ps(_mm_loadu_ps(w + k), c);
        s1 = _mm_fmadd_ps(wc, _mm_loadu_ps(e + k), s1);
        s2 = _mm_fmadd_ps(wc, c, s2);
    }
}

__attribute__((target("avx2,fma"))) inline double laneSum(__m128 s) {
    alignas(16) float l[4];
    _mm_store_ps(l, s);
    return (double(l[0]) + double(l[1])) + (double(l[2]) + double(l[3]));
}

/// theta sums of one slice over every view, four views' runs in flight (four accumulators,
/// so the FMA latency does not chain); the last view one tap at a time, in double.
__attribute__((target("avx2,fma"))) void thetasRuns(const MbirSliceGeometry& g,
                                                    const std::uint8_t* column,
                                                    const SinoBand& band,
                                                    const std::int32_t* starts, double& t1,
                                                    double& t2) {
    const int last = g.views() - 1;
    __m128 a1 = _mm_setzero_ps(), b1 = a1, c1 = a1, d1 = a1;
    __m128 a2 = a1, b2 = a1, c2 = a1, d2 = a1;
    int v = 0;
    for (; v + 4 <= last; v += 4) {
        runTerms(g, column, band, starts, v, a1, a2);
        runTerms(g, column, band, starts, v + 1, b1, b2);
        runTerms(g, column, band, starts, v + 2, c1, c2);
        runTerms(g, column, band, starts, v + 3, d1, d2);
    }
    for (; v < last; ++v)
        runTerms(g, column, band, starts, v, a1, a2);
    double s1 = laneSum(_mm_add_ps(_mm_add_ps(a1, b1), _mm_add_ps(c1, d1)));
    double s2 = laneSum(_mm_add_ps(_mm_add_ps(a2, b2), _mm_add_ps(c2, d2)));
    if (last >= 0) {
        const std::uint8_t* a = column + g.offsets32()[last];
        for (int k = 0; k < g.count(last); ++k) {
            const double c = double(a[k]);
            const double wc = double(band.w[starts[last] + k]) * c;
            s1 += wc * double(band.e[starts[last] + k]);
            s2 += wc * c;
        }
    }
    t1 += s1;
    t2 += s2;
}

/// The write-back e -= step c of one slice, run by run: four taps loaded, changed and stored
/// (the masked taps store the value they read: the band is this thread's alone); the last
/// view one tap at a time.
__attribute__((target("avx2,fma"))) void writeBackRuns(const MbirSliceGeometry& g,
                                                       const std::uint8_t* column, float step,
                                                       float* e, const std::int32_t* starts) {
    const int last = g.views() - 1;
    const __m128 vstep = _mm_set1_ps(step);
    for (int v = 0; v < last; ++v) {
        const int count = g.counts()[v];
        float* run = e + starts[v];
        const std::uint8_t* a = column + g.offsets32()[v];
        for (int k = 0; k < count; k += 4) {
            const __m128 change = _mm_mul_ps(vstep, codesAt(a + k, count - k));
            _mm_storeu_ps(run + k, _mm_sub_ps(_mm_loadu_ps(run + k), change));
        }
    }
    if (last >= 0) {
        const std::uint8_t* a = column + g.offsets32()[last];
        for (int k = 0; k < g.count(last); ++k)
            e[starts[last] + k] -= step * float(a[k]);
    }
}
#endif

template <bool kSingle>
void thetas(const IcdSettings& s, const SinoBand& band, std::size_t j, double* t1, double* t2,
            const std::size_t* starts, const std::int32_t* starts32) {
    const MbirMatrix& a = *s.matrix;
#ifdef TOMO_MBIR_AVX2
    if (kSingle && s.avx2 && a.type() == MbirEntryType::Uint8) {
        thetasRuns(*s.geometry, a.codes(j), band, starts32, t1[0], t2[0]);
        return;
    }
#endif
    (void)starts32;
    if (a.type() == MbirEntryType::Uint8)
        accumulateThetas<std::uint8_t, kSingle>(*s.geometry, a.codes(j), band, t1, t2, starts);
    else
        accumulateThetas<float, kSingle>(*s.geometry, a.floats(j), band, t1, t2, starts);
}

template <bool kSingle>
void subtract(const IcdSettings& s, const SinoBand& band, std::size_t j, const std::size_t* starts,
              const std::int32_t* starts32, const float* delta) {
    const MbirMatrix& a = *s.matrix;
#ifdef TOMO_MBIR_AVX2
    if (kSingle && s.avx2 && a.type() == MbirEntryType::Uint8) {
        writeBackRuns(*s.geometry, a.codes(j), a.scale(j) * delta[0], band.e, starts32);
        return;
    }
#endif
    (void)starts32;
    if (a.type() == MbirEntryType::Uint8)
        writeBack<std::uint8_t, kSingle>(*s.geometry, a.codes(j), a.scale(j), band, starts, delta);
    else
        writeBack<float, kSingle>(*s.geometry, a.floats(j), 1.f, band, starts, delta);
}

/// Gathers the neighbours of (ix, iy, z): values and weights; returns their number.
int gatherNeighbours(const IcdSettings& s, const std::vector<float>& x, int ix, int iy, int z,
                     double* value, double* weight) {
    const int nx = s.geometry->nx(), ny = s.geometry->ny(), nz = s.nz;
    int n = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || ix + dx < 0 || ix + dx >= nx || iy + dy < 0 ||
                iy + dy >= ny)
                continue;
            value[n] = x[(std::size_t(iy + dy) * nx + std::size_t(ix + dx)) * nz + z];
            weight[n++] = (dx == 0 || dy == 0) ? s.weights.nearest : s.weights.diagonal;
        }
    const std::size_t line = (std::size_t(iy) * nx + ix) * nz;
    if (z > 0) {
        value[n] = x[line + z - 1];
        weight[n++] = s.weights.across;
    }
    if (z + 1 < nz) {
        value[n] = x[line + z + 1];
        weight[n++] = s.weights.across;
    }
    return n;
}

}  // namespace

bool icdAvx2Available() {
#ifdef TOMO_MBIR_AVX2
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

double icdVoxelStep(double v, double theta1, double theta2, const double* value,
                    const double* weight, int neighbours, const Qggmrf& prior, bool positivity,
                    int steps) {
    double t = v;
    for (int step = 0; step < steps; ++step) {
        // Surrogate at t: theta1' = theta1 + theta2 (t - v) is the data term's slope at t.
        double num = theta1 + theta2 * (t - v), den = theta2;
        for (int k = 0; k < neighbours; ++k) {
            const double d = t - value[k];
            const double a = weight[k] * prior.surrogate(d);
            num += 2 * a * d;
            den += 2 * a;
        }
        if (!(den > 0)) return t;
        double next = t - num / den;
        if (positivity) next = std::max(next, 0.0);
        if (next == t) break;
        t = next;
    }
    return t;
}

double icdUpdateLine(const IcdSettings& s, const SinoBand& band, std::vector<float>& x, int ix,
                     int iy, IcdScratch& scratch, std::size_t& updates) {
    const int nz = s.nz, nx = s.geometry->nx();
    const std::size_t j = std::size_t(iy) * nx + ix;
    scratch.active.assign(std::size_t(nz), 1);
    bool any = false;
    double value[10], weight[10];
    for (int z = 0; z < nz; ++z) {
        if (s.zeroSkip && x[j * nz + z] == 0.f) {
            const int n = gatherNeighbours(s, x, ix, iy, z, value, weight);
            bool allZero = true;
            for (int k = 0; k < n && allZero; ++k)
                allZero = value[k] == 0;
            if (allZero) scratch.active[std::size_t(z)] = 0;
        }
        any = any || scratch.active[std::size_t(z)];
    }
    if (!any) return 0;
    scratch.theta1.assign(std::size_t(nz), 0.0);
    scratch.theta2.assign(std::size_t(nz), 0.0);
    // Where the voxel's run starts in the band at every view (the first channels 4 views at a
    // time, MbirSliceGeometry::firstChannels).
    const int views = s.geometry->views();
    scratch.starts.resize(std::size_t(views));
    scratch.starts32.resize(std::size_t(views));
    std::size_t* starts = scratch.starts.data();
    std::int32_t* s32 = scratch.starts32.data();
    s.geometry->firstChannels(ix, iy, 0, views, s32);
    if (nz == 1 && band.shift) {
        // One slice: channel c of view v lies at c + shift[v] (an int loop the compiler
        // vectorises); the size_t starts only for the scalar kernels.
        for (int v = 0; v < views; ++v)
            s32[v] += band.shift[v];
        if (!s.avx2 || s.matrix->type() != MbirEntryType::Uint8)
            for (int v = 0; v < views; ++v)
                starts[v] = std::size_t(s32[v]);
    } else {
        for (int v = 0; v < views; ++v) {
            starts[v] = band.at(v, s32[v]);
            s32[v] = std::int32_t(starts[v]);
        }
    }
    if (nz == 1)
        thetas<true>(s, band, j, scratch.theta1.data(), scratch.theta2.data(), starts, s32);
    else
        thetas<false>(s, band, j, scratch.theta1.data(), scratch.theta2.data(), starts, s32);
    const double scale = s.matrix->scale(j);
    scratch.delta.assign(std::size_t(nz), 0.f);
    double moved = 0;
    for (int z = 0; z < nz; ++z) {
        if (!scratch.active[std::size_t(z)]) continue;
        const double t1 = -scale * scratch.theta1[std::size_t(z)] * s.invSigmaY2;
        const double t2 = scale * scale * scratch.theta2[std::size_t(z)] * s.invSigmaY2;
        const int n = gatherNeighbours(s, x, ix, iy, z, value, weight);
        float& voxel = x[j * nz + z];
        const double next =
            icdVoxelStep(voxel, t1, t2, value, weight, n, *s.prior, s.positivity, s.innerSteps);
        const float old = voxel;
        voxel = float(next);
        const float delta = voxel - old;
        scratch.delta[std::size_t(z)] = delta;
        moved += std::fabs(delta);
        ++updates;
    }
    if (moved == 0) return 0;
    if (nz == 1)
        subtract<true>(s, band, j, starts, s32, scratch.delta.data());
    else
        subtract<false>(s, band, j, starts, s32, scratch.delta.data());
    return moved;
}

}  // namespace tomo
