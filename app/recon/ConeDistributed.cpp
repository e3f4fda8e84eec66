// Cone-beam FDK over an R x C grid of ranks (ConeDistributed.h): filter, column all-gather,
// back-projection of the row's slab, row reduction, rank 0 writes; one agreement per phase.
#include "app/recon/ConeDistributed.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>

#include "app/recon/ConeSteps.h"
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

/// Bytes per message when a row root sends its slab to rank 0 (whole planes, at least one).
constexpr std::size_t kStorePiece = std::size_t(64) << 20;

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
        FdkTimings& t = m_fdk.timings;
        TOMO_RETURN_IF_ERROR(phase(t.filter, [this] { return filter(); }));
        TOMO_RETURN_IF_ERROR(phase(t.gather, [this] { return gather(); }));
        TOMO_RETURN_IF_ERROR(phase(t.backProject, [this] { return backProject(); }));
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
        limits.rows = m_options.rows;
        limits.columns = m_options.columns;
        TOMO_ASSIGN_OR_RETURN(m_grid, chooseConeRankGrid(m_problem, limits));
        m_row = m_grid.rowOf(m_world.rank());
        m_column = m_grid.columnOf(m_world.rank());
        m_planes = coneRowPlanes(m_grid, v.nz, m_row);
        m_columnViews = coneColumnViews(m_grid, m_problem.np, m_batch, m_column);
        m_mine = coneRankViews(m_grid, m_problem.np, m_batch, m_row, m_column);
        if (m_world.rank() != 0) return Status::ok();
        TOMO_ASSIGN_OR_RETURN(
            detail::SlabOutput out,
            detail::SlabOutput::open(detail::coneOutputSpec(m_request, m_report), m_report));
        m_out.emplace(std::move(out));
        return Status::ok();
    }

    /// The column's ranks in row order and the row's in column order.
    Status split() {
        TOMO_ASSIGN_OR_RETURN(m_columnComm, m_world.split(m_column, m_row));
        TOMO_ASSIGN_OR_RETURN(m_rowComm, m_world.split(m_row, m_column));
        return Status::ok();
    }

    /// This rank's views, batch by batch as runFdk reads and filters them, into the column's
    /// buffer at their place.
    Status filter() {
        const DetectorGrid& d = m_request.geometry.detector();
        TOMO_ASSIGN_OR_RETURN(
            m_views,
            Array3<float>::create(static_cast<std::size_t>(m_columnViews.count),
                                  static_cast<std::size_t>(d.nv), static_cast<std::size_t>(d.nu)));
        const ConeViewReader read = detail::coneViewReader(m_request);
        ExecContext inner = m_ctx;
        inner.progress = nullptr;
        const std::size_t image = m_views.dim(1) * m_views.pitch();
        for (int first = m_mine.first; first < m_mine.end(); first += m_batch) {
            const int count = std::min(m_batch, m_mine.end() - first);
            Array3<float> batch;
            FdkTimings t;
            TOMO_RETURN_IF_ERROR(m_filter->readAndApply(read, first, count, batch, t, inner));
            m_fdk.timings.read += t.read;
            if (batch.dim(1) != m_views.dim(1) || batch.dim(2) != m_views.dim(2))
                return internalError("the view reader returned views of another size");
            std::copy_n(
                batch.data(), batch.dim(0) * image,
                m_views.data() + static_cast<std::size_t>(first - m_columnViews.first) * image);
        }
        return Status::ok();
    }

    /// The column's all-gather: each rank's share broadcast from it in row order (the shares
    /// may differ by a batch: MPI_Allgatherv's job with the calls the communicator has).
    Status gather() {
        const std::size_t image = m_views.dim(1) * m_views.pitch();
        for (int r = 0; r < m_grid.rows; ++r) {
            const ConeRange v = coneRankViews(m_grid, m_problem.np, m_batch, r, m_column);
            if (v.count == 0) continue;
            std::span<float> part(
                m_views.data() + static_cast<std::size_t>(v.first - m_columnViews.first) * image,
                static_cast<std::size_t>(v.count) * image);
            TOMO_RETURN_IF_ERROR(m_columnComm->broadcast(writableBytesOf(part), r));
        }
        return Status::ok();
    }

    Status backProject() {
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
        const FdkFiltered filtered{m_columnViews.first, &m_views};
        TOMO_ASSIGN_OR_RETURN(
            FdkReport bp, backProjectFiltered(m_request.geometry, v, m_request.fdk, *m_bp, filtered,
                                              m_planes.first, m_planes.count, sink, m_ctx));
        m_views = {};
        m_fdk.variant = bp.variant;
        m_fdk.slabs = bp.slabs;
        m_fdk.slabPlanes = bp.slabPlanes;
        m_fdk.batch = bp.batch;
        m_fdk.timings.device = bp.timings.device;
        for (std::string& n : bp.notes)
            m_fdk.notes.push_back(std::move(n));
        return Status::ok();
    }

    /// The row's partial slabs summed in column order at its column-0 rank.
    Status reduce() {
        if (m_grid.columns == 1) return Status::ok();
        const std::span<float> all = floatsOf(m_slab);
        TOMO_RETURN_IF_ERROR(reduceSumInRankOrder(*m_rowComm, all, all, 0));
        if (m_column != 0) m_slab = {};
        return Status::ok();
    }

    /// Planes per message for planes of @p plane floats.
    static std::size_t planesPerPiece(std::size_t plane) {
        return std::max<std::size_t>(1, kStorePiece / (plane * sizeof(float)));
    }

    /// Row roots send their slabs to rank 0, which writes every row's in plane order. Rank 0
    /// receives everything even after a failed write, so that no sender waits forever.
    Status store() {
        if (m_column != 0) return Status::ok();
        const int tag = static_cast<int>(Tag::Slab);
        const ConeVolumeGrid& v = m_request.grid;
        const std::size_t plane = static_cast<std::size_t>(v.ny) * m_slab.pitch();
        const std::size_t piece = planesPerPiece(plane);
        if (m_world.rank() != 0) {
            for (std::size_t k = 0; k < m_slab.dim(0); k += piece) {
                const std::size_t n = std::min(piece, m_slab.dim(0) - k);
                std::span<const float> part(m_slab.data() + k * plane, n * plane);
                TOMO_RETURN_IF_ERROR(m_world.send(0, tag, bytesOf(part)));
            }
            m_slab = {};
            return Status::ok();
        }
        Status written = m_out->put(static_cast<std::size_t>(m_planes.first), std::move(m_slab));
        std::vector<float> buffer;
        for (int r = 1; r < m_grid.rows; ++r) {
            const ConeRange p = coneRowPlanes(m_grid, v.nz, r);
            for (int k = 0; k < p.count; k += static_cast<int>(piece)) {
                const std::size_t n = std::min(piece, static_cast<std::size_t>(p.count - k));
                buffer.resize(n * plane);
                TOMO_RETURN_IF_ERROR(m_world.recv(m_grid.rankAt(r, 0), tag,
                                                  writableBytesOf(std::span<float>(buffer))));
                if (!written) continue;
                auto part = Volume::create(n, static_cast<std::size_t>(v.ny),
                                           static_cast<std::size_t>(v.nx));
                if (!part) {
                    written = part.status();
                    continue;
                }
                std::copy(buffer.begin(), buffer.end(), part->data());
                written = m_out->put(static_cast<std::size_t>(p.first + k), std::move(*part));
            }
        }
        return written;
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
    ConeRange m_planes, m_columnViews, m_mine;
    std::unique_ptr<Communicator> m_columnComm, m_rowComm;
    Array3<float> m_views;  ///< the column's filtered views
    Volume m_slab;          ///< the row's planes: this rank's part, then (column 0) the sum
    std::optional<detail::SlabOutput> m_out;  ///< rank 0
};

void ConeDistributedRun::addNotes(double setup) {
    const FdkTimings& t = m_fdk.timings;
    char text[400];
    std::snprintf(text, sizeof text,
                  "distributed FDK: R x C = %d x %d over %d ranks; rank %d (row %d, column %d): "
                  "planes [%d, %d), filtered views [%d, %d), column views [%d, %d)",
                  m_grid.rows, m_grid.columns, m_world.size(), m_world.rank(), m_row, m_column,
                  m_planes.first, m_planes.end(), m_mine.first, m_mine.end(), m_columnViews.first,
                  m_columnViews.end());
    m_fdk.notes.emplace_back(text);
    std::snprintf(text, sizeof text,
                  "distributed FDK stages (s, wall, to each phase's agreement): setup %.3f, "
                  "filter %.3f (read %.3f), gather %.3f, back-project %.3f, reduce %.3f, store "
                  "%.3f, total %.3f",
                  setup, t.filter, t.read, t.gather, t.backProject, t.reduce, t.store, t.total);
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
