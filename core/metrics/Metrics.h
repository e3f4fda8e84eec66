#pragma once
/// @file Metrics.h
/// @brief Image quality metrics against a reference: RMSE, PSNR, SSIM, maximum error, and line
/// profiles. All accumulate in double precision over the logical elements of 2-D views.

#include <optional>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Optional restriction of a metric to a region (same shape as the images, nonzero = inside).
using Mask = View2<const float>;

/// Root-mean-square error of @p image against @p reference (shapes must match).
Result<double> rmse(View2<const float> image, View2<const float> reference,
                    std::optional<Mask> mask = std::nullopt);
/// Maximum absolute difference.
Result<double> maxAbsError(View2<const float> image, View2<const float> reference,
                           std::optional<Mask> mask = std::nullopt);
/// Peak signal-to-noise ratio in dB: 20 log10(dataRange / RMSE); dataRange <= 0 means
/// max(reference) - min(reference). +inf when the images are identical.
Result<double> psnr(View2<const float> image, View2<const float> reference,
                    double dataRange = 0.0);
/// Mean structural similarity (Wang, Bovik, Sheikh, Simoncelli, IEEE TIP 13(4), 2004,
/// doi:10.1109/TIP.2003.819861): 11x11 Gaussian window, sigma 1.5, K1 = 0.01, K2 = 0.03,
/// L = dataRange (as for psnr), averaged over windows fully inside the image.
Result<double> ssim(View2<const float> image, View2<const float> reference,
                    double dataRange = 0.0);

/// Values sampled with bilinear interpolation at @p samples evenly spaced points from pixel
/// (x0, y0) to (x1, y1) (pixel-index coordinates: x = column, y = row), endpoints included.
Result<std::vector<double>> lineProfile(View2<const float> image, double x0, double y0, double x1,
                                        double y1, int samples);

/// All scalar metrics at once (for the CLI and the GUI).
struct ImageMetrics {
    double rmse = 0, psnr = 0, ssim = 0, maxAbsError = 0;
};
Result<ImageMetrics> compareImages(View2<const float> image, View2<const float> reference,
                                   double dataRange = 0.0);

}  // namespace tomo
