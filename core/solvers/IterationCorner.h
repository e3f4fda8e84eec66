#pragma once
/// @file IterationCorner.h
/// @brief The L-curve corner of an iterative method's own iterations (issue 29): the iterate
/// where the residual branch (||A x_k - b|| falling while ||x_k|| changes little) turns into the
/// noise branch (||x_k|| growing while the residual hardly falls), found so that it cannot fire
/// on the bend of the first iterations.
///
/// Why not lcurveCorner (LCurve.h) on iterations: SIRT's curve bends in its first few
/// iterations (||x_k|| first rises with the residual's fall, then flattens) and, on CT data whose
/// image norm is large against the noise it picks up, never turns into a visible noise branch;
/// the triangle criterion then calls that first bend the corner (issue 29: SIRT stopped at
/// iteration 2 of 300, RMSE 0.158 against 0.031). Hansen's corner separates a flat branch from a
/// steep one, so this rule asks for exactly that, in log10 units of both norms (decades: no
/// dependence on units, no rescaling by the end points):
///  - the corner candidate is the break of the best two-segment fit of the curve (each segment
///    a straight line by orthogonal regression, at least three points each): secants over whole
///    branches, not three-point curvature, so zigzags of a noisy tail do not move it;
///  - it is a corner only when the segment after it rises at least 45 degrees (the solution
///    norm grows faster than the residual falls, in decades) and by at least 1% (a visible
///    branch), and the segment before it is at least 20 degrees flatter (an L-turn: SIRT's
///    early bend turns the other way and is refused).
/// No candidate: InvalidArgument saying why (too few points, no noise branch yet); the caller
/// then falls back to the discrepancy principle (StoppingRule.h).
///
/// Where a corner means nothing (methods that converge to a regularised minimum: TV, MBIR) the
/// caller does not ask: AlgorithmSpec::cornerWhyNot (core/iterative/AlgorithmSchema.h) says why.

#include <cstddef>
#include <span>

#include "core/base/Status.h"
#include "core/solvers/LCurve.h"

namespace tomo {

/// Index of the corner of @p points (iterations in order), or InvalidArgument explaining why
/// there is none.
Result<std::size_t> iterationCorner(std::span<const LCurvePoint> points);

}  // namespace tomo
