#pragma once
/// @file JosephTranspose.h
/// @brief The exact transpose of Joseph's forward projector (ForwardProjector.h) as a
/// back-projector (`cpu.joseph`): FBP's "joseph" projector, the back-projection of ASTRA's CPU
/// FBP with its "linear" projector (astra-toolbox's FBP algorithm back-projects with the
/// transpose of the projector it is given).
///
/// out[s] = sum_p weight[p] * (pitch / voxelSize^2) * A_p^T sino[s][p], A_p the rows of
/// forwardProjectJoseph for projection p: every ray j spreads step * value over the two pixel
/// centres of each line it crosses, (1 - f) to pixel floor(position) and f to the next, with
/// the positions and step of JosephRays.h (the numbers the forward projection reads the image
/// with), pixels outside the grid dropped. The factor pitch / voxelSize^2 gives it the units of
/// the pixel-driven back-projectors (BackProjector.h): with ParallelGeometry::angularWeights()
/// and ramp-filtered rows it is FBP; with weight = voxelSize^2 / pitch it is A^T itself
/// (<A x, y> = <x, A^T y>, tests/core/projectors/JosephTransposeTest.cpp).
///
/// Against the pixel-driven linear back-projector: the same at theta = 0 with pitch = voxel
/// size; elsewhere a pixel gathers over a detector interval of half-width
/// voxelSize * max(|cos|, |sin|) / pitch pixels instead of one (a slightly different low-pass),
/// which is why ASTRA's CPU FBP and TomoStation's default FBP differ by ~1e-3 of the peak.
///
/// Arithmetic: positions in double as the forward projector, sums in double per pixel, stored
/// as float. Threading: rows-dominant projections are accumulated per (slice, image row) and
/// columns-dominant ones per (slice, image column), each output value by one worker in a fixed
/// order (projections, then rays, ascending), so results do not depend on ctx.threads.
/// Progress: setTotal(slices * (rows + columns)), advanced per line; ctx.stop checked per
/// line. Memory: one double accumulator of the output's size and a column per worker.

#include <memory>

#include "core/projectors/BackProjector.h"

namespace tomo {

/// The `cpu.joseph` back-projector (not in the variant registry: it is another model, chosen
/// by FBP's `projector` parameter, not a faster way to compute the pixel-driven one).
std::unique_ptr<BackProjector> makeJosephTransposeBackProjector();

/// Its id, "cpu.joseph".
inline constexpr const char* kJosephTransposeId = "cpu.joseph";

}  // namespace tomo
