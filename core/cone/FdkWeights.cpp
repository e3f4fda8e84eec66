#include "core/cone/FdkWeights.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/cone/FdkWeightFormula.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {
namespace {

constexpr double kTwoPi = 2 * kPi;

std::string degrees(double rad) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", rad * 180.0 / kPi);
    return b;
}

double principalU(const ConeView& v) {
    return v.sourceOffsetX - v.projOffsetX;
}

double principalV(const ConeView& v) {
    return v.sourceOffsetY - v.projOffsetY;
}

}  // namespace

Status FdkWeightOptions::validate() const {
    if (!(shortScanToleranceDeg >= 0) || !(shortScanToleranceDeg < 180))
        return invalidArgument("short-scan tolerance must be in [0, 180) degrees");
    return Status::ok();
}

Result<ShortScanMode> parseShortScanMode(const std::string& text) {
    if (text == "auto") return ShortScanMode::Auto;
    if (text == "on") return ShortScanMode::On;
    if (text == "off") return ShortScanMode::Off;
    return invalidArgument("--short-scan must be auto, on or off ('" + text + "' given)");
}

Result<FdkWeights> FdkWeights::create(const ConeGeometry& geometry,
                                      const FdkWeightOptions& options) {
    TOMO_RETURN_IF_ERROR(options.validate());
    FdkWeights w(geometry);
    TOMO_RETURN_IF_ERROR(w.prepareAngles(options));
    w.prepareDisplaced(options);
    return w;
}

Status FdkWeights::prepareAngles(const FdkWeightOptions& options) {
    const int n = m_geometry.viewCount();
    std::vector<double> beta(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        const double b = -m_geometry.sourceAngle(k);
        beta[static_cast<std::size_t>(k)] = b - kTwoPi * std::floor(b / kTwoPi);
    }
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return beta[static_cast<std::size_t>(a)] < beta[static_cast<std::size_t>(b)];
    });
    auto at = [&](int i) {
        return beta[static_cast<std::size_t>(order[static_cast<std::size_t>((i + n) % n)])];
    };
    // gap[i]: from sorted view i to the next one (the last wraps around).
    std::vector<double> gap(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        gap[static_cast<std::size_t>(i)] = i + 1 < n ? at(i + 1) - at(i) : at(0) + kTwoPi - at(i);
    std::vector<double> sorted = gap;
    std::nth_element(sorted.begin(), sorted.begin() + n / 2, sorted.end());
    const double median = n > 1 ? sorted[static_cast<std::size_t>(n / 2)] : kTwoPi;
    const int largest = static_cast<int>(std::max_element(gap.begin(), gap.end()) - gap.begin());
    const double coverage = n > 1 ? kTwoPi - gap[static_cast<std::size_t>(largest)] + median : 0;
    m_coverageDeg = coverage * 180.0 / kPi;
    m_shortScan = options.shortScan == ShortScanMode::On ||
                  (options.shortScan == ShortScanMode::Auto &&
                   coverage < kTwoPi - options.shortScanToleranceDeg * kPi / 180.0);
    m_factor.assign(static_cast<std::size_t>(n), 0.0);
    m_beta.assign(static_cast<std::size_t>(n), 0.0);
    const int start = m_shortScan ? largest + 1 : 0;  // sorted position where the arc begins
    double span = 0;
    for (int i = 0; i < n; ++i) {
        const int s = start + i;
        double prevGap = gap[static_cast<std::size_t>((s - 1 + 2 * n) % n)];
        double nextGap = gap[static_cast<std::size_t>(s % n)];
        if (m_shortScan && i == 0) prevGap = nextGap;
        if (m_shortScan && i == n - 1) nextGap = prevGap;
        const int k = order[static_cast<std::size_t>(s % n)];
        const double b = at(s) - at(start);
        m_beta[static_cast<std::size_t>(k)] = b - kTwoPi * std::floor(b / kTwoPi);
        span = std::max(span, m_beta[static_cast<std::size_t>(k)]);
        const ConeView& v = m_geometry.view(k);
        const double sourceNorm = std::sqrt(v.sid * v.sid + v.sourceOffsetX * v.sourceOffsetX +
                                            v.sourceOffsetY * v.sourceOffsetY);
        m_factor[static_cast<std::size_t>(k)] =
            0.5 * (prevGap + nextGap) * v.sdd * sourceNorm / (2 * v.sid * v.sid);
    }
    const double fan = m_geometry.fanAngle();
    if (!m_shortScan) {
        m_notes.push_back("full scan: " + degrees(coverage) + " degrees covered");
        return Status::ok();
    }
    m_delta = 0.5 * (span - kPi);
    m_notes.push_back("short scan: views span " + degrees(span) + " degrees (Parker weights, " +
                      "overscan " + degrees(2 * m_delta) + " degrees, fan angle " +
                      degrees(2 * fan) + " degrees)");
    if (span < kPi + 2 * fan - 1e-9)
        m_warnings.push_back("insufficient data: the views span " + degrees(span) +
                             " degrees, less than 180 degrees plus the fan angle (" +
                             degrees(kPi + 2 * fan) + "); the reconstruction has artefacts");
    return Status::ok();
}

void FdkWeights::prepareDisplaced(const FdkWeightOptions& options) {
    if (options.displaced == DisplacedDetectorMode::Off) return;
    const DetectorGrid& d = m_geometry.detector();
    const double u0 = principalU(m_geometry.view(0));
    const double lo = u0 - d.originU, hi = d.originU + (d.nu - 1) * d.pitchU - u0;
    if (std::abs(hi - lo) <= d.pitchU) return;
    if (m_shortScan) {
        m_warnings.push_back("displaced detector on a short scan: no half-fan weighting applied");
        return;
    }
    m_displacedHalfWidth = std::max(std::min(lo, hi), d.pitchU);
    m_longSide = hi > lo ? 1.0 : -1.0;
    char b[160];
    std::snprintf(b, sizeof b,
                  "displaced detector: overlap +-%.4g mm around the central ray (half-fan "
                  "weights)",
                  m_displacedHalfWidth);
    m_notes.push_back(b);
    if (std::min(lo, hi) < 0)
        m_warnings.push_back("insufficient data: the central ray misses the detector");
}

int FdkWeights::mode() const {
    if (m_shortScan) return TOMO_FDK_SHORT_SCAN;
    return m_displacedHalfWidth > 0 ? TOMO_FDK_HALF_FAN : TOMO_FDK_FULL_SCAN;
}

double FdkWeights::redundancy(int k, double u) const {
    const ConeView& v = m_geometry.view(k);
    return fdk::tomoFdkRedundancy(mode(), u - principalU(v), v.sdd,
                                  m_beta[static_cast<std::size_t>(k)], m_delta,
                                  m_displacedHalfWidth, m_longSide);
}

double FdkWeights::cosine(int k, int iu, int iv) const {
    const ConeView& v = m_geometry.view(k);
    const DetectorGrid& d = m_geometry.detector();
    return fdk::tomoFdkCosine(v.sdd, d.originU + iu * d.pitchU - principalU(v),
                              d.originV + iv * d.pitchV - principalV(v));
}

double FdkWeights::weight(int k, int iu, int iv) const {
    const DetectorGrid& d = m_geometry.detector();
    return factor(k) * cosine(k, iu, iv) * redundancy(k, d.originU + iu * d.pitchU);
}

void FdkWeights::apply(int k, View2<float> projection) const {
    const DetectorGrid& d = m_geometry.detector();
    std::vector<double> r(static_cast<std::size_t>(d.nu));
    for (int iu = 0; iu < d.nu; ++iu)
        r[static_cast<std::size_t>(iu)] = redundancy(k, d.originU + iu * d.pitchU);
    const ConeView& v = m_geometry.view(k);
    const double c = factor(k);
    for (int iv = 0; iv < d.nv; ++iv) {
        auto row = projection.row(static_cast<std::size_t>(iv));
        const double dv = d.originV + iv * d.pitchV - principalV(v);
        for (int iu = 0; iu < d.nu; ++iu) {
            const double du = d.originU + iu * d.pitchU - principalU(v);
            const double w =
                c * fdk::tomoFdkCosine(v.sdd, du, dv) * r[static_cast<std::size_t>(iu)];
            row[static_cast<std::size_t>(iu)] =
                static_cast<float>(row[static_cast<std::size_t>(iu)] * w);
        }
    }
}

FdkWeightTable FdkWeights::deviceTable() const {
    FdkWeightTable t;
    const int n = m_geometry.viewCount();
    t.views.resize(static_cast<std::size_t>(n) * TOMO_FDK_VIEW_PARAMS);
    for (int k = 0; k < n; ++k) {
        const ConeView& v = m_geometry.view(k);
        float* p = t.views.data() + static_cast<std::size_t>(k) * TOMO_FDK_VIEW_PARAMS;
        p[0] = static_cast<float>(factor(k));
        p[1] = static_cast<float>(m_beta[static_cast<std::size_t>(k)]);
        p[2] = static_cast<float>(principalU(v));
        p[3] = static_cast<float>(principalV(v));
        p[4] = static_cast<float>(v.sdd);
    }
    const DetectorGrid& d = m_geometry.detector();
    t.mode = mode();
    t.delta = static_cast<float>(m_delta);
    t.halfWidth = static_cast<float>(m_displacedHalfWidth);
    t.longSide = static_cast<float>(m_longSide);
    t.originU = static_cast<float>(d.originU);
    t.pitchU = static_cast<float>(d.pitchU);
    t.originV = static_cast<float>(d.originV);
    t.pitchV = static_cast<float>(d.pitchV);
    t.nu = d.nu;
    t.nv = d.nv;
    return t;
}

}  // namespace tomo
