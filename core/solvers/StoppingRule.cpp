#include "core/solvers/StoppingRule.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/solvers/IterationCorner.h"
#include "core/solvers/VectorOps.h"

namespace tomo {
namespace {

std::string formatValue(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.4g", v);
    return buf;
}

}  // namespace

NoiseLevel discrepancyNoiseLevel(std::span<const float> data, const SinogramLayout& layout,
                                 const ExecContext& ctx) {
    return flooredSinogramNoise(data, layout, kDiscrepancySnrCap, ctx);
}

const char* stopRuleName(StopRule rule) {
    switch (rule) {
        case StopRule::None:
            return "none";
        case StopRule::Corner:
            return "corner";
        case StopRule::Discrepancy:
            return "discrepancy";
        case StopRule::RelativeChange:
            return "rel-change";
    }
    return "unknown";
}

Result<StopRule> parseStopRule(std::string_view name) {
    for (StopRule r :
         {StopRule::None, StopRule::Corner, StopRule::Discrepancy, StopRule::RelativeChange})
        if (name == stopRuleName(r)) return r;
    return invalidArgument("stop: '" + std::string(name) +
                           "' is not one of none, corner, discrepancy, rel-change");
}

Status StopOptions::validate() const {
    if (!(relativeChange > 0) || !std::isfinite(relativeChange))
        return invalidArgument("stop tolerance: the relative change must be finite and > 0");
    if (!(noiseSigma >= 0) || !std::isfinite(noiseSigma))
        return invalidArgument("noise sigma: must be finite and >= 0 (0 = estimate)");
    if (!(tau >= 0.5 && tau <= 2))
        return invalidArgument("discrepancy tau (stop-tau): must be in [0.5, 2]");
    if (patience < 1) return invalidArgument("stop patience: at least 1 iteration");
    return Status::ok();
}

void StoppingRule::setData(std::span<const float> data, const ExecContext& ctx) {
    // The corner rule falls back to the discrepancy principle where it finds no corner.
    if (m_options.rule != StopRule::Discrepancy && m_options.rule != StopRule::Corner) return;
    const bool given = m_options.noiseSigma > 0;
    m_estimated = !given || m_options.noiseEstimated;
    if (!given) m_level = discrepancyNoiseLevel(data, m_options.layout, ctx);
    m_sigma = given ? m_options.noiseSigma : m_level.sigma();
    m_delta = m_sigma * std::sqrt(sumAcrossRanks(double(data.size()), ctx));
}

bool StoppingRule::after(std::span<const IterationInfo> history, std::span<const float> x,
                         const ExecContext& ctx) {
    if (history.empty()) return false;
    const IterationInfo& last = history.back();
    switch (m_options.rule) {
        case StopRule::None:
            return false;
        case StopRule::Discrepancy:
            return m_delta > 0 && last.residualNorm <= m_options.tau * m_delta;
        case StopRule::RelativeChange: {
            bool stop = false;
            if (m_previousIteration == last.iteration - 1 && m_previousIteration > 0) {
                double diff = 0.0;
                for (std::size_t i = 0; i < x.size(); ++i) {
                    const double e = double(x[i]) - m_previous[i];
                    diff += e * e;
                }
                diff = sumAcrossRanks(diff, ctx);
                const double xNorm = norm(x, ctx);
                m_change = xNorm > 0 ? std::sqrt(diff) / xNorm : 0.0;
                stop = m_change <= m_options.relativeChange;
            }
            m_previous.assign(x.begin(), x.end());
            m_previousIteration = last.iteration;
            return stop;
        }
        case StopRule::Corner: {
            const bool stop = afterCorner(history, x);
            m_previous.assign(x.begin(), x.end());
            m_previousIteration = last.iteration;
            return stop;
        }
    }
    return false;
}

bool StoppingRule::afterCorner(std::span<const IterationInfo> history, std::span<const float> x) {
    const int k = history.back().iteration;
    // The discrepancy principle's iterate, the fallback when no corner comes.
    if (m_discrepancyAt == 0 && m_delta > 0 &&
        history.back().residualNorm <= m_options.tau * m_delta) {
        m_discrepancyAt = k;
        m_discrepancyIterate.assign(x.begin(), x.end());
    }
    auto corner = iterationCorner(lcurveFromHistory(history));
    if (!corner) {
        m_candidate = 0;
        m_cornerWhy = corner.status().message();
        // No corner by half as many iterations again as the discrepancy level took (and at
        // least `patience` more): stop, keeping the discrepancy principle's iterate.
        return m_discrepancyAt > 0 &&
               k >= std::max(m_discrepancyAt + m_options.patience, (3 * m_discrepancyAt + 1) / 2);
    }
    const int c = history[*corner].iteration;
    if (c != m_candidate) {
        m_candidate = c;
        m_candidateSince = k;
        if (c == m_previousIteration && c != m_keptIteration) {
            m_kept = m_previous;
            m_keptIteration = c;
        }
    }
    return k - m_candidateSince >= m_options.patience;
}

bool StoppingRule::discrepancyFirst() const {
    return m_discrepancyAt > 0 && (m_candidate == 0 || m_discrepancyAt < m_candidate);
}

std::optional<int> StoppingRule::keptIteration(int lastIteration) const {
    if (m_options.rule != StopRule::Corner) return std::nullopt;
    const int kept = discrepancyFirst() ? m_discrepancyAt : m_candidate;
    if (kept == 0 || kept == lastIteration) return std::nullopt;
    return kept;
}

std::span<const float> StoppingRule::keptIterate() const {
    if (discrepancyFirst()) return m_discrepancyIterate;
    if (m_candidate != 0 && m_candidate == m_keptIteration) return m_kept;
    return {};
}

std::string StoppingRule::sigmaSource() const {
    if (!m_estimated) return " given";
    if (!(m_level.q99 > 0)) return " estimated from the data";
    const std::string floor = "the model-error floor q99 / " + formatValue(kDiscrepancySnrCap);
    if (m_level.floored())
        return ": " + floor + ", above the estimate " + formatValue(m_level.estimate);
    return " estimated from the data, above " + floor + " = " + formatValue(m_level.floor);
}

std::string StoppingRule::note() const {
    switch (m_options.rule) {
        case StopRule::None:
            return "";
        case StopRule::Discrepancy:
            return "discrepancy: ||Ax - b|| <= " + formatValue(m_options.tau) +
                   " * delta = " + formatValue(m_options.tau * m_delta) + " (sigma " +
                   formatValue(m_sigma) + sigmaSource() + ")";
        case StopRule::RelativeChange:
            return "rel-change: ||x_k - x_k-1|| / ||x_k|| = " +
                   (m_change >= 0 ? formatValue(m_change) : std::string("-")) + " (threshold " +
                   formatValue(m_options.relativeChange) + ")";
        case StopRule::Corner: {
            const std::string level = "||Ax - b|| <= " + formatValue(m_options.tau) +
                                      " * delta = " + formatValue(m_options.tau * m_delta) +
                                      " (sigma " + formatValue(m_sigma) + sigmaSource() + ")";
            const std::string corner =
                "corner: L-curve corner at iteration " + std::to_string(m_candidate) +
                " (stable for " + std::to_string(m_options.patience) + " iterations stops the run)";
            if (m_candidate > 0 && !discrepancyFirst()) return corner;
            if (m_candidate > 0)
                return corner + "; the discrepancy principle's iteration " +
                       std::to_string(m_discrepancyAt) + " (the first with " + level +
                       ") comes first and is kept: the corner lags the best iterate on "
                       "undersampled data";
            const std::string why = m_cornerWhy.empty() ? "no L-curve corner" : m_cornerWhy;
            return "corner: " + why + "; fell back to the discrepancy principle: " +
                   (m_discrepancyAt > 0 ? "iteration " + std::to_string(m_discrepancyAt) +
                                              ", the first with " + level
                                        : "no iteration reached " + level + ", so the last one");
        }
    }
    return "";
}

}  // namespace tomo
