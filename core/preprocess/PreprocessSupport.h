#pragma once
/// @file PreprocessSupport.h
/// @brief Internal to core/preprocess and core/centering: small helpers shared by the
/// preprocessing steps (shape text for messages, finiteness checks, mirrored indexing, median).

#include <cstddef>
#include <span>
#include <string>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// "PxRxC" of a 3-D array, for error messages.
std::string shapeText(const Array3<float>& a);
/// "RxC" of a view.
std::string shapeText(View2<const float> v);

/// InvalidData naming @p what and the first [i][r][c] holding NaN or Inf.
Status checkAllFinite(const Array3<float>& a, const std::string& what);
/// InvalidData naming @p what and the first (r, c) holding NaN or Inf.
Status checkAllFinite(View2<const float> v, const std::string& what);

/// Index of a half-sample symmetric extension of a length-@p n signal (... c b a | a b c ...
/// | c b a ...), period 2n: any integer @p i maps into [0, n).
inline std::size_t mirrorIndex(long i, std::size_t n) {
    const long period = 2 * static_cast<long>(n);
    long m = i % period;
    if (m < 0) m += period;
    return static_cast<std::size_t>(m < static_cast<long>(n) ? m : period - 1 - m);
}

/// Median of @p values (reordered in place); for an even count the mean of the two middle ones.
float medianInPlace(std::span<float> values);

}  // namespace tomo
