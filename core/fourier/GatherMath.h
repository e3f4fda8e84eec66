#pragma once
/// @file GatherMath.h
/// @brief The gather form of gridrec's spreading, one grid point at a time: compiled by g++ for
/// the CPU's emulation in the tests and by nvcc for the CUDA kernel (gpu/cuda/kernels/
/// GridrecKernels.cu), so the arithmetic the GPU runs is the arithmetic the CPU tests check.
///
/// A grid point (gx, gy) (taken with a periodic shift, GatherPlan.h) receives sample (p, k) at
/// (sx, sy) = (Mx / 2 + k ux_p, My / 2 + k uy_p) when it is one of the W points the sample
/// touches, i.e. i = gx - (floor(sx - W/2) + 1) is in [0, W) and so is j for y, with the weight
/// c[.][i](zx) c[.][j](zy) of GriddingKernel's polynomials (zx = 2 (i0 - sx + W/2) - 1): the
/// same positions (double), tests and weights as the CPU's scatter (GridSpreading.cpp), summed
/// per point in the order of the segments and k instead of per sample.
/// No CUDA types: a complex value is two floats.

#include <cmath>

#if defined(__CUDACC__)
#define TOMO_HOST_DEVICE __host__ __device__
#else
#define TOMO_HOST_DEVICE
#endif

namespace tomo {

/// One view's sample positions per k, in grid points (FourierPlan::View's ux, uy), and their
/// reciprocals (gatherReciprocal: 0 where |u| is tiny), so that a point's k range costs
/// products instead of quotients.
struct GatherView {
    double ux = 0, uy = 0;
    double rx = 0, ry = 0;
};

/// The part of a line of samples that may reach a tile: view, k range and the periodic shift
/// (in whole grids) under which it does. 16 bytes.
struct GatherSegment {
    int view = 0;
    int kFirst = 0, kLast = -1;  ///< inclusive
    short shiftX = 0, shiftY = 0;
};

/// What the per-point sum needs of the plan.
struct GatherGeometry {
    int gridX = 0, gridY = 0, width = 0, degree = 0;
    int kMin = 0;    ///< the first k sampled (-L/2 on whole lines, 0 on half lines)
    int kFirst = 0;  ///< the k of a view's first stored sample
    int stride = 0;  ///< complex values between the samples of consecutive views
    const float* coefficients = nullptr;  ///< GriddingKernel::coefficients(), c[d][i] at d*W + i
};

/// Weight of grid point i0 + i of a sample at offset z = 2t - 1 (GriddingKernel.h).
TOMO_HOST_DEVICE inline float gatherWeight(const GatherGeometry& g, int i, float z) {
    const float* c = g.coefficients;
    float w = c[g.degree * g.width + i];
    for (int d = g.degree - 1; d >= 0; --d)
        w = w * z + c[d * g.width + i];
    return w;
}

/// Narrows [k0, k1] to the integers of [a, b] (a superset: floor, ceil; either order),
/// after widening both ends by @p slack of their size.
TOMO_HOST_DEVICE inline void gatherNarrow(double a, double b, double slack, int& k0, int& k1) {
    if (a > b) {
        const double t = a;
        a = b;
        b = t;
    }
    a -= slack * (1.0 + (a < 0 ? -a : a));
    b += slack * (1.0 + (b < 0 ? -b : b));
    const double first = k0 - 1.0, last = k1 + 1.0;  // clamped before the integer casts
    a = a < first ? first : (a > last ? last : a);
    b = b < first ? first : (b > last ? last : b);
    const int ka = static_cast<int>(floor(a)), kb = static_cast<int>(ceil(b));
    k0 = ka > k0 ? ka : k0;
    k1 = kb < k1 ? kb : k1;
}

/// The integer range [k0, k1] (a superset) of samples of @p u per k whose position (centre +
/// k u) may lie in [lo, hi); all k when |u| is tiny and the centre lies there, none otherwise.
TOMO_HOST_DEVICE inline void gatherRange(double lo, double hi, double centre, double u, int& k0,
                                         int& k1) {
    if (u > -1e-12 && u < 1e-12) {
        if (!(centre >= lo && centre < hi)) k1 = k0 - 1;
        return;
    }
    gatherNarrow((lo - centre) / u, (hi - centre) / u, 0.0, k0, k1);
}

/// 1 / u for gatherRangeOf, 0 where gatherRange treats u as zero.
TOMO_HOST_DEVICE inline double gatherReciprocal(double u) {
    return u > -1e-12 && u < 1e-12 ? 0.0 : 1.0 / u;
}

/// gatherRange for the window [lo, lo + width) of a point, from @p offset = lo - centre (exact:
/// multiples of 1/2) and r = gatherReciprocal(u): products for quotients, the bounds widened by
/// 1e-9 of their size (the quotient and the product differ by a few 1e-16), so that the range
/// is still a superset of the k that gatherLine's exact tests accept.
TOMO_HOST_DEVICE inline void gatherRangeOf(double offset, double width, double r, int& k0,
                                           int& k1) {
    if (r == 0.0) {  // |u| tiny: the samples stay at the centre
        if (!(offset <= 0.0 && offset + width > 0.0)) k1 = k0 - 1;
        return;
    }
    gatherNarrow(offset * r, (offset + width) * r, 1e-9, k0, k1);
}

/// A segment made ready for the points of its tile (gatherPrepare): its view's steps and their
/// reciprocals, its grid shift in points, its k range clipped to kMin and its samples' offset.
/// A GPU block stages a batch of these in shared memory (hence no member initialisers); every
/// point of the tile reads them.
struct GatherLine {
    double ux, uy, rx, ry;
    double shiftX, shiftY;  ///< whole grids, in points
    int kFirst, kLast;
    long long row;  ///< floats from the samples' start to k = GatherGeometry::kFirst
};

TOMO_HOST_DEVICE inline GatherLine gatherPrepare(const GatherGeometry& g, const GatherView* views,
                                                 const GatherSegment& s) {
    const GatherView v = views[s.view];
    GatherLine l;
    l.ux = v.ux;
    l.uy = v.uy;
    l.rx = v.rx;
    l.ry = v.ry;
    l.shiftX = double(s.shiftX) * g.gridX;
    l.shiftY = double(s.shiftY) * g.gridY;
    l.kFirst = s.kFirst > g.kMin ? s.kFirst : g.kMin;
    l.kLast = s.kLast;
    l.row = 2 * static_cast<long long>(s.view) * g.stride;
    return l;
}

/// Adds to (@p re, @p im) the terms of line @p l that reach grid point (@p gx, @p gy) of the
/// unshifted grid. @p samples: [view][stride] complex as float pairs.
TOMO_HOST_DEVICE inline void gatherLine(const GatherGeometry& g, const GatherLine& l,
                                        const float* samples, int gx, int gy, float& re,
                                        float& im) {
    const double half = 0.5 * g.width, cx = 0.5 * g.gridX, cy = 0.5 * g.gridY;
    const double px = gx + l.shiftX, py = gy + l.shiftY;
    int k0 = l.kFirst, k1 = l.kLast;
    gatherRangeOf(px - half - cx, g.width, l.rx, k0, k1);
    if (k0 > k1) return;
    gatherRangeOf(py - half - cy, g.width, l.ry, k0, k1);
    const float* row = samples + l.row;
    for (int k = k0; k <= k1; ++k) {
        const double sx = cx + k * l.ux, sy = cy + k * l.uy;
        const double fx = floor(sx - half), fy = floor(sy - half);
        const int i = static_cast<int>(px - fx) - 1, j = static_cast<int>(py - fy) - 1;
        if (i < 0 || i >= g.width || j < 0 || j >= g.width) continue;
        const float zx = 2.f * static_cast<float>(fx + 1 - sx + half) - 1.f;
        const float zy = 2.f * static_cast<float>(fy + 1 - sy + half) - 1.f;
        const float w = gatherWeight(g, i, zx) * gatherWeight(g, j, zy);
        const float* value = row + 2 * (k - g.kFirst);
#if defined(__CUDA_ARCH__)
        const float2 z = *reinterpret_cast<const float2*>(value);  // one 8-byte load
        re += w * z.x;
        im += w * z.y;
#else
        re += w * value[0];
        im += w * value[1];
#endif
    }
}

/// Adds to (@p re, @p im) the terms of segment @p s that reach grid point (@p gx, @p gy).
TOMO_HOST_DEVICE inline void gatherSegment(const GatherGeometry& g, const GatherView* views,
                                           const float* samples, const GatherSegment& s, int gx,
                                           int gy, float& re, float& im) {
    gatherLine(g, gatherPrepare(g, views, s), samples, gx, gy, re, im);
}

}  // namespace tomo
