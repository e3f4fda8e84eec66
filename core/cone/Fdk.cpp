#include "core/cone/Fdk.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <optional>

#include "core/cone/FdkWeightStage.h"
#include "core/recon/Fbp.h"

namespace tomo {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Batch {
    std::shared_ptr<const Array3<float>> views;
    double readSeconds = 0, filterSeconds = 0;
};

struct Plan {
    int batch = 16, batches = 1, planes = 1;
    bool cache = false;
};

/// What a run back-projects: views [firstView, firstView + views) and planes [firstPlane,
/// firstPlane + planes); @p held filtered views are already in memory (backProjectFiltered).
struct Extent {
    int firstView = 0, views = 0, firstPlane = 0, planes = 0;
    bool held = false;
};

/// The most planes (at most @p most) whose slab, batch of @p batchPixels and the pipeline's
/// rings of @p rings bytes fit @p bp's device budget; @p most without a device.
int devicePlanes(const ConeBackProjector& bp, std::size_t plane, std::size_t batchPixels,
                 std::size_t rings, int most) {
    const std::size_t budget = bp.deviceBudget();
    auto fits = [&](int planes) {
        return bp.bytesFor(plane, static_cast<std::size_t>(planes), batchPixels) + rings <= budget;
    };
    if (budget == 0 || fits(most)) return most;
    int lo = 1, hi = most;  // bytesFor grows with the voxels
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (fits(mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

Plan planFdk(const ConeGeometry& g, const ConeVolumeGrid& grid, const FdkOptions& o,
             const ConeBackProjector& bp, const Extent& e) {
    Plan p;
    p.batch = fdkBatch(g, o, bp);
    p.batches = (e.views + p.batch - 1) / p.batch;
    const DetectorGrid& d = g.detector();
    const std::size_t viewBytes = 4 * static_cast<std::size_t>(d.nu + 3) * (d.nv + 3);
    const std::size_t plane = static_cast<std::size_t>(grid.nx) * grid.ny;
    const std::size_t fixed = 4 * viewBytes * static_cast<std::size_t>(p.batch);
    const std::size_t filtered = viewBytes * static_cast<std::size_t>(e.views);
    auto planesFor = [&](std::size_t budget) {
        const std::size_t avail = budget > fixed ? budget - fixed : 0;
        return static_cast<int>(std::clamp<std::size_t>(avail / (8 * plane), 1, e.planes));
    };
    if (o.slabPlanes > 0) {
        p.planes = std::min(o.slabPlanes, e.planes);
    } else {
        const std::size_t held = e.held ? filtered : 0;
        p.planes = planesFor(o.memoryBudget > held ? o.memoryBudget - held : 0);
    }
    if (!e.held && p.planes < e.planes && filtered <= o.memoryBudget / 2) {
        p.cache = true;
        if (o.slabPlanes <= 0) p.planes = planesFor(o.memoryBudget - filtered);
    }
    if (o.slabPlanes <= 0) {  // the device's own memory (issue 27 item 6)
        const std::size_t batchPixels = static_cast<std::size_t>(p.batch) * d.nu * d.nv;
        p.planes = devicePlanes(bp, plane, batchPixels, 2 * 4 * batchPixels, p.planes);
    }
    return p;
}

}  // namespace

TimelineReport fdkTimeline(const FdkTimings& t) {
    TimelineReport r;
    r.wall = t.total;
    const ConeDeviceTimes& d = t.device;
    const bool device = d.upload + d.kernel + d.transpose + d.download > 0;
    auto set = [&r](TimelineStage s, double seconds) {
        r.busy[static_cast<std::size_t>(s)] = seconds;
        r.spans[static_cast<std::size_t>(s)] = seconds > 0 ? 1 : 0;
    };
    set(TimelineStage::Read, t.read);
    set(TimelineStage::Filter, t.filter);
    set(TimelineStage::Upload, d.upload);
    set(TimelineStage::Kernels, device ? d.kernel + d.transpose : t.backProject);
    set(TimelineStage::Download, d.download);
    set(TimelineStage::Write, device ? std::max(0.0, t.store - d.download - d.transpose) : t.store);
    return r;
}

namespace {

/// One FDK run: the plan, the filter stage (or views filtered before), the cache of filtered
/// batches and the report.
class FdkRun {
  public:
    struct Parts {
        const ConeViewReader* read = nullptr;   ///< runFdk
        std::optional<FdkFilter> filter;        ///< runFdk
        const FdkFiltered* filtered = nullptr;  ///< backProjectFiltered
    };

    FdkRun(const ConeGeometry& g, const ConeVolumeGrid& grid, const FdkOptions& o,
           ConeBackProjector& bp, const ConeSlabSink& sink, const ExecContext& ctx, Parts parts,
           const Extent& extent)
        : m_g(g),
          m_grid(grid),
          m_options(o),
          m_bp(bp),
          m_sink(sink),
          m_ctx(ctx),
          m_parts(std::move(parts)),
          m_extent(extent),
          m_plan(planFdk(g, grid, o, bp, extent)) {
        m_cache.resize(m_plan.cache ? static_cast<std::size_t>(m_plan.batches) : 0);
        m_report.variant = bp.info().id;
        if (m_parts.filter) {
            m_report.notes = m_parts.filter->weights().notes();
            m_report.warnings = m_parts.filter->weights().warnings();
        }
    }

    Result<FdkReport> run() {
        const auto start = Clock::now();
        const int end = m_extent.firstPlane + m_extent.planes;
        const int slabs = (m_extent.planes + m_plan.planes - 1) / m_plan.planes;
        if (m_ctx.progress)
            m_ctx.progress->setTotal(static_cast<std::uint64_t>(slabs) * m_plan.batches);
        for (int first = m_extent.firstPlane; first < end;) {
            const int planes = std::min(m_plan.planes, end - first);
            Status began = m_bp.begin(m_g, m_grid, first, planes, m_ctx);
            if (began.code() == ErrorCode::OutOfMemory && planes > 1 && m_options.slabPlanes <= 0) {
                m_plan.planes = std::max(1, planes / 2);  // a smaller slab, as the device allows
                m_report.notes.push_back("slab reduced to " + std::to_string(m_plan.planes) +
                                         " planes: " + began.message());
                continue;
            }
            TOMO_RETURN_IF_ERROR(began);
            TOMO_RETURN_IF_ERROR(backProjectSlab(m_report.slabs, slabs));
            const auto t0 = Clock::now();
            TOMO_ASSIGN_OR_RETURN(Volume volume, m_bp.finish(m_ctx));
            const ConeDeviceTimes d = m_bp.deviceTimes();
            ConeDeviceTimes& sum = m_report.timings.device;
            sum.upload += d.upload, sum.kernel += d.kernel;
            sum.transpose += d.transpose, sum.download += d.download;
            TOMO_RETURN_IF_ERROR(m_sink(first, std::move(volume)));
            m_report.timings.store += since(t0);
            first += planes;
            ++m_report.slabs;
        }
        m_report.slabPlanes = m_plan.planes;
        m_report.batch = m_plan.batch;
        m_report.filteredCached = m_plan.cache;
        m_report.timings.total = since(start);
        m_report.gups = static_cast<double>(m_grid.nx) * m_grid.ny * m_extent.planes *
                        m_extent.views / (std::max(m_report.timings.total, 1e-9) * 1073741824.0);
        return std::move(m_report);
    }

  private:
    /// Reads and filters batch @p b (or takes it from the cache, or from the views held).
    Result<Batch> produce(int b) {
        const int first = m_extent.firstView + b * m_plan.batch;
        const int count = std::min(m_plan.batch, m_extent.firstView + m_extent.views - first);
        if (m_plan.cache && m_cache[static_cast<std::size_t>(b)])
            return Batch{m_cache[static_cast<std::size_t>(b)], 0, 0};
        auto views = std::make_shared<Array3<float>>();
        if (m_parts.filtered) {
            if (m_parts.filtered->ready)
                TOMO_RETURN_IF_ERROR(m_parts.filtered->ready(first, count));
            const Array3<float>& all = *m_parts.filtered->views;
            TOMO_ASSIGN_OR_RETURN(*views, Array3<float>::create(static_cast<std::size_t>(count),
                                                                all.dim(1), all.dim(2)));
            const std::size_t image = all.dim(1) * all.pitch();
            std::copy_n(
                all.data() + static_cast<std::size_t>(first - m_parts.filtered->first) * image,
                static_cast<std::size_t>(count) * image, views->data());
            return Batch{std::move(views), 0, 0};
        }
        FdkTimings t;
        TOMO_RETURN_IF_ERROR(
            m_parts.filter->readAndApply(*m_parts.read, first, count, *views, t, m_ctx));
        Batch out{std::move(views), t.read, t.filter};
        if (m_plan.cache) m_cache[static_cast<std::size_t>(b)] = out.views;
        return out;
    }

    /// Every batch of the begun slab through core's pipeline on a GPU back-projector's device
    /// (the file comment of Fdk.h): read on the packing thread (and weighted and ramp-filtered
    /// by the CPU when the device has no filter stage), then upload, device weights, device
    /// ramp, device back-projection into the resident slab.
    Status backProjectSlabOnDevice(ConeDeviceBackProjection& device, int slab, int slabs) {
        const DetectorGrid& d = m_g.detector();
        const std::size_t pitch = alignedCount<float>(static_cast<std::size_t>(d.nu));
        TOMO_ASSIGN_OR_RETURN(std::unique_ptr<DeviceQueues> queues, device.openQueues());
        const SinogramChunkLayout layout{d.nv, d.nu, pitch};  // a view: nv rows of nu pixels
        std::unique_ptr<ChunkStage> ramp;
        if (m_options.rowFilter) {
            TOMO_ASSIGN_OR_RETURN(
                ramp, m_options.rowFilter->deviceStage(*queues, m_parts.filter->ramp(), layout));
        }
        TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ChunkStage> bp,
                              device.stage(*queues, m_extent.firstView, pitch));
        // The weights on the device before its ramp (a device without a ramp stage gets views
        // filtered by the CPU, weights included).
        std::unique_ptr<ChunkStage> weights;
        if (ramp && m_options.deviceWeights)
            weights = makeFdkWeightStage(device, *queues, m_parts.filter->weights(),
                                         m_extent.firstView, pitch);
        std::vector<ChunkStage*> stages;
        if (weights) stages.push_back(weights.get());
        if (ramp) stages.push_back(ramp.get());
        stages.push_back(bp.get());
        PipelineIo io;
        io.items = static_cast<std::size_t>(m_extent.views);
        io.chunkItems = static_cast<std::size_t>(m_plan.batch);
        io.inputBytesPerItem = layout.bytesPerSlice();
        // The packing thread reads each batch straight into its pinned staging slot (no buffer
        // of its own, no second copy), then weighs it (and ramp-filters it where the device
        // has no ramp) there. Its span is the timeline's Read; the weights and ramp on the
        // device are the Filter spans of the compute queue.
        io.hostStageKind = TimelineStage::Read;
        FdkTimings host;
        io.hostStage = [&](const PipelineChunk& c, std::byte* staging) -> Status {
            const int first = m_extent.firstView + static_cast<int>(c.first);
            const View2<float> views(reinterpret_cast<float*>(staging), c.count * d.nv,
                                     std::size_t(d.nu), pitch);
            auto t0 = Clock::now();
            TOMO_RETURN_IF_ERROR((*m_parts.read)(first, static_cast<int>(c.count), views));
            if (pitch > std::size_t(d.nu))  // the padding as an Array3's: zeros
                for (std::size_t r = 0; r < views.rows(); ++r)
                    std::fill(views.row(r).data() + d.nu, views.row(r).data() + pitch, 0.0f);
            host.read += since(t0);
            t0 = Clock::now();
            if (ramp && !weights)
                m_parts.filter->weigh(first, views);
            else if (!ramp)
                TOMO_RETURN_IF_ERROR(m_parts.filter->apply(first, views, m_ctx));
            host.filter += since(t0);
            return Status::ok();
        };
        // A slab reduced on the device's refusal adds slabs: the fractions stay within [0, 1].
        const double from = std::min(1.0, double(slab) / slabs);
        const double to = std::min(1.0, double(slab + 1) / slabs);
        Progress scope =
            m_ctx.progress ? m_ctx.progress->child(from, to, "back-projection") : Progress();
        const ExecContext ctx{m_ctx.threads, m_ctx.stop, m_ctx.progress ? &scope : nullptr,
                              m_ctx.across};
        Timeline timeline;
        const auto t0 = Clock::now();
        TOMO_RETURN_IF_ERROR(runPipeline(queues.get(), io, stages, ctx, &timeline));
        const TimelineReport r = timeline.report();
        FdkTimings& t = m_report.timings;
        t.backProject += since(t0);
        t.read += host.read;
        t.filter += host.filter + r.busyOf(TimelineStage::Filter);  // the host's, the device's
        t.device.upload += r.busyOf(TimelineStage::Upload);
        t.device.kernel += r.busyOf(TimelineStage::Kernels);
        return Status::ok();
    }

    /// Every batch of the begun slab. Devices back-project while the CPU reads and filters the
    /// next batch (two in flight); the CPU's own back-projector takes them one after the other.
    Status backProjectSlab(int slab, int slabs) {
        if (m_plan.batches == 0) return Status::ok();  // a rank with no views: zeros
        if (ConeDeviceBackProjection* device = m_bp.device(); device && m_parts.read)
            return backProjectSlabOnDevice(*device, slab, slabs);
        const auto policy =
            m_bp.info().backend == "cpu" ? std::launch::deferred : std::launch::async;
        auto next = std::async(policy, [this] { return produce(0); });
        for (int b = 0; b < m_plan.batches; ++b) {
            Result<Batch> batch = next.get();
            if (b + 1 < m_plan.batches)
                next = std::async(policy, [this, b] { return produce(b + 1); });
            TOMO_RETURN_IF_ERROR(batch.status());
            m_report.timings.read += batch->readSeconds;
            m_report.timings.filter += batch->filterSeconds;
            const auto t0 = Clock::now();
            TOMO_RETURN_IF_ERROR(
                m_bp.add(m_extent.firstView + b * m_plan.batch, *batch->views, m_ctx));
            m_report.timings.backProject += since(t0);
            if (m_ctx.stop.stop_requested()) return cancelled();
            if (m_ctx.progress) m_ctx.progress->advance(1);
        }
        return Status::ok();
    }

    const ConeGeometry& m_g;
    const ConeVolumeGrid& m_grid;
    const FdkOptions& m_options;
    ConeBackProjector& m_bp;
    const ConeSlabSink& m_sink;
    const ExecContext& m_ctx;
    Parts m_parts;
    Extent m_extent;
    Plan m_plan;
    std::vector<std::shared_ptr<const Array3<float>>> m_cache;
    FdkReport m_report;
};

}  // namespace

Result<FdkReport> runFdk(const ConeGeometry& geometry, const ConeVolumeGrid& grid,
                         const FdkOptions& options, ConeBackProjector& bp,
                         const ConeViewReader& read, const ConeSlabSink& sink,
                         const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(grid.validate());
    TOMO_ASSIGN_OR_RETURN(FdkFilter filter, FdkFilter::create(geometry, options));
    FdkRun::Parts parts{&read, std::move(filter), nullptr};
    FdkRun run(geometry, grid, options, bp, sink, ctx, std::move(parts),
               Extent{0, geometry.viewCount(), 0, grid.nz, false});
    return run.run();
}

Result<FdkReport> backProjectFiltered(const ConeGeometry& geometry, const ConeVolumeGrid& grid,
                                      const FdkOptions& options, ConeBackProjector& bp,
                                      const FdkFiltered& filtered, int firstPlane, int planes,
                                      const ConeSlabSink& sink, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(grid.validate());
    TOMO_RETURN_IF_ERROR(options.validate());
    if (!filtered.views) return invalidArgument("backProjectFiltered: no views");
    const DetectorGrid& d = geometry.detector();
    const int count = static_cast<int>(filtered.views->dim(0));
    if (filtered.views->dim(1) != static_cast<std::size_t>(d.nv) ||
        filtered.views->dim(2) != static_cast<std::size_t>(d.nu) || filtered.first < 0 ||
        filtered.first + count > geometry.viewCount())
        return invalidArgument("filtered views [" + std::to_string(filtered.first) + ", " +
                               std::to_string(filtered.first + count) + ") do not fit the " +
                               std::to_string(geometry.viewCount()) + " views of " +
                               std::to_string(d.nu) + " x " + std::to_string(d.nv));
    if (firstPlane < 0 || planes < 1 || firstPlane + planes > grid.nz)
        return invalidArgument("planes [" + std::to_string(firstPlane) + ", " +
                               std::to_string(firstPlane + planes) + ") outside the grid's " +
                               std::to_string(grid.nz));
    FdkRun run(geometry, grid, options, bp, sink, ctx, FdkRun::Parts{nullptr, {}, &filtered},
               Extent{filtered.first, count, firstPlane, planes, true});
    return run.run();
}

}  // namespace tomo
