#pragma once
/// @file MedianFilter.h
/// @brief Internal to core/preprocess: the 2-D median filter behind zinger removal.
///
/// out(r, c) = median of in over the size x size window centred on (r, c), with the image
/// extended by replicating its edge pixels (ITK's ZeroFluxNeumann boundary). This build has one
/// implementation, MedianFilterBuiltin.cpp (window gather + nth_element), chosen in
/// CMakeLists.txt; an itk::MedianImageFilter version (same boundary and results: the median of
/// an odd count is one of the inputs) can be added as MedianFilterItk.cpp selected by
/// TOMO_WITH_ITK there, without any #if in the sources.
/// Threading: single-threaded per call; callers run planes in parallel.

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Median-filters @p in into @p out (same shape; must not alias). @p size is odd, >= 3.
Status medianFilter2d(View2<const float> in, View2<float> out, int size);
/// "itk" or "builtin".
const char* medianFilterBackendName();

}  // namespace tomo
