#pragma once
/// @file StoppingRule.h
/// @brief When an iterative solver stops, and which iterate it returns: one implementation used
/// by every solver through IterationMonitor (SolverSupport.h), and by both front ends through
/// the common `stop` parameters of AlgorithmSchema.
///
/// Rules, checked after every iteration k (1-based) with x_k the current iterate:
///  - none: the iteration count and the tolerance only (IterationMonitor).
///  - rel-change: stop at the first k >= 2 with ||x_k - x_{k-1}|| / ||x_k|| <= tolerance and
///    return x_k (the stagnation test of e.g. C. T. Kelley, Iterative Methods for Linear and
///    Nonlinear Equations, SIAM 1995, doi:10.1137/1.9781611970944).
///  - discrepancy: Morozov's discrepancy principle (V. A. Morozov, Soviet Math. Dokl. 7, 1966;
///    for iterations: H. W. Engl, M. Hanke, A. Neubauer, Regularization of Inverse Problems,
///    Kluwer 1996, §7 and Thm. 6.5): stop at the first k with ||A x_k - b|| <= tau delta and
///    return x_k, delta = sigma sqrt(m) the norm of the noise of the m data values, sigma the
///    per-sample noise level given by the user or estimated from the data
///    (discrepancyNoiseLevel: estimateSinogramNoise with a model-error floor, SinogramNoise.h).
///  - corner: after each iteration the L-curve corner of the history so far (iterationCorner,
///    IterationCorner.h: the turn of a flat residual branch into a steep noise branch, never the
///    bend of the first iterations; P. C. Hansen, SIAM Review 34(4), 1992,
///    doi:10.1137/1034115). Once the corner has stayed at the same iteration c for `patience`
///    further iterations, stop and return x_c, the iterate AT the corner (not the last one).
///    When the iteration count runs out first, the current corner's iterate is returned all the
///    same. The discrepancy principle (the same delta) is its second criterion: when its
///    iterate, the first at or below tau delta, comes before the corner, that one is kept (on
///    undersampled data the corner of a gradual turn lags the best iterate, docs/algorithms.md);
///    where there is no corner the rule falls back to it, stopping once the run has gone half as
///    far again (at least `patience` iterations) without a corner. The note says which iterate
///    was kept and why.
///
/// Keeping x_c: the rule holds a copy of the previous iterate and of the current corner
/// candidate; a new candidate is almost always the newest interior point (the previous
/// iterate), which it copies. When the corner jumps to an older iterate it no longer holds,
/// keptIterate() is empty and runKeepingIterate (SolverSupport.h) runs the solver again from
/// the same start for exactly c iterations, so the result is always x_c.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/solvers/IterationInfo.h"
#include "core/solvers/SinogramNoise.h"

namespace tomo {

enum class StopRule { None, Corner, Discrepancy, RelativeChange };

/// "none", "corner", "discrepancy", "rel-change".
const char* stopRuleName(StopRule rule);
/// The SNR cap of the discrepancy principle's estimated noise level: sigma = max(estimate, q99 /
/// 1000) (flooredSinogramNoise). Noise-free and low-noise data made elsewhere have a model error
/// that the consistency estimate does not see; without the floor SIRT..MemXCT ran to their
/// iteration cap there and overfitted it (discs at 180 views, noise-free: OS-SIRT 1.66x, CGLS
/// 1.48x, MemXCT 1.43x their best iterate). The defaults study (docs/accuracy.md, "Sixth round:
/// the noise floor of the discrepancy stop"; caps replayed on its stored runs) chose 1000 over
/// TV's 250: at 250 the stop came far too early on the discs and ellipses (up to 4x the best
/// iterate), at 750-850 still 1.2-1.4x on the noise-free discs, at 1250 MemXCT overfitted them
/// again (1.38x). At 1000 the study's noisy and undersampled cases keep their estimate (their
/// q99 / sigma is at most 500), except the noise-free 60-view ellipses.
inline constexpr double kDiscrepancySnrCap = 1000;

/// The discrepancy principle's noise level of @p data when sigma is not given.
NoiseLevel discrepancyNoiseLevel(std::span<const float> data, const SinogramLayout& layout,
                                 const ExecContext& ctx = {});

/// The inverse of stopRuleName; InvalidArgument listing the choices.
Result<StopRule> parseStopRule(std::string_view name);

struct StopOptions {
    StopRule rule = StopRule::None;
    double relativeChange = 1e-3;  ///< rel-change threshold on ||x_k - x_{k-1}|| / ||x_k||
    double noiseSigma = 0;  ///< discrepancy: noise per data value (0 = estimate from the data)
    /// noiseSigma was estimated from the data by the caller (notes say "estimated").
    bool noiseEstimated = false;
    /// discrepancy: the factor tau on delta, in [0.5, 2]: Morozov's tau > 1 (the residual of the
    /// true image is the noise norm). The front door sets each method's own (AlgorithmSchema's
    /// stop-tau, chosen by the defaults study, docs/accuracy.md).
    double tau = 1.05;
    int patience = 5;  ///< corner: iterations the corner must stay put before stopping
    /// How the data vector holds sinograms, for the noise estimate (estimateSinogramNoise).
    SinogramLayout layout;

    /// InvalidArgument naming the field for a bad threshold, sigma, tau or patience.
    Status validate() const;
};

/// @brief The state of one rule over one solver run (owned by IterationMonitor).
class StoppingRule {
  public:
    explicit StoppingRule(const StopOptions& options) : m_options(options) {}

    /// Sets delta for the discrepancy rule from @p data (estimating sigma when 0).
    void setData(std::span<const float> data, const ExecContext& ctx = {});
    /// After iteration history.back(): true when the rule stops here. @p x is x_k.
    bool after(std::span<const IterationInfo> history, std::span<const float> x,
               const ExecContext& ctx);

    const StopOptions& options() const { return m_options; }
    /// 1-based iteration whose iterate is the result when that is not the last one.
    std::optional<int> keptIteration(int lastIteration) const;
    /// Its iterate when held (empty when it must be recomputed).
    std::span<const float> keptIterate() const;
    /// One line on the rule's decision (the estimate of sigma, the corner, the change).
    std::string note() const;

  private:
    /// Corner rule: the discrepancy principle's iterate is kept (it comes before the corner,
    /// or there is none).
    bool discrepancyFirst() const;
    /// " given", or where sigma came from: the estimate or the floor, with both values.
    std::string sigmaSource() const;
    bool afterCorner(std::span<const IterationInfo> history, std::span<const float> x);

    StopOptions m_options;
    double m_delta = 0;        ///< discrepancy: tau-free noise norm sigma sqrt(m)
    double m_sigma = 0;        ///< the sigma used (given or estimated)
    bool m_estimated = false;  ///< sigma came from discrepancyNoiseLevel
    NoiseLevel m_level;        ///< its parts, when estimated here
    double m_change = -1;      ///< last relative change
    std::vector<float> m_previous;
    int m_previousIteration = 0;
    std::vector<float> m_kept;
    int m_keptIteration = 0;  ///< iteration held in m_kept (0: none)
    int m_candidate = 0;      ///< corner candidate (1-based iteration, 0: none)
    int m_candidateSince = 0;
    std::string m_cornerWhy;  ///< why there is no corner (iterationCorner's message)
    int m_discrepancyAt = 0;  ///< corner's fallback: first iteration at or below tau delta
    std::vector<float> m_discrepancyIterate;
};

}  // namespace tomo
