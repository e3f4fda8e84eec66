#include "core/solvers/IterationCorner.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace tomo {
namespace {

constexpr std::size_t kMinPoints = 6;
constexpr double kPi = 3.14159265358979323846;
constexpr double kSteep = 45.0 * kPi / 180.0;    ///< the noise branch: at least this steep
constexpr double kMinTurn = 20.0 * kPi / 180.0;  ///< an L-turn: the branch before this flatter
const double kMinRise = std::log10(1.01);        ///< the noise branch: ||x|| grows >= 1%

/// Prefix sums of the points (p, q) = (-log10 ||r||, log10 ||x||): a segment's straight line
/// by orthogonal regression in O(1).
struct Sums {
    std::vector<double> p, q, pp, qq, pq;
    explicit Sums(const std::vector<double>& ps, const std::vector<double>& qs)
        : p(ps.size() + 1),
          q(ps.size() + 1),
          pp(ps.size() + 1),
          qq(ps.size() + 1),
          pq(ps.size() + 1) {
        for (std::size_t i = 0; i < ps.size(); ++i) {
            p[i + 1] = p[i] + ps[i];
            q[i + 1] = q[i] + qs[i];
            pp[i + 1] = pp[i] + ps[i] * ps[i];
            qq[i + 1] = qq[i] + qs[i] * qs[i];
            pq[i + 1] = pq[i] + ps[i] * qs[i];
        }
    }
};

/// The line through points [a, b]: its sum of squared orthogonal distances and its angle in
/// the direction of travel (from point a towards point b).
struct Segment {
    double misfit = 0, angle = 0;
};

Segment fit(const Sums& s, const std::vector<double>& ps, const std::vector<double>& qs,
            std::size_t a, std::size_t b) {
    const double n = double(b - a + 1);
    const double mp = (s.p[b + 1] - s.p[a]) / n, mq = (s.q[b + 1] - s.q[a]) / n;
    const double cpp = s.pp[b + 1] - s.pp[a] - n * mp * mp;
    const double cqq = s.qq[b + 1] - s.qq[a] - n * mq * mq;
    const double cpq = s.pq[b + 1] - s.pq[a] - n * mp * mq;
    Segment g;
    g.misfit = std::max(0.0, 0.5 * (cpp + cqq) - std::hypot(0.5 * (cpp - cqq), cpq));
    g.angle = 0.5 * std::atan2(2.0 * cpq, cpp - cqq);  // principal axis, modulo pi
    const double dp = ps[b] - ps[a], dq = qs[b] - qs[a];
    if (std::cos(g.angle) * dp + std::sin(g.angle) * dq < 0) g.angle += g.angle > 0 ? -kPi : kPi;
    return g;
}

std::string percent(double decades) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2g%%", 100.0 * (std::pow(10.0, decades) - 1.0));
    return text;
}

}  // namespace

Result<std::size_t> iterationCorner(std::span<const LCurvePoint> points) {
    const std::size_t n = points.size();
    if (n < kMinPoints)
        return invalidArgument("no L-curve corner: " + std::to_string(n) +
                               " iteration(s), at least " + std::to_string(kMinPoints) + " needed");
    std::vector<double> ps(n), qs(n);  // -log10 ||r|| (grows as the residual falls), log10 ||x||
    for (std::size_t i = 0; i < n; ++i) {
        const LCurvePoint& pt = points[i];
        if (!(pt.residualNorm > 0) || !(pt.solutionNorm > 0) || !std::isfinite(pt.residualNorm) ||
            !std::isfinite(pt.solutionNorm))
            return invalidArgument(
                "no L-curve corner: a non-positive or non-finite norm at iteration " +
                std::to_string(static_cast<long long>(pt.parameter)));
        ps[i] = -std::log10(pt.residualNorm);
        qs[i] = std::log10(pt.solutionNorm);
    }
    // The break of the best two-segment fit, each segment at least three points.
    const Sums sums(ps, qs);
    std::size_t c = 0;
    double least = 0;
    Segment before, after;
    for (std::size_t k = 2; k + 2 < n; ++k) {
        const Segment a = fit(sums, ps, qs, 0, k), b = fit(sums, ps, qs, k, n - 1);
        if (c == 0 || a.misfit + b.misfit < least) {
            c = k;
            least = a.misfit + b.misfit;
            before = a;
            after = b;
        }
    }
    const double rise = qs[n - 1] - qs[c];
    if (rise >= kMinRise && after.angle >= kSteep && after.angle - before.angle >= kMinTurn)
        return c;
    double mostRise = 0;
    for (std::size_t k = 0; k + 1 < n; ++k)
        mostRise = std::max(mostRise, qs[n - 1] - qs[k]);
    std::string why = "no L-curve corner: ";
    if (mostRise < kMinRise)
        why += "||x|| rose by at most " + percent(mostRise) +
               " over the iterations (no noise branch, where ||x|| grows while ||Ax - b|| "
               "hardly falls)";
    else if (after.angle < kSteep)
        why += "after the curve's bend at iteration " +
               std::to_string(static_cast<long long>(points[c].parameter)) +
               " ||x|| grows more slowly than ||Ax - b|| falls (in decades): a bend of the "
               "residual branch, not the turn into the noise branch";
    else
        why += "the curve steepens gradually, without a turn into a noise branch";
    return invalidArgument(why);
}

}  // namespace tomo
