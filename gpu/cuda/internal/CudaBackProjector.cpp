// CudaBackProjector: planning, streams, double buffering and read-back around a CudaLauncher
// (see CudaBackProjector.h).
#include "gpu/cuda/internal/CudaBackProjector.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/Progress.h"
#include "core/projectors/GpuProjectionConstants.h"

namespace tomo::cuda {

struct CudaBackProjector::Plan : PassPlan {};

namespace {

/// The buffers of one of the two alternating (pass, band) slots: the context's scratch
/// buffers of slot k (pinned.in.k, device.sino.k, device.out.k, pinned.out.k), reused by every
/// call on the context.
struct BufferSet {
    PinnedBuffer* staging = nullptr;   ///< packed chunk, unpadded rows
    DeviceBuffer* sinogram = nullptr;  ///< pitched rows
    TextureObject texture;
    DeviceBuffer* output = nullptr;  ///< [slices][bandRows][nx]
    PinnedBuffer* readBack = nullptr;
    DeviceBuffer* smCounters = nullptr;
    CudaEvent uploaded;  ///< staging may be refilled once this has fired
    CudaEvent downloaded;
    bool pending = false;  ///< readBack holds a band not yet copied into the volume
    int s0 = 0, count = 0, rowBegin = 0, rows = 0;
};

/// Waits for both streams when leaving run(), so that nothing enqueued outlives the buffers.
struct SyncStreams {
    const CudaDeviceContext& device;
    ~SyncStreams() {
        cudaStreamSynchronize(device.stream(0));
        cudaStreamSynchronize(device.stream(1));
    }
};

}  // namespace

std::vector<float> projectionConstants(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                       std::span<const float> weights) {
    // The constants every GPU backend uses (core/projectors/GpuProjectionConstants.h), as floats.
    const std::vector<GpuProjectionConstants> k = gpuProjectionConstants(geom, vol, weights);
    std::vector<float> c(4 * k.size());
    std::memcpy(c.data(), k.data(), c.size() * sizeof(float));
    return c;
}

CudaBackProjector::CudaBackProjector(BackProjectorInfo info,
                                     std::shared_ptr<CudaDeviceContext> device,
                                     CudaLauncher launcher, CudaBackProjectorOptions options)
    : m_info(std::move(info)),
      m_device(std::move(device)),
      m_launcher(launcher),
      m_options(options) {}

CudaBackProjector::~CudaBackProjector() = default;

Result<CudaBackProjector::Plan> CudaBackProjector::plan(const Sinograms& sino,
                                                        const VolumeGeometry& vol,
                                                        int shrink) const {
    const CudaDeviceTraits& t = m_device->traits();
    const int angles = static_cast<int>(sino.dim(1)), det = static_cast<int>(sino.dim(2));
    if (m_launcher.usesTexture() && det > t.maxTexture2dLinearWidth)
        return unsupported(m_info.id + ": " + std::to_string(det) +
                           " detector pixels exceed the 2-D texture width limit of " + t.name +
                           " (" + std::to_string(t.maxTexture2dLinearWidth) + ")");
    PassLimits l;
    l.slices = vol.nz;
    l.slicesPerPass = m_launcher.slicesPerPass();
    l.nx = vol.nx;
    l.ny = vol.ny;
    l.angles = angles;
    l.maxAngleChunk = std::max(1, t.maxTexture2dLinearHeight);
    if (m_options.maxAngleChunk > 0)
        l.maxAngleChunk = std::min(l.maxAngleChunk, m_options.maxAngleChunk);
    l.maxBandRows = m_options.maxBandRows;
    l.budget = m_device->memoryBudget();
    const std::size_t rowBytes = static_cast<std::size_t>(det) * m_launcher.texelBytes();
    l.sinogramBytes = [rowBytes](int chunk) {
        return (rowBytes + 512) * static_cast<std::size_t>(chunk);  // pitched rows
    };
    l.sinogramCopies = 2;
    l.outputCopies = 2;
    l.fixedBytes = static_cast<std::size_t>(angles) * sizeof(GpuProjectionConstants);
    l.updatesPerLaunch = m_options.updatesPerLaunch;
    l.shrink = shrink;
    TOMO_ASSIGN_OR_RETURN(PassPlan p, planPasses(l, m_info.id + " on " + t.name));
    return Plan{p};
}

Status CudaBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                      const VolumeGeometry& vol, std::span<const float> weights,
                                      Volume& out, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    if (std::string why = m_launcher.support(); !why.empty())
        return unsupported(m_info.id + ": " + why);
    const auto lock = m_device->lockScratch();  // one job at a time on the device
    TOMO_RETURN_IF_ERROR(m_device->activate());
    const std::vector<float> consts = projectionConstants(geom, vol, weights);
    Status status;
    bool released = false;
    for (int shrink = 0; shrink < 24; ++shrink) {
        TOMO_ASSIGN_OR_RETURN(Plan p, plan(sino, vol, shrink));
        status = run(sino, vol, consts, p, out, ctx);
        // GPU out of memory: first drop the buffers the context kept from other jobs (an FBP's
        // padded rows) and retry the same plan; then (another process, fragmentation) smaller
        // chunks; then give up.
        if (status.code() != ErrorCode::OutOfMemory) break;
        m_device->releaseScratch();
        if (!released) {
            released = true;
            --shrink;  // the same plan once more
            continue;
        }
        if (p.smallest()) break;
    }
    return status;
}

Status CudaBackProjector::run(const Sinograms& sino, const VolumeGeometry& vol,
                              const std::vector<float>& consts, const Plan& p, Volume& out,
                              const ExecContext& ctx) {
    const int angles = static_cast<int>(sino.dim(1)), det = static_cast<int>(sino.dim(2));
    const std::size_t rowBytes = static_cast<std::size_t>(det) * m_launcher.texelBytes();
    const std::size_t bandFloats = static_cast<std::size_t>(vol.nx) * p.bandRows;
    m_kernelSeconds = 0;

    CudaDeviceContext& dev = *m_device;
    TOMO_ASSIGN_OR_RETURN(DeviceBuffer * dConsts,
                          dev.device("device.consts", consts.size() * sizeof(float)));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMemcpy(dConsts->get(), consts.data(), consts.size() * sizeof(float),
                             cudaMemcpyHostToDevice),
                  "cudaMemcpy(constants)"));
    // Pageable cudaMemcpy may return before its DMA is done, and the non-blocking streams do
    // not order after the legacy default stream: wait for the upload here.
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaStreamSynchronize(nullptr), "upload of the constants"));
    const int bandItems = p.passes * p.bands;
    BufferSet sets[2];
    for (int s = 0; s < std::min(bandItems, 2); ++s) {
        BufferSet& b = sets[s];
        const std::string slot = std::to_string(s);
        TOMO_ASSIGN_OR_RETURN(b.staging, dev.pinned("pinned.in." + slot, rowBytes * p.angleChunk));
        TOMO_ASSIGN_OR_RETURN(b.sinogram, dev.pitched("device.sino." + slot, rowBytes,
                                                      static_cast<std::size_t>(p.angleChunk)));
        if (m_launcher.usesTexture()) {
            TOMO_ASSIGN_OR_RETURN(
                b.texture, createSinogramTexture(m_launcher, b.sinogram->get(), b.sinogram->pitch(),
                                                 det, p.angleChunk));
        }
        const std::size_t outBytes = bandFloats * p.slicesPerPass * sizeof(float);
        TOMO_ASSIGN_OR_RETURN(b.output, dev.device("device.out." + slot, outBytes));
        TOMO_ASSIGN_OR_RETURN(b.readBack, dev.pinned("pinned.out." + slot, outBytes));
        if (m_launcher.needsSmCounters()) {
            TOMO_ASSIGN_OR_RETURN(b.smCounters, dev.device("device.counters." + slot,
                                                           kSmCounters * sizeof(unsigned)));
        }
        TOMO_ASSIGN_OR_RETURN(b.uploaded, createEvent());
        TOMO_ASSIGN_OR_RETURN(b.downloaded, createEvent());
    }
    SyncStreams sync{dev};  // after the buffers: runs before they are released

    // Copies set b's downloaded band into the volume.
    auto flush = [&](BufferSet& b) -> Status {
        if (!b.pending) return Status::ok();
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(b.downloaded.get()), m_info.id));
        b.pending = false;
        const float* src = b.readBack->as<float>();
        for (int s = 0; s < b.count; ++s)
            for (int r = 0; r < b.rows; ++r)
                std::memcpy(&out(static_cast<std::size_t>(b.s0 + s),
                                 static_cast<std::size_t>(b.rowBegin + r), 0),
                            src + (static_cast<std::size_t>(s) * b.rows + r) * vol.nx,
                            sizeof(float) * static_cast<std::size_t>(vol.nx));
        return Status::ok();
    };

    if (ctx.progress)
        ctx.progress->setTotal(static_cast<std::uint64_t>(bandItems) *
                               static_cast<std::uint64_t>(angles));
    for (int k = 0; k < bandItems; ++k) {
        const int pass = k / p.bands, band = k % p.bands;
        BufferSet& b = sets[k & 1];
        cudaStream_t stream = dev.stream(k & 1);
        TOMO_RETURN_IF_ERROR(flush(b));
        b.s0 = pass * p.slicesPerPass;
        b.count = std::min(p.slicesPerPass, vol.nz - b.s0);
        b.rowBegin = band * p.bandRows;
        b.rows = std::min(p.bandRows, vol.ny - b.rowBegin);
        for (int chunk = 0; chunk < p.angleChunks; ++chunk) {
            const int a0 = chunk * p.angleChunk, na = std::min(p.angleChunk, angles - a0);
            // The previous upload from this staging buffer must be done before refilling it.
            TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(b.uploaded.get()), m_info.id));
            packPass(m_launcher, sino, b.s0, b.count, a0, na, b.staging->get());
            TOMO_RETURN_IF_ERROR(cudaCheck(
                cudaMemcpy2DAsync(b.sinogram->get(), b.sinogram->pitch(), b.staging->get(),
                                  rowBytes, rowBytes, static_cast<std::size_t>(na),
                                  cudaMemcpyHostToDevice, stream),
                "cudaMemcpy2DAsync(sinogram chunk)"));
            TOMO_RETURN_IF_ERROR(
                cudaCheck(cudaEventRecord(b.uploaded.get(), stream), "cudaEventRecord"));
            LaunchArgs args;
            args.sino = {b.sinogram->get(), b.sinogram->pitch(), b.texture.get(), det};
            args.consts = dConsts->as<float>() + 4 * static_cast<std::size_t>(a0);
            args.out = b.output->as<float>();
            args.nx = vol.nx;
            args.rows = b.rows;
            args.rowBegin = b.rowBegin;
            args.smCounters = b.smCounters ? b.smCounters->as<unsigned>() : nullptr;
            // Launch i is bracketed by timing events; the host waits for launch i - 1 (so at
            // most two launches are queued), adds its device time, reports progress, and checks
            // for a stop request.
            CudaEvent previousStart, previous;
            int previousCount = 0;
            auto retire = [&]() -> Status {
                TOMO_RETURN_IF_ERROR(
                    cudaCheck(cudaEventSynchronize(previous.get()), m_info.id + " kernel"));
                float ms = 0.f;
                if (cudaEventElapsedTime(&ms, previousStart.get(), previous.get()) == cudaSuccess)
                    m_kernelSeconds += 1e-3 * ms;
                if (ctx.progress) ctx.progress->advance(previousCount);
                return Status::ok();
            };
            for (int pb = 0; pb < na; pb += p.projPerLaunch) {
                args.projBegin = pb;
                args.projEnd = std::min(na, pb + p.projPerLaunch);
                args.accumulate = chunk > 0 || pb > 0;
                TOMO_ASSIGN_OR_RETURN(CudaEvent start, createEvent(true));
                TOMO_ASSIGN_OR_RETURN(CudaEvent stop, createEvent(true));
                TOMO_RETURN_IF_ERROR(
                    cudaCheck(cudaEventRecord(start.get(), stream), "cudaEventRecord"));
                TOMO_RETURN_IF_ERROR(m_launcher.launch(args, stream).withContext(m_info.id));
                TOMO_RETURN_IF_ERROR(
                    cudaCheck(cudaEventRecord(stop.get(), stream), "cudaEventRecord"));
                if (previous) TOMO_RETURN_IF_ERROR(retire());
                TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
                previousStart = std::move(start);
                previous = std::move(stop);
                previousCount = args.projEnd - args.projBegin;
            }
            TOMO_RETURN_IF_ERROR(retire());
        }
        const std::size_t bytes = bandFloats * p.slicesPerPass * sizeof(float);
        const std::size_t used = static_cast<std::size_t>(vol.nx) * b.rows;
        for (int s = 0; s < b.count; ++s)
            TOMO_RETURN_IF_ERROR(
                cudaCheck(cudaMemcpyAsync(b.readBack->as<float>() + s * used,
                                          b.output->as<float>() + s * used, used * sizeof(float),
                                          cudaMemcpyDeviceToHost, stream),
                          "cudaMemcpyAsync(output band, " + mebibytes(bytes) + ")"));
        TOMO_RETURN_IF_ERROR(
            cudaCheck(cudaEventRecord(b.downloaded.get(), stream), "cudaEventRecord"));
        b.pending = true;
    }
    TOMO_RETURN_IF_ERROR(flush(sets[0]));
    return flush(sets[1]);
}

}  // namespace tomo::cuda
