#pragma once
/// @file Metrics.h
/// @brief Image quality metrics against a reference: RMSE, PSNR, SSIM, maximum error, and line
/// profiles. All accumulate in double precision over the logical elements of 2-D views.
///
/// Conventions: views are rows x cols (row 0 = top of the image, docs/geometry.md); values are
/// in the image's own unit (e.g. attenuation per mm), and so are RMSE, maximum error and the data
/// range. `image` and `reference` must have the same shape and at least one pixel; a mismatch
/// is an InvalidArgument naming both shapes. NaN pixels propagate into the results.
///
/// Threading: pure functions of their inputs, safe to call concurrently; single-threaded.

#include <optional>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Optional restriction of a metric to a region (same shape as the images, nonzero = inside).
using Mask = View2<const float>;

/// Root-mean-square error of @p image against @p reference (shapes must match): sqrt(mean of
/// (image - reference)^2) over the pixels inside @p mask (all when absent). InvalidArgument when
/// the mask selects no pixel.
Result<double> rmse(View2<const float> image, View2<const float> reference,
                    std::optional<Mask> mask = std::nullopt);
/// Maximum absolute difference (over the mask when given).
Result<double> maxAbsError(View2<const float> image, View2<const float> reference,
                           std::optional<Mask> mask = std::nullopt);
/// max(reference) - min(reference): the data range psnr and ssim take when none is given;
/// InvalidArgument when the reference is constant.
Result<double> dataRange(View2<const float> reference);
/// Peak signal-to-noise ratio in dB: 20 log10(dataRange / RMSE); dataRange <= 0 means
/// max(reference) - min(reference) (InvalidArgument when the reference is constant).
/// +inf when the images are identical.
Result<double> psnr(View2<const float> image, View2<const float> reference, double dataRange = 0.0);
/// Mean structural similarity (Wang, Bovik, Sheikh, Simoncelli, IEEE TIP 13(4), 2004,
/// doi:10.1109/TIP.2003.819861): 11x11 Gaussian window, sigma 1.5 (normalised to sum 1),
/// K1 = 0.01, K2 = 0.03, L = dataRange (as for psnr), averaged over windows fully inside the
/// image ("valid" positions, as the authors' ssim_index.m). Per window, with weighted means
/// mu, variances sigma^2 = E[x^2] - mu^2 and covariance sigma_xy = E[xy] - mu_x mu_y:
///   SSIM = (2 mu_x mu_y + C1)(2 sigma_xy + C2) /
///          ((mu_x^2 + mu_y^2 + C1)(sigma_x^2 + sigma_y^2 + C2))
/// with C1 = (K1 L)^2, C2 = (K2 L)^2. 1 for identical images. Images smaller than 11x11 give
/// InvalidArgument. Separable filtering: O(rows x cols x 22).
/// With @p mask: the mean over the windows that lie wholly inside it (InvalidArgument when
/// none does).
Result<double> ssim(View2<const float> image, View2<const float> reference, double dataRange = 0.0,
                    std::optional<Mask> mask = std::nullopt);

/// Values sampled with bilinear interpolation at @p samples evenly spaced points from pixel
/// (x0, y0) to (x1, y1) (pixel-index coordinates: x = column, y = row), endpoints included.
/// Needs samples >= 2 and both end points inside [0, cols-1] x [0, rows-1] (InvalidArgument
/// otherwise). Exact for images that are linear in x and y.
Result<std::vector<double>> lineProfile(View2<const float> image, double x0, double y0, double x1,
                                        double y1, int samples);

/// All scalar metrics at once (for the CLI and the GUI).
struct ImageMetrics {
    double rmse = 0, psnr = 0, ssim = 0, maxAbsError = 0;
};
/// rmse, psnr, ssim and maxAbsError with the rules above; `ssim` is NaN (not an error) when the
/// images are smaller than the 11x11 SSIM window.
Result<ImageMetrics> compareImages(View2<const float> image, View2<const float> reference,
                                   double dataRange = 0.0);
/// As compareImages, restricted to @p mask (nonzero = inside; e.g. the field of view, the disc
/// every projection covers, outside which a reconstruction is not determined by the data):
/// RMSE, maximum error and PSNR over its pixels, SSIM over the windows wholly inside it (NaN
/// when none is), and a
/// data range (when not given) of the reference's values inside it.
Result<ImageMetrics> compareImages(View2<const float> image, View2<const float> reference,
                                   double dataRange, Mask mask);

/// A mask of @p rows x @p cols that is 1 at the pixels whose centre lies within @p radius of
/// (@p centerX, @p centerY) (pixel-index coordinates: x = column, y = row) and 0 elsewhere.
std::vector<float> discMask(std::size_t rows, std::size_t cols, double centerX, double centerY,
                            double radius);

}  // namespace tomo
