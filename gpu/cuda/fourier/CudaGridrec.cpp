// Gridrec on CUDA: core's plan on the device, chunks on two streams (CudaGridrec.h).
#include "gpu/cuda/fourier/CudaGridrec.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/Parallel.h"
#include "core/data/Half.h"
#include "core/fourier/GatherPlan.h"
#include "gpu/cuda/CufftAvailability.h"
#include "gpu/cuda/fourier/GridrecKernels.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"

namespace tomo::cuda {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kTile = 16;
constexpr std::size_t kMaxChunkSlices = 32;
constexpr int kMaxGridY = 65535;

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

/// One of the two alternating buffer sets and its chunk.
struct Slot {
    PinnedBuffer *in = nullptr, *out = nullptr;
    DeviceBuffer *sino = nullptr, *rows = nullptr, *samples = nullptr, *grids = nullptr,
                 *images = nullptr;
    std::shared_ptr<FftPlan> rowPlan, gridPlan;  ///< the context's, kept by shape and slot
    CudaEvent start, spectra, gathered, done;
    bool pending = false;
    std::size_t first = 0, count = 0;
};

/// What a run needs besides its slots.
struct Job {
    const Sinograms* sino = nullptr;
    Volume* out = nullptr;
    GridrecChunk shape;  ///< groups and lastSingle set per chunk
    std::size_t chunkSlices = 0, valueBytes = 4;
    int threads = 0;
};

std::size_t slotBytes(const GridrecChunk& c, std::size_t slices, std::size_t value) {
    const std::size_t groups = slices / 2, views = std::size_t(c.views);
    return slices * views * c.detectors * value + groups * views * c.rowLength * 8 +
           groups * views * c.sampleStride * 8 + 2 * groups * c.gridX * c.gridY * 8 +
           slices * std::size_t(c.nx) * c.ny * value;
}

Status prepareSlot(CudaDeviceContext& dev, const Job& job, int k, Slot& s) {
    const GridrecChunk& c = job.shape;
    const std::size_t slices = job.chunkSlices, groups = slices / 2, v = job.valueBytes;
    const std::string key = std::to_string(k);
    const std::size_t in = slices * std::size_t(c.views) * c.detectors * v;
    const std::size_t out = slices * std::size_t(c.nx) * c.ny * v;
    TOMO_ASSIGN_OR_RETURN(s.in, dev.pinned("gridrec.in." + key, in));
    TOMO_ASSIGN_OR_RETURN(s.out, dev.pinned("gridrec.out." + key, out));
    TOMO_ASSIGN_OR_RETURN(s.sino, dev.device("gridrec.sino." + key, in));
    TOMO_ASSIGN_OR_RETURN(
        s.rows, dev.device("gridrec.rows." + key, groups * c.views * std::size_t(c.rowLength) * 8));
    TOMO_ASSIGN_OR_RETURN(
        s.samples,
        dev.device("gridrec.samples." + key, groups * c.views * std::size_t(c.sampleStride) * 8));
    TOMO_ASSIGN_OR_RETURN(
        s.grids, dev.device("gridrec.grids." + key, groups * std::size_t(c.gridX) * c.gridY * 8));
    TOMO_ASSIGN_OR_RETURN(s.images, dev.device("gridrec.images." + key, out));
    int row[1] = {c.rowLength};
    int grid[2] = {c.gridY, c.gridX};
    TOMO_ASSIGN_OR_RETURN(s.rowPlan, dev.c2cPlan(1, row, int(groups) * c.views, k));
    TOMO_ASSIGN_OR_RETURN(s.gridPlan, dev.c2cPlan(2, grid, int(groups), k));
    for (CudaEvent* e : {&s.start, &s.spectra, &s.gathered, &s.done}) {
        TOMO_ASSIGN_OR_RETURN(*e, createEvent(true));
    }
    return Status::ok();
}

/// Copies slot @p s's images into the output once they are down, and adds its stage times.
Status retire(Slot& s, const Job& job, GridrecReport& report) {
    if (!s.pending) return Status::ok();
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(s.done.get()), "gridrec chunk"));
    s.pending = false;
    float ms[3] = {0, 0, 0};
    cudaEventElapsedTime(&ms[0], s.start.get(), s.spectra.get());
    cudaEventElapsedTime(&ms[1], s.spectra.get(), s.gathered.get());
    cudaEventElapsedTime(&ms[2], s.gathered.get(), s.done.get());
    report.timings.spectra += 1e-3 * ms[0];
    report.timings.spreading += 1e-3 * ms[1];
    report.timings.transform += 1e-3 * ms[2];
    const auto nx = std::size_t(job.shape.nx), ny = std::size_t(job.shape.ny);
    const bool half = job.valueBytes == 2;
    return parallelFor(s.count * ny, job.threads, {}, [&](std::size_t r, int) {
        float* dst = job.out->row(s.first + r / ny, r % ny).data();
        if (!half) {
            std::memcpy(dst, s.out->as<float>() + r * nx, nx * sizeof(float));
            return;
        }
        const std::uint16_t* src = s.out->as<std::uint16_t>() + r * nx;
        for (std::size_t x = 0; x < nx; ++x)
            dst[x] = halfToFloat(src[x]);
    });
}

/// Stages slot @p s's sinograms into pinned memory (binary16 for half).
Status stage(Slot& s, const Job& job) {
    const auto views = std::size_t(job.shape.views), det = std::size_t(job.shape.detectors);
    const bool half = job.valueBytes == 2;
    return parallelFor(s.count * views, job.threads, {}, [&](std::size_t r, int) {
        const std::span<const float> src = job.sino->row(s.first + r / views, r % views);
        if (!half) {
            std::memcpy(s.in->as<float>() + r * det, src.data(), det * sizeof(float));
            return;
        }
        std::uint16_t* dst = s.in->as<std::uint16_t>() + r * det;
        for (std::size_t j = 0; j < det; ++j)
            dst[j] = floatToHalf(src[j]);
    });
}

/// Enqueues slot @p s's chunk on @p stream: upload, rows, samples, gather, 2-D transform,
/// images, download.
Status enqueue(Slot& s, const Job& job, const GridrecConstants& k, cudaStream_t stream) {
    GridrecChunk c = job.shape;
    c.groups = static_cast<int>((s.count + 1) / 2);
    c.lastSingle = s.count % 2 == 1;
    const std::size_t in = s.count * std::size_t(c.views) * c.detectors * job.valueBytes;
    const std::size_t out = s.count * std::size_t(c.nx) * c.ny * job.valueBytes;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(s.start.get(), stream), "cudaEventRecord"));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMemcpyAsync(s.sino->get(), s.in->get(), in, cudaMemcpyHostToDevice, stream),
                  "cudaMemcpyAsync(gridrec sinograms)"));
    float2* rows = s.rows->as<float2>();
    float2* grids = s.grids->as<float2>();
    TOMO_RETURN_IF_ERROR(launchGridrecPack(c, s.sino->get(), rows, stream));
    TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(s.rowPlan->get(), stream), "cufftSetStream"));
    TOMO_RETURN_IF_ERROR(
        cufftCheck(cufftExecC2C(s.rowPlan->get(), reinterpret_cast<cufftComplex*>(rows),
                                reinterpret_cast<cufftComplex*>(rows), CUFFT_FORWARD),
                   "cufftExecC2C(gridrec rows)"));
    TOMO_RETURN_IF_ERROR(launchGridrecSamples(c, k, rows, s.samples->as<float2>(), stream));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(s.spectra.get(), stream), "cudaEventRecord"));
    TOMO_RETURN_IF_ERROR(launchGridrecGather(c, k, s.samples->as<float2>(), grids, stream));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(s.gathered.get(), stream), "cudaEventRecord"));
    TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(s.gridPlan->get(), stream), "cufftSetStream"));
    TOMO_RETURN_IF_ERROR(
        cufftCheck(cufftExecC2C(s.gridPlan->get(), reinterpret_cast<cufftComplex*>(grids),
                                reinterpret_cast<cufftComplex*>(grids), CUFFT_INVERSE),
                   "cufftExecC2C(gridrec grids)"));
    TOMO_RETURN_IF_ERROR(launchGridrecImages(c, k, grids, s.images->get(), stream));
    TOMO_RETURN_IF_ERROR(cudaCheck(
        cudaMemcpyAsync(s.out->get(), s.images->get(), out, cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync(gridrec images)"));
    return cudaCheck(cudaEventRecord(s.done.get(), stream), "cudaEventRecord");
}

/// Waits for both streams when leaving run(), whatever the outcome.
struct SyncStreams {
    const CudaDeviceContext& device;
    ~SyncStreams() { device.synchronizeStreams(); }
};

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
    Status run(Job& job, const GridrecConstants& k, const ExecContext& ctx, GridrecReport& report);
    std::shared_ptr<CudaDeviceContext> m_device;
    FourierMethodInfo m_info = cudaGridrecInfo();
};

Status CudaGridrec::run(Job& job, const GridrecConstants& k, const ExecContext& ctx,
                        GridrecReport& report) {
    CudaDeviceContext& dev = *m_device;
    const std::size_t slices = job.sino->dim(0);
    const std::size_t chunks = (slices + job.chunkSlices - 1) / job.chunkSlices;
    Slot slots[2];
    for (int i = 0; i < static_cast<int>(std::min<std::size_t>(chunks, 2)); ++i)
        TOMO_RETURN_IF_ERROR(prepareSlot(dev, job, i, slots[i]));
    SyncStreams sync{dev};  // after the buffers: runs before they are released
    Progress scope = ctx.progress ? ctx.progress->child(0.0, 1.0, "gridrec") : Progress();
    Progress* progress = ctx.progress ? &scope : nullptr;
    if (progress) progress->setTotal(chunks);
    for (std::size_t c = 0; c < chunks; ++c) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        Slot& s = slots[c & 1];
        const bool had = s.pending;
        TOMO_RETURN_IF_ERROR(retire(s, job, report));
        if (had && progress) progress->advance();
        s.first = c * job.chunkSlices;
        s.count = std::min(job.chunkSlices, slices - s.first);
        TOMO_RETURN_IF_ERROR(stage(s, job));
        TOMO_RETURN_IF_ERROR(enqueue(s, job, k, dev.stream(static_cast<int>(c & 1))));
        s.pending = true;
    }
    for (Slot& s : slots) {
        const bool had = s.pending;
        TOMO_RETURN_IF_ERROR(retire(s, job, report));
        if (had && progress) progress->advance();
    }
    return Status::ok();
}

Status CudaGridrec::reconstruct(const Sinograms& sino, const ParallelGeometry& geom,
                                const VolumeGeometry& vol, const GridrecOptions& options,
                                Volume& out, const ExecContext& ctx, GridrecReport& report) {
    const auto t0 = Clock::now();
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
    TOMO_ASSIGN_OR_RETURN(
        out, Volume::create(std::size_t(vol.nz), std::size_t(vol.ny), std::size_t(vol.nx)));
    Job job;
    job.sino = &sino;
    job.out = &out;
    job.threads = ctx.threads;
    job.valueBytes = options.precision == GridrecPrecision::Half ? 2 : 4;
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
                 job.valueBytes == 2};
    const auto lock = m_device->lockScratch();  // one job at a time on the device
    TOMO_RETURN_IF_ERROR(m_device->activate());
    Constants constants;
    TOMO_RETURN_IF_ERROR(constants.upload(*m_device, plan, gather));
    std::size_t chunk = kMaxChunkSlices;
    while (chunk > 2 && 2 * slotBytes(job.shape, chunk, job.valueBytes) > m_device->memoryBudget())
        chunk -= 2;
    report.timings.plan = std::chrono::duration<double>(Clock::now() - t0).count();
    for (;;) {
        job.chunkSlices = std::min(chunk, std::max<std::size_t>(2, sino.dim(0) + sino.dim(0) % 2));
        Status s = run(job, constants.k, ctx, report);
        if (s.code() != ErrorCode::OutOfMemory || chunk <= 2) {
            report.timings.total = std::chrono::duration<double>(Clock::now() - t0).count();
            return s;
        }
        m_device->releaseScratch();  // other jobs' buffers, then smaller chunks
        TOMO_RETURN_IF_ERROR(constants.upload(*m_device, plan, gather));
        chunk = std::max<std::size_t>(2, chunk / 4 * 2);
    }
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
    // Model values for an H100 (not yet measured: scripts/gpu-check gridrec measures them): the
    // gather costs per tap (each point sums W^2 samples' terms), cuFFT ~1 ns per 1000
    // point-log2.
    info.cost.secondsPerTap = 2e-12;
    info.cost.secondsPerFftPoint = 1e-12;
    info.cost.rowSecondsPerPoint = 1e-12;
    info.secondsPerTransferByte = 1.0 / 25e9;
    return info;
}

Result<std::unique_ptr<FourierReconstructor>> makeCudaGridrec(
    std::shared_ptr<CudaDeviceContext> device) {
    TOMO_RETURN_IF_ERROR(cufftAvailability());
    if (!device) return invalidArgument("cuda gridrec: no CUDA device context");
    return std::unique_ptr<FourierReconstructor>(std::make_unique<CudaGridrec>(std::move(device)));
}

}  // namespace tomo::cuda
