#include "core/solvers/SolverSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/solvers/SubsetOperator.h"
#include "core/solvers/VectorOps.h"

namespace tomo {

const char* terminationReasonName(TerminationReason reason) {
    switch (reason) {
        case TerminationReason::MaxIterations:
            return "max-iterations";
        case TerminationReason::Converged:
            return "converged";
        case TerminationReason::StoppedByCaller:
            return "stopped-by-caller";
        case TerminationReason::Cancelled:
            return "cancelled";
        case TerminationReason::Breakdown:
            return "breakdown";
        case TerminationReason::StoppingRule:
            return "stopping-rule";
    }
    return "unknown";
}

Status checkSubset(int subset, int subsets, int angles) {
    if (subsets < 1 || subsets > angles)
        return invalidArgument("subsets: " + std::to_string(subsets) + " is outside [1, " +
                               std::to_string(angles) + "] (the number of projections)");
    if (subset < 0 || subset >= subsets)
        return invalidArgument("subset " + std::to_string(subset) + " is outside [0, " +
                               std::to_string(subsets) + ")");
    return Status::ok();
}

Status SolverOptions::validate(const LinearOperator& op, std::span<const float> b,
                               std::span<const float> x) const {
    if (iterations < 1)
        return invalidArgument("iterations: " + std::to_string(iterations) + " (at least 1)");
    if (!(tolerance >= 0) || !std::isfinite(tolerance))
        return invalidArgument("tolerance: must be finite and >= 0");
    if (b.size() != op.rangeSize())
        return invalidArgument("data: " + std::to_string(b.size()) + " values for operator " +
                               op.name() + " with range " + std::to_string(op.rangeSize()));
    if (x.size() != op.domainSize())
        return invalidArgument("image: " + std::to_string(x.size()) + " values for operator " +
                               op.name() + " with domain " + std::to_string(op.domainSize()));
    TOMO_RETURN_IF_ERROR(stop.validate());
    if (!reference.empty() && reference.size() != op.domainSize())
        return invalidArgument("reference: " + std::to_string(reference.size()) +
                               " values, the image has " + std::to_string(op.domainSize()));
    if (shape.size() != 0 && shape.size() != op.domainSize())
        return invalidArgument("shape: " + std::to_string(shape.nz) + "x" +
                               std::to_string(shape.ny) + "x" + std::to_string(shape.nx) +
                               " does not match the image size " + std::to_string(op.domainSize()));
    return Status::ok();
}

IterationMonitor::IterationMonitor(std::string algorithm, const SolverOptions& options,
                                   const IterationCallback& onIteration, SolverSummary& summary,
                                   const ExecContext& ctx)
    : m_options(options),
      m_callback(onIteration),
      m_summary(summary),
      m_ctx(ctx),
      m_inner(ctx),
      m_rule(options.stop) {
    m_inner.progress = nullptr;
    m_summary = SolverSummary{};
    m_summary.algorithm = std::move(algorithm);
    m_summary.stopRule = stopRuleName(options.stop.rule);
    m_start = m_last = std::chrono::steady_clock::now();
    if (m_ctx.progress)
        m_ctx.progress->setTotal(static_cast<std::uint64_t>(std::max(1, options.iterations)));
}

bool IterationMonitor::afterIteration(double residualNorm, double solutionNorm, double regularizer,
                                      std::span<const float> x) {
    const auto now = std::chrono::steady_clock::now();
    IterationInfo info;
    info.iteration = m_summary.iterations + 1;
    info.residualNorm = residualNorm;
    info.solutionNorm = solutionNorm;
    info.regularizer = regularizer;
    info.cost = m_nextCost;
    info.equits = m_nextEquits;
    if (!m_options.reference.empty()) info.error = rmsDifference(x, m_options.reference, m_inner);
    info.seconds = std::chrono::duration<double>(now - m_start).count();
    info.iterationSeconds = std::chrono::duration<double>(now - m_last).count();
    m_summary.iterations = info.iteration;
    m_summary.history.push_back(info);
    if (m_ctx.progress) m_ctx.progress->advance();

    IterationAction action = IterationAction::Continue;
    if (m_callback) {
        const VolumeShape& s = m_options.shape;
        if (s.size() != 0 && s.size() == x.size()) {
            if (m_preview.dim(0) != s.nz || m_preview.dim(1) != s.ny || m_preview.dim(2) != s.nx) {
                auto created = Volume::create(s.nz, s.ny, s.nx);
                if (created) m_preview = std::move(created).value();
            }
            if (!m_preview.empty()) {
                for (std::size_t r = 0; r < s.nz * s.ny; ++r)
                    std::memcpy(m_preview.rows().row(r).data(), x.data() + r * s.nx,
                                s.nx * sizeof(float));
                info.iterate = &m_preview;
            }
        }
        action = m_callback(info);
    }
    m_last = std::chrono::steady_clock::now();
    if (action == IterationAction::Cancel) {
        m_summary.reason = TerminationReason::Cancelled;
        return false;
    }
    if (action == IterationAction::StopAndKeep) {
        m_summary.reason = TerminationReason::StoppedByCaller;
        return false;
    }
    if (m_options.tolerance > 0 && residualNorm <= m_options.tolerance * m_dataNorm) {
        m_summary.reason = TerminationReason::Converged;
        return false;
    }
    if (m_rule.after(m_summary.history, x, m_inner)) {
        m_summary.reason = TerminationReason::StoppingRule;
        return false;
    }
    if (info.iteration >= m_options.iterations) {
        m_summary.reason = TerminationReason::MaxIterations;
        return false;
    }
    if (m_ctx.stop.stop_requested()) {
        m_summary.reason = TerminationReason::Cancelled;
        return false;
    }
    return true;
}

void IterationMonitor::close() {
    if (m_closed) return;
    m_closed = true;
    m_summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

Status IterationMonitor::fail(const Status& status) {
    if (status.code() == ErrorCode::Cancelled) m_summary.reason = TerminationReason::Cancelled;
    close();
    return status;
}

Status IterationMonitor::breakdown() {
    m_summary.reason = TerminationReason::Breakdown;
    close();
    return Status::ok();
}

void IterationMonitor::setData(std::span<const float> b) {
    m_dataNorm = norm(b, m_inner);
    m_rule.setData(b, m_inner);
}

Status IterationMonitor::finish(std::span<float> x) {
    close();
    if (m_summary.reason == TerminationReason::Cancelled)
        return cancelled(m_summary.algorithm + " cancelled after iteration " +
                         std::to_string(m_summary.iterations));
    m_summary.stopNote = m_rule.note();
    const bool ruleEnded = m_summary.reason == TerminationReason::StoppingRule ||
                           m_summary.reason == TerminationReason::MaxIterations;
    if (auto kept = m_rule.keptIteration(m_summary.iterations); kept && ruleEnded && !x.empty()) {
        m_summary.keptIteration = kept;
        const std::span<const float> held = m_rule.keptIterate();
        if (held.size() == x.size())
            std::copy(held.begin(), held.end(), x.begin());
        else
            m_summary.keptPending = true;
    }
    return Status::ok();
}

Status runKeepingIterate(const SolverOptions& options, std::span<float> x, SolverSummary& summary,
                         const std::function<Status(const SolverOptions&, bool replay)>& once) {
    if (options.stop.rule != StopRule::Corner) return once(options, false);
    const bool zeroStart = std::all_of(x.begin(), x.end(), [](float v) { return v == 0.f; });
    std::vector<float> start;
    if (!zeroStart) start.assign(x.begin(), x.end());
    TOMO_RETURN_IF_ERROR(once(options, false));
    if (!summary.keptPending || !summary.keptIteration) return Status::ok();
    SolverSummary first = std::move(summary);
    if (zeroStart)
        std::fill(x.begin(), x.end(), 0.f);
    else
        std::copy(start.begin(), start.end(), x.begin());
    SolverOptions again = options;
    again.iterations = *first.keptIteration;
    again.tolerance = 0;
    again.stop = StopOptions{};
    const Status replayed = once(again, true);
    const double seconds = summary.seconds;
    summary = std::move(first);
    summary.keptPending = false;
    summary.seconds += seconds;
    if (!replayed)
        return replayed.withContext("recomputing the kept iteration " +
                                    std::to_string(*summary.keptIteration));
    summary.stopNote += " (iterate recomputed)";
    return Status::ok();
}

}  // namespace tomo
