// MemXCT across ranks with its partitioned SpMV (issue 16, item 3; ReconService.h "Across
// ranks"): CGLS on slices whose system matrix is split over the ranks
// (core/memxct/PartitionedMemxct.h). Each rank holds its runs of the image and sinogram curves;
// the vector reductions are summed across ranks; rank 0 assembles the image and writes it.
#include <cmath>

#include "app/recon/ReconSteps.h"
#include "core/dist/RankAgreement.h"
#include "core/memxct/PartitionedMemxct.h"
#include "core/solvers/Cgls.h"

namespace tomo::app::detail {
namespace {

/// This rank's part of a stack [slice][row][column] along an ordering of its planes: the
/// positions [first, first + count) of the curve, per slice (an image along the image curve,
/// sinograms [slice][angle][detector] along the sinogram curve).
std::vector<float> curvePart(const Array3<float>& v, const HilbertOrdering& o, std::size_t first,
                             std::size_t count) {
    const auto width = std::uint32_t(o.width());
    std::vector<float> part(v.dim(0) * count);
    for (std::size_t z = 0; z < v.dim(0); ++z)
        for (std::size_t k = 0; k < count; ++k) {
            const std::uint32_t pixel = o.pixelAt(first + k);
            part[z * count + k] = v(z, pixel / width, pixel % width);
        }
    return part;
}

std::vector<float> imagePart(const Volume& v, const PartitionedMemxctOperator& op, int rank) {
    return curvePart(v, op.imageOrdering(), op.pixelCuts()[std::size_t(rank)], op.ownedPixels());
}

std::vector<float> sinogramPart(const Sinograms& s, const PartitionedMemxctOperator& op,
                                int rank) {
    return curvePart(s, op.sinogramOrdering(), op.rayCuts()[std::size_t(rank)], op.ownedRays());
}

/// The CGLS options of the resolved parameters; the discrepancy rule's noise level comes from
/// the whole sinograms (every rank holds them), since the curve-ordered parts have no rows.
Result<CglsOptions> cglsOptions(const Resolved& resolved, const ParallelGeometry& geometry,
                                const Sinograms& sino) {
    const ParameterValues& params = resolved.params;
    CglsOptions o;
    TOMO_ASSIGN_OR_RETURN(o.stop, stopOptionsFor(params, geometry));
    if (o.stop.rule == StopRule::Discrepancy && !(o.stop.noiseSigma > 0)) {
        std::vector<float> all(sino.dim(0) * sino.dim(1) * sino.dim(2));
        for (std::size_t z = 0, i = 0; z < sino.dim(0); ++z)
            for (std::size_t a = 0; a < sino.dim(1); ++a)
                for (float v : sino.row(z, a))
                    all[i++] = v;
        o.stop.noiseSigma = discrepancyNoiseLevel(all, o.stop.layout).sigma();
        o.stop.noiseEstimated = true;
    }
    o.iterations = params.integer("iterations");
    o.tolerance = params.real("tolerance");
    o.lambda = params.real("lambda");
    return o;
}

/// Rank 0: every rank's curve run of every slice into the image (masked pixels 0).
Result<Volume> assemble(Communicator& comm, const PartitionedMemxctOperator& op,
                        std::vector<float> mine, std::size_t slices) {
    const HilbertOrdering& o = op.imageOrdering();
    TOMO_ASSIGN_OR_RETURN(Volume image,
                          Volume::create(slices, std::size_t(o.height()), std::size_t(o.width())));
    image.fill(0.f);
    const auto nx = std::uint32_t(o.width());
    for (int r = 0; r < comm.size(); ++r) {
        const std::size_t first = op.pixelCuts()[std::size_t(r)],
                          owned = op.pixelCuts()[std::size_t(r) + 1] - first;
        std::vector<float> part = r == 0 ? std::move(mine) : std::vector<float>(slices * owned);
        if (r != 0)
            TOMO_RETURN_IF_ERROR(comm.recv(r, int(Tag::Slab),
                                           std::as_writable_bytes(std::span<float>(part))));
        for (std::size_t z = 0; z < slices; ++z)
            for (std::size_t k = 0; k < owned; ++k) {
                const std::uint32_t pixel = o.pixelAt(first + k);
                image(z, pixel / nx, pixel % nx) = part[z * owned + k];
            }
    }
    return image;
}

/// A rank's share of the CSR matrix and its transpose (the one-process estimate over the
/// ranks) against the memory budget of MemXCT (three quarters of this machine's memory).
Status checkShareFits(const ReconRequest& request, MemxctOptions options, int ranks) {
    options.kernel = MemxctKernel::Csr;
    TOMO_ASSIGN_OR_RETURN(MemxctMemoryEstimate e,
                          estimateMemxctMemory(request.geometry, request.grid, options));
    const std::size_t share = e.peakBytes / std::size_t(ranks);
    if (share <= e.budgetBytes) return Status::ok();
    const std::size_t needed = (e.peakBytes + e.budgetBytes - 1) / e.budgetBytes;
    return outOfMemory("MemXCT: a share of the partitioned system matrix needs about " +
                       std::to_string(share >> 20) + " MiB per rank (" +
                       std::to_string(e.nonzeros / 1000000) + " M nonzeros over " +
                       std::to_string(ranks) + " ranks) but the budget is " +
                       std::to_string(e.budgetBytes >> 20) + " MiB: use at least " +
                       std::to_string(needed) + " ranks on machines like this one");
}

}  // namespace

bool usesPartitionedMemxct(const ReconRequest& request, const Resolved& resolved, int ranks) {
    if (resolved.spec.id != "memxct") return false;
    const std::string& how = resolved.params.text("distribute");
    return how == "spmv" ||
           (how == "auto" && request.source->shape()[0] < static_cast<std::size_t>(ranks));
}

Status memxctAcrossRanks(const ReconRequest& request, const Resolved& resolved,
                         const ReconCallbacks& callbacks, SlabOutput* out, ReconReport& report,
                         RankAgreement& agreement, const ExecContext& ctx) {
    Communicator& comm = agreement.communicator();
    const int me = comm.rank();
    const std::size_t slices = request.source->shape()[0];
    MemxctOptions mo;
    mo.tileSize = resolved.params.integer("tile");
    mo.circleMask = resolved.params.boolean("circle-mask");
    // Local work first (size check, read, trace), agreed before the first exchange.
    std::unique_ptr<PartitionedMemxctOperator> op;
    Sinograms sino;
    Status s = [&]() -> Status {
        TOMO_RETURN_IF_ERROR(checkShareFits(request, mo, comm.size()));
        TOMO_ASSIGN_OR_RETURN(sino, request.source->read(0, slices, ctx));
        ExecContext build = ctx;
        build.progress = nullptr;
        TOMO_ASSIGN_OR_RETURN(
            op, PartitionedMemxctOperator::create(request.geometry, request.grid, mo, comm, build));
        return Status::ok();
    }();
    TOMO_RETURN_IF_ERROR(agreement.agree(s));
    TOMO_RETURN_IF_ERROR(op->connect());
    if (me == 0 && callbacks.onNote)
        callbacks.onNote("memxct: the system matrix is partitioned over " +
                         std::to_string(comm.size()) + " ranks (rank 0: " +
                         std::to_string(op->nonzeros()) + " nonzeros, " +
                         std::to_string(op->haloPixels()) + " halo pixels)");
    TOMO_ASSIGN_OR_RETURN(CglsOptions options, cglsOptions(resolved, request.geometry, sino));
    const std::vector<float> b = sinogramPart(sino, *op, me);
    sino = Sinograms();
    std::vector<float> x = request.initial ? imagePart(*request.initial, *op, me)
                                           : std::vector<float>(op->domainSize(), 0.f);
    const std::vector<float> reference =
        request.reference && request.reference->dim(0) == slices
            ? imagePart(*request.reference, *op, me)
            : std::vector<float>{};
    options.reference = reference;
    ExecContext solveCtx = ctx;
    solveCtx.across = &agreement;
    if (me != 0) solveCtx.progress = nullptr;
    const SlabInfo whole{0, 1, 0, slices};
    auto onIteration = [&](const IterationInfo& info) {
        IterationAction action = IterationAction::Continue;
        if (me == 0 && callbacks.onIteration) action = callbacks.onIteration(info, whole);
        const double agreed = agreement.fromRoot(double(int(action)));
        if (std::isnan(agreed)) return IterationAction::Cancel;
        if (static_cast<IterationAction>(int(agreed)) == IterationAction::StopAndKeep)
            report.stoppedEarly = true;
        return static_cast<IterationAction>(int(agreed));
    };
    SolverSummary summary;
    s = solveCgls(*op, b, x, options, onIteration, summary, solveCtx);
    summary.algorithm = "memxct";
    TOMO_RETURN_IF_ERROR(agreement.agree(s));
    if (me != 0) return comm.send(0, int(Tag::Slab), std::as_bytes(std::span<const float>(x)));
    reportSolve(summary, report);
    report.variant = op->name();
    report.slabs = 1;
    report.slabSlices = slices;
    report.slicesDone = slices;
    TOMO_ASSIGN_OR_RETURN(Volume image, assemble(comm, *op, std::move(x), slices));
    return out->put(0, std::move(image));
}

}  // namespace tomo::app::detail
