#pragma once
/// @file SiddonTracer.h
/// @brief Exact ray-pixel intersection lengths of a parallel-beam ray through the
/// reconstruction grid (R. L. Siddon, "Fast calculation of the exact radiological path for a
/// three-dimensional CT array", Med. Phys. 12(2), 1985, doi:10.1118/1.595715), in the
/// incremental form of Amanatides & Woo / Jacobs et al.: the ray is walked from its entry into
/// the grid to its exit, crossing one vertical or horizontal pixel boundary per step, and every
/// traversed pixel gets the length of the ray between its two crossings.
///
/// Conventions (ParallelGeometry.h, docs/geometry.md): the ray of projection angle theta and
/// detector coordinate t is the line x cos(theta) + y sin(theta) = t, traversed in the direction
/// (-sin(theta), cos(theta)); pixel (ix, iy) of VolumeGeometry covers its centre +- voxelSize/2,
/// row 0 is the top (largest y). Lengths are in the job's length unit, so the sum of a ray's
/// lengths times the pixel values is the line integral of the piecewise-constant image: a
/// constant image 1 gives the chord of the grid square. Arithmetic is in double.
///
/// A ray running exactly along a pixel boundary is assigned to one of the two pixels (which one
/// depends on rounding), as in Siddon's method; segments shorter than 1e-9 voxel are dropped.
///
/// Threading: a pure function; call it from any number of threads.

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// Calls @p emit(ix, iy, length) for every pixel of slice grid @p vol that the ray (theta, t)
/// crosses, in traversal order. Returns the number of pixels emitted.
template <class Emit>
int traceSiddon(const VolumeGeometry& vol, double theta, double t, Emit&& emit) {
    const double v = vol.voxelSize;
    const double dx = -std::sin(theta), dy = std::cos(theta);
    // Grid units: gx in [0, nx] from the left edge, gy in [0, ny] from the bottom edge.
    const double gx0 = (t * std::cos(theta) - (vol.offsetX - 0.5 * vol.nx * v)) / v;
    const double gy0 = (t * std::sin(theta) - (vol.offsetY - 0.5 * vol.ny * v)) / v;
    constexpr double kInf = std::numeric_limits<double>::infinity();
    constexpr double kTiny = 1e-12;
    double smin = -kInf, smax = kInf;
    auto clip = [&](double g0, double d, int n) {
        if (std::abs(d) < kTiny) {
            if (g0 < 0.0 || g0 > n) smax = -kInf;  // parallel and outside
            return;
        }
        const double s1 = -g0 / d, s2 = (n - g0) / d;
        smin = std::max(smin, std::min(s1, s2));
        smax = std::min(smax, std::max(s1, s2));
    };
    clip(gx0, dx, vol.nx);
    clip(gy0, dy, vol.ny);
    if (!(smax - smin > 1e-9)) return 0;
    // Starting cell: the cell the ray is in just after entering.
    const double sm = smin + std::min(1e-7, 0.5 * (smax - smin));
    int ix = static_cast<int>(std::floor(gx0 + sm * dx));
    int jy = static_cast<int>(std::floor(gy0 + sm * dy));
    ix = std::clamp(ix, 0, vol.nx - 1);
    jy = std::clamp(jy, 0, vol.ny - 1);
    const int stepX = dx > kTiny ? 1 : (dx < -kTiny ? -1 : 0);
    const int stepY = dy > kTiny ? 1 : (dy < -kTiny ? -1 : 0);
    double nextX = stepX > 0 ? (ix + 1 - gx0) / dx : (stepX < 0 ? (ix - gx0) / dx : kInf);
    double nextY = stepY > 0 ? (jy + 1 - gy0) / dy : (stepY < 0 ? (jy - gy0) / dy : kInf);
    const double deltaX = stepX != 0 ? 1.0 / std::abs(dx) : kInf;
    const double deltaY = stepY != 0 ? 1.0 / std::abs(dy) : kInf;
    int emitted = 0;
    double s = smin;
    while (s < smax) {
        const double sNext = std::min({nextX, nextY, smax});
        if (sNext - s > 1e-9) {
            emit(ix, vol.ny - 1 - jy, (sNext - s) * v);
            ++emitted;
        }
        s = sNext;
        if (s >= smax) break;
        if (nextX <= nextY) {
            ix += stepX;
            nextX += deltaX;
            if (ix < 0 || ix >= vol.nx) break;
        } else {
            jy += stepY;
            nextY += deltaY;
            if (jy < 0 || jy >= vol.ny) break;
        }
    }
    return emitted;
}

/// Number of pixels a ray can cross at most while its parameter s runs over a segment of the
/// line: at most floor(L|dx|/v) + 1 vertical and floor(L|dy|/v) + 1 horizontal boundaries, plus
/// one. Used to estimate the matrix size before tracing.
inline std::size_t siddonCellBound(double theta, double segmentLength, double voxelSize) {
    const double steps =
        segmentLength / voxelSize * (std::abs(std::sin(theta)) + std::abs(std::cos(theta)));
    return static_cast<std::size_t>(std::ceil(steps)) + 3;
}

}  // namespace tomo
