#pragma once
/// @file SolverSupport.h
/// @brief What every solver shares: the common options (iteration count, tolerance, reference,
/// volume shape) and IterationMonitor, which turns each iteration's numbers into an
/// IterationInfo, asks the caller's callback, advances progress, and decides when to stop.
///
/// Stopping rules, checked after every iteration in this order: the callback's Cancel (the
/// solver returns Cancelled) or StopAndKeep (OK, the current iterate is the result); the
/// tolerance (relative residual ||A x - b|| / ||b|| at or below it: Converged); the stopping
/// rule of options.stop (StoppingRule.h: corner, discrepancy, rel-change; TerminationReason
/// StoppingRule); the iteration count (MaxIterations). When the rule keeps an earlier iterate
/// (the corner), finish(x) copies it into x, or runKeepingIterate recomputes it. ctx.stop is
/// honoured inside every projection (Cancelled). ctx.progress gets setTotal(iterations) and one
/// unit per iteration; the operators are called with a context without progress so that they do not
/// reset its total.

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/solvers/IterationInfo.h"
#include "core/solvers/LinearOperator.h"
#include "core/solvers/StoppingRule.h"

namespace tomo {

/// Shape of the flat volume vector ([nz][ny][nx], x fastest, no padding).
struct VolumeShape {
    std::size_t nz = 0, ny = 0, nx = 0;
    std::size_t size() const { return nz * ny * nx; }
};

/// Options every solver takes.
struct SolverOptions {
    int iterations = 30;   ///< at most this many iterations (>= 1)
    double tolerance = 0;  ///< stop when ||A x - b|| <= tolerance * ||b|| (0 = never)
    /// Optional ground truth (flat, domain size) for IterationInfo::error (RMSE).
    std::span<const float> reference;
    /// Shape of the domain vector: needed by TV and for previews (IterationInfo::iterate);
    /// all zeros = no previews (TV then fails with InvalidArgument).
    VolumeShape shape;
    /// The stopping rule (StoppingRule.h); none by default.
    StopOptions stop;

    /// InvalidArgument naming the field for a bad count, tolerance, reference or shape, or when
    /// @p b / @p x do not match the operator's range / domain.
    Status validate(const LinearOperator& op, std::span<const float> b,
                    std::span<const float> x) const;
};

/// @brief Bookkeeping of one solver run (one object per run, on the solver's thread).
class IterationMonitor {
  public:
    IterationMonitor(std::string algorithm, const SolverOptions& options,
                     const IterationCallback& onIteration, SolverSummary& summary,
                     const ExecContext& ctx);

    /// The context to call operators and vector helpers with (no progress scope).
    const ExecContext& inner() const { return m_inner; }

    /// Records iteration summary.iterations + 1 with these numbers (x is the current iterate),
    /// calls back and returns true when the solver should go on.
    bool afterIteration(double residualNorm, double solutionNorm, double regularizer,
                        std::span<const float> x);
    /// Ends the run for a failing Status from an operator (Cancelled sets the reason).
    Status fail(const Status& status);
    /// Ends the run after a numerical breakdown (OK: the iterate so far is the result).
    Status breakdown();
    /// Ends the run normally: OK, or Cancelled when the callback cancelled. When the stopping
    /// rule keeps an earlier iterate it is copied into @p x (summary.keptIteration), or marked
    /// for runKeepingIterate (summary.keptPending) when the rule no longer holds it.
    Status finish(std::span<float> x = {});
    /// Numbers the next afterIteration() records besides the norms (MBIR's cost and equits).
    void setNextExtras(std::optional<double> cost, double equits) {
        m_nextCost = cost;
        m_nextEquits = equits;
    }
    /// ||b||, set by the solver for the tolerance test.
    void setDataNorm(double norm) { m_dataNorm = norm; }
    /// ||b|| and the stopping rule's noise level (discrepancy) from the data @p b.
    void setData(std::span<const float> b);

  private:
    void close();

    const SolverOptions& m_options;
    const IterationCallback& m_callback;
    SolverSummary& m_summary;
    ExecContext m_ctx;
    ExecContext m_inner;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_last;
    double m_dataNorm = 0;
    std::optional<double> m_nextCost;
    double m_nextEquits = 0;
    bool m_closed = false;
    Volume m_preview;
    StoppingRule m_rule;
};

/// Runs a solver through @p once(options, replay). When its stopping rule kept an iterate it
/// no longer held (summary.keptPending), runs it once more from the same start (@p x as given)
/// for exactly summary.keptIteration iterations without rule, callback or progress (replay
/// true), and keeps the first run's history, reason and note: the result is always the kept
/// iterate. Costs a copy of the start when the corner rule is on and x is not all zeros.
Status runKeepingIterate(const SolverOptions& options, std::span<float> x, SolverSummary& summary,
                         const std::function<Status(const SolverOptions&, bool replay)>& once);

/// runKeepingIterate() for a solver whose options derive from SolverOptions: @p once(options,
/// callback, ctx, replay) runs the solver once (options a mutable copy carrying the common
/// options of that run); the replay gets no callback and no progress.
template <class Options, class Once>
Status solveKeepingIterate(const Options& options, std::span<float> x,
                           const IterationCallback& onIteration, SolverSummary& summary,
                           const ExecContext& ctx, Once&& once) {
    return runKeepingIterate(options, x, summary, [&](const SolverOptions& common, bool replay) {
        Options o = options;
        static_cast<SolverOptions&>(o) = common;
        ExecContext c = ctx;
        if (replay) c.progress = nullptr;
        return once(o, replay ? IterationCallback{} : onIteration, c, replay);
    });
}

}  // namespace tomo
