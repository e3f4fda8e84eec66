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
    double parameter = 0;     ///< iteration number, or lambda of a sweep
    double residualNorm = 0;  ///< ||A x - b||
    double solutionNorm = 0;  ///< ||x|| (or the regulariser's seminorm for TV sweeps)
    std::optional<double> error;  ///< against a reference, when known
};

/// The points of a solver run, one per iteration.
std::vector<LCurvePoint> lcurveFromHistory(std::span<const IterationInfo> history);

/// Index of the corner: the point of maximum curvature of the log-log curve (robust to
/// non-monotone tails and to flat starts; see LCurve.cpp for the method). InvalidArgument for
/// fewer than 3 points or non-positive norms.
Result<std::size_t> lcurveCorner(std::span<const LCurvePoint> points);

/// CSV ("parameter,residual_norm,solution_norm,error,corner") and JSON exports; atomic writes.
Status writeLCurveCsv(const std::string& path, std::span<const LCurvePoint> points,
                      std::optional<std::size_t> corner);
Status writeLCurveJson(const std::string& path, std::span<const LCurvePoint> points,
                       std::optional<std::size_t> corner);

}  // namespace tomo
