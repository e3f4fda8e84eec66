#include "core/metrics/Metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace tomo {
namespace {

constexpr std::size_t kSsimWindow = 11;  ///< Wang et al.: 11 x 11 Gaussian window
constexpr double kSsimSigma = 1.5;       ///< its standard deviation in pixels
constexpr double kSsimK1 = 0.01;
constexpr double kSsimK2 = 0.03;

std::string shapeText(std::size_t rows, std::size_t cols) {
    return std::to_string(rows) + "x" + std::to_string(cols);
}

Status checkShapes(View2<const float> image, View2<const float> reference,
                   const std::optional<Mask>& mask = std::nullopt) {
    if (image.rows() != reference.rows() || image.cols() != reference.cols())
        return invalidArgument("image is " + shapeText(image.rows(), image.cols()) +
                               " (rows x cols) but the reference is " +
                               shapeText(reference.rows(), reference.cols()));
    if (image.rows() == 0 || image.cols() == 0)
        return invalidArgument("images are empty (" + shapeText(image.rows(), image.cols()) + ")");
    if (mask && (mask->rows() != image.rows() || mask->cols() != image.cols()))
        return invalidArgument("mask is " + shapeText(mask->rows(), mask->cols()) +
                               " but the images are " + shapeText(image.rows(), image.cols()));
    return Status::ok();
}

/// Calls fn(difference) for every pixel inside the mask; returns the number of pixels visited.
template <class F>
std::size_t forEachDifference(View2<const float> image, View2<const float> reference,
                              const std::optional<Mask>& mask, F&& fn) {
    std::size_t count = 0;
    for (std::size_t r = 0; r < image.rows(); ++r)
        for (std::size_t c = 0; c < image.cols(); ++c) {
            if (mask && (*mask)(r, c) == 0.0f) continue;
            fn(static_cast<double>(image(r, c)) - static_cast<double>(reference(r, c)));
            ++count;
        }
    return count;
}

/// dataRange, or max(reference) - min(reference) when dataRange <= 0.
Result<double> resolveRange(View2<const float> reference, double dataRange) {
    if (dataRange > 0) {
        if (!std::isfinite(dataRange)) return invalidArgument("data range must be finite");
        return dataRange;
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t r = 0; r < reference.rows(); ++r)
        for (float v : reference.row(r)) {
            lo = std::min(lo, static_cast<double>(v));
            hi = std::max(hi, static_cast<double>(v));
        }
    if (!(hi > lo))
        return invalidArgument(
            "the reference is constant, so its data range is 0: give the "
            "data range explicitly");
    return hi - lo;
}

/// Normalised 1-D Gaussian; the 2-D window is its outer product.
std::vector<double> gaussianKernel() {
    std::vector<double> w(kSsimWindow);
    double sum = 0.0;
    for (std::size_t i = 0; i < kSsimWindow; ++i) {
        const double d = static_cast<double>(i) - static_cast<double>(kSsimWindow / 2);
        w[i] = std::exp(-d * d / (2.0 * kSsimSigma * kSsimSigma));
        sum += w[i];
    }
    for (double& v : w)
        v /= sum;
    return w;
}

}  // namespace

Result<double> dataRange(View2<const float> reference) {
    return resolveRange(reference, 0.0);
}

Result<double> rmse(View2<const float> image, View2<const float> reference,
                    std::optional<Mask> mask) {
    TOMO_RETURN_IF_ERROR(checkShapes(image, reference, mask));
    double sum = 0.0;
    std::size_t n = forEachDifference(image, reference, mask, [&](double d) { sum += d * d; });
    if (n == 0) return invalidArgument("the mask selects no pixel");
    return std::sqrt(sum / static_cast<double>(n));
}

Result<double> maxAbsError(View2<const float> image, View2<const float> reference,
                           std::optional<Mask> mask) {
    TOMO_RETURN_IF_ERROR(checkShapes(image, reference, mask));
    double worst = 0.0;
    std::size_t n = forEachDifference(image, reference, mask,
                                      [&](double d) { worst = std::max(worst, std::abs(d)); });
    if (n == 0) return invalidArgument("the mask selects no pixel");
    return worst;
}

Result<double> psnr(View2<const float> image, View2<const float> reference, double dataRange) {
    TOMO_ASSIGN_OR_RETURN(double error, rmse(image, reference));
    TOMO_ASSIGN_OR_RETURN(double range, resolveRange(reference, dataRange));
    if (error == 0.0) return std::numeric_limits<double>::infinity();
    return 20.0 * std::log10(range / error);
}

Result<double> ssim(View2<const float> image, View2<const float> reference, double dataRange,
                    std::optional<Mask> mask) {
    TOMO_RETURN_IF_ERROR(checkShapes(image, reference, mask));
    const std::size_t rows = image.rows(), cols = image.cols(), win = kSsimWindow;
    if (rows < win || cols < win)
        return invalidArgument("SSIM needs images of at least 11x11 pixels (got " +
                               shapeText(rows, cols) + ")");
    TOMO_ASSIGN_OR_RETURN(double range, resolveRange(reference, dataRange));
    const double c1 = (kSsimK1 * range) * (kSsimK1 * range);
    const double c2 = (kSsimK2 * range) * (kSsimK2 * range);
    const std::vector<double> w = gaussianKernel();

    // Separable 'valid' filtering of x, y, x^2, y^2, xy: horizontal pass into h (rows x outCols,
    // 5 moments per pixel), then a vertical pass per output window.
    const std::size_t outRows = rows - win + 1, outCols = cols - win + 1;
    std::vector<double> h(rows * outCols * 5, 0.0);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < outCols; ++c) {
            double m[5] = {0, 0, 0, 0, 0};
            for (std::size_t k = 0; k < win; ++k) {
                const double x = image(r, c + k), y = reference(r, c + k);
                m[0] += w[k] * x;
                m[1] += w[k] * y;
                m[2] += w[k] * x * x;
                m[3] += w[k] * y * y;
                m[4] += w[k] * x * y;
            }
            std::copy(m, m + 5, h.begin() + static_cast<std::ptrdiff_t>((r * outCols + c) * 5));
        }
    // With a mask: a summed-area table of the pixels outside it, so that a window is taken only
    // when it lies wholly inside (no value outside the mask reaches the mean).
    std::vector<std::size_t> outside;
    if (mask) {
        outside.assign((rows + 1) * (cols + 1), 0);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                outside[(r + 1) * (cols + 1) + c + 1] =
                    ((*mask)(r, c) == 0.0f) + outside[r * (cols + 1) + c + 1] +
                    outside[(r + 1) * (cols + 1) + c] - outside[r * (cols + 1) + c];
    }
    auto windowOutside = [&](std::size_t r, std::size_t c) {
        const std::size_t stride = cols + 1;
        return outside[(r + win) * stride + c + win] - outside[r * stride + c + win] -
               outside[(r + win) * stride + c] + outside[r * stride + c];
    };
    double total = 0.0;
    std::size_t windows = 0;
    for (std::size_t r = 0; r < outRows; ++r)
        for (std::size_t c = 0; c < outCols; ++c) {
            if (mask && windowOutside(r, c) != 0) continue;
            ++windows;
            double m[5] = {0, 0, 0, 0, 0};
            for (std::size_t k = 0; k < win; ++k) {
                const double* src = &h[((r + k) * outCols + c) * 5];
                for (int q = 0; q < 5; ++q)
                    m[q] += w[k] * src[q];
            }
            const double mx = m[0], my = m[1];
            const double vx = m[2] - mx * mx, vy = m[3] - my * my, cxy = m[4] - mx * my;
            total += ((2.0 * mx * my + c1) * (2.0 * cxy + c2)) /
                     ((mx * mx + my * my + c1) * (vx + vy + c2));
        }
    if (windows == 0) return invalidArgument("no 11x11 SSIM window lies wholly inside the mask");
    return total / static_cast<double>(windows);
}

Result<std::vector<double>> lineProfile(View2<const float> image, double x0, double y0, double x1,
                                        double y1, int samples) {
    if (image.rows() == 0 || image.cols() == 0) return invalidArgument("the image is empty");
    if (samples < 2)
        return invalidArgument("a line profile needs at least 2 samples (got " +
                               std::to_string(samples) + ")");
    const double maxX = static_cast<double>(image.cols() - 1);
    const double maxY = static_cast<double>(image.rows() - 1);
    for (double v : {x0, y0, x1, y1})
        if (!std::isfinite(v)) return invalidArgument("line profile end points must be finite");
    if (std::min(x0, x1) < 0 || std::max(x0, x1) > maxX || std::min(y0, y1) < 0 ||
        std::max(y0, y1) > maxY)
        return invalidArgument("line profile from (" + std::to_string(x0) + ", " +
                               std::to_string(y0) + ") to (" + std::to_string(x1) + ", " +
                               std::to_string(y1) + ") leaves the " +
                               shapeText(image.rows(), image.cols()) + " image");
    std::vector<double> out(static_cast<std::size_t>(samples));
    for (int i = 0; i < samples; ++i) {
        const double f = static_cast<double>(i) / (samples - 1);
        const double x = x0 + (x1 - x0) * f, y = y0 + (y1 - y0) * f;
        // Base pixel clamped so that (ix + 1, iy + 1) exists, or stays 0 on a 1-pixel axis.
        const auto ix =
            static_cast<std::size_t>(std::clamp(std::floor(x), 0.0, std::max(maxX - 1, 0.0)));
        const auto iy =
            static_cast<std::size_t>(std::clamp(std::floor(y), 0.0, std::max(maxY - 1, 0.0)));
        const std::size_t ix1 = std::min(ix + 1, image.cols() - 1);
        const std::size_t iy1 = std::min(iy + 1, image.rows() - 1);
        const double fx = x - static_cast<double>(ix), fy = y - static_cast<double>(iy);
        const double top = (1 - fx) * image(iy, ix) + fx * image(iy, ix1);
        const double bottom = (1 - fx) * image(iy1, ix) + fx * image(iy1, ix1);
        out[static_cast<std::size_t>(i)] = (1 - fy) * top + fy * bottom;
    }
    return out;
}

Result<ImageMetrics> compareImages(View2<const float> image, View2<const float> reference,
                                   double dataRange) {
    ImageMetrics m;
    TOMO_ASSIGN_OR_RETURN(m.rmse, rmse(image, reference));
    TOMO_ASSIGN_OR_RETURN(m.maxAbsError, maxAbsError(image, reference));
    TOMO_ASSIGN_OR_RETURN(m.psnr, psnr(image, reference, dataRange));
    if (image.rows() < kSsimWindow || image.cols() < kSsimWindow) {
        m.ssim = std::numeric_limits<double>::quiet_NaN();
    } else {
        TOMO_ASSIGN_OR_RETURN(m.ssim, ssim(image, reference, dataRange));
    }
    return m;
}

Result<ImageMetrics> compareImages(View2<const float> image, View2<const float> reference,
                                   double dataRange, Mask mask) {
    TOMO_RETURN_IF_ERROR(checkShapes(image, reference, mask));
    if (dataRange <= 0) {  // the reference's range inside the mask
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::size_t r = 0; r < reference.rows(); ++r)
            for (std::size_t c = 0; c < reference.cols(); ++c)
                if (mask(r, c) != 0.0f) {
                    lo = std::min(lo, static_cast<double>(reference(r, c)));
                    hi = std::max(hi, static_cast<double>(reference(r, c)));
                }
        if (!(hi > lo))
            return invalidArgument(
                "the reference is constant inside the mask: give the data range");
        dataRange = hi - lo;
    }
    ImageMetrics m;
    TOMO_ASSIGN_OR_RETURN(m.rmse, rmse(image, reference, mask));
    TOMO_ASSIGN_OR_RETURN(m.maxAbsError, maxAbsError(image, reference, mask));
    m.psnr = m.rmse == 0.0 ? std::numeric_limits<double>::infinity()
                           : 20.0 * std::log10(dataRange / m.rmse);
    if (image.rows() < kSsimWindow || image.cols() < kSsimWindow) {
        m.ssim = std::numeric_limits<double>::quiet_NaN();
    } else {
        Result<double> s = ssim(image, reference, dataRange, mask);
        m.ssim = s ? *s : std::numeric_limits<double>::quiet_NaN();
    }
    return m;
}

std::vector<float> discMask(std::size_t rows, std::size_t cols, double centerX, double centerY,
                            double radius) {
    std::vector<float> mask(rows * cols, 0.0f);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            if (std::hypot(static_cast<double>(c) - centerX, static_cast<double>(r) - centerY) <=
                radius)
                mask[r * cols + c] = 1.0f;
    return mask;
}

}  // namespace tomo
