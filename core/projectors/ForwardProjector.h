#pragma once
/// @file ForwardProjector.h
/// @brief CPU ray-driven forward projection with the slice-interpolated (Joseph) model
/// (paper 001; P. M. Joseph, IEEE TMI 1(3), 1982, doi:10.1109/TMI.1982.4307572).
///
/// For each projection p and detector pixel j the ray t = (j - c_p) * pitch (the line
/// x cos(theta) + y sin(theta) = t, conventions of ParallelGeometry.h) is stepped along its
/// dominant image axis one pixel row (|cos| >= |sin|) or column (otherwise) at a time; at each
/// row the image is read at the ray's crossing with 1-D linear interpolation between the two
/// neighbouring pixel centres of that row (zero outside the grid, so the value fades to zero
/// over the pixel beyond the edge centres), and the samples are summed times the step length
/// voxelSize / max(|cos|, |sin|). So the result is a line integral in the job's length unit:
/// a constant image of value 1 projects, along an axis, to the grid's extent in length units.
/// Rows the ray cannot touch are skipped, so a ray costs O(rows crossed). Coordinates and sums
/// are evaluated in double per ray and stored as float.
///
/// Accuracy (tests/core/projectors/ForwardProjectorTest.cpp): for a supersampled disc of radius
/// 20 pixels the bins whose chord is at least 1.2 r are within 1.2% (mean 0.17%) of the
/// analytic 2 sqrt(r^2 - t^2).
///
/// Adjoint relation: the exact transpose of this operator scatters each ray's value with the
/// same weights: cpu.joseph (JosephTranspose.h; both read the rays of JosephRays.h), FBP's
/// "joseph" projector. The pixel-driven linear back-projector (BackProjector.h) with per-projection
/// weight voxelSize^2 / detectorPitch is an approximation to it (an unmatched pair, as in
/// ASTRA): Joseph spreads a pixel over a detector triangle of half-width
/// voxelSize * max(|cos|, |sin|), the back-projector over one of half-width one detector pixel,
/// with the same area. The dot-product ratio <Ax, y> / <x, By> for positive random x and y,
/// measured in tests/core/projectors/ProjectorAdjointTest.cpp, is 1 to 1e-5 for theta = 0 with
/// pitch = voxel size (the same matrix), 0.99941 for 10 angles over 160 degrees, 0.99996 with
/// pitch = 1.375 voxels, and 1.0039 for a single 45-degree projection.
///
/// Threading: multithreaded over (slice, projection) items with ctx.threads workers; every ray
/// is computed by one worker, so results do not depend on the thread count. ctx.stop is
/// checked per item, ctx.progress advances per item (setTotal = slices * projections).

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// Projects every slice of @p volume (shape [nz][ny][nx] as @p vol) into @p out, resized to
/// [nz][angles][detectors] if its shape differs, then overwritten.
/// @return InvalidArgument when the grid is invalid or @p volume does not match it,
///         OutOfMemory when @p out cannot be allocated, Cancelled when ctx.stop was triggered.
Status forwardProjectJoseph(const Volume& volume, const VolumeGeometry& vol,
                            const ParallelGeometry& geom, Sinograms& out, const ExecContext& ctx);

}  // namespace tomo
