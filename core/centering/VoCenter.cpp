// Vo's Fourier metric (CenterOfRotation.h).
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "core/base/Parallel.h"
#include "core/centering/CenterOfRotation.h"
#include "core/centering/CenterSupport.h"
#include "core/preprocess/AnyLengthFft.h"

namespace tomo {
namespace {

constexpr const char* kMethod = "vo-fourier";

/// The masked 2-D spectra of the top (sinogram) and bottom (mirrored sinogram) halves of the
/// stacked 360-degree sinogram: metric(s) = mean |u + exp(-2 pi i k s / W) v| over the mask.
struct MaskedSpectra {
    std::vector<std::complex<double>> u, v;
    std::vector<std::size_t> k;  ///< detector frequency bin of each entry
    std::size_t width = 0;

    double metric(double shift) const {
        // The phase ramp per detector frequency, then one complex multiply-add per entry.
        std::vector<std::complex<double>> ramp(width);
        const double w = -2.0 * std::numbers::pi * shift / static_cast<double>(width);
        for (std::size_t j = 0; j < width; ++j) {
            const double a = w * static_cast<double>(signedFrequency(j, width));
            ramp[j] = {std::cos(a), std::sin(a)};
        }
        double sum = 0;
        for (std::size_t e = 0; e < u.size(); ++e)
            sum += std::abs(u[e] + ramp[k[e]] * v[e]);
        return u.empty() ? 0.0 : sum / static_cast<double>(u.size());
    }
};

}  // namespace

Status VoCenterOptions::validate() const {
    if (!(ratio > 0 && ratio <= 1))
        return invalidArgument("vo-fourier: ratio must be in (0, 1] (got " + std::to_string(ratio) + ")");
    if (drop < 0) return invalidArgument("vo-fourier: drop must be >= 0");
    if (!(searchRadius >= 0)) return invalidArgument("vo-fourier: the search radius must be >= 0");
    return Status::ok();
}

Result<CenterEstimate> estimateCenterVo(View2<const float> sino, std::span<const double> angles,
                                        const VoCenterOptions& options, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(checkSinogram(sino, angles, 8, 8, kMethod));
    const std::size_t width = sino.cols(), total = sino.rows();
    TOMO_ASSIGN_OR_RETURN(SearchRange range,
                          resolveSearch(options.searchCenter, options.searchRadius, width, kMethod));
    // The first 180 degrees of uniformly increasing angles.
    const double step = (angles[total - 1] - angles[0]) / static_cast<double>(total - 1);
    if (!(step > 0)) return invalidArgument("vo-fourier: the angles must increase");
    std::size_t n = 0;
    while (n < total && angles[n] - angles[0] < std::numbers::pi - 0.5 * step)
        ++n;
    if (std::fabs(static_cast<double>(n) * step - std::numbers::pi) > 0.5 * step)
        return invalidArgument("vo-fourier: the angles cover " +
                               std::to_string(static_cast<double>(n) * step * 180 / std::numbers::pi) +
                               " degrees; the method needs a scan of (at least) 180 degrees");

    TOMO_ASSIGN_OR_RETURN(AnyLengthFft rowFft, AnyLengthFft::create(width));
    TOMO_ASSIGN_OR_RETURN(AnyLengthFft colFft, AnyLengthFft::create(2 * n));
    AnyLengthFft::Scratch scratch;
    std::vector<std::complex<double>> a(n * width), b(n * width), line(std::max(width, 2 * n));
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t j = 0; j < width; ++j)
            line[j] = sino(p, j);
        rowFft.forward(line.data(), scratch);
        std::copy_n(line.data(), width, a.data() + p * width);
        for (std::size_t j = 0; j < width; ++j)
            line[j] = sino(p, width - 1 - j);
        rowFft.forward(line.data(), scratch);
        std::copy_n(line.data(), width, b.data() + p * width);
    }
    MaskedSpectra spectra;
    spectra.width = width;
    const double radius = 0.5 * options.ratio * static_cast<double>(width);
    const long drop = std::min<long>(options.drop, static_cast<long>(std::ceil(0.1 * static_cast<double>(n))));
    const double slope = static_cast<double>(width) / (2.0 * std::numbers::pi * radius);
    std::vector<std::complex<double>> top(2 * n), bottom(2 * n);
    for (std::size_t k = 0; k < width; ++k) {
        const long ks = signedFrequency(k, width);
        if (std::labs(ks) <= 1) continue;
        std::fill(top.begin(), top.end(), 0.0);
        std::fill(bottom.begin(), bottom.end(), 0.0);
        for (std::size_t p = 0; p < n; ++p) {
            top[p] = a[p * width + k];
            bottom[n + p] = b[p * width + k];
        }
        colFft.forward(top.data(), scratch);
        colFft.forward(bottom.data(), scratch);
        for (std::size_t m = 0; m < 2 * n; ++m) {
            const long ms = signedFrequency(m, 2 * n);
            if (std::labs(ms) <= drop || static_cast<double>(std::labs(ks)) > std::labs(ms) * slope)
                continue;
            spectra.u.push_back(top[m]);
            spectra.v.push_back(bottom[m]);
            spectra.k.push_back(k);
        }
    }
    if (spectra.u.empty())
        return invalidArgument("vo-fourier: the mask is empty (too few angles for drop " +
                               std::to_string(drop) + ")");

    const double mid = 0.5 * static_cast<double>(width - 1);
    auto sweep = [&](double from, double dc, std::size_t count, std::vector<double>& xs,
                     std::vector<double>& ys) {
        xs.resize(count);
        ys.resize(count);
        return parallelFor(count, ctx.threads, ctx.stop, [&](std::size_t i, int) {
            xs[i] = from + static_cast<double>(i) * dc;
            ys[i] = spectra.metric(2.0 * (xs[i] - mid));
            if (ctx.progress) ctx.progress->advance();
        });
    };
    const std::size_t coarse = static_cast<std::size_t>(std::floor(2 * range.radius / 0.5)) + 1;
    const std::size_t fine = 101;
    if (ctx.progress) ctx.progress->setTotal(coarse + fine);
    CenterEstimate est;
    est.method = kMethod;
    TOMO_RETURN_IF_ERROR(sweep(range.center - range.radius, 0.5, coarse, est.trialCenters, est.metric));
    const auto best = static_cast<std::size_t>(
        std::min_element(est.metric.begin(), est.metric.end()) - est.metric.begin());
    std::vector<double> fx, fy;
    TOMO_RETURN_IF_ERROR(sweep(est.trialCenters[best] - 1.0, 0.02, fine, fx, fy));
    const auto fbest = static_cast<std::size_t>(std::min_element(fy.begin(), fy.end()) - fy.begin());
    est.center = parabolicMinimum(fx, fy, fbest);
    est.confidence = minimumConfidence(est.trialCenters, est.metric);
    return est;
}

}  // namespace tomo
