// CudaBackProjector: planning and the CUDA queue operations of core's pass driver around a
// CudaLauncher (see CudaBackProjector.h).
#include "gpu/cuda/internal/CudaBackProjector.h"

#include <algorithm>
#include <cstring>
#include <deque>

#include "core/projectors/GpuProjectionConstants.h"
#include "core/projectors/PassDriver.h"

namespace tomo::cuda {

namespace {

/// The CUDA queue operations of the pass driver (core/projectors/PassDriver.h): stream 0
/// uploads, stream 1 runs kernels and read-backs; events order them. The buffers are the
/// context's scratch buffers of slot k (pinned.in.k, device.sino.k, device.out.k,
/// pinned.out.k), reused by every call on the context.
class CudaPassQueue final : public PassQueue {
  public:
    CudaPassQueue(CudaDeviceContext& dev, const CudaLauncher& launcher, const std::string& id,
                  const std::vector<float>& consts, const VolumeGeometry& vol, Volume& out,
                  int detectors, double& kernelSeconds)
        : m_dev(dev),
          m_launcher(launcher),
          m_id(id),
          m_consts(consts),
          m_vol(vol),
          m_out(out),
          m_det(detectors),
          m_rowBytes(static_cast<std::size_t>(detectors) * launcher.texelBytes()),
          m_kernelSeconds(kernelSeconds) {}
    /// Nothing enqueued outlives the call's use of the buffers.
    ~CudaPassQueue() override { m_dev.synchronizeStreams(); }

    Status allocate(const PassPlan& p) override;

    Result<void*> beginStaging(const PassItem& it) override {
        Set& set = m_sets[it.slot];
        // The previous upload from this staging buffer must be done before refilling it.
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(set.uploaded.get()), m_id));
        return set.staging->get();
    }

    Status upload(const PassItem& it) override {
        Set& set = m_sets[it.slot];
        cudaStream_t up = m_dev.stream(0);
        // The set's previous kernels read the device sinogram this copy overwrites.
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaStreamWaitEvent(up, set.lastKernel.get(), 0),
                                       "cudaStreamWaitEvent(previous kernels)"));
        TOMO_RETURN_IF_ERROR(cudaCheck(
            cudaMemcpy2DAsync(set.sinogram->get(), set.sinogram->pitch(), set.staging->get(),
                              m_rowBytes, m_rowBytes, static_cast<std::size_t>(it.na),
                              cudaMemcpyHostToDevice, up),
            "cudaMemcpy2DAsync(sinogram chunk)"));
        return cudaCheck(cudaEventRecord(set.uploaded.get(), up), "cudaEventRecord");
    }

    Status launch(const PassItem& it, int begin, int end, bool accumulate) override;

    Status waitLaunch() override {
        if (m_launched.empty()) return Status::ok();
        Timed t = std::move(m_launched.front());
        m_launched.pop_front();
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(t.stop.get()), m_id + " kernel"));
        float ms = 0.f;
        if (cudaEventElapsedTime(&ms, t.start.get(), t.stop.get()) == cudaSuccess)
            m_kernelSeconds += 1e-3 * ms;
        return Status::ok();
    }

    Status download(const PassItem& it) override;

    Status finish() override {
        TOMO_RETURN_IF_ERROR(flush(m_outputs[0]));
        return flush(m_outputs[1]);
    }

  private:
    /// The sinogram buffers of one of the two alternating item slots.
    struct Set {
        PinnedBuffer* staging = nullptr;   ///< packed chunk, unpadded rows
        DeviceBuffer* sinogram = nullptr;  ///< pitched rows
        TextureObject texture;
        DeviceBuffer* smCounters = nullptr;
        CudaEvent uploaded;    ///< staging may be refilled once this has fired
        CudaEvent lastKernel;  ///< the device sinogram may be overwritten once this has fired
    };
    /// One of the two alternating output bands and its read-back.
    struct Output {
        DeviceBuffer* band = nullptr;  ///< [slices][bandRows][nx]
        PinnedBuffer* readBack = nullptr;
        CudaEvent downloaded;
        bool pending = false;  ///< readBack holds a band not yet copied into the volume
        int s0 = 0, count = 0, rowBegin = 0, rows = 0;
    };
    struct Timed {
        CudaEvent start, stop;
    };
    Status flush(Output& o);

    CudaDeviceContext& m_dev;
    const CudaLauncher& m_launcher;
    const std::string& m_id;
    const std::vector<float>& m_consts;
    const VolumeGeometry& m_vol;
    Volume& m_out;
    int m_det;
    std::size_t m_rowBytes;
    double& m_kernelSeconds;
    DeviceBuffer* m_dConsts = nullptr;
    Set m_sets[2];
    Output m_outputs[2];
    std::deque<Timed> m_launched;
};

Status CudaPassQueue::allocate(const PassPlan& p) {
    const std::size_t constBytes = m_consts.size() * sizeof(float);
    TOMO_ASSIGN_OR_RETURN(m_dConsts, m_dev.device("device.consts", constBytes));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMemcpy(m_dConsts->get(), m_consts.data(), constBytes, cudaMemcpyHostToDevice),
                  "cudaMemcpy(constants)"));
    // Pageable cudaMemcpy may return before its DMA is done, and the non-blocking streams do
    // not order after the legacy default stream: wait for the upload here.
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaStreamSynchronize(nullptr), "upload of the constants"));
    const int items = p.passes * p.bands * p.angleChunks;
    for (int s = 0; s < std::min(items, 2); ++s) {
        Set& set = m_sets[s];
        const std::string slot = std::to_string(s);
        TOMO_ASSIGN_OR_RETURN(set.staging,
                              m_dev.pinned("pinned.in." + slot, m_rowBytes * p.angleChunk));
        TOMO_ASSIGN_OR_RETURN(set.sinogram, m_dev.pitched("device.sino." + slot, m_rowBytes,
                                                          static_cast<std::size_t>(p.angleChunk)));
        if (m_launcher.usesTexture()) {
            TOMO_ASSIGN_OR_RETURN(
                set.texture, createSinogramTexture(m_launcher, set.sinogram->get(),
                                                   set.sinogram->pitch(), m_det, p.angleChunk));
        }
        if (m_launcher.needsSmCounters()) {
            TOMO_ASSIGN_OR_RETURN(set.smCounters, m_dev.device("device.counters." + slot,
                                                               kSmCounters * sizeof(unsigned)));
        }
        TOMO_ASSIGN_OR_RETURN(set.uploaded, createEvent());
        TOMO_ASSIGN_OR_RETURN(set.lastKernel, createEvent());
    }
    for (int b = 0; b < std::min(p.passes * p.bands, 2); ++b) {
        Output& o = m_outputs[b];
        const std::string slot = std::to_string(b);
        TOMO_ASSIGN_OR_RETURN(o.band, m_dev.device("device.out." + slot, p.outputBytes));
        TOMO_ASSIGN_OR_RETURN(o.readBack, m_dev.pinned("pinned.out." + slot, p.outputBytes));
        TOMO_ASSIGN_OR_RETURN(o.downloaded, createEvent());
    }
    return Status::ok();
}

Status CudaPassQueue::launch(const PassItem& it, int begin, int end, bool accumulate) {
    Set& set = m_sets[it.slot];
    cudaStream_t stream = m_dev.stream(1);
    if (begin == 0)
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaStreamWaitEvent(stream, set.uploaded.get(), 0),
                                       "cudaStreamWaitEvent(upload)"));
    LaunchArgs args;
    args.sino = {set.sinogram->get(), set.sinogram->pitch(), set.texture.get(), m_det};
    args.consts = m_dConsts->as<float>() + 4 * static_cast<std::size_t>(it.a0);
    args.out = m_outputs[it.outputSlot].band->as<float>();
    args.nx = m_vol.nx;
    args.rows = it.rows;
    args.rowBegin = it.rowBegin;
    args.smCounters = set.smCounters ? set.smCounters->as<unsigned>() : nullptr;
    args.projBegin = begin;
    args.projEnd = end;
    args.accumulate = accumulate;
    // Each launch is bracketed by timing events (kernel-only throughput).
    Timed t;
    TOMO_ASSIGN_OR_RETURN(t.start, createEvent(true));
    TOMO_ASSIGN_OR_RETURN(t.stop, createEvent(true));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(t.start.get(), stream), "cudaEventRecord"));
    TOMO_RETURN_IF_ERROR(m_launcher.launch(args, stream).withContext(m_id));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(t.stop.get(), stream), "cudaEventRecord"));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaEventRecord(set.lastKernel.get(), stream), "cudaEventRecord"));
    m_launched.push_back(std::move(t));
    return Status::ok();
}

Status CudaPassQueue::download(const PassItem& it) {
    Output& o = m_outputs[it.outputSlot];
    TOMO_RETURN_IF_ERROR(flush(o));  // the read-back buffer's previous band into the volume
    cudaStream_t stream = m_dev.stream(1);
    const std::size_t used = static_cast<std::size_t>(m_vol.nx) * it.rows;
    for (int s = 0; s < it.count; ++s)
        TOMO_RETURN_IF_ERROR(cudaCheck(
            cudaMemcpyAsync(o.readBack->as<float>() + s * used, o.band->as<float>() + s * used,
                            used * sizeof(float), cudaMemcpyDeviceToHost, stream),
            "cudaMemcpyAsync(output band, " + mebibytes(used * it.count * sizeof(float)) + ")"));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(o.downloaded.get(), stream), "cudaEventRecord"));
    o.pending = true;
    o.s0 = it.s0;
    o.count = it.count;
    o.rowBegin = it.rowBegin;
    o.rows = it.rows;
    return Status::ok();
}

Status CudaPassQueue::flush(Output& o) {
    if (!o.pending) return Status::ok();
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(o.downloaded.get()), m_id));
    o.pending = false;
    const float* src = o.readBack->as<float>();
    for (int s = 0; s < o.count; ++s)
        for (int r = 0; r < o.rows; ++r)
            std::memcpy(&m_out(static_cast<std::size_t>(o.s0 + s),
                               static_cast<std::size_t>(o.rowBegin + r), 0),
                        src + (static_cast<std::size_t>(s) * o.rows + r) * m_vol.nx,
                        sizeof(float) * static_cast<std::size_t>(m_vol.nx));
    return Status::ok();
}

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

Result<PassPlan> CudaBackProjector::plan(const Sinograms& sino, const VolumeGeometry& vol,
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
    return planPasses(l, m_info.id + " on " + t.name);
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
    // GPU out of memory: first drop the buffers the context kept from other jobs (an FBP's
    // padded rows) and retry the same plan; then (another process, fragmentation) smaller
    // items; then give up (PassDriver.h, as on every GPU backend).
    return runWithRetry([&](int shrink) { return plan(sino, vol, shrink); },
                        [&](const PassPlan& p) { return run(sino, vol, consts, p, out, ctx); },
                        [&] { m_device->releaseScratch(); });
}

Status CudaBackProjector::run(const Sinograms& sino, const VolumeGeometry& vol,
                              const std::vector<float>& consts, const PassPlan& p, Volume& out,
                              const ExecContext& ctx) {
    m_kernelSeconds = 0;
    const int det = static_cast<int>(sino.dim(2));
    CudaPassQueue queue(*m_device, m_launcher, m_info.id, consts, vol, out, det, m_kernelSeconds);
    const PassJob job{vol.nz, vol.ny, static_cast<int>(sino.dim(1))};
    return runPasses(
        p, job, queue,
        [&](const PassItem& it, void* staging) {
            packPass(m_launcher, sino, it.s0, it.count, it.a0, it.na, staging);
        },
        ctx);
}

}  // namespace tomo::cuda
