// Iterative methods slab by slab: one solve per slab (all slices in one by default), each
// iteration reported, the L-curve combined over the slabs (ReconService.h).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "app/recon/MemoryModel.h"
#include "app/recon/ReconSteps.h"

namespace tomo::app::detail {
namespace {

/// The whole stack's numbers of one iteration from the slabs'.
struct Combined {
    double residualSquares = 0, solutionSquares = 0, regularizer = 0, errorSquares = 0;
    std::size_t errorVoxels = 0;
    std::size_t slabs = 0;
};

/// Planes [first, first + count) of @p all, copied (same rows and columns, same pitch).
Result<Volume> planes(const Volume& all, std::size_t first, std::size_t count) {
    TOMO_ASSIGN_OR_RETURN(Volume part, Volume::create(count, all.dim(1), all.dim(2)));
    const std::size_t plane = all.dim(1) * all.pitch();
    std::memcpy(part.data(), all.data() + first * plane, count * plane * sizeof(float));
    return part;
}

std::string shapeText(const std::array<std::size_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

void addIteration(std::vector<Combined>& combined, const IterationInfo& info, std::size_t voxels) {
    if (combined.size() < std::size_t(info.iteration)) combined.resize(info.iteration);
    Combined& k = combined[std::size_t(info.iteration) - 1];
    k.residualSquares += info.residualNorm * info.residualNorm;
    k.solutionSquares += info.solutionNorm * info.solutionNorm;
    k.regularizer += info.regularizer;
    if (info.error) {
        k.errorSquares += *info.error * *info.error * double(voxels);
        k.errorVoxels += voxels;
    }
    ++k.slabs;
}

/// The combined curve: iterations every solved slab reached; the corner when 3 or more.
void finishCurve(const std::vector<Combined>& combined, std::size_t solved, ReconReport& report) {
    for (std::size_t k = 0; k < combined.size(); ++k) {
        const Combined& e = combined[k];
        if (e.slabs < solved) break;
        LCurvePoint p;
        p.parameter = double(k + 1);
        p.residualNorm = std::sqrt(e.residualSquares);
        p.solutionNorm = std::sqrt(e.solutionSquares);
        if (e.errorVoxels > 0) p.error = std::sqrt(e.errorSquares / double(e.errorVoxels));
        report.curve.push_back(p);
    }
    report.iterations = static_cast<int>(report.curve.size());
    const std::vector<int>& kept = report.keptIterations;
    if (report.lastSummary.stopRule != "none" && !kept.empty() &&
        std::all_of(kept.begin(), kept.end(), [&](int k) { return k == kept[0]; }) &&
        kept[0] >= 1 && std::size_t(kept[0]) <= report.curve.size())
        report.kept = std::size_t(kept[0] - 1);
    auto spec = findAlgorithm(report.algorithm);
    if (!spec) return;
    if (auto corner = iterationCornerOf(*spec, report.curve); corner)
        report.corner = *corner;
    else
        report.cornerNote = corner.status().message();
}

}  // namespace

void reportSolve(const SolverSummary& summary, ReconReport& report) {
    report.lastSummary = summary;
    report.reason = terminationReasonName(summary.reason);
    report.keptIterations = {summary.keptIteration.value_or(summary.iterations)};
    report.stopNote = summary.stopNote;
    report.timings.total = summary.seconds;
    std::vector<Combined> combined;
    for (const IterationInfo& info : summary.history)
        addIteration(combined, info, 1);
    finishCurve(combined, 1, report);
}

Status runIterativeSlabs(const Engine& engine, const ReconRequest& request,
                         const Resolved& resolved, const ReconCallbacks& callbacks, SlabOutput& out,
                         ReconReport& report, const ExecContext& ctx) {
    const SinogramSource& source = *request.source;
    const std::size_t slices = source.shape()[0];
    // All slices in one solve (GPU-ICD too: a stack is one problem on the device, its slices
    // coupled by the prior), or as many as the memory budget holds (MemoryModel.h).
    TOMO_ASSIGN_OR_RETURN(const StepMemory step, iterativeStepMemory(request, resolved));
    const std::size_t perSlab = planSolveSlices(request, resolved, step).slices;
    const std::size_t slabs = (slices + perSlab - 1) / perSlab;
    if (request.slabSlices == 0 && slabs > 1) {
        report.notes.push_back(
            "the memory budget (" + formatSize(double(resolved.budget)) + ") holds " +
            std::to_string(perSlab) + " of the " + std::to_string(slices) + " slices per " +
            step.what + " (" + formatSize(double(step.bytes(perSlab))) +
            "): " + std::to_string(slabs) + " solves, each with its own stopping");
        if (callbacks.onNote) callbacks.onNote(report.notes.back());
    }
    report.slabs = slabs;
    report.slabSlices = perSlab;
    // Per-iteration errors need the reference of every slice.
    const Volume* reference =
        request.reference && request.reference->dims() ==
                                 std::array<std::size_t, 3>{slices, std::size_t(request.grid.ny),
                                                            std::size_t(request.grid.nx)}
            ? request.reference.get()
            : nullptr;
    const std::array<std::size_t, 3> wanted{slices, std::size_t(request.grid.ny),
                                            std::size_t(request.grid.nx)};
    if (request.initial && request.initial->dims() != wanted)
        return invalidArgument("the initial image is " + shapeText(request.initial->dims()) +
                               ", the reconstruction " + shapeText(wanted));
    std::vector<Combined> combined;
    std::size_t done = 0;
    for (std::size_t c = 0; c < slabs && !report.stoppedEarly; ++c) {
        const SlabInfo slab{c, slabs, c * perSlab, std::min(perSlab, slices - c * perSlab)};
        TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry,
                              slabGeometry(request.geometry, slab.slices));
        VolumeGeometry grid = request.grid;
        grid.nz = static_cast<int>(slab.slices);
        Sinograms copy;
        if (!source.whole() || slabs > 1) {
            TOMO_ASSIGN_OR_RETURN(copy, source.read(slab.firstSlice, slab.slices, ctx));
        }
        Volume partRef, partInitial;
        if (reference && slabs > 1) {
            TOMO_ASSIGN_OR_RETURN(partRef, planes(*reference, slab.firstSlice, slab.slices));
        }
        if (request.initial && slabs > 1) {
            TOMO_ASSIGN_OR_RETURN(partInitial,
                                  planes(*request.initial, slab.firstSlice, slab.slices));
        }
        IterativeRequest solve;
        solve.algorithm = resolved.spec.id;
        solve.parameters = resolved.params;
        solve.makeOperator = resolved.makeOperator;
        solve.makeIcdDevice = resolved.makeIcdDevice;
        solve.mbirCache = &engine.mbirCache();
        solve.memoryBudget = request.memoryBudget;
        solve.onNote = [&](const std::string& text) {
            report.notes.push_back(text);
            if (callbacks.onNote) callbacks.onNote(text);
        };
        solve.reference = reference ? (slabs == 1 ? reference : &partRef) : nullptr;
        solve.initial =
            request.initial ? (slabs == 1 ? request.initial.get() : &partInitial) : nullptr;
        const std::size_t voxels = slab.slices * std::size_t(grid.ny) * std::size_t(grid.nx);
        auto onIteration = [&](const IterationInfo& info) {
            addIteration(combined, info, voxels);
            IterationAction action = callbacks.onIteration ? callbacks.onIteration(info, slab)
                                                           : IterationAction::Continue;
            if (action == IterationAction::StopAndKeep) report.stoppedEarly = true;
            return action;
        };
        Progress scope;
        ExecContext slabCtx = ctx;
        if (ctx.progress && slabs > 1) {
            scope =
                ctx.progress->child(double(c) / slabs, double(c + 1) / slabs,
                                    "slab " + std::to_string(c + 1) + "/" + std::to_string(slabs));
            slabCtx.progress = &scope;
        }
        Volume part;
        Status s =
            reconstructIterative(source.whole() && slabs == 1 ? *source.whole() : copy, geometry,
                                 grid, solve, onIteration, part, report.lastSummary, slabCtx);
        if (!s)
            return slabs > 1 ? s.withContext(
                                   "slab " + std::to_string(c + 1) + "/" + std::to_string(slabs) +
                                   " (slices " + std::to_string(slab.firstSlice) + "-" +
                                   std::to_string(slab.firstSlice + slab.slices - 1) + ")")
                             : s;
        TOMO_RETURN_IF_ERROR(out.put(slab.firstSlice, std::move(part)));
        report.reason = terminationReasonName(report.lastSummary.reason);
        report.keptIterations.push_back(
            report.lastSummary.keptIteration.value_or(report.lastSummary.iterations));
        report.stopNote = report.lastSummary.stopNote;
        report.timings.total += report.lastSummary.seconds;
        done = slab.firstSlice + slab.slices;
    }
    report.slicesDone = done;
    if (done < slices) {
        report.notes.push_back("stopped: slices " + std::to_string(done) + "-" +
                               std::to_string(slices - 1) + " were not reconstructed (zero)");
        if (callbacks.onNote) callbacks.onNote(report.notes.back());
        TOMO_RETURN_IF_ERROR(out.zeros(done, slices - done));
    }
    finishCurve(combined, (done + perSlab - 1) / perSlab, report);
    return Status::ok();
}

}  // namespace tomo::app::detail
