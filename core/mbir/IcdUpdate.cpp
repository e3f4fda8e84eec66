#include "core/mbir/IcdUpdate.h"

#include <algorithm>
#include <cmath>
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
/// theta sums of one slice over every view, 8 views at a time: the error, weight and 8-bit
/// entries are gathered at each view's run (starts32, offsets32) for taps k < count(view);
/// products in float, sums in double. The last views % 8 are summed one by one.
__attribute__((target("avx2,fma"))) void thetasAvx2(const MbirSliceGeometry& g,
                                                    const std::uint8_t* column,
                                                    const SinoBand& band,
                                                    const std::int32_t* starts, double& t1,
                                                    double& t2) {
    const int views = g.views(), full = views - views % 8;
    const int* counts = g.counts();
    const std::int32_t* offsets = g.offsets32();
    __m256d s1a = _mm256_setzero_pd(), s1b = _mm256_setzero_pd();
    __m256d s2a = _mm256_setzero_pd(), s2b = _mm256_setzero_pd();
    const __m256i low = _mm256_set1_epi32(0xff);
    for (int v = 0; v < full; v += 8) {
        const __m256i start = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(starts + v));
        const __m256i offset = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(offsets + v));
        const __m256i count = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(counts + v));
        for (int k = 0; k < g.maxCount(); ++k) {
            const __m256i kk = _mm256_set1_epi32(k);
            const __m256i live = _mm256_cmpgt_epi32(count, kk);
            const __m256 mask = _mm256_castsi256_ps(live);
            const __m256i at = _mm256_add_epi32(start, kk);
            const __m256 e = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), band.e, at, mask, 4);
            const __m256 w = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), band.w, at, mask, 4);
            const __m256i raw = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(),
                                                            reinterpret_cast<const int*>(column),
                                                            _mm256_add_epi32(offset, kk), live, 1);
            const __m256 c = _mm256_cvtepi32_ps(_mm256_and_si256(raw, low));
            const __m256 wc = _mm256_mul_ps(w, c);
            const __m256 p1 = _mm256_mul_ps(wc, e), p2 = _mm256_mul_ps(wc, c);
            s1a = _mm256_add_pd(s1a, _mm256_cvtps_pd(_mm256_castps256_ps128(p1)));
            s1b = _mm256_add_pd(s1b, _mm256_cvtps_pd(_mm256_extractf128_ps(p1, 1)));
            s2a = _mm256_add_pd(s2a, _mm256_cvtps_pd(_mm256_castps256_ps128(p2)));
            s2b = _mm256_add_pd(s2b, _mm256_cvtps_pd(_mm256_extractf128_ps(p2, 1)));
        }
    }
    alignas(32) double l1[4], l2[4];
    _mm256_store_pd(l1, _mm256_add_pd(s1a, s1b));
    _mm256_store_pd(l2, _mm256_add_pd(s2a, s2b));
    double a1 = (l1[0] + l1[1]) + (l1[2] + l1[3]), a2 = (l2[0] + l2[1]) + (l2[2] + l2[3]);
    for (int v = full; v < views; ++v)
        for (int k = 0; k < counts[v]; ++k) {
            const double c = double(column[offsets[v] + k]);
            const double wc = double(band.w[starts[v] + k]) * c;
            a1 += wc * double(band.e[starts[v] + k]);
            a2 += wc * c;
        }
    t1 += a1;
    t2 += a2;
}
#endif

/// The write-back e -= step c of one slice, 8 views at a time: the error gathered at each view's
/// run, changed, and scattered back (AVX-512: views' runs lie in different rows, so no two lanes
/// write one element). The last views % 8 one by one.
__attribute__((target("avx512f,avx512vl"))) void writeBackAvx512(const MbirSliceGeometry& g,
                                                                 const std::uint8_t* column,
                                                                 float step, float* e,
                                                                 const std::int32_t* starts) {
    const int views = g.views(), full = views - views % 8;
    const int* counts = g.counts();
    const std::int32_t* offsets = g.offsets32();
    const __m256 vstep = _mm256_set1_ps(step);
    const __m256i low = _mm256_set1_epi32(0xff);
    for (int v = 0; v < full; v += 8) {
        const __m256i start = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(starts + v));
        const __m256i offset = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(offsets + v));
        const __m256i count = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(counts + v));
        for (int k = 0; k < g.maxCount(); ++k) {
            const __m256i kk = _mm256_set1_epi32(k);
            const __mmask8 live = _mm256_cmpgt_epi32_mask(count, kk);
            const __m256i at = _mm256_add_epi32(start, kk);
            const __m256i raw = _mm256_mmask_i32gather_epi32(
                _mm256_setzero_si256(), live, _mm256_add_epi32(offset, kk),
                reinterpret_cast<const int*>(column), 1);
            const __m256 c = _mm256_cvtepi32_ps(_mm256_and_si256(raw, low));
            const __m256 old = _mm256_mmask_i32gather_ps(_mm256_setzero_ps(), live, at, e, 4);
            _mm256_mask_i32scatter_ps(e, live, at, _mm256_sub_ps(old, _mm256_mul_ps(vstep, c)), 4);
        }
    }
    for (int v = full; v < views; ++v)
        for (int k = 0; k < counts[v]; ++k)
            e[starts[v] + k] -= step * float(column[offsets[v] + k]);
}

bool avx512Available() {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
}

template <bool kSingle>
void thetas(const IcdSettings& s, const SinoBand& band, std::size_t j, double* t1, double* t2,
            const std::size_t* starts, const std::int32_t* starts32) {
    const MbirMatrix& a = *s.matrix;
#ifdef TOMO_MBIR_AVX2
    if (kSingle && s.avx2 && a.type() == MbirEntryType::Uint8) {
        thetasAvx2(*s.geometry, a.codes(j), band, starts32, t1[0], t2[0]);
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
    if (kSingle && s.avx512 && a.type() == MbirEntryType::Uint8) {
        writeBackAvx512(*s.geometry, a.codes(j), a.scale(j) * delta[0], band.e, starts32);
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

bool icdAvx512Available() {
#ifdef TOMO_MBIR_AVX2
    return avx512Available();
#else
    return false;
#endif
}

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
    for (int v = 0; v < views; ++v) {
        starts[v] = band.at(v, s32[v]);
        s32[v] = std::int32_t(starts[v]);
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
