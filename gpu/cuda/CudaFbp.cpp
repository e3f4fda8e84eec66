// FBP on the GPU: cuFFT ramp filtering + CUDA back-projection, two streams (see CudaFbp.h).
#include "gpu/cuda/CudaFbp.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "core/base/Progress.h"
#include "core/filter/RampFilter.h"
#include "gpu/cuda/internal/CudaBackProjector.h"

namespace tomo::cuda {
namespace {

/// One buffer set: the context's scratch buffers of slot k plus this call's events.
struct PassBuffers {
    PinnedBuffer* raw = nullptr;       ///< [S][angles][detectors] host staging
    DeviceBuffer* dRaw = nullptr;      ///< the same on the device
    DeviceBuffer* work = nullptr;      ///< [S * angles][N + 2] padded rows / spectra
    DeviceBuffer* sinogram = nullptr;  ///< pitched packed pass
    TextureObject texture;
    DeviceBuffer* output = nullptr;  ///< [S][ny][nx]
    PinnedBuffer* readBack = nullptr;
    DeviceBuffer* smCounters = nullptr;
    CudaEvent filterStart, filterStop, kernelStart, kernelStop, done;
    bool pending = false;
    int s0 = 0, count = 0;
};

struct SyncStreams {
    const CudaDeviceContext& device;
    ~SyncStreams() {
        cudaStreamSynchronize(device.stream(0));
        cudaStreamSynchronize(device.stream(1));
    }
};

/// The sizes of one FBP call.
struct FbpPlan {
    int angles = 0, det = 0, S = 1, N = 0, passes = 0, sets = 1;
    std::size_t rows = 0, rowBytes = 0, outFloats = 0;
};

Status acquire(CudaDeviceContext& dev, const CudaLauncher& launcher, const FbpPlan& f, int k,
               PassBuffers& b) {
    const std::string slot = std::to_string(k);
    const std::size_t rawBytes = f.rows * static_cast<std::size_t>(f.det) * 4;
    TOMO_ASSIGN_OR_RETURN(b.raw, dev.pinned("pinned.in." + slot, rawBytes));
    TOMO_ASSIGN_OR_RETURN(b.dRaw, dev.device("device.raw." + slot, rawBytes));
    TOMO_ASSIGN_OR_RETURN(b.work,
                          dev.device("device.work." + slot, f.rows * (f.N + 2) * sizeof(float)));
    TOMO_ASSIGN_OR_RETURN(b.sinogram, dev.pitched("device.sino." + slot, f.rowBytes,
                                                  static_cast<std::size_t>(f.angles)));
    if (launcher.usesTexture()) {
        TOMO_ASSIGN_OR_RETURN(
            b.texture, createSinogramTexture(launcher, b.sinogram->get(), b.sinogram->pitch(),
                                             f.det, f.angles));
    }
    TOMO_ASSIGN_OR_RETURN(b.output, dev.device("device.out." + slot, f.outFloats * 4));
    TOMO_ASSIGN_OR_RETURN(b.readBack, dev.pinned("pinned.out." + slot, f.outFloats * 4));
    if (launcher.needsSmCounters()) {
        TOMO_ASSIGN_OR_RETURN(
            b.smCounters, dev.device("device.counters." + slot, kSmCounters * sizeof(unsigned)));
    }
    for (CudaEvent* e : {&b.filterStart, &b.filterStop, &b.kernelStart, &b.kernelStop}) {
        TOMO_ASSIGN_OR_RETURN(*e, createEvent(true));
    }
    TOMO_ASSIGN_OR_RETURN(b.done, createEvent());
    return Status::ok();
}

/// Uploads a host array through the legacy default stream and waits for it.
Result<DeviceBuffer*> upload(CudaDeviceContext& dev, const std::string& key, const void* data,
                             std::size_t bytes) {
    TOMO_ASSIGN_OR_RETURN(DeviceBuffer * d, dev.device(key, bytes));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemcpy(d->get(), data, bytes, cudaMemcpyHostToDevice),
                                   "cudaMemcpy(" + key + ")"));
    // Pageable cudaMemcpy may return before its DMA is done, and the non-blocking streams do
    // not order after the legacy default stream: wait for the upload here.
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaStreamSynchronize(nullptr), "upload of " + key));
    return d;
}

/// Enqueues pass k (slices b.s0 .. b.s0 + b.count) on @p stream: upload, pad, R2C, multiply,
/// C2R, pack, back-project, download.
Status enqueuePass(const FbpPlan& f, const CudaLauncher& launcher, const std::string& id,
                   const CudaDeviceContext::FftPlans& plans, const float* response,
                   const float* consts, const VolumeGeometry& vol, const Sinograms& sino,
                   const PassBuffers* previous, PassBuffers& b, cudaStream_t stream) {
    const std::size_t rawBytes = f.rows * static_cast<std::size_t>(f.det) * 4;
    float* raw = b.raw->as<float>();
    std::memset(raw, 0, rawBytes);
    for (int s = 0; s < b.count; ++s)
        for (int p = 0; p < f.angles; ++p)
            std::memcpy(raw + (static_cast<std::size_t>(s) * f.angles + p) * f.det,
                        &sino(static_cast<std::size_t>(b.s0 + s), static_cast<std::size_t>(p), 0),
                        sizeof(float) * static_cast<std::size_t>(f.det));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMemcpyAsync(b.dRaw->get(), raw, rawBytes, cudaMemcpyHostToDevice, stream),
                  "cudaMemcpyAsync(raw sinogram)"));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.filterStart.get(), stream), "event"));
    const int rows = static_cast<int>(f.rows);
    TOMO_RETURN_IF_ERROR(
        launchPadRows(b.dRaw->as<float>(), b.work->as<float>(), rows, f.det, f.N, stream));
    // Both streams share one plan pair (one cuFFT work area): the previous pass's filter
    // stage, on the other stream, must finish before this one's transforms start.
    if (previous)
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaStreamWaitEvent(stream, previous->filterStop.get(), 0),
                                       "cudaStreamWaitEvent(filter stage)"));
    TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(plans.forward, stream), "cufftSetStream"));
    TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(plans.inverse, stream), "cufftSetStream"));
    TOMO_RETURN_IF_ERROR(
        cufftCheck(cufftExecR2C(plans.forward, b.work->as<cufftReal>(), b.work->as<cufftComplex>()),
                   "cufftExecR2C(ramp filter)"));
    TOMO_RETURN_IF_ERROR(launchMultiplySpectra(b.work->as<float>(), response, rows, f.N, stream));
    TOMO_RETURN_IF_ERROR(
        cufftCheck(cufftExecC2R(plans.inverse, b.work->as<cufftComplex>(), b.work->as<cufftReal>()),
                   "cufftExecC2R(ramp filter)"));
    TOMO_RETURN_IF_ERROR(launchPackPass(b.work->as<float>(), b.count, f.angles, f.det, f.N,
                                        launcher.channels(), launcher.halfStorage(),
                                        b.sinogram->get(), b.sinogram->pitch(), stream));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.filterStop.get(), stream), "event"));
    LaunchArgs args;
    args.sino = {b.sinogram->get(), b.sinogram->pitch(), b.texture.get(), f.det};
    args.consts = consts;
    args.projBegin = 0;
    args.projEnd = f.angles;
    args.out = b.output->as<float>();
    args.nx = vol.nx;
    args.rows = vol.ny;
    args.smCounters = b.smCounters ? b.smCounters->as<unsigned>() : nullptr;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.kernelStart.get(), stream), "event"));
    TOMO_RETURN_IF_ERROR(launcher.launch(args, stream).withContext(id));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.kernelStop.get(), stream), "event"));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMemcpyAsync(b.readBack->get(), b.output->get(),
                                  static_cast<std::size_t>(b.count) * vol.ny * vol.nx * 4,
                                  cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpyAsync(output slices)"));
    return cudaCheck(cudaEventRecord(b.done.get(), stream), "event");
}

Status runFbp(CudaDeviceContext& dev, const CudaLauncher& launcher, const std::string& id,
              const FbpPlan& f, const RampFilter& filter, const std::vector<float>& consts,
              const Sinograms& sino, const VolumeGeometry& vol, Volume& out, const ExecContext& ctx,
              CudaFbpTimings& t) {
    TOMO_ASSIGN_OR_RETURN(
        DeviceBuffer * dResponse,
        upload(dev, "device.response", filter.response().data(), filter.response().size_bytes()));
    TOMO_ASSIGN_OR_RETURN(DeviceBuffer * dConsts, upload(dev, "device.consts", consts.data(),
                                                         consts.size() * sizeof(float)));
    TOMO_ASSIGN_OR_RETURN(auto plans, dev.fftPlans(f.N, static_cast<int>(f.rows)));
    PassBuffers set[2];
    for (int k = 0; k < f.sets; ++k)
        TOMO_RETURN_IF_ERROR(acquire(dev, launcher, f, k, set[k]));
    SyncStreams sync{dev};
    auto retire = [&](PassBuffers& b) -> Status {
        if (!b.pending) return Status::ok();
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(b.done.get()), id));
        b.pending = false;
        float ms = 0.f;
        if (cudaEventElapsedTime(&ms, b.filterStart.get(), b.filterStop.get()) == cudaSuccess)
            t.filtering += 1e-3 * ms;
        if (cudaEventElapsedTime(&ms, b.kernelStart.get(), b.kernelStop.get()) == cudaSuccess)
            t.kernels += 1e-3 * ms;
        const float* src = b.readBack->as<float>();
        for (int s = 0; s < b.count; ++s)
            for (int r = 0; r < vol.ny; ++r)
                std::memcpy(
                    &out(static_cast<std::size_t>(b.s0 + s), static_cast<std::size_t>(r), 0),
                    src + (static_cast<std::size_t>(s) * vol.ny + r) * vol.nx,
                    sizeof(float) * static_cast<std::size_t>(vol.nx));
        if (ctx.progress) ctx.progress->advance(1);
        return Status::ok();
    };
    if (ctx.progress) ctx.progress->setTotal(static_cast<std::uint64_t>(f.passes));
    for (int k = 0; k < f.passes; ++k) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        PassBuffers& b = set[k % f.sets];
        TOMO_RETURN_IF_ERROR(retire(b));
        b.s0 = k * f.S;
        b.count = std::min(f.S, vol.nz - b.s0);
        const PassBuffers* previous = k > 0 && f.sets == 2 ? &set[(k - 1) % 2] : nullptr;
        TOMO_RETURN_IF_ERROR(enqueuePass(f, launcher, id, plans, dResponse->as<float>(),
                                         dConsts->as<float>(), vol, sino, previous, b,
                                         dev.stream(k % f.sets)));
        b.pending = true;
    }
    TOMO_RETURN_IF_ERROR(retire(set[0]));
    return retire(set[1]);
}

}  // namespace

Status reconstructFbp(const Sinograms& sino, const ParallelGeometry& geom,
                      const VolumeGeometry& vol, BackProjector& backProjector,
                      const FbpOptions& options, Volume& out, const ExecContext& ctx,
                      CudaFbpTimings* timings) {
    const auto t0 = std::chrono::steady_clock::now();
    auto* cuda = dynamic_cast<CudaBackProjector*>(&backProjector);
    if (cuda == nullptr)
        return invalidArgument("the CUDA FBP needs a cuda.* back-projector, not " +
                               backProjector.info().id);
    const std::string& id = cuda->info().id;
    const CudaLauncher& launcher = cuda->launcher();
    CudaDeviceContext& dev = *cuda->device();
    const std::vector<double> w = geom.angularWeights();
    const std::vector<float> weights(w.begin(), w.end());
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    TOMO_ASSIGN_OR_RETURN(
        RampFilter filter,
        RampFilter::create(geom.detectorCount(), geom.detectorPitch(), options.filter));
    FbpPlan f;
    f.angles = geom.angleCount();
    f.det = geom.detectorCount();
    if (f.angles > dev.traits().maxTexture2dLinearHeight)
        return unsupported(id + ": " + std::to_string(f.angles) +
                           " projections exceed the 2-D texture height limit (" +
                           std::to_string(dev.traits().maxTexture2dLinearHeight) + ")");
    f.S = launcher.slicesPerPass();
    f.N = filter.paddedWidth();
    f.passes = (vol.nz + f.S - 1) / f.S;
    f.rows = static_cast<std::size_t>(f.S) * f.angles;
    f.rowBytes = static_cast<std::size_t>(f.det) * launcher.texelBytes();
    f.outFloats = static_cast<std::size_t>(f.S) * vol.ny * vol.nx;
    const std::size_t setBytes = f.rows * f.det * 4 + f.rows * (f.N + 2) * 4 +
                                 (f.rowBytes + 512) * f.angles + f.outFloats * 4;
    if (setBytes > dev.memoryBudget())
        return outOfMemory(id + ": one pass needs " + mebibytes(setBytes) +
                           " of GPU memory, the budget is " + mebibytes(dev.memoryBudget()));
    f.sets = std::min(f.passes, setBytes * 2 <= dev.memoryBudget() ? 2 : 1);
    const std::vector<float> consts = projectionConstants(geom, vol, weights);
    const auto lock = dev.lockScratch();  // one job at a time on the device
    TOMO_RETURN_IF_ERROR(dev.activate());
    CudaFbpTimings t;
    Status s = runFbp(dev, launcher, id, f, filter, consts, sino, vol, out, ctx, t);
    if (s.code() == ErrorCode::OutOfMemory) {  // kept buffers of other sizes: drop, once more
        dev.releaseScratch();
        t = {};
        s = runFbp(dev, launcher, id, f, filter, consts, sino, vol, out, ctx, t);
    }
    TOMO_RETURN_IF_ERROR(s);
    t.updates = static_cast<double>(vol.nx) * vol.ny * f.angles * vol.nz;
    t.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (timings) *timings = t;
    return Status::ok();
}

}  // namespace tomo::cuda
