#include "core/mbir/IcdUpdate.h"

#include <algorithm>
#include <cmath>

namespace tomo {
namespace {

/// theta sums of voxel j over every view: t1 += sum w c e, t2 += sum w c^2 per slice (c the
/// stored entry; the caller applies the voxel's scale).
template <class Entry, bool kSingle>
void accumulateThetas(const MbirSliceGeometry& g, const Entry* column, const SinoBand& band, int ix,
                      int iy, double* t1, double* t2, std::size_t* starts) {
    const int nz = kSingle ? 1 : band.nz;
    if constexpr (kSingle) {
        // Two accumulators each, for even and odd views: half the add-latency chain.
        double s1[2] = {0, 0}, s2[2] = {0, 0};
        for (int v = 0; v < g.views(); ++v) {
            const Entry* a = column + g.offset(v);
            const std::size_t base = band.at(v, g.firstChannel(v, ix, iy));
            starts[v] = base;  // for the write-back
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
        const std::size_t base = band.at(v, g.firstChannel(v, ix, iy));
        starts[v] = base;
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

template <bool kSingle>
void thetas(const IcdSettings& s, const SinoBand& band, std::size_t j, int ix, int iy, double* t1,
            double* t2, std::size_t* starts) {
    const MbirMatrix& a = *s.matrix;
    if (a.type() == MbirEntryType::Uint8)
        accumulateThetas<std::uint8_t, kSingle>(*s.geometry, a.codes(j), band, ix, iy, t1, t2,
                                                starts);
    else
        accumulateThetas<float, kSingle>(*s.geometry, a.floats(j), band, ix, iy, t1, t2, starts);
}

template <bool kSingle>
void subtract(const IcdSettings& s, const SinoBand& band, std::size_t j, const std::size_t* starts,
              const float* delta) {
    const MbirMatrix& a = *s.matrix;
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
    scratch.starts.resize(std::size_t(s.geometry->views()));
    std::size_t* starts = scratch.starts.data();
    if (nz == 1)
        thetas<true>(s, band, j, ix, iy, scratch.theta1.data(), scratch.theta2.data(), starts);
    else
        thetas<false>(s, band, j, ix, iy, scratch.theta1.data(), scratch.theta2.data(), starts);
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
        subtract<true>(s, band, j, starts, scratch.delta.data());
    else
        subtract<false>(s, band, j, starts, scratch.delta.data());
    return moved;
}

}  // namespace tomo
