// Parallel-beam reconstruction across the ranks of a communicator (issue 16; ReconService.h,
// "Across ranks"). Rank 0 owns the output; every rank writes its planes into it itself where the
// format allows, else sends them to rank 0, which writes them in order (RankOutput.h). Every
// phase ends in RankAgreement::agree, so a rank's failure stops them all.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "app/recon/RankOutput.h"
#include "app/recon/ReconSteps.h"
#include "core/dist/RankAgreement.h"

namespace tomo::app::detail {
namespace {

constexpr int kRoot = 0;

/// Slices [first, first + count) of another source (one rank's share).
class SliceRange final : public SinogramSource {
  public:
    SliceRange(const SinogramSource& all, std::size_t first, std::size_t count)
        : m_all(all), m_first(first), m_count(count) {}
    std::array<std::size_t, 3> shape() const override {
        auto s = m_all.shape();
        s[0] = m_count;
        return s;
    }
    Result<Sinograms> read(std::size_t first, std::size_t count,
                           const ExecContext& ctx) const override {
        if (first > m_count || count > m_count - first)
            return invalidArgument("slices past this rank's share");
        return m_all.read(m_first + first, count, ctx);
    }
    std::size_t readOverheadPerSlice() const override { return m_all.readOverheadPerSlice(); }

  private:
    const SinogramSource& m_all;
    std::size_t m_first, m_count;
};

/// Everyone's @p mine, rank order, through the agreement's sums.
std::vector<double> gatherValue(RankAgreement& agreement, double mine) {
    Communicator& comm = agreement.communicator();
    std::vector<double> all(std::size_t(comm.size()), 0.0);
    all[std::size_t(comm.rank())] = mine;
    agreement.sum(all);
    return all;
}

/// FBP: slab c on rank c mod n, in rounds of n slabs; after each round's agreement every rank
/// puts its slab (RankOutput: into the file itself, or to rank 0, which writes the round's
/// slabs in order while the others reconstruct the next). Rank 0's write errors wait for the
/// next agreement (the round's slabs are still taken, so no sender is left blocked).
Status fbpAcrossRanks(const ReconRequest& request, Resolved& resolved, RankOutput& out,
                      ReconReport& report, RankAgreement& agreement, const ExecContext& ctx) {
    Communicator& comm = agreement.communicator();
    const int n = comm.size(), me = comm.rank();
    const FbpPlan plan = planFbp(request, resolved, report, n);
    const std::size_t slices = request.source->shape()[0];
    const std::size_t rounds = (plan.slabs + std::size_t(n) - 1) / std::size_t(n);
    const auto ny = std::size_t(request.grid.ny), nx = std::size_t(request.grid.nx);
    auto slabFirst = [&](std::size_t c) { return c * plan.slabSlices; };
    auto slabCount = [&](std::size_t c) {
        return std::min(plan.slabSlices, slices - slabFirst(c));
    };
    if (ctx.progress) ctx.progress->setTotal(rounds);
    Status pending;  // a write that failed, told at the next agreement
    for (std::size_t k = 0; k < rounds; ++k) {
        const std::size_t c = k * std::size_t(n) + std::size_t(me);
        Result<Volume> part = Volume{};
        if (c < plan.slabs) {
            ExecContext slabCtx = ctx;
            slabCtx.progress = nullptr;
            part = reconstructFbpSlab(request, resolved, plan, c, report, slabCtx);
        }
        TOMO_RETURN_IF_ERROR(agreement.agree(part ? pending : part.status()));
        if (c < plan.slabs) pending = out.putMine(slabFirst(c), std::move(*part));
        if (me == kRoot)
            for (int r = 1; r < n; ++r) {
                const std::size_t cr = k * std::size_t(n) + std::size_t(r);
                if (cr >= plan.slabs) break;
                const Status taken = out.takeOthers(r, slabFirst(cr), slabCount(cr), ny, nx);
                if (pending) pending = taken;
            }
        if (ctx.progress) ctx.progress->advance();
    }
    return pending;
}

/// Planes [first, first + count) of @p all, or null without it.
Result<std::shared_ptr<const Volume>> planesOf(const std::shared_ptr<const Volume>& all,
                                               std::size_t first, std::size_t count) {
    if (!all) return std::shared_ptr<const Volume>();
    if (first + count > all->dim(0)) return std::shared_ptr<const Volume>(all);  // checked later
    TOMO_ASSIGN_OR_RETURN(Volume part, Volume::create(count, all->dim(1), all->dim(2)));
    const std::size_t plane = all->dim(1) * all->pitch();
    std::copy_n(all->data() + first * plane, count * plane, part.data());
    return std::shared_ptr<const Volume>(std::make_shared<Volume>(std::move(part)));
}

/// Rank 0's report of its own share, made the run's: the whole shape, output and notes kept.
void adoptShare(ReconReport&& share, ReconReport& report) {
    std::vector<std::string> notes = std::move(report.notes);
    notes.insert(notes.end(), share.notes.begin(), share.notes.end());
    auto provenance = std::move(report.provenance);
    const auto shape = report.shape;
    const auto streamed = report.streamed;
    const auto algorithm = report.algorithm, variant = report.variant, backend = report.backend;
    report = std::move(share);
    report.notes = std::move(notes);
    report.provenance = std::move(provenance);
    report.shape = shape;
    report.streamed = streamed;
    report.algorithm = algorithm;
    report.variant = variant;
    report.backend = backend;
    report.image = Volume();
}

/// The solve of one rank's share [first, first + count) into @p image (ReconService.h, "Across
/// ranks"); @p together: one solve with the reductions across ranks, else chunks on their own.
Status solveShare(const Engine& engine, const ReconRequest& request, const Resolved& resolved,
                  const ReconCallbacks& callbacks, RankAgreement& agreement, bool together,
                  std::size_t first, std::size_t count, std::size_t unit, Volume& image,
                  ReconReport& report, const ExecContext& ctx) {
    const bool root = agreement.communicator().rank() == kRoot;
    const std::size_t slices = request.source->shape()[0];
    ReconRequest mine = request;
    mine.source = std::make_shared<SliceRange>(*request.source, first, count);
    TOMO_ASSIGN_OR_RETURN(mine.geometry, slabGeometry(request.geometry, count));
    mine.grid.nz = static_cast<int>(count);
    mine.slabSlices = together ? count : unit;  // together: the share is one solve
    TOMO_ASSIGN_OR_RETURN(mine.reference, planesOf(request.reference, first, count));
    TOMO_ASSIGN_OR_RETURN(mine.initial, planesOf(request.initial, first, count));
    ReconCallbacks local;
    if (root) local.onNote = callbacks.onNote;
    local.onIteration = [&](const IterationInfo& info, const SlabInfo& slab) {
        SlabInfo whole = slab;  // numbered among all the run's chunks
        whole.index += first / unit;
        whole.count = (slices + unit - 1) / unit;
        whole.firstSlice += first;
        IterationAction action = IterationAction::Continue;
        if (root && callbacks.onIteration) action = callbacks.onIteration(info, whole);
        if (!together) return action;
        const double agreed = agreement.fromRoot(double(int(action)));
        return std::isnan(agreed) ? IterationAction::Cancel
                                  : static_cast<IterationAction>(int(agreed));
    };
    ExecContext solveCtx = ctx;
    if (together) solveCtx.across = &agreement;
    if (!root) solveCtx.progress = nullptr;
    ReconReport share;
    share.shape = {count, report.shape[1], report.shape[2]};
    TOMO_ASSIGN_OR_RETURN(SlabOutput held,
                          SlabOutput::open(SlabOutput::Spec{{}, share.shape, {}, {}, 0}, share));
    TOMO_RETURN_IF_ERROR(runIterativeSlabs(engine, mine, resolved, local, held, share, solveCtx));
    TOMO_RETURN_IF_ERROR(held.commit(share));
    image = std::move(share.image);
    if (root) adoptShare(std::move(share), report);
    return Status::ok();
}

/// Iterative methods. Slices split in contiguous shares, one per rank. One solve over all
/// slices (no --chunk): every rank solves its share with the vector reductions summed across
/// ranks (ExecContext::across), so the iterations are those of one process up to the order of
/// the sums; rank 0's decision after each iteration (continue, stop and keep, cancel) is every
/// rank's. With --chunk, and for MBIR (its prior and automatic sigmas span slices), the shares
/// are whole chunks solved on their own, as one process solves them. Then every rank puts its
/// share (RankOutput: into the file itself, or to rank 0, which writes the shares in order).
Status iterativeAcrossRanks(const Engine& engine, const ReconRequest& request,
                            const Resolved& resolved, const ReconCallbacks& callbacks,
                            RankOutput& out, ReconReport& report, RankAgreement& agreement,
                            const ExecContext& ctx) {
    Communicator& comm = agreement.communicator();
    const int n = comm.size(), me = comm.rank();
    const std::size_t slices = request.source->shape()[0];
    const bool mbir = resolved.spec.id == "mbir";
    const bool together = request.slabSlices == 0 && !mbir;
    // Shares in units of chunks (one slice each when solving together).
    const std::size_t unit = together ? 1
                             : request.slabSlices > 0
                                 ? std::min(request.slabSlices, slices)
                                 : (slices + std::size_t(n) - 1) / std::size_t(n);
    const std::size_t units = (slices + unit - 1) / unit;
    if (together && slices < std::size_t(n))
        return invalidArgument(std::to_string(n) + " ranks for " + std::to_string(slices) +
                               " slice(s): an iterative solve across ranks needs a slice per "
                               "rank (run with at most " +
                               std::to_string(slices) + " ranks)");
    auto shareFirst = [&](int r) {
        return std::min(slices, units * std::size_t(r) / std::size_t(n) * unit);
    };
    if (mbir && request.slabSlices == 0 && me == kRoot && callbacks.onNote)
        callbacks.onNote(
            "mbir across ranks: each rank reconstructs its slices on its own (the "
            "prior's neighbours across ranks and the automatic sigmas are per rank)");
    const std::size_t first = shareFirst(me), count = shareFirst(me + 1) - first;
    Volume image;
    Status s = count == 0 ? Status::ok()
                          : solveShare(engine, request, resolved, callbacks, agreement, together,
                                       first, count, unit, image, report, ctx);
    TOMO_RETURN_IF_ERROR(agreement.agree(s));
    Status pending = count > 0 ? out.putMine(first, std::move(image)) : Status::ok();
    if (me != kRoot) return pending;
    for (int r = 1; r < n; ++r) {
        const std::size_t f = shareFirst(r), c = shareFirst(r + 1) - f;
        if (c == 0) continue;
        const Status taken = out.takeOthers(r, f, c, report.shape[1], report.shape[2]);
        if (pending) pending = taken;
    }
    report.slicesDone = slices;
    return pending;
}

}  // namespace

Result<ReconReport> runAcrossRanks(const Engine& engine, Communicator& comm,
                                   const ReconRequest& request, const ReconCallbacks& callbacks,
                                   const ExecContext& ctx) {
    const auto start = std::chrono::steady_clock::now();
    const bool root = comm.rank() == kRoot;
    RankAgreement agreement(comm, ctx.stop);
    ExecContext runCtx = ctx;
    runCtx.stop = agreement.stopToken();
    if (!root) runCtx.progress = nullptr;
    ReconCallbacks quiet = callbacks;  // notes and iterations are told by rank 0
    if (!root) quiet = ReconCallbacks{};
    ReconReport report;
    std::optional<SlabOutput> out;
    std::optional<RankOutput> planes;
    auto body = [&]() -> Status {
        TOMO_ASSIGN_OR_RETURN(Resolved resolved, resolve(engine, request, report, quiet));
        if (root) {
            TOMO_ASSIGN_OR_RETURN(SlabOutput opened,
                                  SlabOutput::open(request, resolved, report, true));
            out.emplace(std::move(opened));
        }
        TOMO_RETURN_IF_ERROR(agreement.agree(Status::ok()));
        TOMO_ASSIGN_OR_RETURN(RankOutput opened,
                              RankOutput::open(agreement, root ? &*out : nullptr, report, quiet));
        planes.emplace(std::move(opened));
        if (usesPartitionedMemxct(request, resolved, comm.size()))
            return memxctAcrossRanks(request, resolved, quiet, root ? &*out : nullptr, report,
                                     agreement, runCtx);
        if (resolved.spec.iterative)
            return iterativeAcrossRanks(engine, request, resolved, quiet, *planes, report,
                                        agreement, runCtx);
        TOMO_RETURN_IF_ERROR(fbpAcrossRanks(request, resolved, *planes, report, agreement, runCtx));
        // The slowest rank's times: the run's critical path.
        for (double* t : {&report.timings.filtering, &report.timings.backProjection}) {
            const std::vector<double> all = gatherValue(agreement, *t);
            *t = *std::max_element(all.begin(), all.end());
        }
        return Status::ok();
    };
    Status s = body();
    // Every rank's planes on disk before rank 0 commits the file they share.
    if (planes && planes->parallel()) s = agreement.agree(s ? planes->sync() : s);
    if (s && root) s = out->commit(report);
    TOMO_RETURN_IF_ERROR(agreement.agree(s));
    report.timings.total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.notes.push_back("ran across " + std::to_string(comm.size()) + " ranks (" +
                           comm.description() + ")");
    if (quiet.onNote) quiet.onNote(report.notes.back());
    return report;
}

}  // namespace tomo::app::detail
