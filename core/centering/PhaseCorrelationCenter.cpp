// 0/180-degree phase correlation (CenterOfRotation.h).
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

constexpr const char* kMethod = "phase-correlation";

/// Angle wrapped into (-pi, pi].
double wrapAngle(double a) {
    a = std::remainder(a, 2 * std::numbers::pi);
    return a <= -std::numbers::pi ? a + 2 * std::numbers::pi : a;
}

/// Pairs (p, q), p < q, with theta_q - theta_p = pi within the tolerance.
Result<std::vector<std::pair<std::size_t, std::size_t>>> findPairs(std::span<const double> angles,
                                                                   const PhaseCorrelationOptions& o) {
    std::vector<double> sorted(angles.begin(), angles.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> steps;
    for (std::size_t i = 1; i < sorted.size(); ++i)
        if (sorted[i] > sorted[i - 1]) steps.push_back(sorted[i] - sorted[i - 1]);
    double tol = o.maxPairErrorDeg * std::numbers::pi / 180;
    if (o.maxPairErrorDeg < 0) {
        if (steps.empty()) return invalidArgument(std::string(kMethod) + ": all angles are equal");
        std::nth_element(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(steps.size() / 2),
                         steps.end());
        tol = 0.5 * steps[steps.size() / 2];
    }
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    double closest = 1e300;
    for (std::size_t p = 0; p < angles.size(); ++p) {
        std::size_t bestQ = p;
        double bestErr = 1e300;
        for (std::size_t q = p + 1; q < angles.size(); ++q) {
            const double err = std::fabs(wrapAngle(angles[q] - angles[p] - std::numbers::pi));
            if (err < bestErr) {
                bestErr = err;
                bestQ = q;
            }
        }
        closest = std::min(closest, bestErr);
        if (bestQ != p && bestErr <= tol) pairs.emplace_back(p, bestQ);
    }
    if (pairs.empty())
        return invalidArgument(std::string(kMethod) +
                               ": no pair of projections 180 degrees apart (closest: " +
                               std::to_string(closest * 180 / std::numbers::pi) +
                               " degrees off, tolerance " + std::to_string(tol * 180 / std::numbers::pi) +
                               "); the method needs a 360-degree scan");
    return pairs;
}

/// Phase correlation of the sinograms (rows of one acquisition) over all pairs.
Result<CenterEstimate> correlate(const std::vector<View2<const float>>& sinos,
                                 std::span<const double> angles, const PhaseCorrelationOptions& o,
                                 const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(auto pairs, findPairs(angles, o));
    const std::size_t width = sinos.front().cols();
    TOMO_ASSIGN_OR_RETURN(AnyLengthFft fft, AnyLengthFft::create(width));
    std::vector<std::complex<double>> perPair(pairs.size() * width);
    if (ctx.progress) ctx.progress->setTotal(pairs.size());
    TOMO_RETURN_IF_ERROR(parallelFor(pairs.size(), ctx.threads, ctx.stop, [&](std::size_t i, int) {
        AnyLengthFft::Scratch scratch;
        std::vector<std::complex<double>> a(width), b(width);
        std::complex<double>* acc = perPair.data() + i * width;
        const auto [p, q] = pairs[i];
        for (const auto& s : sinos) {
            for (std::size_t j = 0; j < width; ++j) {
                a[j] = s(p, j);
                b[j] = s(q, width - 1 - j);
            }
            fft.forward(a.data(), scratch);
            fft.forward(b.data(), scratch);
            for (std::size_t k = 0; k < width; ++k)
                acc[k] += a[k] * std::conj(b[k]);
        }
        if (ctx.progress) ctx.progress->advance();
    }));
    std::vector<std::complex<double>> r(width);
    for (std::size_t i = 0; i < pairs.size(); ++i)
        for (std::size_t k = 0; k < width; ++k)
            r[k] += perPair[i * width + k];
    double peakMag = 0;
    for (const auto& v : r)
        peakMag = std::max(peakMag, std::abs(v));
    if (!(peakMag > 0)) return invalidData(std::string(kMethod) + ": the projections are all zero");
    for (auto& v : r)
        v = std::abs(v) > 1e-12 * peakMag ? v / std::abs(v) : 0.0;
    // Correlation at integer shifts, then a continuous refinement around the peak.
    std::vector<std::complex<double>> corr = r;
    AnyLengthFft::Scratch scratch;
    fft.inverse(corr.data(), scratch);
    const auto w = static_cast<double>(width);
    auto at = [&](double d) {
        double sum = 0;
        for (std::size_t k = 0; k < width; ++k) {
            const double ang = 2 * std::numbers::pi * static_cast<double>(signedFrequency(k, width)) * d / w;
            sum += r[k].real() * std::cos(ang) - r[k].imag() * std::sin(ang);
        }
        return sum / w;
    };
    CenterEstimate est;
    est.method = kMethod;
    est.minimised = false;
    long bestD = 0;
    double bestV = -1e300;
    for (std::size_t x = 0; x < width; ++x) {
        const long d = signedFrequency(x, width);
        const double v = corr[x].real() / w;
        if (v > bestV) {
            bestV = v;
            bestD = d;
        }
    }
    for (long d = -static_cast<long>(width / 2); d < static_cast<long>((width + 1) / 2); ++d) {
        est.trialCenters.push_back(0.5 * (static_cast<double>(d) + w - 1));
        est.metric.push_back(corr[static_cast<std::size_t>(d < 0 ? d + static_cast<long>(width) : d)].real() / w);
    }
    double bestX = static_cast<double>(bestD), bestY = bestV;
    for (int i = -200; i <= 200; ++i) {
        const double d = static_cast<double>(bestD) + 0.005 * i;
        const double v = at(d);
        if (v > bestY) {
            bestY = v;
            bestX = d;
        }
    }
    est.center = 0.5 * (bestX + w - 1);
    est.confidence = std::clamp(bestY, 0.0, 1.0);
    return est;
}

}  // namespace

Status PhaseCorrelationOptions::validate() const {
    if (!std::isfinite(maxPairErrorDeg))
        return invalidArgument("phase-correlation: the pair tolerance must be finite");
    return Status::ok();
}

Result<CenterEstimate> estimateCenterPhaseCorrelation(View2<const float> sinogram,
                                                      std::span<const double> angles,
                                                      const PhaseCorrelationOptions& options,
                                                      const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(checkSinogram(sinogram, angles, 2, 4, kMethod));
    return correlate({sinogram}, angles, options, ctx);
}

Result<CenterEstimate> estimateCenterPhaseCorrelation(const Array3<float>& projections,
                                                      std::span<const double> angles,
                                                      const PhaseCorrelationOptions& options,
                                                      const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    const std::size_t na = projections.dim(0), rows = projections.dim(1);
    std::vector<View2<const float>> sinos;
    for (std::size_t r = 0; r < rows; ++r) {
        View2<const float> s(projections.data() + r * projections.pitch(), na, projections.dim(2),
                             rows * projections.pitch());
        TOMO_RETURN_IF_ERROR(checkSinogram(s, angles, 2, 4, kMethod));
        sinos.push_back(s);
    }
    if (sinos.empty()) return invalidArgument(std::string(kMethod) + ": the projections have no rows");
    return correlate(sinos, angles, options, ctx);
}

}  // namespace tomo
