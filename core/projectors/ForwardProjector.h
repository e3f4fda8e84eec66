#pragma once
/// @file ForwardProjector.h
/// @brief CPU ray-driven forward projection with the slice-interpolated (Joseph) model
/// (paper 001; P. M. Joseph, IEEE TMI 1(3), 1982, doi:10.1109/TMI.1982.4307572).
///
/// For each projection p and detector pixel j the ray t = (j - c_p) * pitch is stepped along
/// its dominant image axis one pixel row (or column) at a time; at each row the image is read
/// at the ray's crossing with 1-D linear interpolation between the two neighbouring pixels
/// (zero outside the grid), and the samples are summed times the step length
/// voxelSize / max(|cos|, |sin|). So the result is a line integral in the job's length unit.
///
/// Adjoint relation: the exact transpose of this operator scatters each ray's value with the
/// same weights. The pixel-driven linear back-projector (BackProjector.h) with per-projection
/// weight voxelSize^2 / detectorPitch is an approximation to it (an unmatched pair, as in
/// ASTRA); the dot-product ratio <Ax, y> / <x, By> is measured in
/// tests/core/ProjectorAdjointTest.cpp and reported in docs/architecture.md.

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// Projects every slice of @p volume (shape [nz][ny][nx] as @p vol) into @p out, resized to
/// [nz][angles][detectors] if needed. Multithreaded over ctx.threads; deterministic.
Status forwardProjectJoseph(const Volume& volume, const VolumeGeometry& vol,
                            const ParallelGeometry& geom, Sinograms& out, const ExecContext& ctx);

}  // namespace tomo
