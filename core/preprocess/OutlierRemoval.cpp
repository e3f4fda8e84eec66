#include "core/preprocess/OutlierRemoval.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/base/Parallel.h"
#include "core/preprocess/MedianFilter.h"
#include "core/preprocess/PreprocessSupport.h"

namespace tomo {
namespace {

/// Replaces outliers of @p image using @p median (same shape); returns the count.
std::size_t replaceOutliers(View2<float> image, View2<const float> median, const ZingerOptions& o) {
    std::size_t count = 0;
    const double t = o.threshold;
    for (std::size_t r = 0; r < image.rows(); ++r) {
        auto v = image.row(r);
        auto m = median.row(r);
        for (std::size_t c = 0; c < v.size(); ++c) {
            const double diff = static_cast<double>(v[c]) - m[c];
            const double limit = o.mode == ThresholdMode::Absolute ? t : t * std::fabs(m[c]);
            const double dev = o.brightOnly ? diff : std::fabs(diff);
            if (dev > limit) {
                v[c] = m[c];
                ++count;
            }
        }
    }
    return count;
}

}  // namespace

Status ZingerOptions::validate() const {
    if (size < 3 || size > 31 || size % 2 == 0)
        return invalidArgument("zinger removal: the median window must be odd and in [3, 31] (got " +
                               std::to_string(size) + ")");
    if (!(threshold > 0) || !std::isfinite(threshold))
        return invalidArgument("zinger removal: the threshold must be positive (got " +
                               std::to_string(threshold) + ")");
    return Status::ok();
}

Result<std::size_t> removeZingers(View2<float> image, const ZingerOptions& options) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(checkAllFinite(View2<const float>(image), "zinger removal input"));
    TOMO_ASSIGN_OR_RETURN(Array3<float> median, Array3<float>::create(1, image.rows(), image.cols()));
    TOMO_RETURN_IF_ERROR(medianFilter2d(image, median.plane(0), options.size));
    return replaceOutliers(image, median.plane(0), options);
}

Result<ZingerSummary> removeZingers(Array3<float>& frames, const ZingerOptions& options,
                                    const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(checkAllFinite(frames, "zinger removal input"));
    const std::size_t n = frames.dim(0);
    const int workers = std::max(1, std::min(resolveThreads(ctx.threads), static_cast<int>(n)));
    std::vector<Array3<float>> scratch;
    for (int w = 0; w < workers; ++w) {
        TOMO_ASSIGN_OR_RETURN(Array3<float> s, Array3<float>::create(1, frames.dim(1), frames.dim(2)));
        scratch.push_back(std::move(s));
    }
    std::vector<std::size_t> counts(n, 0);
    std::vector<Status> errors(n);
    if (ctx.progress) ctx.progress->setTotal(n);
    TOMO_RETURN_IF_ERROR(parallelFor(n, workers, ctx.stop, [&](std::size_t i, int w) {
        View2<float> med = scratch[static_cast<std::size_t>(w)].plane(0);
        errors[i] = medianFilter2d(frames.plane(i), med, options.size);
        if (errors[i].isOk()) counts[i] = replaceOutliers(frames.plane(i), med, options);
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
