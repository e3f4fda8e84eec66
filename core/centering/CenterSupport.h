#pragma once
/// @file CenterSupport.h
/// @brief Internal to core/centering: input checks and search ranges shared by the estimators.

#include <span>
#include <string>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// InvalidArgument unless @p angles has one finite entry per sinogram row and the sinogram has
/// at least @p minRows x @p minCols; InvalidData for NaN/Inf values. @p method names the caller.
Status checkSinogram(View2<const float> sino, std::span<const double> angles, std::size_t minRows,
                     std::size_t minCols, const std::string& method);

/// Resolves a search centre/radius (NaN / 0 = defaults) for a detector of @p width pixels and
/// checks that the range lies on the detector.
struct SearchRange {
    double center = 0;
    double radius = 0;
};
Result<SearchRange> resolveSearch(double center, double radius, std::size_t width,
                                  const std::string& method);

}  // namespace tomo

namespace tomo {

/// Vertex of the parabola through (x[i-1..i+1], y[i-1..i+1]) for uniformly spaced x: x[i] when
/// i is on the border or the points are not convex (for minima; pass -y for maxima).
double parabolicMinimum(std::span<const double> x, std::span<const double> y, std::size_t i);

}  // namespace tomo
