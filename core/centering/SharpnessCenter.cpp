// Sharpness sweep (CenterOfRotation.h): FBP of one slice per trial centre.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/centering/CenterOfRotation.h"
#include "core/centering/CenterSupport.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo {
namespace {

constexpr int kBins = 256;

/// Pixels of an n x n image inside the disc of @p radius pixels about the image centre.
std::vector<char> discMask(std::size_t n, double radius) {
    std::vector<char> mask(n * n);
    const double c = 0.5 * static_cast<double>(n - 1);
    for (std::size_t y = 0; y < n; ++y)
        for (std::size_t x = 0; x < n; ++x) {
            const double dx = static_cast<double>(x) - c, dy = static_cast<double>(y) - c;
            mask[y * n + x] = dx * dx + dy * dy <= radius * radius ? 1 : 0;
        }
    return mask;
}

double entropy(View2<const float> img, const std::vector<char>& mask, double lo, double hi) {
    std::vector<double> hist(kBins, 0.0);
    double count = 0;
    const double scale = kBins / (hi - lo);
    for (std::size_t y = 0; y < img.rows(); ++y)
        for (std::size_t x = 0; x < img.cols(); ++x) {
            if (!mask[y * img.cols() + x]) continue;
            const auto bin = static_cast<long>(std::floor((img(y, x) - lo) * scale));
            hist[static_cast<std::size_t>(std::clamp(bin, 0L, static_cast<long>(kBins - 1)))] += 1;
            count += 1;
        }
    double h = 0;
    for (double v : hist)
        if (v > 0) h -= v / count * std::log(v / count);
    return h;
}

double absoluteSum(View2<const float> img, const std::vector<char>& mask) {
    double sum = 0;
    for (std::size_t y = 0; y < img.rows(); ++y)
        for (std::size_t x = 0; x < img.cols(); ++x)
            if (mask[y * img.cols() + x]) sum += std::fabs(img(y, x));
    return sum;
}

}  // namespace

Status SharpnessSweepOptions::validate() const {
    if (!(step > 0) || !std::isfinite(step))
        return invalidArgument("sharpness sweep: the step must be positive");
    if (!(searchRadius >= 0)) return invalidArgument("sharpness sweep: the search radius must be >= 0");
    return filter.validate();
}

Result<SharpnessMetric> parseSharpnessMetric(const std::string& name) {
    if (name == "entropy") return SharpnessMetric::Entropy;
    if (name == "l1") return SharpnessMetric::AbsoluteSum;
    return invalidArgument("unknown sharpness metric '" + name + "' (known: entropy, l1)");
}

Result<CenterEstimate> estimateCenterSharpness(View2<const float> sinogram,
                                               std::span<const double> angles,
                                               const SharpnessSweepOptions& options,
                                               const ExecContext& ctx) {
    const std::string method = options.metric == SharpnessMetric::Entropy ? "sharpness-entropy"
                                                                          : "sharpness-l1";
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(checkSinogram(sinogram, angles, 2, 8, method));
    const std::size_t width = sinogram.cols();
    TOMO_ASSIGN_OR_RETURN(SearchRange range,
                          resolveSearch(options.searchCenter, options.searchRadius, width, method));
    if (range.radius < 2 * options.step)
        return invalidArgument(method + ": the search radius must be at least two steps");
    std::unique_ptr<BackProjector> owned;
    BackProjector* bp = options.backProjector;
    if (!bp) {
        TOMO_ASSIGN_OR_RETURN(owned, makeCpuSimdBackProjector(Interpolation::Linear, bestCpuIsa()));
        bp = owned.get();
    }
    TOMO_ASSIGN_OR_RETURN(Sinograms sino, Sinograms::create(1, sinogram.rows(), width));
    for (std::size_t p = 0; p < sinogram.rows(); ++p)
        std::copy_n(sinogram.row(p).data(), width, sino.row(0, p).data());
    ParallelGeometry::Params params;
    params.angles.assign(angles.begin(), angles.end());
    params.detectorCount = static_cast<int>(width);
    params.centerOfRotation = range.center;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(params));
    const VolumeGeometry vol = VolumeGeometry::forDetector(geom, static_cast<int>(width));
    const double w1 = static_cast<double>(width - 1);
    const double fov = std::min(range.center - range.radius, w1 - range.center - range.radius);
    const std::vector<char> mask = discMask(width, std::max(2.0, fov));
    FbpOptions fbp;
    fbp.filter = options.filter;
    ExecContext sub{ctx.threads, ctx.stop, nullptr};
    Volume img;

    const auto coarse = static_cast<std::size_t>(std::floor(2 * range.radius / options.step)) + 1;
    const std::size_t fine = 11;
    if (ctx.progress) ctx.progress->setTotal(coarse + fine + 1);
    // Histogram range from the reconstruction at the search centre.
    TOMO_RETURN_IF_ERROR(reconstructFbp(sino, geom, vol, *bp, fbp, img, sub));
    double lo = 1e300, hi = -1e300;
    for (std::size_t y = 0; y < width; ++y)
        for (std::size_t x = 0; x < width; ++x)
            if (mask[y * width + x]) {
                lo = std::min(lo, static_cast<double>(img(0, y, x)));
                hi = std::max(hi, static_cast<double>(img(0, y, x)));
            }
    if (!(hi > lo)) return invalidData(method + ": the reconstruction is constant (empty sinogram?)");
    if (ctx.progress) ctx.progress->advance();

    auto evaluate = [&](double c) -> Result<double> {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        TOMO_RETURN_IF_ERROR(reconstructFbp(sino, geom.withCenter(c), vol, *bp, fbp, img, sub));
        if (ctx.progress) ctx.progress->advance();
        return options.metric == SharpnessMetric::Entropy ? entropy(img.plane(0), mask, lo, hi)
                                                          : absoluteSum(img.plane(0), mask);
    };
    CenterEstimate est;
    est.method = method;
    for (std::size_t i = 0; i < coarse; ++i) {
        const double c = range.center - range.radius + static_cast<double>(i) * options.step;
        TOMO_ASSIGN_OR_RETURN(double m, evaluate(c));
        est.trialCenters.push_back(c);
        est.metric.push_back(m);
    }
    const auto best = static_cast<std::size_t>(
        std::min_element(est.metric.begin(), est.metric.end()) - est.metric.begin());
    std::vector<double> fx, fy;
    const double fineStep = options.step / 5;
    for (std::size_t i = 0; i < fine; ++i) {
        const double c = est.trialCenters[best] + (static_cast<double>(i) - 5.0) * fineStep;
        TOMO_ASSIGN_OR_RETURN(double m, evaluate(std::clamp(c, 0.0, w1)));
        fx.push_back(c);
        fy.push_back(m);
    }
    const auto fbest = static_cast<std::size_t>(std::min_element(fy.begin(), fy.end()) - fy.begin());
    est.center = parabolicMinimum(fx, fy, fbest);
    est.confidence = minimumConfidence(est.trialCenters, est.metric);
    return est;
}

}  // namespace tomo
