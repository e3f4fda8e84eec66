#pragma once
// Nearest-interpolation accuracy at large sizes, one check for every backend (the CPU projector
// tests and tests/gpu/GpuVariantTest.cpp include this header).
//
// A float nearest kernel cannot pick the same bin as the double reference everywhere: where the
// exact detector coordinate u lies within the float evaluation error of a half-integer, either
// bin is a correct float result. The check makes every other difference visible and bounds the
// allowed ones per pixel:
//  - sinogram s[z][p][k] = (k + 1) (z + 1), weights 1: all values and sums are integers below
//    2^24, so the float kernels sum exactly and |a - b| at a pixel is exactly the sum over its
//    flipped samples of the jump between the two bins (z + 1 inside the detector, up to
//    n (z + 1) at its edges, where the outside reads zero);
//  - a sample (pixel, p) is "ambiguous" when |frac(u) - 1/2| < delta_p (the detector's outer
//    edges, u = -1/2 and n - 1/2, are such half-integers too). delta_p = 8 x 2^-24 x M_p with M_p
//    = |u(0, 0)| + (n - 1)(|du/dx| + |du/dy|), the largest magnitude an intermediate of the float
//    evaluation reaches: the kernels evaluate u in at most 8 float roundings of values <= M_p (the
//    three constants, two products, two sums, + 0.5; the ALU kernels' tile origin the same): 8
//    half-ulps of M_p is the worst case (measured on CPU and PoCL at 1024^2: at most 1.0);
//  - bound(pixel) = sum over its ambiguous samples of the jump there. A kernel passes when
//    |a - b| <= bound at every pixel. A half-bin offset, a wrong tie rule away from ties or a
//    coordinate whose float error grows past delta_p (e.g. accumulated incrementally) changes
//    unambiguous samples and fails.
// The ambiguous fraction is ~2 delta_p (~2.5e-3 at 1024^2), so with few projections most pixels
// must match the reference exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/geometry/ParallelGeometry.h"
#include "core/projectors/BackProjector.h"

namespace tomo::test {

/// The ambiguity window in half-ulps of M_p (see above).
inline constexpr double kHalfUlps = 8.0;

struct NearestProblem {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms sino;
    std::vector<float> weights;
};

/// n detectors of pitch 1, an n x n grid of unit voxels, @p projections angles over [0, pi)
/// starting off the axes, the axis at the detector centre + 0.25, ramp values (see above).
inline NearestProblem nearestProblem(int n, int projections, int slices) {
    ParallelGeometry::Params params;
    for (int p = 0; p < projections; ++p)
        params.angles.push_back(0.0123 + kPi * p / projections);
    params.detectorCount = n;
    params.rows = slices;
    params.centerOfRotation = 0.5 * (n - 1) + 0.25;
    NearestProblem out{ParallelGeometry::create(params).value(), {}, {}, {}};
    out.vol.nx = out.vol.ny = n;
    out.vol.nz = slices;
    out.sino = Sinograms::create(static_cast<std::size_t>(slices),
                                 static_cast<std::size_t>(projections), static_cast<std::size_t>(n))
                   .value();
    for (int z = 0; z < slices; ++z)
        for (int p = 0; p < projections; ++p) {
            float* row =
                out.sino.row(static_cast<std::size_t>(z), static_cast<std::size_t>(p)).data();
            for (int k = 0; k < n; ++k)
                row[k] = static_cast<float>((k + 1) * (z + 1));
        }
    out.weights.assign(static_cast<std::size_t>(projections), 1.0f);
    return out;
}

struct NearestReport {
    int pixelsOverBound = 0;       ///< pixels where |a - b| exceeds the flip bound
    double worstExcess = 0;        ///< largest |a - b| - bound
    int pixelsDiffering = 0;       ///< pixels with a != b (all within the bound when passing)
    double ambiguousFraction = 0;  ///< ambiguous samples / all samples
    double maxRelError = 0;        ///< max |a - b| / max |b| (the bench's measure)
    std::string firstOver;         ///< "(z, iy, ix): a vs b, bound" of the first offender
};

/// Back-projects @p problem with @p bp and compares it with the double-precision nearest sum.
inline NearestReport checkNearest(BackProjector& bp, const NearestProblem& problem) {
    NearestReport r;
    Volume out;
    const Status s = bp.backProject(problem.sino, problem.geom, problem.vol, problem.weights, out,
                                    {0, {}, nullptr});
    EXPECT_TRUE(s.isOk()) << s.toString();
    if (!s) return r;
    const int n = problem.geom.detectorCount(), P = problem.geom.angleCount();
    const VolumeGeometry& vol = problem.vol;
    struct Angle {
        double c, s, delta;
    };
    std::vector<Angle> angles;
    for (int p = 0; p < P; ++p) {
        const double c = std::cos(problem.geom.angle(p)), sn = std::sin(problem.geom.angle(p));
        const double m = std::abs(problem.geom.detectorIndex(p, vol.x(0), vol.y(0))) +
                         (n - 1) * vol.voxelSize * (std::abs(c) + std::abs(sn));
        angles.push_back({c, sn, kHalfUlps * std::ldexp(m, -24)});
    }
    long ambiguous = 0;
    double maxDiff = 0, maxRef = 0;
    for (int z = 0; z < vol.nz; ++z)
        for (int iy = 0; iy < vol.ny; ++iy)
            for (int ix = 0; ix < vol.nx; ++ix) {
                double ref = 0, bound = 0;
                const double x = vol.x(ix), y = vol.y(iy);
                auto value = [&](double k) { return k >= 0 && k < n ? (k + 1) * (z + 1) : 0.0; };
                for (int p = 0; p < P; ++p) {
                    const double u = problem.geom.center(p) + x * angles[p].c + y * angles[p].s;
                    const double k = std::floor(u + 0.5);
                    ref += value(k);
                    const double lower = std::floor(u);  // the two candidate bins
                    if (std::abs(u - lower - 0.5) < angles[p].delta) {
                        bound += std::abs(value(lower + 1) - value(lower));
                        ++ambiguous;
                    }
                }
                const double a = out(static_cast<std::size_t>(z), static_cast<std::size_t>(iy),
                                     static_cast<std::size_t>(ix));
                const double diff = std::abs(a - ref);
                maxDiff = std::max(maxDiff, diff);
                maxRef = std::max(maxRef, std::abs(ref));
                if (diff > 0) ++r.pixelsDiffering;
                if (diff > bound) {
                    if (r.pixelsOverBound++ == 0) {
                        char text[160];
                        std::snprintf(text, sizeof text, "(%d, %d, %d): %g vs %g, bound %g", z, iy,
                                      ix, a, ref, bound);
                        r.firstOver = text;
                    }
                    r.worstExcess = std::max(r.worstExcess, diff - bound);
                }
            }
    r.ambiguousFraction = double(ambiguous) / (double(vol.nx) * vol.ny * vol.nz * P);
    r.maxRelError = maxRef > 0 ? maxDiff / maxRef : maxDiff;
    return r;
}

/// Per projection (one back-projection each, slice 0): the largest distance |frac(u) - 1/2| of
/// a sample whose bin differs from the reference, in units of 2^-24 M_p (half-ulps of the
/// largest intermediate; the bound above allows kHalfUlps), and the fraction of samples that flip.
struct FlipDistance {
    double worstHalfUlps = 0;
    double flipFraction = 0;
};
inline FlipDistance flipDistance(BackProjector& bp, const NearestProblem& problem) {
    FlipDistance fd;
    const int n = problem.geom.detectorCount(), P = problem.geom.angleCount();
    VolumeGeometry vol = problem.vol;
    vol.nz = 1;
    long flips = 0;
    for (int p = 0; p < P; ++p) {
        ParallelGeometry::Params params = problem.geom.params();
        params.angles = {problem.geom.angle(p)};
        params.rows = 1;
        const ParallelGeometry one = ParallelGeometry::create(params).value();
        Sinograms sino = Sinograms::create(1, 1, static_cast<std::size_t>(n)).value();
        std::copy_n(problem.sino.row(0, static_cast<std::size_t>(p)).data(), n,
                    sino.row(0, 0).data());
        const float weight = 1.0f;
        Volume out;
        if (!bp.backProject(sino, one, vol, {&weight, 1}, out, {0, {}, nullptr})) return fd;
        const double c = std::cos(one.angle(0)), sn = std::sin(one.angle(0));
        const double m = std::abs(one.detectorIndex(0, vol.x(0), vol.y(0))) +
                         (n - 1) * vol.voxelSize * (std::abs(c) + std::abs(sn));
        for (int iy = 0; iy < vol.ny; ++iy)
            for (int ix = 0; ix < vol.nx; ++ix) {
                const double u = one.center(0) + vol.x(ix) * c + vol.y(iy) * sn;
                const double k = std::floor(u + 0.5);
                const double ref = k >= 0 && k < n ? k + 1 : 0.0;
                if (out(0, static_cast<std::size_t>(iy), static_cast<std::size_t>(ix)) == ref)
                    continue;
                ++flips;
                const double d = std::abs(u - std::floor(u) - 0.5) / std::ldexp(m, -24);
                fd.worstHalfUlps = std::max(fd.worstHalfUlps, d);
            }
    }
    fd.flipFraction = double(flips) / (double(vol.nx) * vol.ny * P);
    return fd;
}

/// The check as a test assertion for variant @p bp (prints the numbers).
inline void expectNearestWithinFlipBound(BackProjector& bp, const NearestProblem& problem) {
    SCOPED_TRACE(bp.info().id);
    const NearestReport r = checkNearest(bp, problem);
    std::printf(
        "  %-34s %dx%d x%d slices, %d projections: %d pixels differ (ambiguous samples "
        "%.2g), max rel %.2g, over the bound: %d\n",
        bp.info().id.c_str(), problem.vol.nx, problem.vol.ny, problem.vol.nz,
        problem.geom.angleCount(), r.pixelsDiffering, r.ambiguousFraction, r.maxRelError,
        r.pixelsOverBound);
    const FlipDistance fd = flipDistance(bp, problem);
    std::printf(
        "  %-34s flipped samples %.2g, farthest flip from a half-integer %.2f half-ulps "
        "of M_p (bound %.0f)\n",
        bp.info().id.c_str(), fd.flipFraction, fd.worstHalfUlps, kHalfUlps);
    EXPECT_LT(fd.worstHalfUlps, kHalfUlps);
    EXPECT_EQ(r.pixelsOverBound, 0)
        << "first " << r.firstOver << "; worst excess " << r.worstExcess;
    // The window is a few 1e-3 wide at 1024^2 (derived above): a wider one would hide defects.
    EXPECT_LT(r.ambiguousFraction, 0.02);
}

}  // namespace tomo::test
