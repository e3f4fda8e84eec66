// Cone-beam FDK over an R x C grid of ranks (ConeDistributed.h): filter, column all-gather,
// back-projection of the row's slab, row reduction, rank 0 writes; one agreement per phase.
#include "app/recon/ConeDistributed.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <future>
#include <mutex>

#include "app/recon/ConeSteps.h"
#include "app/recon/RankOutput.h"
#include "core/cone/ConeGrid2d.h"
#include "core/dist/RankAgreement.h"

namespace tomo::app {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Every float of @p a, row padding included (one contiguous block).
std::span<float> floatsOf(Array3<float>& a) {
    return {a.data(), a.dim(0) * a.dim(1) * a.pitch()};
}

/// How far the column's filtered views have arrived: published by the thread that exchanges
/// them, waited for by the back-projection's thread.
class Arrivals {
  public:
    /// Views before @p end (a view index) are in place.
    void publish(int end) {
        {
            std::lock_guard lock(m_mutex);
            m_end = end;
        }
        m_ready.notify_all();
    }
    /// No more views will come (the exchange ended, done or stopped).
    void close() {
        {
            std::lock_guard lock(m_mutex);
            m_closed = true;
        }
        m_ready.notify_all();
    }
    /// Returns once the views before @p end are in place; Cancelled when they will not come.
    Status wait(int end) {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [&] { return m_end >= end || m_closed; });
        return m_end >= end ? Status::ok() : cancelled();
    }

  private:
    std::mutex m_mutex;
    std::condition_variable m_ready;
    int m_end = 0;
    bool m_closed = false;
};

class ConeDistributedRun {
  public:
    ConeDistributedRun(const Engine& engine, Communicator& world, const ConeReconRequest& request,
                       const ReconCallbacks& callbacks, const ExecContext& ctx,
                       const ConeDistributedOptions& options)
        : m_engine(engine),
          m_world(world),
          m_request(request),
          m_callbacks(callbacks),
          m_options(options),
          m_agreement(world, ctx.stop),
          m_ctx(ctx) {
        m_ctx.stop = m_agreement.stopToken();
    }

    Result<ReconReport> run() {
        const auto start = Clock::now();
        double setup = 0;
        TOMO_RETURN_IF_ERROR(phase(setup, [this] { return prepare(); }));
        TOMO_RETURN_IF_ERROR(phase(setup, [this] { return split(); }));
        TOMO_RETURN_IF_ERROR(phase(setup, [this] { return openPlanes(); }));
        FdkTimings& t = m_fdk.timings;
        TOMO_RETURN_IF_ERROR(phase(t.overlapped, [this] { return filterGatherBackProject(); }));
        TOMO_RETURN_IF_ERROR(phase(t.reduce, [this] { return reduce(); }));
        TOMO_RETURN_IF_ERROR(phase(t.store, [this] { return store(); }));
        TOMO_RETURN_IF_ERROR(
            phase(t.store, [this] { return m_out ? m_out->commit(m_report) : Status::ok(); }));
        t.total = since(start);
        m_fdk.gups = static_cast<double>(m_request.grid.voxels()) * m_request.geometry.viewCount() /
                     (std::max(t.total, 1e-9) * 1073741824.0);
        addNotes(setup);
        detail::takeFdkReport(m_report, std::move(m_fdk), m_callbacks);
        return std::move(m_report);
    }

  private:
    /// Runs @p step, agrees on its status with every rank, adds the wall seconds to @p seconds.
    Status phase(double& seconds, const std::function<Status()>& step) {
        const auto t0 = Clock::now();
        const Status local = step();
        const Status agreed = m_agreement.agree(local);
        seconds += since(t0);
        return agreed;
    }

    Status prepare() {
        TOMO_ASSIGN_OR_RETURN(m_bp,
                              detail::prepareCone(m_engine, m_request, m_report, m_callbacks));
        const ConeGeometry& g = m_request.geometry;
        TOMO_ASSIGN_OR_RETURN(FdkFilter filter, FdkFilter::create(g, m_request.fdk));
        m_fdk.notes = filter.weights().notes();
        m_fdk.warnings = filter.weights().warnings();
        m_filter.emplace(std::move(filter));
        m_batch = fdkBatch(g, m_request.fdk, *m_bp);
        const ConeVolumeGrid& v = m_request.grid;
        const DetectorGrid& d = g.detector();
        m_problem = ConeProblem{v.nx, v.ny, v.nz, d.nu, d.nv, g.viewCount()};
        ConeGridLimits limits;
        limits.ranks = m_world.size();
        limits.memory = m_request.fdk.memoryBudget;
        limits.batch = m_batch;
        limits.rows = m_request.rankRows;
        limits.columns = m_request.rankColumns;
        TOMO_ASSIGN_OR_RETURN(m_grid, chooseConeRankGrid(m_problem, limits));
        m_row = m_grid.rowOf(m_world.rank());
        m_column = m_grid.columnOf(m_world.rank());
        m_planes = coneRowPlanes(m_grid, v.nz, m_row);
        m_columnViews = coneColumnViews(m_grid, m_problem.np, m_batch, m_column);
        m_read = detail::coneViewReader(m_request, m_ctx.threads);
        if (m_world.rank() != 0) return Status::ok();
        detail::SlabOutput::Spec spec = detail::coneOutputSpec(m_request, m_report);
        spec.options.sharedPlanes = true;
        TOMO_ASSIGN_OR_RETURN(detail::SlabOutput out, detail::SlabOutput::open(spec, m_report));
        m_out.emplace(std::move(out));
        return Status::ok();
    }

    /// How the row roots' slabs reach the file (collective: RankOutput::open).
    Status openPlanes() {
        TOMO_ASSIGN_OR_RETURN(detail::RankOutput planes,
                              detail::RankOutput::open(m_agreement, m_out ? &*m_out : nullptr,
                                                       m_report, m_callbacks));
        m_planesOut.emplace(std::move(planes));
        return Status::ok();
    }

    /// The column's ranks in row order and the row's in column order.
    Status split() {
        TOMO_ASSIGN_OR_RETURN(m_columnComm, m_world.split(m_column, m_row));
        TOMO_ASSIGN_OR_RETURN(m_rowComm, m_world.split(m_row, m_column));
        return Status::ok();
    }

    /// The column's batches, filtered, exchanged and back-projected, overlapped (paper 003's
    /// pipeline). Batch b of the column is filtered by row b mod R (coneBatchRow), so in round
    /// k every rank of the column filters one batch, the column broadcasts the round's batches
    /// in view order, and a worker thread back-projects each batch as soon as it is there
    /// (backProjectFiltered waits on FdkFiltered::ready). Only this thread calls MPI
    /// (MPI_THREAD_FUNNELED). Each batch's broadcast is preceded by its owner's status, so a
    /// rank that fails (a bad read, a cancel) stops its whole column at once, and the phase's
    /// agreement then tells every rank that rank's message.
    Status filterGatherBackProject() {
        const DetectorGrid& d = m_request.geometry.detector();
        TOMO_ASSIGN_OR_RETURN(
            m_views,
            Array3<float>::create(static_cast<std::size_t>(m_columnViews.count),
                                  static_cast<std::size_t>(d.nv), static_cast<std::size_t>(d.nu)));
        Arrivals arrived;
        FdkFiltered filtered{m_columnViews.first, &m_views,
                             [&](int first, int count) { return arrived.wait(first + count); }};
        // Without overlap the back-projection runs in get(), once every batch is there.
        auto worker = std::async(m_options.overlap ? std::launch::async : std::launch::deferred,
                                 [&] { return backProjectIntoSlab(filtered); });
        Status mine = Status::ok();  // this rank's own failure, told to its column
        const bool columnStopped = exchangeBatches(arrived, mine);
        arrived.close();
        Result<FdkReport> bp = worker.get();
        m_views = {};
        TOMO_RETURN_IF_ERROR(mine);
        if (columnStopped) return Status::ok();  // the failing rank's status is the agreement's
        TOMO_RETURN_IF_ERROR(bp.status());
        takeBackProjection(std::move(*bp));
        return Status::ok();
    }

    /// The column's batches round by round: this rank filters its batch of the round into the
    /// column's buffer, then the round's batches are broadcast from their rows in view order
    /// and announced to @p arrived. Returns true when another rank of the column failed.
    bool exchangeBatches(Arrivals& arrived, Status& mine) {
        const std::size_t image = m_views.dim(1) * m_views.pitch();
        const int batches = (m_columnViews.count + m_batch - 1) / m_batch;
        const int rows = m_grid.rows;
        for (int round = 0; round * rows < batches; ++round) {
            const int own = round * rows + m_row;
            if (own < batches && mine) mine = filterBatch(own);
            for (int b = round * rows; b < std::min(batches, (round + 1) * rows); ++b) {
                const int owner = coneBatchRow(m_grid, b);
                const auto t0 = Clock::now();
                std::int32_t ok = owner == m_row && mine ? 1 : 0;
                Status sent = m_columnComm->broadcast(
                    writableBytesOf(std::span<std::int32_t>(&ok, 1)), owner);
                if (sent && !ok) {
                    m_fdk.timings.gather += since(t0);
                    return owner != m_row;
                }
                const int first = b * m_batch;
                const int count = std::min(m_batch, m_columnViews.count - first);
                std::span<float> part(m_views.data() + static_cast<std::size_t>(first) * image,
                                      static_cast<std::size_t>(count) * image);
                if (sent) sent = m_columnComm->broadcast(writableBytesOf(part), owner);
                m_fdk.timings.gather += since(t0);
                if (!sent) {  // MPI itself failed: nothing more can be exchanged
                    if (mine) mine = sent;
                    return false;
                }
                arrived.publish(m_columnViews.first + first + count);
            }
        }
        return false;
    }

    /// Reads and filters the column's batch @p b (as runFdk would) into its place.
    Status filterBatch(int b) {
        if (m_ctx.stop.stop_requested()) return cancelled();
        const int first = m_columnViews.first + b * m_batch;
        const int count = std::min(m_batch, m_columnViews.end() - first);
        ExecContext inner = m_ctx;
        inner.progress = nullptr;
        Array3<float> batch;
        FdkTimings t;
        const auto t0 = Clock::now();
        TOMO_RETURN_IF_ERROR(m_filter->readAndApply(m_read, first, count, batch, t, inner));
        m_fdk.timings.read += t.read;
        m_fdk.timings.filter += since(t0);
        if (batch.dim(1) != m_views.dim(1) || batch.dim(2) != m_views.dim(2))
            return internalError("the view reader returned views of another size");
        const std::size_t image = m_views.dim(1) * m_views.pitch();
        std::copy_n(batch.data(), batch.dim(0) * image,
                    m_views.data() + static_cast<std::size_t>(b * m_batch) * image);
        m_filteredViews += count;
        return Status::ok();
    }

    /// The row's planes from the column's views as they arrive, into m_slab.
    Result<FdkReport> backProjectIntoSlab(const FdkFiltered& filtered) {
        const ConeVolumeGrid& v = m_request.grid;
        auto sink = [&](int first, Volume&& slab) -> Status {
            const int at = first - m_planes.first;
            if (at == 0 && slab.dim(0) == static_cast<std::size_t>(m_planes.count)) {
                m_slab = std::move(slab);  // one slab: no copy
                return Status::ok();
            }
            if (m_slab.empty()) {
                TOMO_ASSIGN_OR_RETURN(
                    m_slab,
                    Volume::create(static_cast<std::size_t>(m_planes.count),
                                   static_cast<std::size_t>(v.ny), static_cast<std::size_t>(v.nx)));
            }
            const std::size_t plane = slab.dim(1) * slab.pitch();
            std::copy_n(slab.data(), slab.dim(0) * plane,
                        m_slab.data() + static_cast<std::size_t>(at) * plane);
            return Status::ok();
        };
        return backProjectFiltered(m_request.geometry, v, m_request.fdk, *m_bp, filtered,
                                   m_planes.first, m_planes.count, sink, m_ctx);
    }

    void takeBackProjection(FdkReport&& bp) {
        m_fdk.variant = bp.variant;
        m_fdk.slabs = bp.slabs;
        m_fdk.slabPlanes = bp.slabPlanes;
        m_fdk.batch = bp.batch;
        m_fdk.timings.backProject = bp.timings.backProject;
        m_fdk.timings.device = bp.timings.device;
        for (std::string& n : bp.notes)
            m_fdk.notes.push_back(std::move(n));
    }

    /// The row's partial slabs summed in column order at its column-0 rank.
    Status reduce() {
        if (m_grid.columns == 1) return Status::ok();
        const std::span<float> all = floatsOf(m_slab);
        TOMO_RETURN_IF_ERROR(reduceSumInRankOrder(*m_rowComm, all, all, 0));
        if (m_column != 0) m_slab = {};
        return Status::ok();
    }

    /// Row roots put their slabs (RankOutput: each into the output file itself, or to rank 0,
    /// which writes every row's in plane order) and sync them before the commit's agreement.
    Status store() {
        Status pending = Status::ok();
        if (m_column == 0) {
            pending =
                m_planesOut->putMine(static_cast<std::size_t>(m_planes.first), std::move(m_slab));
            if (pending) pending = m_planesOut->sync();
        }
        m_slab = {};
        if (m_world.rank() != 0) return pending;
        const ConeVolumeGrid& v = m_request.grid;
        for (int r = 1; r < m_grid.rows; ++r) {
            const ConeRange p = coneRowPlanes(m_grid, v.nz, r);
            const Status taken = m_planesOut->takeOthers(
                m_grid.rankAt(r, 0), static_cast<std::size_t>(p.first),
                static_cast<std::size_t>(p.count), static_cast<std::size_t>(v.ny),
                static_cast<std::size_t>(v.nx));
            if (pending) pending = taken;
        }
        return pending;
    }

    void addNotes(double setup);

    const Engine& m_engine;
    Communicator& m_world;
    const ConeReconRequest& m_request;
    const ReconCallbacks& m_callbacks;
    const ConeDistributedOptions& m_options;
    RankAgreement m_agreement;
    ExecContext m_ctx;  ///< the caller's, stopped also by any rank's failure
    ReconReport m_report;
    FdkReport m_fdk;
    std::unique_ptr<ConeBackProjector> m_bp;
    std::optional<FdkFilter> m_filter;
    int m_batch = 1, m_row = 0, m_column = 0;
    ConeProblem m_problem;
    ConeRankGrid m_grid;
    ConeRange m_planes, m_columnViews;
    ConeViewReader m_read;
    int m_filteredViews = 0;  ///< views this rank read and filtered
    std::unique_ptr<Communicator> m_columnComm, m_rowComm;
    Array3<float> m_views;  ///< the column's filtered views, as they arrive
    Volume m_slab;          ///< the row's planes: this rank's part, then (column 0) the sum
    std::optional<detail::SlabOutput> m_out;  ///< rank 0
    std::optional<detail::RankOutput> m_planesOut;
};

void ConeDistributedRun::addNotes(double setup) {
    const FdkTimings& t = m_fdk.timings;
    char text[400];
    std::snprintf(text, sizeof text,
                  "distributed FDK: R x C = %d x %d over %d ranks; rank %d (row %d, column %d): "
                  "planes [%d, %d), column views [%d, %d) in batches of %d, %d of them "
                  "filtered here (one batch in %d)",
                  m_grid.rows, m_grid.columns, m_world.size(), m_world.rank(), m_row, m_column,
                  m_planes.first, m_planes.end(), m_columnViews.first, m_columnViews.end(), m_batch,
                  m_filteredViews, m_grid.rows);
    m_fdk.notes.emplace_back(text);
    std::snprintf(text, sizeof text,
                  "distributed FDK stages (s): setup %.3f; filter %.3f (read %.3f), gather %.3f "
                  "and back-project %.3f overlapped in %.3f (wall, to the phase's agreement); "
                  "reduce %.3f, store %.3f, total %.3f",
                  setup, t.filter, t.read, t.gather, t.backProject, t.overlapped, t.reduce, t.store,
                  t.total);
    m_fdk.notes.emplace_back(text);
    if (!m_options.model) return;
    const ConeModelTimes m = coneModel(m_problem, m_grid, *m_options.model);
    std::snprintf(text, sizeof text,
                  "model (paper 003 Eqs. 8-19): load %.3f, filter %.3f, gather %.3f, "
                  "back-project %.3f, reduce %.3f, store %.3f; one after the other %.3f, "
                  "overlapped (T_runtime) %.3f",
                  m.load, m.filter, m.allgather, m.backProject, m.reduce, m.store, m.sequential,
                  m.runtime);
    m_fdk.notes.emplace_back(text);
}

}  // namespace

Result<ReconReport> runConeDistributed(const Engine& engine, Communicator& world,
                                       const ConeReconRequest& request,
                                       const ReconCallbacks& callbacks, const ExecContext& ctx,
                                       const ConeDistributedOptions& options) {
    ConeDistributedRun run(engine, world, request, callbacks, ctx, options);
    return run.run();
}

}  // namespace tomo::app
