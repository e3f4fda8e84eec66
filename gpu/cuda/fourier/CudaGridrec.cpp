// Gridrec on CUDA: core's plan on the device, chunks on two streams (CudaGridrec.h).
#include "gpu/cuda/fourier/CudaGridrec.h"

#include <algorithm>
#include <array>
#include <mutex>
#include <string>
#include <vector>

#include "core/fourier/GatherPlan.h"
#include "core/fourier/GridrecPipeline.h"
#include "gpu/cuda/CufftAvailability.h"
#include "gpu/cuda/fourier/GridrecKernels.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/internal/CudaQueues.h"

namespace tomo::cuda {
namespace {

constexpr int kTile = 16;  // a multiple of 8: the gather's warps are 8 x 4 points
static_assert(kTile % 8 == 0 && kTile * kTile <= 1024);
constexpr std::size_t kMaxChunkSlices = 32;
constexpr int kMaxGridY = 65535;

/// The timeline parts of cuda.gridrec (FourierMethodInfo::parts): the Compute stream's steps of
/// each chunk, in device seconds between events. Spectra: 0-2; gridding: 3-5.
constexpr std::array<const char*, 6> kParts{"pack",   "row FFT",  "samples",
                                            "gather", "grid FFT", "images"};

/// Events on the Compute stream between the steps of every chunk, read once the run is over
/// (reading them per chunk would wait for the device).
class StepClock {
  public:
    /// Records an event on @p stream that ends step @p part of kParts, or that starts a stage's
    /// steps (@p part < 0).
    Status mark(cudaStream_t stream, int part) {
        TOMO_ASSIGN_OR_RETURN(CudaEvent e, createEvent(true));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(e.get(), stream), "cudaEventRecord"));
        std::lock_guard lock(m_mutex);
        m_marks.emplace_back(part, std::move(e));
        return Status::ok();
    }
    /// Adds each step's device seconds to @p timeline's parts (waits for the last event).
    Status read(Timeline& timeline) const {
        std::lock_guard lock(m_mutex);
        if (m_marks.empty()) return Status::ok();
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(m_marks.back().second.get()),
                                       "cudaEventSynchronize(gridrec steps)"));
        for (std::size_t i = 1; i < m_marks.size(); ++i) {
            const int part = m_marks[i].first;
            if (part < 0) continue;
            float ms = 0;
            TOMO_RETURN_IF_ERROR(cudaCheck(
                cudaEventElapsedTime(&ms, m_marks[i - 1].second.get(), m_marks[i].second.get()),
                "cudaEventElapsedTime(gridrec steps)"));
            timeline.addPart(kParts[static_cast<std::size_t>(part)], 1e-3 * ms);
        }
        return Status::ok();
    }
    void clear() {
        std::lock_guard lock(m_mutex);
        m_marks.clear();
    }

  private:
    mutable std::mutex m_mutex;
    std::vector<std::pair<int, CudaEvent>> m_marks;
};

/// The device copies of a plan's constants (buffers of the context, keys "gridrec.*").
struct Constants {
    GridrecConstants k;
    Status upload(CudaDeviceContext& dev, const FourierPlan& plan, const GatherPlan& gather);
};

template <class T>
Result<const T*> put(CudaDeviceContext& dev, const std::string& key, const std::vector<T>& data) {
    const std::size_t bytes = std::max<std::size_t>(1, data.size()) * sizeof(T);
    TOMO_ASSIGN_OR_RETURN(DeviceBuffer * b, dev.device("gridrec." + key, bytes));
    TOMO_RETURN_IF_ERROR(cudaCheck(
        cudaMemcpy(b->get(), data.data(), data.size() * sizeof(T), cudaMemcpyHostToDevice),
        "cudaMemcpy(gridrec " + key + ")"));
    return b->as<const T>();
}

Status Constants::upload(CudaDeviceContext& dev, const FourierPlan& plan,
                         const GatherPlan& gather) {
    std::vector<double> phase;
    std::vector<float> weights;
    for (const FourierPlan::View& v : plan.views()) {
        phase.push_back(v.phase / kPi);
        weights.push_back(v.weight);
    }
    std::vector<int> columns, rows;
    for (int ix = 0; ix < plan.nx(); ++ix)
        columns.push_back(plan.gridColumn(ix));
    for (int iy = 0; iy < plan.ny(); ++iy)
        rows.push_back(plan.gridRow(iy));
    const auto span = [](auto s) { return std::vector<float>(s.begin(), s.end()); };
    TOMO_ASSIGN_OR_RETURN(k.response, put(dev, "response", span(plan.response())));
    TOMO_ASSIGN_OR_RETURN(k.phaseOverPi, put(dev, "phase", phase));
    TOMO_ASSIGN_OR_RETURN(k.weights, put(dev, "weights", weights));
    TOMO_ASSIGN_OR_RETURN(k.views, put(dev, "views", gather.views));
    TOMO_ASSIGN_OR_RETURN(k.segments, put(dev, "segments", gather.segments));
    TOMO_ASSIGN_OR_RETURN(k.tileStart, put(dev, "tiles", gather.tileStart));
    TOMO_ASSIGN_OR_RETURN(k.coefficients, put(dev, "kernel", gather.coefficients));
    TOMO_ASSIGN_OR_RETURN(k.deapodX, put(dev, "deapodx", span(plan.deapodisationX())));
    TOMO_ASSIGN_OR_RETURN(k.deapodY, put(dev, "deapody", span(plan.deapodisationY())));
    TOMO_ASSIGN_OR_RETURN(k.columnOf, put(dev, "column-of", columns));
    TOMO_ASSIGN_OR_RETURN(k.rowOf, put(dev, "row-of", rows));
    k.tile = gather.tile;
    k.tilesX = gather.tilesX;
    k.tilesY = gather.tilesY;
    k.width = plan.kernel().width();
    k.degree = plan.kernel().degree();
    // Pageable copies may return before their DMA ends; the streams do not wait for them.
    return cudaCheck(cudaStreamSynchronize(nullptr), "upload of the gridrec constants");
}

/// What the two device stages of a run share: the plans, the constants on the device, the
/// buffers between the stages (one set: the Compute queue runs chunk after chunk) and cuFFT's
/// plans (the context's, kept by shape).
struct DeviceJob {
    CudaQueues& queues;
    const FourierPlan& plan;
    const GatherPlan& gather;
    GridrecChunk shape;  ///< groups and lastSingle set per chunk
    Constants constants;
    DeviceBufferRef rows, samples, grids;
    std::shared_ptr<FftPlan> rowPlan, gridPlan;
    StepClock steps;

    /// Buffers, plans and constants for chunks of @p slices within @p budget bytes.
    Status prepare(std::size_t slices, std::size_t budget);
    /// The shape of @p chunk (its groups, an odd last slice alone).
    GridrecChunk chunkShape(const PipelineChunk& chunk) const {
        GridrecChunk c = shape;
        c.groups = static_cast<int>((chunk.count + 1) / 2);
        c.lastSingle = chunk.count % 2 == 1;
        return c;
    }
};

/// Device bytes between the stages for chunks of @p slices.
std::size_t betweenBytes(const GridrecChunk& c, std::size_t slices) {
    const std::size_t groups = (slices + 1) / 2, views = std::size_t(c.views);
    return groups * (views * c.rowLength * 8 + views * c.sampleStride * 8 +
                     std::size_t(c.gridX) * c.gridY * 8);
}

Status DeviceJob::prepare(std::size_t slices, std::size_t budget) {
    const GridrecChunk& c = shape;
    const std::size_t groups = (slices + 1) / 2;
    steps.clear();  // a retry with a smaller chunk starts its steps anew
    if (betweenBytes(c, slices) > budget)
        return outOfMemory("cuda gridrec: " + std::to_string(betweenBytes(c, slices) >> 20) +
                           " MiB of rows, samples and grids for " + std::to_string(slices) +
                           " slices, " + std::to_string(budget >> 20) + " MiB left");
    TOMO_ASSIGN_OR_RETURN(rows,
                          queues.deviceBuffer("gridrec.rows", groups * c.views * c.rowLength * 8));
    TOMO_ASSIGN_OR_RETURN(
        samples, queues.deviceBuffer("gridrec.samples", groups * c.views * c.sampleStride * 8));
    TOMO_ASSIGN_OR_RETURN(
        grids, queues.deviceBuffer("gridrec.grids", groups * std::size_t(c.gridX) * c.gridY * 8));
    int row[1] = {c.rowLength};
    int grid[2] = {c.gridY, c.gridX};
    CudaDeviceContext& dev = queues.context();
    TOMO_ASSIGN_OR_RETURN(rowPlan, dev.c2cPlan(1, row, int(groups) * c.views, 0));
    TOMO_ASSIGN_OR_RETURN(gridPlan, dev.c2cPlan(2, grid, int(groups), 0));
    // After the buffers: a retry that released the scratch uploads them again.
    return constants.upload(dev, plan, gather);
}

/// The in-place C2C transform of @p plan on @p stream.
Status execC2C(FftPlan& plan, float2* data, int direction, cudaStream_t stream, const char* what) {
    TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(plan.get(), stream), "cufftSetStream"));
    auto* z = reinterpret_cast<cufftComplex*>(data);
    return cufftCheck(cufftExecC2C(plan.get(), z, z, direction),
                      std::string("cufftExecC2C(gridrec ") + what + ")");
}

/// A stage of the chunk on the Compute queue: the spectra (the timeline's Filter: pack, the
/// rows' transforms, samples) or the gridding (its Kernels: gather, the grids' 2-D transforms,
/// images into the chunk's output).
class DeviceStage final : public ChunkStage {
  public:
    DeviceStage(DeviceJob& job, bool spectra) : m_job(job), m_spectra(spectra) {}
    TimelineStage timelineStage() const override {
        return m_spectra ? TimelineStage::Filter : TimelineStage::Kernels;
    }
    std::string label() const override {
        return m_spectra ? "gridrec: spectra" : "gridrec: gridding";
    }
    Status prepare(std::size_t slices, std::size_t budget) override {
        return m_spectra ? m_job.prepare(slices, budget) : Status::ok();
    }
    int steps(const PipelineChunk&) const override { return 1; }
    double work(const PipelineChunk& c, int) const override {
        return double(c.count) * (m_spectra ? 1 : 9);  // as the CPU's weights 1 and 4 + 2 + 3
    }
    Status run(const PipelineChunk& chunk, const ChunkBuffers& buffers, int,
               const ExecContext&) override;

  private:
    DeviceJob& m_job;
    bool m_spectra;
};

Status DeviceStage::run(const PipelineChunk& chunk, const ChunkBuffers& buffers, int,
                        const ExecContext&) {
    const GridrecChunk c = m_job.chunkShape(chunk);
    const GridrecConstants& k = m_job.constants.k;
    const cudaStream_t stream = m_job.queues.computeStream();
    auto* rows = CudaQueues::ptr<float2>(m_job.rows);
    auto* samples = CudaQueues::ptr<float2>(m_job.samples);
    auto* grids = CudaQueues::ptr<float2>(m_job.grids);
    StepClock& clock = m_job.steps;
    const int first = m_spectra ? 0 : 3;  // kParts
    TOMO_RETURN_IF_ERROR(clock.mark(stream, -1));
    if (m_spectra) {
        TOMO_RETURN_IF_ERROR(launchGridrecPack(c, buffers.input.handle, rows, stream));
        TOMO_RETURN_IF_ERROR(clock.mark(stream, first));
        TOMO_RETURN_IF_ERROR(execC2C(*m_job.rowPlan, rows, CUFFT_FORWARD, stream, "rows"));
        TOMO_RETURN_IF_ERROR(clock.mark(stream, first + 1));
        TOMO_RETURN_IF_ERROR(launchGridrecSamples(c, k, rows, samples, stream));
        return clock.mark(stream, first + 2);
    }
    TOMO_RETURN_IF_ERROR(launchGridrecGather(c, k, samples, grids, stream));
    TOMO_RETURN_IF_ERROR(clock.mark(stream, first));
    TOMO_RETURN_IF_ERROR(execC2C(*m_job.gridPlan, grids, CUFFT_INVERSE, stream, "grids"));
    TOMO_RETURN_IF_ERROR(clock.mark(stream, first + 1));
    TOMO_RETURN_IF_ERROR(launchGridrecImages(c, k, grids, buffers.output.handle, stream));
    return clock.mark(stream, first + 2);
}

class CudaGridrec final : public FourierReconstructor {
  public:
    explicit CudaGridrec(std::shared_ptr<CudaDeviceContext> device) : m_device(std::move(device)) {
        m_info.description += " on " + m_device->traits().label();
    }
    const FourierMethodInfo& info() const override { return m_info; }
    Status reconstruct(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, const GridrecOptions& options, Volume& out,
                       const ExecContext& ctx, GridrecReport& report) override;

  private:
    std::shared_ptr<CudaDeviceContext> m_device;
    FourierMethodInfo m_info = cudaGridrecInfo();
};

/// The chunk's slices: even, at most kMaxChunkSlices, its rings of two and the buffers between
/// the stages within @p budget (at least one pair).
std::size_t chunkSlices(const GridrecChunk& c, std::size_t value, std::size_t slices,
                        std::size_t budget) {
    const auto bytes = [&](std::size_t s) {
        return 2 * s * (std::size_t(c.views) * c.detectors + std::size_t(c.nx) * c.ny) * value +
               betweenBytes(c, s);
    };
    std::size_t chunk = kMaxChunkSlices;
    while (chunk > 2 && bytes(chunk) > budget)
        chunk -= 2;
    return std::min(chunk, std::max<std::size_t>(2, slices + slices % 2));
}

Status CudaGridrec::reconstruct(const Sinograms& sino, const ParallelGeometry& geom,
                                const VolumeGeometry& vol, const GridrecOptions& options,
                                Volume& out, const ExecContext& ctx, GridrecReport& report) {
    const double t0 = timelineNow();
    if (sino.dim(0) != std::size_t(vol.nz) || sino.dim(1) != std::size_t(geom.angleCount()) ||
        sino.dim(2) != std::size_t(geom.detectorCount()))
        return invalidArgument("cuda gridrec: the sinograms do not match the geometry");
    if (geom.angleCount() > kMaxGridY)  // the pack and sample kernels: one block row per view
        return unsupported("cuda gridrec: " + std::to_string(geom.angleCount()) +
                           " projections, at most " + std::to_string(kMaxGridY) +
                           " (gridDim.y); the CPU gridrec has no such limit");
    TOMO_ASSIGN_OR_RETURN(FourierPlan plan,
                          FourierPlan::create(geom, vol, options, m_info.sizes, m_info.cost));
    TOMO_ASSIGN_OR_RETURN(GatherPlan gather, GatherPlan::create(plan, kTile));
    report.plan = plan.describe() + ", " + std::to_string(gather.segments.size()) +
                  " segments over " + std::to_string(gather.tilesX * gather.tilesY) + " tiles";
    const bool half = options.precision == GridrecPrecision::Half;
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<CudaQueues> queues, CudaQueues::open(m_device));
    // Written in full by the pipeline's unpacking threads beside the kernels (GridrecPipeline.h):
    // zeroing a 2048^3 image on one thread before the first chunk takes ~25 s in the H200 VM.
    TOMO_ASSIGN_OR_RETURN(out, Volume::createUninitialised(std::size_t(vol.nz), std::size_t(vol.ny),
                                                           std::size_t(vol.nx)));
    DeviceJob job{*queues, plan, gather, {}, {}, {}, {}, {}, {}, {}, {}};
    job.shape = {0,
                 false,
                 static_cast<int>(plan.views().size()),
                 plan.detectors(),
                 plan.rowLength(),
                 plan.rowLength() + 1,
                 plan.gridX(),
                 plan.gridY(),
                 plan.nx(),
                 plan.ny(),
                 half};
    DeviceStage spectra(job, true), gridding(job, false);
    const std::vector<ChunkStage*> stages{&spectra, &gridding};
    PipelineIo io = gridrecDeviceIo(
        sino, out, chunkSlices(job.shape, half ? 2 : 4, sino.dim(0), queues->memoryBudget()), half);
    const double planEnd = timelineNow();
    Timeline timeline;
    const Status run = runPipelineWithRetry(*queues, std::move(io), 2, [&](const PipelineIo& i) {
        return runPipeline(queues.get(), i, stages, ctx, &timeline);
    });
    if (!run.isOk()) {
        out = Volume{};  // slices never unpacked hold garbage: nothing of it is handed back
        return run;
    }
    TOMO_RETURN_IF_ERROR(job.steps.read(timeline));
    report.timings = gridrecTimings(timeline, t0, planEnd);
    return Status::ok();
}

}  // namespace

FourierMethodInfo cudaGridrecInfo() {
    FourierMethodInfo info;
    info.id = "cuda.gridrec";
    info.backend = "cuda";
    info.description =
        "gridrec on CUDA: cuFFT, Kaiser-Bessel gather (one thread per grid point, no atomics), "
        "two slices per complex transform, two streams";
    info.sizes = FftSizeRule::Smooth;
    // Per tap of the gather (each point sums W^2 samples' terms): measured on an H200
    // (2026-11-27, docs/cuda.md "Where gridrec's device time goes"), the gather of the adbf1b7
    // kernel took 5.2 ms per pair of 2048^2 slices from 2048 views at width 5: 2.6 ms per slice
    // over 0.5 x 2048 x 4097 samples x 25 taps = 1.05e8 taps, 25 ps per tap (the 64-slice run's
    // 0.167 s of gather gives the same). The kernel since (0cea097, adc4688) is predicted
    // 1.7-2.4x faster but not yet measured, so the measured value stands until it is. cuFFT:
    // ~1 ns per 1000 point-log2, a model value (not measured).
    info.cost.secondsPerTap = 25e-12;
    info.cost.secondsPerFftPoint = 1e-12;
    info.cost.rowSecondsPerPoint = 1e-12;
    info.secondsPerTransferByte = 1.0 / 25e9;
    info.parts.assign(kParts.begin(), kParts.end());
    return info;
}

Result<std::unique_ptr<FourierReconstructor>> makeCudaGridrec(
    std::shared_ptr<CudaDeviceContext> device) {
    TOMO_RETURN_IF_ERROR(cufftAvailability());
    if (!device) return invalidArgument("cuda gridrec: no CUDA device context");
    return std::unique_ptr<FourierReconstructor>(std::make_unique<CudaGridrec>(std::move(device)));
}

}  // namespace tomo::cuda
