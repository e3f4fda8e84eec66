#pragma once
/// @file JosephRays.h
/// @brief Where the rays of one projection cross the image lines in Joseph's method: the one
/// description that the forward projector (ForwardProjector.h) and its exact transpose
/// (JosephTranspose.h) both read, so their weights are the same numbers.
///
/// Ray j of projection p is the line x cos(theta) + y sin(theta) = t_j, t_j = (j - c_p) pitch
/// (ParallelGeometry.h). It is stepped along its dominant image axis: image rows when
/// |cos| >= |sin| (alongRows), else image columns. On line k (row iy = k, or column ix = k) it
/// crosses at the fractional pixel index position(j, k) = start(j) + k * slope along that line
/// (column index on a row, row index on a column; pixel centres at integers). The sample there
/// is 1-D linear interpolation between pixels floor(position) and floor(position) + 1 of the
/// line (zero outside the grid), weighted by step = voxelSize / max(|cos|, |sin|).
/// Coordinates are evaluated in double.

#include <cmath>

#include "core/geometry/ParallelGeometry.h"

namespace tomo {

struct JosephRays {
    bool alongRows = true;
    double step = 0;   ///< length of the ray per line (world units)
    double slope = 0;  ///< change of the position per line (pixels)
    double center = 0, pitch = 1, cosine = 1, sine = 0;
    double x0 = 0, y0 = 0, voxelSize = 1;  ///< centre of pixel (row 0, column 0)

    /// Position of ray @p j on line 0 (pixels along the line).
    double start(std::size_t j) const {
        const double t = (static_cast<double>(j) - center) * pitch;
        // Rows: x(iy) = (t - y(iy) s) / c with y(iy) = y0 - iy vs, so the column index is affine
        // in iy: col = col0 + iy * (s / c). Columns: y(ix) = (t - x(ix) c) / s with
        // x(ix) = x0 + ix vs, row = (y0 - y) / vs.
        return alongRows ? ((t - y0 * sine) / cosine - x0) / voxelSize
                         : (y0 - (t - x0 * cosine) / sine) / voxelSize;
    }
};

/// The rays of projection @p p of @p geom on the grid @p vol.
inline JosephRays josephRays(const ParallelGeometry& geom, const VolumeGeometry& vol, int p) {
    JosephRays r;
    const double th = geom.angle(p);
    r.cosine = std::cos(th);
    r.sine = std::sin(th);
    r.center = geom.center(p);
    r.pitch = geom.detectorPitch();
    r.voxelSize = vol.voxelSize;
    r.x0 = vol.x(0);
    r.y0 = vol.y(0);
    r.alongRows = std::abs(r.cosine) >= std::abs(r.sine);
    r.step = r.alongRows ? vol.voxelSize / std::abs(r.cosine) : vol.voxelSize / std::abs(r.sine);
    r.slope = r.alongRows ? r.sine / r.cosine : r.cosine / r.sine;
    return r;
}

}  // namespace tomo
