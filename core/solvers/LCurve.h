#pragma once
/// @file LCurve.h
/// @brief L-curves: log ||residual|| against log ||solution|| (or the regulariser), one point per
/// iteration of an early-stopped method or per lambda of a regularised sweep, and the corner
/// where to stop or which lambda to take (P. C. Hansen, "Analysis of discrete ill-posed problems
/// by means of the L-curve", SIAM Review 34(4), 1992, doi:10.1137/1034115).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/solvers/IterationInfo.h"

namespace tomo {

struct LCurvePoint {
    double parameter = 0;         ///< iteration number, or lambda of a sweep
    double residualNorm = 0;      ///< ||A x - b||
    double solutionNorm = 0;      ///< ||x|| (or the regulariser's seminorm for TV sweeps)
    std::optional<double> error;  ///< against a reference, when known
};

/// The points of a solver run, one per iteration.
std::vector<LCurvePoint> lcurveFromHistory(std::span<const IterationInfo> history);

/// Index of the corner: in log-log coordinates scaled to the unit box, the point farthest from
/// the chord between the first and last points on the origin's side (the triangle criterion,
/// Castellanos, Gomez, Guerra, Appl. Numer. Math. 43(4), 2002, doi:10.1016/S0168-9274(01)00179-9),
/// robust to noisy, non-monotone tails where three-point curvature jumps between zigzags.
/// Works for either traversal direction. InvalidArgument for fewer than 3 points, non-positive
/// norms, or a curve with no point below its chord.
Result<std::size_t> lcurveCorner(std::span<const LCurvePoint> points);

/// CSV ("parameter,residual_norm,solution_norm,error,corner") and JSON exports; atomic writes.
/// With @p kept (the point whose iterate a stopping rule returned, StoppingRule.h) the CSV has
/// a further column "kept" (1 on that row) and the JSON "kept" / "kept_parameter".
Status writeLCurveCsv(const std::string& path, std::span<const LCurvePoint> points,
                      std::optional<std::size_t> corner,
                      std::optional<std::size_t> kept = std::nullopt);
Status writeLCurveJson(const std::string& path, std::span<const LCurvePoint> points,
                       std::optional<std::size_t> corner,
                       std::optional<std::size_t> kept = std::nullopt);

}  // namespace tomo
