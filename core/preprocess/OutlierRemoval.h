#pragma once
/// @file OutlierRemoval.h
/// @brief Zinger (outlier) removal: pixels that differ from their local median by more than a
/// threshold are replaced by that median.
///
/// Zingers are isolated bright pixels in the raw intensity from gamma rays or scattered X-rays
/// hitting the detector directly; they differ from frame to frame, so they are removed per frame
/// (projection). In line integrals p = -log(I/I0) the same hit is a dark (low) pixel: an
/// intensity (1 + d) times its neighbours' is a line integral log(1 + d) below theirs, whatever
/// their value. For each pixel v with local median m (size x size window, edges replicated, see
/// MedianFilter.h) the deviation is dev = v - m (sign Bright), m - v (Dark) or |v - m| (Both),
/// and the pixel is replaced when
///   absolute mode:      dev > threshold                 (threshold in data units)
///   relative mode:      dev > threshold * |m|           (a fraction, e.g. 0.2: raw counts)
///   line-integral mode: dev > L and iso > L, L = max(log(1 + threshold), kSpreadFactor * s)
/// where s = 1.4826 * max(size x size median of |v - m|, the frame's median of |v - m|) is a
/// robust local spread (the local MAD, floored by the frame's, scaled to a Gaussian's sigma)
/// and iso is how far v lies beyond all its window neighbours (below
/// the lowest for Dark, above the highest for Bright). The line-integral mode takes the same
/// threshold as the relative one (an intensity jump of that fraction: 0.2 -> 0.182 in line
/// integrals), asks the pixel to stand out of its neighbourhood's noise (s) and to be isolated
/// (iso): a thin real feature is a line in a sinogram, with a neighbour of its own value on the
/// next angle, where a zinger is alone. preprocess() runs it on each detector row's sinogram
/// (angle x detector windows); on a single-row stack a projection window would be 1-D.
/// Sign: Bright for raw counts (acquisitions), Dark for line integrals (sinogram stacks), Both
/// where the data kind is unknown (the default). Only replaced pixels change; the rest of the
/// image is bit-identical.
///
/// Threading: parallelFor over frames with ctx.threads workers (each with its own scratch),
/// results independent of the thread count; ctx.stop checked per frame; ctx.progress gets one
/// unit per frame (setTotal is called here).

#include <cstddef>
#include <optional>
#include <string_view>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

enum class ThresholdMode { Absolute, Relative, LineIntegral };

/// Which side of the median an outlier lies on.
enum class OutlierSign { Both, Bright, Dark };

/// The line-integral mode's factor on the robust local spread (5 sigma of Gaussian noise).
inline constexpr double kSpreadFactor = 5.0;

struct ZingerOptions {
    int size = 3;            ///< median window edge in pixels: odd, 3..31
    double threshold = 0.2;  ///< > 0; data units (Absolute) or a fraction (Relative, LineIntegral)
    ThresholdMode mode = ThresholdMode::Relative;
    OutlierSign sign = OutlierSign::Both;
    Status validate() const;
};

/// "both", "bright", "dark"; and back (nullopt for another name).
const char* outlierSignName(OutlierSign sign);
std::optional<OutlierSign> outlierSignFromName(std::string_view name);

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
