#pragma once
/// @file OutlierRemoval.h
/// @brief Zinger (outlier) removal: pixels that differ from their local median by more than a
/// threshold are replaced by that median.
///
/// Zingers are isolated bright pixels from gamma rays or scattered X-rays hitting the detector
/// directly; they differ from frame to frame, so they are removed per frame (projection) before
/// normalisation or after it. For each pixel v with local median m (size x size window, edges
/// replicated, see MedianFilter.h):
///   absolute mode: replaced when |v - m| > threshold          (threshold in data units)
///   relative mode: replaced when |v - m| > threshold * |m|    (threshold a fraction, e.g. 0.2)
/// A relative threshold suits raw counts and transmissions (noise grows with the signal); an
/// absolute one suits line integrals. Only pixels above the threshold change; the rest of the
/// image is bit-identical. Set `brightOnly` to replace only pixels above the median (zingers are
/// bright), leaving dark defects alone.
///
/// Threading: parallelFor over frames with ctx.threads workers (each with its own scratch),
/// results independent of the thread count; ctx.stop checked per frame; ctx.progress gets one
/// unit per frame (setTotal is called here).

#include <cstddef>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

enum class ThresholdMode { Absolute, Relative };

struct ZingerOptions {
    int size = 3;           ///< median window edge in pixels: odd, 3..31
    double threshold = 0.2; ///< > 0; data units (Absolute) or a fraction of |median| (Relative)
    ThresholdMode mode = ThresholdMode::Relative;
    bool brightOnly = false;  ///< replace only pixels above their median
    Status validate() const;
};

struct ZingerSummary {
    std::size_t replaced = 0;  ///< pixels replaced by their median
};

/// Removes zingers from every frame (`plane(i)`) of @p frames in place. InvalidArgument for bad
/// options, InvalidData when a value is NaN or infinite (nothing changed), Cancelled.
Result<ZingerSummary> removeZingers(Array3<float>& frames, const ZingerOptions& options,
                                    const ExecContext& ctx = {});
/// The same for one image; returns the number of pixels replaced.
Result<std::size_t> removeZingers(View2<float> image, const ZingerOptions& options);

/// "itk" or "builtin": the median filter this build uses.
const char* zingerMedianBackend();

}  // namespace tomo
