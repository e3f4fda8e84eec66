#include "core/recon/Fbp.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "core/pipeline/ChunkPipeline.h"

namespace tomo {
namespace {

/// What the stages of one FBP call share (the sinograms themselves are passed beside it: a
/// preparation has only their layout).
struct FbpJob {
    const ParallelGeometry& geom;
    const VolumeGeometry& vol;
    const RampFilter& filter;
    const std::vector<float>& weights;
    const FbpOptions& options;
    std::size_t chunk;
    SinogramChunkLayout in;
};

/// Progress units of a chunk's back-projection (its pixel updates); filtering counts a ninth
/// of that (about a tenth of the work of back-projection for square images).
double bpWork(const FbpJob& job, const PipelineChunk& c) {
    return double(job.vol.nx) * job.vol.ny * job.geom.angleCount() * double(c.count);
}

/// Host mode: the CPU's (or a host RowFilterStage's) filter in place on the scratch chunk.
class HostFilterStage final : public ChunkStage {
  public:
    HostFilterStage(const FbpJob& job, Sinograms& scratch) : m_job(job), m_scratch(scratch) {}
    TimelineStage timelineStage() const override { return TimelineStage::Filter; }
    std::string label() const override { return "filtering"; }
    Status prepare(std::size_t, std::size_t) override { return Status::ok(); }
    int steps(const PipelineChunk&) const override { return 1; }
    double work(const PipelineChunk& c, int) const override { return bpWork(m_job, c) / 9; }
    Status run(const PipelineChunk&, const ChunkBuffers&, int, const ExecContext& ctx) override {
        const auto& stage = m_job.options.rowFilter;
        return stage ? stage->apply(m_job.filter, m_scratch, ctx)
                     : m_job.filter.apply(m_scratch.rows(), ctx);
    }

  private:
    const FbpJob& m_job;
    Sinograms& m_scratch;
};

/// Host mode: the back-projector from the scratch chunk into the chunk's volume.
class HostBackProjectionStage final : public ChunkStage {
  public:
    HostBackProjectionStage(const FbpJob& job, BackProjector& bp, Sinograms& scratch,
                            Volume& chunkOut)
        : m_job(job), m_bp(bp), m_scratch(scratch), m_out(chunkOut) {}
    TimelineStage timelineStage() const override { return TimelineStage::Kernels; }
    std::string label() const override { return "back-projection"; }
    Status prepare(std::size_t, std::size_t) override { return Status::ok(); }
    int steps(const PipelineChunk&) const override { return 1; }
    double work(const PipelineChunk& c, int) const override { return bpWork(m_job, c); }
    Status run(const PipelineChunk& c, const ChunkBuffers&, int, const ExecContext& ctx) override {
        VolumeGeometry grid = m_job.vol;
        grid.nz = static_cast<int>(c.count);
        return m_bp.backProject(m_scratch, m_job.geom, grid, m_job.weights, m_out, ctx);
    }

  private:
    const FbpJob& m_job;
    BackProjector& m_bp;
    Sinograms& m_scratch;
    Volume& m_out;
};

/// The CPU: each chunk copied into scratch, filtered in place, back-projected into the chunk's
/// volume and copied into @p out.
Status fbpOnHost(const FbpJob& job, const Sinograms& sino, BackProjector& bp, Volume& out,
                 const ExecContext& ctx, Timeline& timeline) {
    // Every element of the scratch (padding included) is copied in by load() before use.
    TOMO_ASSIGN_OR_RETURN(Sinograms scratch,
                          Sinograms::createUninitialised(job.chunk, sino.dim(1), sino.dim(2)));
    Volume chunkOut;
    HostFilterStage filter(job, scratch);
    HostBackProjectionStage backProjection(job, bp, scratch, chunkOut);
    PipelineIo io;
    io.items = sino.dim(0);
    io.chunkItems = job.chunk;
    io.load = [&](const PipelineChunk& c) -> Status {
        if (scratch.dim(0) != c.count) {
            TOMO_ASSIGN_OR_RETURN(
                scratch, Sinograms::createUninitialised(c.count, sino.dim(1), sino.dim(2)));
        }
        std::memcpy(scratch.data(), sino.plane(c.first).data(),
                    c.count * sino.dim(1) * sino.pitch() * sizeof(float));
        return Status::ok();
    };
    io.store = [&](const PipelineChunk& c) {
        std::memcpy(out.plane(c.first).data(), chunkOut.data(),
                    c.count * out.dim(1) * out.pitch() * sizeof(float));
        return Status::ok();
    };
    return runPipeline(nullptr, io, {&filter, &backProjection}, ctx, &timeline);
}

/// A GPU back-projector's FBP on its queues: the row filter's device stage (when it has one
/// there) and the back-projection stage, as a run and its preparation both make them.
struct DeviceFbp {
    std::unique_ptr<DeviceQueues> queues;
    std::unique_ptr<ChunkStage> filter, backProjection;
    std::vector<ChunkStage*> stages() const {
        std::vector<ChunkStage*> s;
        if (filter) s.push_back(filter.get());
        s.push_back(backProjection.get());
        return s;
    }
};

Result<DeviceFbp> openDeviceFbp(const FbpJob& job, DeviceBackProjection& device) {
    DeviceFbp d;
    TOMO_ASSIGN_OR_RETURN(d.queues, device.openQueues());
    TOMO_ASSIGN_OR_RETURN(
        d.backProjection,
        device.stage(*d.queues, job.in, {job.vol.nx, job.vol.ny}, job.geom, job.vol, job.weights));
    if (job.options.rowFilter) {
        TOMO_ASSIGN_OR_RETURN(d.filter,
                              job.options.rowFilter->deviceStage(*d.queues, job.filter, job.in));
    }
    return d;
}

/// A GPU back-projector on its opened queues and stages @p d: the chunk uploaded once, filtered
/// on the device (or by the CPU on the packing thread, before its upload), back-projected there
/// and downloaded once.
Status fbpOnDevice(const FbpJob& job, const Sinograms& sino, DeviceFbp& d,
                   std::size_t slicesPerPass, Volume& out, const ExecContext& ctx,
                   Timeline& timeline) {
    const std::vector<ChunkStage*> stages = d.stages();
    PipelineIo io = stackPipelineIo(sino, out, job.chunk);
    if (!d.filter)
        io.hostStage = [&job, in = job.in, &ctx](const PipelineChunk& c, std::byte* staging) {
            const View2<float> rows(reinterpret_cast<float*>(staging), c.count * in.angles,
                                    static_cast<std::size_t>(in.detectors), in.pitch);
            return job.filter.apply(rows, {ctx.threads, ctx.stop, nullptr});
        };
    DeviceQueues& queues = *d.queues;
    return runPipelineWithRetry(queues, std::move(io), slicesPerPass, [&](const PipelineIo& i) {
        return runPipeline(&queues, i, stages, ctx, &timeline);
    });
}

/// Checks @p options and the shapes; the filter, weights and chunk of a call on @p slices
/// sinograms of layout @p in.
struct FbpSetup {
    RampFilter filter;
    std::vector<float> weights;
    std::size_t chunk = 0;
};

Result<FbpSetup> fbpSetup(std::size_t slices, const SinogramChunkLayout& in,
                          const ParallelGeometry& geom, const VolumeGeometry& vol,
                          const BackProjector& backProjector, const FbpOptions& options) {
    TOMO_RETURN_IF_ERROR(options.filter.validate());
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (options.chunkSlices < 0) return invalidArgument("FBP: chunk size must not be negative");
    if (slices != static_cast<std::size_t>(vol.nz) || in.angles != geom.angleCount() ||
        in.detectors != geom.detectorCount())
        return invalidArgument("FBP: sinogram stack " + std::to_string(slices) + "x" +
                               std::to_string(in.angles) + "x" + std::to_string(in.detectors) +
                               " does not match the geometry (" + std::to_string(vol.nz) + "x" +
                               std::to_string(geom.angleCount()) + "x" +
                               std::to_string(geom.detectorCount()) + ")");
    TOMO_ASSIGN_OR_RETURN(
        RampFilter filter,
        RampFilter::create(geom.detectorCount(), geom.detectorPitch(), options.filter));
    const std::vector<double> w = geom.angularWeights();
    return FbpSetup{std::move(filter), std::vector<float>(w.begin(), w.end()),
                    fbpChunkSlices(options, backProjector, slices, std::size_t(in.angles),
                                   std::size_t(in.detectors))};
}

/// Consecutive intervals of one call on the host clock: each lap starts where the previous one
/// ended, so that the laps tile the call's wall time; setup laps are the timeline's setup spans.
class Laps {
  public:
    explicit Laps(Timeline& timeline) : m_timeline(timeline), m_start(timelineNow()) {
        m_last = m_start;
    }
    /// Seconds since the previous lap; recorded as a setup span when @p setup.
    double lap(bool setup) {
        const double now = timelineNow();
        if (setup) m_timeline.add(TimelineStage::Setup, m_last, now);
        const double seconds = now - m_last;
        m_last = now;
        return seconds;
    }
    double total() const { return m_last - m_start; }

  private:
    Timeline& m_timeline;
    double m_start, m_last;
};

/// The arguments of one reconstructFbp call.
struct FbpCall {
    const Sinograms& sino;
    const ParallelGeometry& geom;
    const VolumeGeometry& vol;
    BackProjector& backProjector;
    const FbpOptions& options;
    Volume& out;
    const ExecContext& ctx;
};

/// @p out for the grid @p vol: kept when it has the shape (the pipeline overwrites every
/// element), else allocated without a zero fill.
Status prepareOutput(const VolumeGeometry& vol, Volume& out) {
    const std::array<std::size_t, 3> dims{static_cast<std::size_t>(vol.nz),
                                          static_cast<std::size_t>(vol.ny),
                                          static_cast<std::size_t>(vol.nx)};
    if (out.dims() == dims && out.data() != nullptr) return Status::ok();
    out = Volume();  // the old storage goes before the new one is mapped
    TOMO_ASSIGN_OR_RETURN(out, Volume::createUninitialised(dims[0], dims[1], dims[2]));
    return Status::ok();
}

/// reconstructFbp's work, each part timed into @p t (checks, allocation, open, pipeline).
Status runFbp(const FbpCall& call, Timeline& timeline, FbpTimings& t) {
    Laps laps(timeline);
    const Sinograms& sino = call.sino;
    const SinogramChunkLayout in{static_cast<int>(sino.dim(1)), static_cast<int>(sino.dim(2)),
                                 sino.pitch()};
    TOMO_ASSIGN_OR_RETURN(FbpSetup setup, fbpSetup(sino.dim(0), in, call.geom, call.vol,
                                                   call.backProjector, call.options));
    t.checks = laps.lap(true);
    TOMO_RETURN_IF_ERROR(prepareOutput(call.vol, call.out));
    t.allocation = laps.lap(true);
    const FbpJob job{call.geom,   call.vol, setup.filter, setup.weights, call.options,
                     setup.chunk, in};
    if (DeviceBackProjection* device = call.backProjector.device()) {
        TOMO_ASSIGN_OR_RETURN(DeviceFbp d, openDeviceFbp(job, *device));
        t.open = laps.lap(true);
        const auto pass =
            static_cast<std::size_t>(std::max(1, call.backProjector.info().slicesPerPass));
        TOMO_RETURN_IF_ERROR(fbpOnDevice(job, sino, d, pass, call.out, call.ctx, timeline));
    } else {
        TOMO_RETURN_IF_ERROR(
            fbpOnHost(job, sino, call.backProjector, call.out, call.ctx, timeline));
    }
    t.pipeline = laps.lap(false);
    t.total = laps.total();
    return Status::ok();
}

}  // namespace

Status filterRowsOnDevice(DeviceQueues& queues, RowFilterStage& filter, const RampFilter& ramp,
                          Sinograms& rows, const ExecContext& ctx) {
    if (rows.dim(2) != static_cast<std::size_t>(ramp.width()))
        return invalidArgument(filter.name() + ": rows of " + std::to_string(rows.dim(2)) +
                               " detectors, the filter is for " + std::to_string(ramp.width()));
    const SinogramChunkLayout in{static_cast<int>(rows.dim(1)), static_cast<int>(rows.dim(2)),
                                 rows.pitch()};
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ChunkStage> stage, filter.deviceStage(queues, ramp, in));
    if (!stage) return unsupported(filter.name() + ": no stage on " + queues.deviceName());
    const std::size_t slice = in.bytesPerSlice();
    PipelineIo io;
    io.items = rows.dim(0);
    io.chunkItems = stackChunkSlices(1, rows.dim(0), slice);
    io.inputBytesPerItem = io.outputBytesPerItem = slice;
    io.inPlace = true;
    auto* base = reinterpret_cast<std::byte*>(rows.data());
    io.pack = [base, slice](const PipelineChunk& c, std::size_t offset, std::size_t bytes,
                            std::byte* dst) {
        std::memcpy(dst, base + c.first * slice + offset, bytes);
    };
    io.unpack = [base, slice](const PipelineChunk& c, std::size_t offset, std::size_t bytes,
                              const std::byte* src) {
        std::memcpy(base + c.first * slice + offset, src, bytes);
    };
    const std::vector<ChunkStage*> stages{stage.get()};
    return runPipelineWithRetry(queues, std::move(io), 1, [&](const PipelineIo& i) {
        return runPipeline(&queues, i, stages, ctx);
    });
}

std::size_t fbpChunkSlices(const FbpOptions& options, const BackProjector& backProjector,
                           std::size_t slices, std::size_t angles, std::size_t detectors) {
    if (options.chunkSlices > 0)
        return std::min(static_cast<std::size_t>(options.chunkSlices), slices);
    return stackChunkSlices(static_cast<std::size_t>(backProjector.info().slicesPerPass), slices,
                            angles * alignedCount<float>(detectors) * sizeof(float));
}

Status reconstructFbp(const Sinograms& sino, const ParallelGeometry& geom,
                      const VolumeGeometry& vol, BackProjector& backProjector,
                      const FbpOptions& options, Volume& out, const ExecContext& ctx,
                      FbpTimings* timings) {
    FbpTimings t;
    Timeline timeline;
    const Status status = runFbp({sino, geom, vol, backProjector, options, out, ctx}, timeline, t);
    if (!status.isOk()) {
        out = Volume();  // not every element was written
        return status;
    }
    if (timings) {
        timeline.setWall(t.total);  // the whole call, not the pipeline's run alone
        t.timeline = timeline.report();
        t.filtering = t.timeline.busyOf(TimelineStage::Filter);
        t.backProjection = t.timeline.busyOf(TimelineStage::Kernels);
        *timings = t;
    }
    return Status::ok();
}

Status prepareFbp(std::size_t slices, const SinogramChunkLayout& in, const ParallelGeometry& geom,
                  const VolumeGeometry& vol, BackProjector& backProjector,
                  const FbpOptions& options) {
    TOMO_ASSIGN_OR_RETURN(FbpSetup setup, fbpSetup(slices, in, geom, vol, backProjector, options));
    DeviceBackProjection* device = backProjector.device();
    if (!device) return Status::ok();  // the CPU: its filter and kernels need nothing made
    const FbpJob job{geom, vol, setup.filter, setup.weights, options, setup.chunk, in};
    TOMO_ASSIGN_OR_RETURN(DeviceFbp d, openDeviceFbp(job, *device));
    const PipelineIo io = stackPipelineSizes(slices, in, {vol.nx, vol.ny}, setup.chunk);
    return preparePipeline(*d.queues, io, d.stages());
}

}  // namespace tomo
