#include "core/preprocess/OutlierRemoval.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/base/Parallel.h"
#include "core/preprocess/MedianFilter.h"
#include "core/preprocess/PreprocessSupport.h"

namespace tomo {
namespace {

double deviation(double v, double m, OutlierSign sign) {
    switch (sign) {
        case OutlierSign::Bright:
            return v - m;
        case OutlierSign::Dark:
            return m - v;
        case OutlierSign::Both:
            break;
    }
    return std::fabs(v - m);
}

/// The planes one frame needs: its median, and for the line-integral mode |v - m| and the
/// median of that (the local MAD).
std::size_t scratchPlanes(const ZingerOptions& o) {
    return o.mode == ThresholdMode::LineIntegral ? 3 : 1;
}

/// Replaces outliers of @p image using @p median (same shape) in the absolute and relative
/// modes; returns the count.
std::size_t replaceOutliers(View2<float> image, View2<const float> median, const ZingerOptions& o) {
    std::size_t count = 0;
    const double t = o.threshold;
    for (std::size_t r = 0; r < image.rows(); ++r) {
        auto v = image.row(r);
        auto m = median.row(r);
        for (std::size_t c = 0; c < v.size(); ++c) {
            const double dev = deviation(v[c], m[c], o.sign);
            const double limit = o.mode == ThresholdMode::Relative ? t * std::fabs(m[c]) : t;
            if (dev > limit) {
                v[c] = m[c];
                ++count;
            }
        }
    }
    return count;
}

/// How far (r, c) of @p in lies outside all its neighbours: below the lowest (Dark), above the
/// highest (Bright), the larger of the two (Both). Neighbours: the other pixels of the 3 x 3
/// window inside the image (a replicated edge would repeat the pixel itself). A zinger stands
/// alone; a thin real feature is a line in a sinogram, with a neighbour of its own depth.
double isolation(View2<const float> in, std::size_t r, std::size_t c, OutlierSign sign) {
    const std::size_t r0 = r > 0 ? r - 1 : 0, r1 = std::min(in.rows() - 1, r + 1);
    const std::size_t c0 = c > 0 ? c - 1 : 0, c1 = std::min(in.cols() - 1, c + 1);
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    for (std::size_t rr = r0; rr <= r1; ++rr)
        for (std::size_t cc = c0; cc <= c1; ++cc) {
            if (rr == r && cc == c) continue;
            lo = std::min(lo, in.row(rr)[cc]);
            hi = std::max(hi, in.row(rr)[cc]);
        }
    if (std::isinf(lo)) return 0.0;  // a single pixel
    const double v = in.row(r)[c];
    if (sign == OutlierSign::Dark) return lo - v;
    if (sign == OutlierSign::Bright) return v - hi;
    return std::max(lo - v, v - hi);
}

/// The line-integral mode (OutlierRemoval.h) on @p image with its @p median, its local MAD
/// @p mad and a copy @p original of it (neighbours are read there); returns the count.
std::size_t replaceLineIntegralOutliers(View2<float> image, View2<const float> original,
                                        View2<const float> median, View2<const float> mad,
                                        double frameMad, const ZingerOptions& o) {
    std::size_t count = 0;
    const double jump = std::log1p(o.threshold);  // an intensity (1 + t) times, in -log units
    for (std::size_t r = 0; r < image.rows(); ++r) {
        auto v = image.row(r);
        auto m = median.row(r);
        auto s = mad.row(r);
        for (std::size_t c = 0; c < v.size(); ++c) {
            const double spread = 1.4826 * std::max<double>(s[c], frameMad);
            const double limit = std::max(jump, kSpreadFactor * spread);
            if (deviation(v[c], m[c], o.sign) > limit &&
                isolation(original, r, c, o.sign) > limit) {
                v[c] = m[c];
                ++count;
            }
        }
    }
    return count;
}

/// Removes the outliers of one frame with @p scratch (scratchPlanes(o) planes of its shape).
Result<std::size_t> removeFrameZingers(View2<float> image, Array3<float>& scratch,
                                       const ZingerOptions& o) {
    View2<float> median = scratch.plane(0);
    TOMO_RETURN_IF_ERROR(medianFilter2d(image, median, o.size));
    if (o.mode != ThresholdMode::LineIntegral) return replaceOutliers(image, median, o);
    View2<float> copy = scratch.plane(1), mad = scratch.plane(2);
    for (std::size_t r = 0; r < image.rows(); ++r) {
        auto v = image.row(r);
        auto m = median.row(r);
        auto d = copy.row(r);
        for (std::size_t c = 0; c < v.size(); ++c)
            d[c] = std::fabs(v[c] - m[c]);
    }
    TOMO_RETURN_IF_ERROR(medianFilter2d(copy, mad, o.size));
    // The frame's MAD: a floor under the local one, which 9 samples make noisy.
    std::vector<float> all;
    all.reserve(image.rows() * image.cols());
    for (std::size_t r = 0; r < image.rows(); ++r)
        all.insert(all.end(), copy.row(r).begin(), copy.row(r).end());
    auto middle = all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2);
    std::nth_element(all.begin(), middle, all.end());
    const double frameMad = *middle;
    for (std::size_t r = 0; r < image.rows(); ++r) {
        auto v = image.row(r);
        std::copy(v.begin(), v.end(), copy.row(r).begin());
    }
    return replaceLineIntegralOutliers(image, copy, median, mad, frameMad, o);
}

}  // namespace

Status ZingerOptions::validate() const {
    if (size < 3 || size > 31 || size % 2 == 0)
        return invalidArgument(
            "zinger removal: the median window must be odd and in [3, 31] (got " +
            std::to_string(size) + ")");
    if (!(threshold > 0) || !std::isfinite(threshold))
        return invalidArgument("zinger removal: the threshold must be positive (got " +
                               std::to_string(threshold) + ")");
    return Status::ok();
}

const char* outlierSignName(OutlierSign sign) {
    switch (sign) {
        case OutlierSign::Bright:
            return "bright";
        case OutlierSign::Dark:
            return "dark";
        case OutlierSign::Both:
            break;
    }
    return "both";
}

std::optional<OutlierSign> outlierSignFromName(std::string_view name) {
    for (OutlierSign s : {OutlierSign::Both, OutlierSign::Bright, OutlierSign::Dark})
        if (name == outlierSignName(s)) return s;
    return std::nullopt;
}

Result<std::size_t> removeZingers(View2<float> image, const ZingerOptions& options) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(checkAllFinite(View2<const float>(image), "zinger removal input"));
    TOMO_ASSIGN_OR_RETURN(Array3<float> scratch, Array3<float>::create(scratchPlanes(options),
                                                                       image.rows(), image.cols()));
    return removeFrameZingers(image, scratch, options);
}

Result<ZingerSummary> removeZingers(Array3<float>& frames, const ZingerOptions& options,
                                    const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(checkAllFinite(frames, "zinger removal input"));
    const std::size_t n = frames.dim(0);
    const int workers = std::max(1, std::min(resolveThreads(ctx.threads), static_cast<int>(n)));
    std::vector<Array3<float>> scratch;
    for (int w = 0; w < workers; ++w) {
        TOMO_ASSIGN_OR_RETURN(Array3<float> s, Array3<float>::create(scratchPlanes(options),
                                                                     frames.dim(1), frames.dim(2)));
        scratch.push_back(std::move(s));
    }
    std::vector<std::size_t> counts(n, 0);
    std::vector<Status> errors(n);
    if (ctx.progress) ctx.progress->setTotal(n);
    TOMO_RETURN_IF_ERROR(parallelFor(n, workers, ctx.stop, [&](std::size_t i, int w) {
        auto replaced =
            removeFrameZingers(frames.plane(i), scratch[static_cast<std::size_t>(w)], options);
        if (replaced)
            counts[i] = replaced.value();
        else
            errors[i] = replaced.status();
        if (ctx.progress) ctx.progress->advance();
    }));
    ZingerSummary s;
    for (std::size_t i = 0; i < n; ++i) {
        TOMO_RETURN_IF_ERROR(errors[i]);
        s.replaced += counts[i];
    }
    return s;
}

const char* zingerMedianBackend() {
    return medianFilterBackendName();
}

}  // namespace tomo
