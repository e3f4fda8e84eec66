// Selector: rank by the model, check against the reference, time within the budget.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/selection/Selector.h"
#include "core/selection/SelectorWorkload.h"

namespace tomo {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

double tolerance(const BackProjectorInfo& info) {
    if (!info.exact) return 0.1;
    return info.interpolation == Interpolation::Linear ? 1e-3 : 2e-2;
}

std::string formatNumber(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

/// Back-projects @p problem with @p bp and returns the wall time in seconds.
Result<double> timedRun(BackProjector& bp, const selection::Problem& problem, Volume& out,
                        const ExecContext& ctx) {
    const auto t0 = Clock::now();
    TOMO_RETURN_IF_ERROR(bp.backProject(problem.sino, problem.geometry, problem.grid,
                                        problem.weights, out, {ctx.threads, ctx.stop, nullptr}));
    return std::max(secondsSince(t0), 1e-9);
}

}  // namespace

Status SelectorOptions::validate() const {
    if (!(budgetSeconds > 0) || budgetSeconds > 3600)
        return invalidArgument("selection budget " + formatNumber("%g", budgetSeconds) +
                               " s is outside (0, 3600]");
    if (repeats < 1 || repeats > 9)
        return invalidArgument("selection repeats " + std::to_string(repeats) +
                               " is outside [1, 9]");
    if (imageSize < 0 || imageSize > 8192 || (imageSize > 0 && imageSize < 16))
        return invalidArgument("selection image size " + std::to_string(imageSize) +
                               " is outside [16, 8192] (0 = automatic)");
    if (slices < 0 || slices > 64)
        return invalidArgument("selection slices " + std::to_string(slices) +
                               " is outside [0, 64]");
    return Status::ok();
}

const char* candidateStateName(CandidateState s) {
    switch (s) {
        case CandidateState::Measured:
            return "measured";
        case CandidateState::Wrong:
            return "wrong";
        case CandidateState::Failed:
            return "failed";
        case CandidateState::Skipped:
            return "skipped";
    }
    return "skipped";
}

std::string choiceKey(bool exact, Interpolation interpolation) {
    return std::string(exact ? "exact." : "approximate.") + interpolationName(interpolation);
}

Selector::Selector(const BackProjectorRegistry& registry, DeviceTraits traits,
                   SelectorOptions options)
    : m_registry(registry), m_traits(std::move(traits)), m_options(options) {}

std::vector<CandidateReport> Selector::rank(const std::string& backend) const {
    std::vector<CandidateReport> rows;
    int slices = m_options.slices;
    for (const BackProjectorInfo& info : m_registry.list(backend))
        if (info.family != "reference") slices = std::max(slices, info.slicesPerPass);
    if (m_options.slices <= 0) slices = std::clamp(slices, 1, 16);
    for (const BackProjectorInfo& info : m_registry.list(backend)) {
        if (info.family == "reference") continue;
        CandidateReport row;
        row.info = info;
        if (auto cost = costFor(info)) {
            row.hasModel = true;
            row.prediction = predict(m_traits, *cost, slices);
        } else {
            row.prediction.bottleneck = "no cost model";
        }
        rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        if (a.hasModel != b.hasModel) return a.hasModel;
        return a.prediction.gups > b.prediction.gups;
    });
    return rows;
}

Result<SelectionResult> Selector::run(const std::string& backend, const ExecContext& ctx) const {
    TOMO_RETURN_IF_ERROR(m_options.validate());
    const auto start = Clock::now();
    const double budget = m_options.budgetSeconds;
    SelectionResult result;
    result.traits = m_traits;
    result.backend = backend;
    result.table = rank(backend);
    if (result.table.empty())
        return notFound("no back-projector variants to select from for backend '" + backend + "'");
    int slices = m_options.slices;
    if (slices <= 0) {
        for (const auto& row : result.table)
            slices = std::max(slices, row.info.slicesPerPass);
        slices = std::clamp(slices, 1, 16);
    }
    const int size = m_options.imageSize > 0 ? m_options.imageSize
                                             : selection::representativeSize(m_traits.computeUnits);
    result.imageSize = size;
    result.slices = slices;

    // The correctness problem and its reference result per interpolation.
    TOMO_ASSIGN_OR_RETURN(selection::Problem check, selection::makeProblem(24, 36, 30, slices));
    std::optional<Volume> references[2];
    auto reference = [&](Interpolation interp) -> Result<const Volume*> {
        const int k = interp == Interpolation::Linear ? 0 : 1;
        if (!references[k]) {
            TOMO_ASSIGN_OR_RETURN(
                auto ref, m_registry.make(k == 0 ? "cpu.reference.lin" : "cpu.reference.nn"));
            Volume out;
            TOMO_RETURN_IF_ERROR(ref->backProject(check.sino, check.geometry, check.grid,
                                                  check.weights, out,
                                                  {ctx.threads, ctx.stop, nullptr}));
            references[k] = std::move(out);
        }
        return &*references[k];
    };

    if (ctx.progress) ctx.progress->setTotal(result.table.size());
    const double updatesPerProjection = double(size) * size * slices;
    // Largest projection count whose stack stays under 256 MiB.
    const int maxProjections =
        static_cast<int>(
            std::clamp((256.0 * (1 << 20)) / (4.0 * slices * size) / 16.0, 1.0, 512.0)) *
        16;
    double lastOverhead = 0;  // check + probe time of the previous candidate (program builds)
    for (std::size_t i = 0; i < result.table.size(); ++i) {
        CandidateReport& row = result.table[i];
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        if (ctx.progress) ctx.progress->advance();
        const auto candidateStart = Clock::now();
        if (secondsSince(start) + lastOverhead >= budget) {
            row.note = "budget exhausted before this candidate";
            continue;
        }
        auto made = m_registry.make(row.info.id);
        if (!made) {
            row.state = CandidateState::Failed;
            row.note = made.status().message();
            continue;
        }
        BackProjector& bp = **made;
        // 1. Correctness on the small problem.
        TOMO_ASSIGN_OR_RETURN(const Volume* ref, reference(row.info.interpolation));
        Volume out;
        if (Status s = bp.backProject(check.sino, check.geometry, check.grid, check.weights, out,
                                      {ctx.threads, ctx.stop, nullptr});
            !s) {
            if (s.code() == ErrorCode::Cancelled) return s;
            row.state = CandidateState::Failed;
            row.note = s.message();
            continue;
        }
        row.error = selection::relativeError(out, *ref);
        if (!(row.error <= tolerance(row.info))) {
            row.state = CandidateState::Wrong;
            row.note = "error " + formatNumber("%.3g", row.error) + " against the reference " +
                       "exceeds " + formatNumber("%g", tolerance(row.info));
            continue;
        }
        // 2. Probe (first warm-up) with 16 projections.
        TOMO_ASSIGN_OR_RETURN(selection::Problem probe,
                              selection::makeProblem(size, size, 16, slices));
        auto probeTime = timedRun(bp, probe, out, ctx);
        if (!probeTime) {
            if (probeTime.status().code() == ErrorCode::Cancelled) return probeTime.status();
            row.state = CandidateState::Failed;
            row.note = probeTime.status().message();
            continue;
        }
        lastOverhead = secondsSince(candidateStart);
        const double probeRate = 16 * updatesPerProjection / *probeTime;  // updates/s
        row.state = CandidateState::Measured;
        row.measuredGups = probeRate * 1e-9;
        row.projections = 16;
        row.runs = 1;
        row.note = "budget: probe run only";
        // 3. Size the timed runs to this candidate's share of what is left.
        const double left = budget - secondsSince(start);
        const double share = left / double(result.table.size() - i);
        const double runSeconds = share / (m_options.repeats + 1.5);
        const int projections = std::clamp(
            static_cast<int>(std::lround(probeRate * runSeconds / updatesPerProjection / 16.0)) *
                16,
            16, maxProjections);
        const double expected = *probeTime * projections / 16.0;
        if (secondsSince(start) + expected > budget) continue;
        TOMO_ASSIGN_OR_RETURN(selection::Problem timing,
                              selection::makeProblem(size, size, projections, slices));
        std::vector<double> times;
        double last = expected;
        for (int r = -1; r < m_options.repeats; ++r) {  // r = -1: warm-up
            TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
            if (secondsSince(start) + last > budget) break;
            auto t = timedRun(bp, timing, out, ctx);
            if (!t) {
                if (t.status().code() == ErrorCode::Cancelled) return t.status();
                row.state = CandidateState::Failed;
                row.note = t.status().message();
                break;
            }
            last = *t;
            if (r >= 0) times.push_back(*t);
        }
        if (row.state == CandidateState::Failed || times.empty()) continue;
        std::sort(times.begin(), times.end());
        const double median = times[times.size() / 2];
        row.measuredGups = projections * updatesPerProjection / median * 1e-9;
        row.projections = projections;
        row.runs = static_cast<int>(times.size());
        row.note = row.runs < m_options.repeats
                       ? "budget: " + std::to_string(row.runs) + " timed run(s)"
                       : std::string();
    }
    for (const CandidateReport& row : result.table) {
        if (row.state != CandidateState::Measured) continue;
        const std::string key = choiceKey(row.info.exact, row.info.interpolation);
        auto it = result.choices.find(key);
        if (it == result.choices.end()) {
            result.choices[key] = row.info.id;
            continue;
        }
        for (const CandidateReport& other : result.table)
            if (other.info.id == it->second && row.measuredGups > other.measuredGups)
                it->second = row.info.id;
    }
    result.seconds = secondsSince(start);
    return result;
}

}  // namespace tomo
