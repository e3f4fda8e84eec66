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

double steadySeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double tolerance(const BackProjectorInfo& info) {
    if (!info.exact) return 0.1;
    return info.interpolation == Interpolation::Linear ? 1e-3 : 2e-2;
}

int largestSlicesPerPass(const BackProjectorRegistry& registry, const std::string& backend) {
    int slices = 1;
    for (const BackProjectorInfo& info : registry.list(backend))
        if (info.family != "reference") slices = std::max(slices, info.slicesPerPass);
    return std::clamp(slices, 1, 16);
}

/// Two registered variants that run the same kernel with the same parameters (an alias and
/// its pinned instruction set: cpu.simd.lin and cpu.simd.avx512.lin on an AVX-512 CPU).
bool sameKernel(const BackProjectorInfo& a, const BackProjectorInfo& b) {
    return a.backend == b.backend && a.family == b.family && a.interpolation == b.interpolation &&
           a.slicesPerPass == b.slicesPerPass && a.precision == b.precision && a.exact == b.exact &&
           a.parameters == b.parameters && !a.parameters.empty();
}

}  // namespace

Selector::Selector(const BackProjectorRegistry& registry, DeviceTraits traits,
                   SelectorOptions options)
    : m_registry(registry), m_traits(std::move(traits)), m_options(std::move(options)) {}

std::vector<CandidateReport> Selector::rank(const std::string& backend, int slices) const {
    if (slices <= 0) slices = largestSlicesPerPass(m_registry, backend);
    std::vector<CandidateReport> rows;
    for (const BackProjectorInfo& info : m_registry.list(backend)) {
        if (info.family == "reference") continue;
        CandidateReport row;
        row.info = info;
        if (auto cost = costFor(info, slices)) {
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

/// State shared by the classes of one sweep.
struct Selector::Sweep {
    std::string backend;
    ExecContext ctx;
    std::function<double()> clock;
    double start = 0, budgetEnd = 0;
    double lastOverhead = 0;  ///< check + probe time of the previous candidate (program builds)
    /// (id, slices) -> the check's outcome; (interpolation, slices) -> the reference result.
    std::map<std::pair<std::string, int>, CandidateReport> checks;
    std::map<std::pair<int, int>, Volume> references;
    std::map<int, selection::Problem> checkProblems;
    double now() const { return clock(); }
};

namespace {

/// Back-projects @p problem with @p bp and returns the time in seconds on @p clock.
Result<double> timedRun(BackProjector& bp, const selection::Problem& problem, Volume& out,
                        const ExecContext& ctx, const std::function<double()>& clock) {
    const double t0 = clock();
    TOMO_RETURN_IF_ERROR(bp.backProject(problem.sino, problem.geometry, problem.grid,
                                        problem.weights, out, {ctx.threads, ctx.stop, nullptr}));
    return std::max(clock() - t0, 1e-9);
}

}  // namespace

Result<SelectionResult> Selector::run(const std::string& backend, const ExecContext& ctx) const {
    TOMO_RETURN_IF_ERROR(m_options.validate());
    Sweep sweep;
    sweep.backend = backend;
    sweep.ctx = ctx;
    sweep.clock = m_options.clock ? m_options.clock : std::function<double()>(steadySeconds);
    sweep.start = sweep.now();
    sweep.budgetEnd = sweep.start + m_options.budgetSeconds;
    SelectionResult result;
    result.traits = m_traits;
    result.backend = backend;
    if (rank(backend).empty())
        return notFound("no back-projector variants to select from for backend '" + backend + "'");
    std::vector<JobShape> shapes = m_options.shapes;
    if (shapes.empty() && (m_options.imageSize > 0 || m_options.slices > 0))
        shapes.push_back({m_options.imageSize > 0 ? m_options.imageSize : 1024,
                          m_options.slices > 0 ? m_options.slices : 16});
    if (shapes.empty()) shapes = defaultShapes();
    for (const JobShape& shape : shapes) {
        ClassSelection cls;
        cls.workloadClass = workloadClass(shape);
        cls.shape = shape;
        result.classes.push_back(std::move(cls));
    }
    if (ctx.progress) ctx.progress->setTotal(rank(backend).size() * result.classes.size());
    for (std::size_t c = 0; c < result.classes.size(); ++c) {
        // Each class gets an equal share of what is left.
        const double left = sweep.budgetEnd - sweep.now();
        const double classEnd =
            sweep.now() + std::max(0.0, left) / double(result.classes.size() - c);
        TOMO_RETURN_IF_ERROR(runClass(sweep, result.classes[c], classEnd));
    }
    result.seconds = sweep.now() - sweep.start;
    return result;
}

void Selector::rankClass(const Sweep& sweep, ClassSelection& cls) const {
    const int slices = cls.shape.slices;
    // Order: the model's default of each kind first, then the others by prediction.
    std::vector<CandidateReport> ranked = rank(sweep.backend, slices);
    for (bool exact : {true, false})
        for (Interpolation interp : {Interpolation::Linear, Interpolation::Nearest}) {
            const std::string id =
                modelDefault(m_registry, m_traits, sweep.backend, interp, exact, slices);
            if (!id.empty()) cls.defaults[choiceKey(exact, interp)] = id;
        }
    std::stable_partition(ranked.begin(), ranked.end(), [&](const CandidateReport& r) {
        auto d = cls.defaults.find(choiceKey(r.info.exact, r.info.interpolation));
        return d != cls.defaults.end() && d->second == r.info.id;
    });
    cls.table = std::move(ranked);
}

Status Selector::runClass(Sweep& sweep, ClassSelection& cls, double classEnd) const {
    rankClass(sweep, cls);
    for (std::size_t i = 0; i < cls.table.size(); ++i)
        TOMO_RETURN_IF_ERROR(measureCandidate(sweep, cls, i, classEnd));
    cls.choices = chooseVariants(cls.table, cls.defaults, m_options.challengerMargin);
    return confirm(sweep, cls);
}

Status Selector::measureCandidate(Sweep& sweep, ClassSelection& cls, std::size_t i,
                                  double classEnd) const {
    const ExecContext& ctx = sweep.ctx;
    const int size = cls.shape.size, slices = cls.shape.slices;
    const double updatesPerProjection = double(size) * size * slices;
    CandidateReport& row = cls.table[i];
    TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
    if (ctx.progress) ctx.progress->advance();
    const double candidateStart = sweep.now();
    const auto twin = std::find_if(cls.table.begin(), cls.table.begin() + i,
                                   [&](const auto& r) { return sameKernel(r.info, row.info); });
    if (twin != cls.table.begin() + i) {  // timing it again would only measure noise
        row.note = "same kernel as " + twin->info.id;
        return Status::ok();
    }
    if (candidateStart + sweep.lastOverhead >= classEnd) {
        row.note = "budget exhausted before this candidate";
        return Status::ok();
    }
    auto made = m_registry.make(row.info.id);
    if (!made) {
        row.state = CandidateState::Failed;
        row.note = made.status().message();
        return Status::ok();
    }
    BackProjector& bp = **made;
    // 1. Correctness on the small problem (once per variant and slice count).
    const auto checkKey = std::make_pair(row.info.id, slices);
    if (!sweep.checks.count(checkKey)) {
        CandidateReport checked = row;
        TOMO_RETURN_IF_ERROR(check(sweep, bp, slices, checked));
        sweep.checks[checkKey] = checked;
    }
    const CandidateReport& checked = sweep.checks.at(checkKey);
    row.error = checked.error;
    if (checked.state != CandidateState::Skipped) {  // wrong or failed
        row.state = checked.state;
        row.note = checked.note;
        return Status::ok();
    }
    // 2. Probe (first warm-up) with 16 projections.
    TOMO_ASSIGN_OR_RETURN(selection::Problem probe, selection::makeProblem(size, size, 16, slices));
    Volume out;
    auto probeTime = timedRun(bp, probe, out, ctx, sweep.clock);
    if (!probeTime) {
        if (probeTime.status().code() == ErrorCode::Cancelled) return probeTime.status();
        row.state = CandidateState::Failed;
        row.note = probeTime.status().message();
        return Status::ok();
    }
    sweep.lastOverhead = sweep.now() - candidateStart;
    const double probeRate = 16 * updatesPerProjection / *probeTime;  // updates/s
    row.state = CandidateState::Measured;
    row.measuredGups = probeRate * 1e-9;
    row.projections = 16;
    row.runs = 1;
    row.note = "budget: probe run only";
    // 3. Size the timed runs to this candidate's share of what is left of the class.
    const double share = (classEnd - sweep.now()) / double(cls.table.size() - i);
    return timeCandidate(sweep, cls.shape, bp, probeRate, *probeTime, share, classEnd, row);
}

Status Selector::timeCandidate(Sweep& sweep, const JobShape& shape, BackProjector& bp,
                               double probeRate, double probeSeconds, double share, double classEnd,
                               CandidateReport& row) const {
    const ExecContext& ctx = sweep.ctx;
    const int size = shape.size, slices = shape.slices;
    const double updatesPerProjection = double(size) * size * slices;
    // Largest projection count whose stack stays under 256 MiB.
    const int maxProjections =
        static_cast<int>(
            std::clamp((256.0 * (1 << 20)) / (4.0 * slices * size) / 16.0, 1.0, 512.0)) *
        16;
    const double runSeconds = share / (m_options.repeats + 1.5);
    const int projections = std::clamp(
        static_cast<int>(std::lround(probeRate * runSeconds / updatesPerProjection / 16.0)) * 16,
        16, maxProjections);
    const double expected = probeSeconds * projections / 16.0;
    if (sweep.now() + expected > classEnd) return Status::ok();
    TOMO_ASSIGN_OR_RETURN(selection::Problem timing,
                          selection::makeProblem(size, size, projections, slices));
    Volume out;
    std::vector<double> times;
    double last = expected;
    for (int r = -1; r < m_options.repeats; ++r) {  // r = -1: warm-up
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        if (sweep.now() + last > classEnd) break;
        auto t = timedRun(bp, timing, out, ctx, sweep.clock);
        if (!t) {
            if (t.status().code() == ErrorCode::Cancelled) return t.status();
            row.state = CandidateState::Failed;
            row.note = t.status().message();
            return Status::ok();
        }
        last = *t;
        if (r >= 0) times.push_back(*t);
    }
    if (times.empty()) return Status::ok();
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    row.measuredGups = projections * updatesPerProjection / median * 1e-9;
    row.projections = projections;
    row.runs = static_cast<int>(times.size());
    row.note = row.runs < m_options.repeats
                   ? "budget: " + std::to_string(row.runs) + " timed run(s)"
                   : std::string();
    return Status::ok();
}

Status Selector::confirm(Sweep& sweep, ClassSelection& cls) const {
    auto find = [&](const std::string& id) -> CandidateReport* {
        for (CandidateReport& r : cls.table)
            if (r.info.id == id) return &r;
        return nullptr;
    };
    for (auto& [kind, chosen] : cls.choices) {
        auto d = cls.defaults.find(kind);
        if (d == cls.defaults.end() || d->second == chosen) continue;
        CandidateReport* def = find(d->second);
        CandidateReport* challenger = find(chosen);
        if (!def || def->state != CandidateState::Measured || !challenger) continue;
        // Interleaved runs on the same problem: each warmed up, then default, challenger,
        // default, challenger; the best run of each decides. A load change during the sweep or
        // the default's first-touch costs cannot hand the class a slower kernel.
        const int projections = std::max({16, def->projections, challenger->projections});
        const double updates =
            double(cls.shape.size) * cls.shape.size * cls.shape.slices * projections;
        const double expected =
            updates * 1e-9 / challenger->measuredGups + updates * 1e-9 / def->measuredGups;
        std::string note;
        if (sweep.now() + 3 * expected > sweep.budgetEnd) {
            note = "not confirmed within the budget: the model default stays";
            chosen = def->info.id;
        } else {
            TOMO_ASSIGN_OR_RETURN(selection::Problem problem,
                                  selection::makeProblem(cls.shape.size, cls.shape.size,
                                                         projections, cls.shape.slices));
            TOMO_ASSIGN_OR_RETURN(auto a, m_registry.make(def->info.id));
            TOMO_ASSIGN_OR_RETURN(auto b, m_registry.make(challenger->info.id));
            double best[2] = {1e300, 1e300};
            Volume out;
            for (int r = 0; r < 6; ++r) {  // r 0, 1: warm-ups
                TOMO_RETURN_IF_ERROR(checkStop(sweep.ctx.stop));
                auto t = timedRun(r % 2 ? *b : *a, problem, out, sweep.ctx, sweep.clock);
                if (!t) return t.status();
                if (r >= 2) best[r % 2] = std::min(best[r % 2], *t);
            }
            const bool confirmed = best[0] > m_options.challengerMargin * best[1];
            char text[160];
            std::snprintf(text, sizeof text, "%s: %.3g GU/s against the default's %.3g",
                          confirmed ? "confirmed" : "not confirmed (the default stays)",
                          updates / best[1] * 1e-9, updates / best[0] * 1e-9);
            note = text;
            if (!confirmed) chosen = def->info.id;
        }
        challenger->note = challenger->note.empty() ? note : challenger->note + "; " + note;
    }
    return Status::ok();
}

Status Selector::check(Sweep& sweep, BackProjector& bp, int slices, CandidateReport& row) const {
    const ExecContext& ctx = sweep.ctx;
    if (!sweep.checkProblems.count(slices)) {
        TOMO_ASSIGN_OR_RETURN(selection::Problem problem,
                              selection::makeProblem(24, 36, 30, slices));
        sweep.checkProblems.emplace(slices, std::move(problem));
    }
    const selection::Problem& problem = sweep.checkProblems.at(slices);
    const int k = row.info.interpolation == Interpolation::Linear ? 0 : 1;
    if (!sweep.references.count({k, slices})) {
        TOMO_ASSIGN_OR_RETURN(auto ref,
                              m_registry.make(k == 0 ? "cpu.reference.lin" : "cpu.reference.nn"));
        Volume out;
        TOMO_RETURN_IF_ERROR(ref->backProject(problem.sino, problem.geometry, problem.grid,
                                              problem.weights, out,
                                              {ctx.threads, ctx.stop, nullptr}));
        sweep.references[{k, slices}] = std::move(out);
    }
    Volume out;
    if (Status s = bp.backProject(problem.sino, problem.geometry, problem.grid, problem.weights,
                                  out, {ctx.threads, ctx.stop, nullptr});
        !s) {
        if (s.code() == ErrorCode::Cancelled) return s;
        row.state = CandidateState::Failed;
        row.note = s.message();
        return Status::ok();
    }
    row.error = selection::relativeError(out, sweep.references.at({k, slices}));
    if (!(row.error <= tolerance(row.info))) {
        row.state = CandidateState::Wrong;
        row.note = "error " + selection::formatNumber("%.3g", row.error) +
                   " against the reference " + "exceeds " +
                   selection::formatNumber("%g", tolerance(row.info));
    }
    return Status::ok();
}

}  // namespace tomo
