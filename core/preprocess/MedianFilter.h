#pragma once
/// @file MedianFilter.h
/// @brief Internal to core/preprocess: the 2-D median filter behind zinger removal.
///
/// out(r, c) = median of in over the size x size window centred on (r, c), with the image
/// extended by replicating its edge pixels (ITK's ZeroFluxNeumannBoundaryCondition, the default
/// of itk::MedianImageFilter). Two implementations: MedianFilterBuiltin.cpp (window gather +
/// nth_element, always compiled as medianFilter2dBuiltin) and MedianFilterItk.cpp
/// (itk::MedianImageFilter on a 2-D float image). CMakeLists.txt makes medianFilter2d the ITK
/// one when TOMO_WITH_ITK, else the built-in one (MedianFilterSelectBuiltin.cpp): no #if in the
/// sources. Both give identical results: the median of an odd count is one of the inputs, and
/// both take the element of rank size*size/2 of the same window.
/// Threading: single-threaded per call (the ITK filter is limited to one work unit); callers
/// run planes in parallel.

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Median-filters @p in into @p out (same shape; must not alias). @p size is odd, >= 3.
Status medianFilter2d(View2<const float> in, View2<float> out, int size);
/// The plain C++ implementation, whatever medianFilter2d is (for comparisons).
Status medianFilter2dBuiltin(View2<const float> in, View2<float> out, int size);
/// InvalidArgument naming the cause when @p size is not odd and >= 3 or the shapes differ.
Status checkMedianFilterArgs(View2<const float> in, View2<const float> out, int size);
/// "itk" or "builtin".
const char* medianFilterBackendName();

}  // namespace tomo
