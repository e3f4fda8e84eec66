// FBP slab by slab: read a slab of sinograms, filter and back-project it (core's reconstructFbp
// with the backend's row-filter stage, resolved once per request), hand it to the output, free it.
#include <algorithm>
#include <future>

#include "app/Backends.h"
#include "app/recon/MemoryModel.h"
#include "app/recon/ReconSteps.h"

namespace tomo::app::detail {
namespace {

std::string sliceText(std::size_t first, std::size_t count) {
    return "slices " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

}  // namespace

std::size_t fbpBatch(const ReconRequest& request, const Resolved& resolved) {
    // Gridrec pairs slices 0-1, 2-3, ...: slabs of whole pairs pair them as one call does.
    if (resolved.fourier) return 2;
    const auto [slices, angles, detectors] = request.source->shape();
    return fbpChunkSlices(resolved.fbp, *resolved.backProjector, slices, angles, detectors);
}

FbpPlan planFbp(const ReconRequest& request, Resolved& resolved, ReconReport& report, int ranks) {
    const std::size_t slices = request.source->shape()[0];
    // Whole FBP batches per slab, each batch given explicitly: the same batches as one call.
    FbpPlan plan;
    plan.batched = resolved.fbp;
    const std::size_t batch = fbpBatch(request, resolved);
    plan.batched.chunkSlices = static_cast<int>(batch);
    const std::size_t budget = resolved.budget > 0 ? resolved.budget : request.memoryBudget;
    plan.slabSlices = chooseSlab(analyticStepMemory(request, resolved), slices, budget,
                                 heldInputBytes(request), request.slabSlices)
                          .slices;
    if (ranks > 1) {  // at least one slab per rank where the slices allow it
        const std::size_t share = (slices + std::size_t(ranks) - 1) / std::size_t(ranks);
        plan.slabSlices =
            std::min(plan.slabSlices, std::max(batch, (share + batch - 1) / batch * batch));
    }
    plan.slabs = (slices + plan.slabSlices - 1) / plan.slabSlices;
    report.slabs = plan.slabs;
    report.slabSlices = plan.slabSlices;
    return plan;
}

Status reconstructAnalytic(Resolved& resolved, const FbpPlan& plan, const Sinograms& sino,
                           const ParallelGeometry& geom, const VolumeGeometry& grid, Volume& out,
                           const ExecContext& ctx, FbpTimings& timings) {
    if (!resolved.fourier)
        return reconstructFbp(sino, geom, grid, *resolved.backProjector, plan.batched, out, ctx,
                              &timings);
    GridrecReport run;
    TOMO_RETURN_IF_ERROR(
        resolved.fourier->reconstruct(sino, geom, grid, resolved.gridrec, out, ctx, run));
    timings = {run.timings.spectra, run.timings.gridding, run.timings.total, run.timings.timeline};
    return Status::ok();
}

Result<Volume> reconstructFbpSlab(const ReconRequest& request, Resolved& resolved,
                                  const FbpPlan& plan, std::size_t c, ReconReport& report,
                                  const ExecContext& ctx, std::future<Status>* prepared) {
    const std::size_t slices = request.source->shape()[0];
    const std::size_t first = c * plan.slabSlices;
    const std::size_t count = std::min(plan.slabSlices, slices - first);
    const std::string label = sliceText(first, count);
    Progress readScope, fbpScope;
    ExecContext readCtx = ctx, fbpCtx = ctx;
    if (ctx.progress) {
        readScope = ctx.progress->child(0.0, 0.3, label + ": read");
        fbpScope = ctx.progress->child(0.3, 1.0, label + ": fbp");
        readCtx.progress = &readScope;
        fbpCtx.progress = &fbpScope;
    }
    TOMO_ASSIGN_OR_RETURN(Sinograms sino, request.source->read(first, count, readCtx));
    if (prepared && prepared->valid())
        if (const Status p = prepared->get(); !p.isOk())  // the run makes them, or says why
            report.notes.push_back("FBP: the device was not prepared beside the read (" +
                                   p.message() + ")");
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, slabGeometry(request.geometry, count));
    VolumeGeometry grid = request.grid;
    grid.nz = static_cast<int>(count);
    Volume part;
    FbpTimings t;
    TOMO_RETURN_IF_ERROR(reconstructAnalytic(resolved, plan, sino, geometry, grid, part, fbpCtx, t)
                             .withContext(label));
    report.timings.filtering += t.filtering;
    report.timings.backProjection += t.backProjection;
    report.timings.total += t.total;
    report.timings.timeline += t.timeline;
    report.timings.checks += t.checks;
    report.timings.allocation += t.allocation;
    report.timings.open += t.open;
    report.timings.pipeline += t.pipeline;
    return part;
}

Status prepareFbpSlabs(const ReconRequest& request, Resolved& resolved, ReconReport& report) {
    if (resolved.spec.iterative || resolved.fourier || !resolved.backProjector) return Status::ok();
    const FbpPlan plan = planFbp(request, resolved, report);
    const auto [slices, angles, detectors] = request.source->shape();
    const std::size_t count = std::min(plan.slabSlices, slices);
    // The layout run() reconstructs: the stack in memory as it is, else slabs as read.
    const Sinograms* whole = plan.slabs == 1 ? request.source->whole() : nullptr;
    const SinogramChunkLayout in{static_cast<int>(angles), static_cast<int>(detectors),
                                 whole ? whole->pitch() : alignedCount<float>(detectors)};
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, slabGeometry(request.geometry, count));
    VolumeGeometry grid = request.grid;
    grid.nz = static_cast<int>(count);
    return prepareFbp(count, in, geometry, grid, *resolved.backProjector, plan.batched);
}

Status runFbpSlabs(const ReconRequest& request, Resolved& resolved, SlabOutput& out,
                   ReconReport& report, const ExecContext& ctx) {
    const SinogramSource& source = *request.source;
    const FbpPlan plan = planFbp(request, resolved, report);
    if (plan.slabs == 1 && source.whole()) {
        // The stack is in memory and one slab: reconstruct it in place (no copy).
        Volume image;
        TOMO_RETURN_IF_ERROR(reconstructAnalytic(resolved, plan, *source.whole(), request.geometry,
                                                 request.grid, image, ctx, report.timings));
        return out.put(0, std::move(image));
    }
    // Slabs read from the source: the device's plans, programs and buffers are made beside the
    // first read (issue 27 item 4) and waited for before its reconstruction.
    std::future<Status> prepared;
    if (resolved.backProjector && resolved.backProjector->device() && !resolved.fourier)
        prepared = std::async(std::launch::async, [&request, &resolved] {
            ReconReport unused;  // the plan's counts are the run's to report
            return prepareFbpSlabs(request, resolved, unused);
        });
    const std::size_t slices = source.shape()[0];
    for (std::size_t c = 0; c < plan.slabs; ++c) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        const std::size_t first = c * plan.slabSlices;
        const std::string label = sliceText(first, std::min(plan.slabSlices, slices - first));
        Progress scope;
        ExecContext slabCtx = ctx;
        if (ctx.progress) {
            scope = ctx.progress->child(double(c) / plan.slabs, double(c + 1) / plan.slabs, label);
            slabCtx.progress = &scope;
        }
        TOMO_ASSIGN_OR_RETURN(Volume part,
                              reconstructFbpSlab(request, resolved, plan, c, report, slabCtx,
                                                 c == 0 ? &prepared : nullptr));
        TOMO_RETURN_IF_ERROR(out.put(first, std::move(part)).withContext(label));
    }
    return Status::ok();
}

}  // namespace tomo::app::detail
