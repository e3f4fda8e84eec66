// Pass criteria of the full-size self-check (see CheckTolerance.h and docs/cuda.md).
#include "gpu/cuda/selfcheck/CheckTolerance.h"

#include <algorithm>
#include <cmath>

namespace tomo::cuda {
namespace {

/// Nearest kinds: relative L2 and the fraction of pixels above the linear bound (float and
/// double pick different bins at some pixels; a wrong kernel misses by orders of magnitude).
/// Measured with float CPU coordinates at 2048^2 x 2048: relative L2 6.1e-4, no pixel above the
/// bound; the cap leaves ~3x for the device's different rounding (fused multiply-adds).
constexpr double kNearestRelL2 = 2e-3;
constexpr double kNearestFraction = 0.05;
constexpr double kTextureWeight = 1.0 / 512;      // 8-bit fractional weight, rounded
constexpr double kHalfRelative = 1.0 / 2048;      // binary16: 11 significant bits
constexpr double kHalfAbsolute = 1.0 / 33554432;  // 2^-25: half of the smallest subnormal step
constexpr double kQuarterBin = 1.0 / 8;           // nearest of 4 samples per bin

/// Sanity caps on the relative L2 error of the approximate kinds (not derived: about 10x the
/// estimate from the measured float coordinate error, docs/cuda.md). They catch what a worst-
/// case bound lets through, e.g. one projection of 2048 missing.
double relL2Cap(ToleranceKind k) {
    switch (k) {
        case ToleranceKind::ExactLinear:
            return kExactRelative;
        case ToleranceKind::TextureLinear:
            return 1e-3;
        case ToleranceKind::HalfLinear:
            return 2e-3;
        case ToleranceKind::Oversampling:
            return 5e-2;
        default:
            return kNearestRelL2;
    }
}

bool isNearest(ToleranceKind k) {
    return k == ToleranceKind::ExactNearest || k == ToleranceKind::HalfNearest;
}

}  // namespace

ToleranceKind toleranceKind(const BackProjectorInfo& info) {
    const bool linear = info.interpolation == Interpolation::Linear;
    if (info.family == "oversampling") return ToleranceKind::Oversampling;
    if (info.precision == "half")
        return linear ? ToleranceKind::HalfLinear : ToleranceKind::HalfNearest;
    if (!linear) return ToleranceKind::ExactNearest;
    if (info.family == "texture" || info.family == "hybrid") return ToleranceKind::TextureLinear;
    return ToleranceKind::ExactLinear;
}

const char* toleranceName(ToleranceKind kind) {
    switch (kind) {
        case ToleranceKind::ExactLinear:
            return "exact-linear";
        case ToleranceKind::TextureLinear:
            return "texture-8bit";
        case ToleranceKind::ExactNearest:
            return "nearest";
        case ToleranceKind::HalfLinear:
            return "half-linear";
        case ToleranceKind::HalfNearest:
            return "half-nearest";
        default:
            return "oversampling";
    }
}

SliceMagnitudes sliceMagnitudes(const Sinograms& filtered, std::span<const float> weights) {
    SliceMagnitudes m;
    const std::size_t slices = filtered.dim(0), angles = filtered.dim(1), det = filtered.dim(2);
    double w = 0;
    for (float x : weights)
        w += std::abs(double(x));
    for (std::size_t s = 0; s < slices; ++s) {
        double a = 0, d = 0;
        for (std::size_t p = 0; p < angles; ++p) {
            const float* row = &filtered(s, p, 0);
            double big = 0, step = std::abs(double(row[0]));  // the step from the zero border
            for (std::size_t j = 0; j < det; ++j) {
                big = std::max(big, std::abs(double(row[j])));
                if (j + 1 < det) step = std::max(step, std::abs(double(row[j + 1]) - row[j]));
            }
            step = std::max(step, std::abs(double(row[det - 1])));
            a += std::abs(double(weights[p])) * big;
            d += std::abs(double(weights[p])) * step;
        }
        m.absSum.push_back(a);
        m.diffSum.push_back(d);
        m.weightSum.push_back(w);
    }
    return m;
}

double coordinateError(double magnitude) {
    const double u = std::exp2(std::ceil(std::log2(std::max(magnitude, 1.0))));
    return std::ldexp(u, -22);
}

double errorBound(ToleranceKind kind, double absSum, double diffSum, double weightSum,
                  double coordError) {
    const double sum = kSummation * absSum;
    switch (kind) {
        case ToleranceKind::ExactLinear:
        case ToleranceKind::ExactNearest:
            return coordError * diffSum + sum;
        case ToleranceKind::TextureLinear:
            return (kTextureWeight + coordError) * diffSum + sum;
        case ToleranceKind::HalfLinear:
        case ToleranceKind::HalfNearest:
            return coordError * diffSum + kHalfRelative * absSum + kHalfAbsolute * weightSum + sum;
        default:
            return (kQuarterBin + kTextureWeight + coordError) * diffSum + sum;
    }
}

Verdict judge(ToleranceKind kind, const Volume& candidate, const std::vector<Volume>& reference,
              const std::vector<int>& rowBegin, const std::vector<double>& bounds) {
    Verdict v;
    double dd = 0, rr = 0, refMax = 0;
    std::size_t above = 0, count = 0;
    std::vector<double> worst(bounds.size(), 0.0);
    for (std::size_t k = 0; k < reference.size(); ++k) {
        const Volume& ref = reference[k];
        if (ref.dim(0) != candidate.dim(0) || ref.dim(2) != candidate.dim(2) || rowBegin[k] < 0 ||
            rowBegin[k] + ref.dim(1) > candidate.dim(1)) {
            v.reason = "the candidate's shape does not match the reference";
            return v;
        }
        for (std::size_t s = 0; s < ref.dim(0); ++s)
            for (std::size_t r = 0; r < ref.dim(1); ++r)
                for (std::size_t x = 0; x < ref.dim(2); ++x) {
                    const double want = ref(s, r, x);
                    const double got = candidate(s, static_cast<std::size_t>(rowBegin[k]) + r, x);
                    const double e = std::isfinite(got) ? std::abs(got - want) : INFINITY;
                    v.maxAbs = std::max(v.maxAbs, e);
                    worst[s] = std::max(worst[s], e);
                    refMax = std::max(refMax, std::abs(want));
                    dd += e * e;
                    rr += want * want;
                    above += e > bounds[s] ? 1 : 0;
                    ++count;
                }
    }
    for (std::size_t s = 0; s < bounds.size(); ++s)
        v.maxAbsOverBound = std::max(v.maxAbsOverBound, worst[s] / bounds[s]);
    v.relL2 = std::sqrt(dd / std::max(rr, 1e-300));
    v.relMax = v.maxAbs / std::max(refMax, 1e-300);
    v.fractionAbove = count ? static_cast<double>(above) / static_cast<double>(count) : 1.0;
    char text[160];
    if (count == 0) {
        v.reason = "nothing compared";
    } else if (!std::isfinite(v.maxAbs)) {
        v.reason = "non-finite values";
    } else if (v.relL2 > relL2Cap(kind)) {
        std::snprintf(text, sizeof text, "relative L2 %.3g > %.3g", v.relL2, relL2Cap(kind));
        v.reason = text;
    } else if (isNearest(kind)) {
        if (v.fractionAbove > kNearestFraction) {
            std::snprintf(text, sizeof text, "%.3g of the pixels above the bound (allowed %.3g)",
                          v.fractionAbove, kNearestFraction);
            v.reason = text;
        }
    } else if (v.maxAbsOverBound > 1.0) {
        std::snprintf(text, sizeof text, "max |err| %.3g times the bound", v.maxAbsOverBound);
        v.reason = text;
    }
    v.pass = v.reason.empty();
    return v;
}

}  // namespace tomo::cuda
