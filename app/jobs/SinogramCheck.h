#pragma once
/// @file SinogramCheck.h
/// @brief Does a loaded stack look like parallel-beam sinograms? Catches the files a user opens
/// by mistake (a photograph, a thumbnail, a projection stack read as sinograms) before they are
/// reconstructed into noise without a word.
///
/// - Too small (fewer than kMinAngles angles or kMinDetectors detector columns): an error.
/// - Mass conservation: in a parallel-beam sinogram every row (one angle) integrates the same
///   object, so the row sums are nearly equal (exactly, when the object stays in the field of
///   view). When the row sums of a slice vary by more than kMaxRowSumVariation (standard
///   deviation over mean absolute row sum) the check warns, naming the variation. Real scans
///   stay well below it (a few percent, more with an object wider than the field of view);
///   a photograph read as a sinogram varies by tens of percent.
///
/// Threading: any thread; reads the stack only.

#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo::app {

inline constexpr std::size_t kMinAngles = 8;
inline constexpr std::size_t kMinDetectors = 8;
inline constexpr double kMaxRowSumVariation = 0.25;

/// The relative variation (standard deviation / mean of |sum|) of the row sums of slice
/// @p slice of @p sino (0 when the mean is 0).
double rowSumVariation(const Sinograms& sino, std::size_t slice);

/// InvalidData when @p sino is too small to reconstruct; otherwise the warnings (empty when it
/// looks like sinograms). @p name names the data in the messages.
Result<std::vector<std::string>> checkSinograms(const Sinograms& sino, const std::string& name);

}  // namespace tomo::app
