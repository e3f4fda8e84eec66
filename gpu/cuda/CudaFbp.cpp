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

struct PassBuffers {
    PinnedBuffer raw;       ///< [S][angles][detectors] host staging
    DeviceBuffer dRaw;      ///< the same on the device
    DeviceBuffer work;      ///< [S * angles][N + 2] padded rows / spectra
    DeviceBuffer sinogram;  ///< pitched packed pass
    TextureObject texture;
    DeviceBuffer output;  ///< [S][ny][nx]
    PinnedBuffer readBack;
    DeviceBuffer smCounters;
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

}  // namespace

Status reconstructFbp(const Sinograms& sino, const ParallelGeometry& geom,
                      const VolumeGeometry& vol, const std::string& variantId,
                      const FbpOptions& options, Volume& out, const ExecContext& ctx,
                      CudaFbpTimings* timings, int device) {
    const auto t0 = std::chrono::steady_clock::now();
    TOMO_ASSIGN_OR_RETURN(CudaLauncher launcher, launcherFor(variantId));
    const std::vector<double> w = geom.angularWeights();
    const std::vector<float> weights(w.begin(), w.end());
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    TOMO_ASSIGN_OR_RETURN(
        RampFilter filter,
        RampFilter::create(geom.detectorCount(), geom.detectorPitch(), options.filter));
    TOMO_ASSIGN_OR_RETURN(std::shared_ptr<CudaDeviceContext> dev, CudaDeviceContext::open(device));
    const int angles = geom.angleCount(), det = geom.detectorCount();
    if (angles > dev->traits().maxTexture2dLinearHeight)
        return unsupported(variantId + ": " + std::to_string(angles) +
                           " projections exceed the 2-D texture height limit (" +
                           std::to_string(dev->traits().maxTexture2dLinearHeight) + ")");
    const int S = launcher.slicesPerPass(), N = filter.paddedWidth();
    const int passes = (vol.nz + S - 1) / S;
    const std::size_t rows = static_cast<std::size_t>(S) * angles;
    const std::size_t rowBytes = static_cast<std::size_t>(det) * launcher.texelBytes();
    const std::size_t outFloats = static_cast<std::size_t>(S) * vol.ny * vol.nx;
    const std::size_t setBytes =
        rows * det * 4 + rows * (N + 2) * 4 + (rowBytes + 512) * angles + outFloats * 4;
    const int sets = std::min(passes, setBytes * 2 <= dev->memoryBudget() ? 2 : 1);
    if (setBytes > dev->memoryBudget())
        return outOfMemory(variantId + ": one pass needs " + mebibytes(setBytes) +
                           " of GPU memory, the budget is " + mebibytes(dev->memoryBudget()));

    TOMO_ASSIGN_OR_RETURN(DeviceBuffer dResponse,
                          DeviceBuffer::create(filter.response().size_bytes(), "filter response"));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMemcpy(dResponse.get(), filter.response().data(),
                             filter.response().size_bytes(), cudaMemcpyHostToDevice),
                  "cudaMemcpy(filter response)"));
    const std::vector<float> consts = projectionConstants(geom, vol, weights);
    TOMO_ASSIGN_OR_RETURN(DeviceBuffer dConsts,
                          DeviceBuffer::create(consts.size() * sizeof(float), "constants"));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMemcpy(dConsts.get(), consts.data(), consts.size() * sizeof(float),
                             cudaMemcpyHostToDevice),
                  "cudaMemcpy(constants)"));
    // Pageable cudaMemcpy may return before its DMA is done, and the non-blocking streams do
    // not order after the legacy default stream: wait for the uploads here.
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaStreamSynchronize(nullptr), "upload of the filter and constants"));
    TOMO_ASSIGN_OR_RETURN(auto plans, dev->fftPlans(N, static_cast<int>(rows)));
    PassBuffers set[2];
    for (int k = 0; k < sets; ++k) {
        PassBuffers& b = set[k];
        TOMO_ASSIGN_OR_RETURN(b.raw, PinnedBuffer::create(rows * det * 4, "raw sinogram staging"));
        TOMO_ASSIGN_OR_RETURN(b.dRaw, DeviceBuffer::create(rows * det * 4, "raw sinogram"));
        TOMO_ASSIGN_OR_RETURN(b.work, DeviceBuffer::create(rows * (N + 2) * 4, "padded rows"));
        TOMO_ASSIGN_OR_RETURN(b.sinogram, DeviceBuffer::createPitched(
                                              rowBytes, static_cast<std::size_t>(angles), "pass"));
        if (launcher.usesTexture()) {
            TOMO_ASSIGN_OR_RETURN(
                b.texture,
                createSinogramTexture(launcher, b.sinogram.get(), b.sinogram.pitch(), det, angles));
        }
        TOMO_ASSIGN_OR_RETURN(b.output, DeviceBuffer::create(outFloats * 4, "output slices"));
        TOMO_ASSIGN_OR_RETURN(b.readBack, PinnedBuffer::create(outFloats * 4, "read-back"));
        if (launcher.needsSmCounters()) {
            TOMO_ASSIGN_OR_RETURN(
                b.smCounters, DeviceBuffer::create(kSmCounters * sizeof(unsigned), "SM counters"));
        }
        for (CudaEvent* e : {&b.filterStart, &b.filterStop, &b.kernelStart, &b.kernelStop}) {
            TOMO_ASSIGN_OR_RETURN(*e, createEvent(true));
        }
        TOMO_ASSIGN_OR_RETURN(b.done, createEvent());
    }
    SyncStreams sync{*dev};
    CudaFbpTimings t;
    t.updates = static_cast<double>(vol.nx) * vol.ny * angles * vol.nz;
    auto retire = [&](PassBuffers& b) -> Status {
        if (!b.pending) return Status::ok();
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(b.done.get()), variantId));
        b.pending = false;
        float ms = 0.f;
        if (cudaEventElapsedTime(&ms, b.filterStart.get(), b.filterStop.get()) == cudaSuccess)
            t.filtering += 1e-3 * ms;
        if (cudaEventElapsedTime(&ms, b.kernelStart.get(), b.kernelStop.get()) == cudaSuccess)
            t.kernels += 1e-3 * ms;
        const float* src = b.readBack.as<float>();
        for (int s = 0; s < b.count; ++s)
            for (int r = 0; r < vol.ny; ++r)
                std::memcpy(
                    &out(static_cast<std::size_t>(b.s0 + s), static_cast<std::size_t>(r), 0),
                    src + (static_cast<std::size_t>(s) * vol.ny + r) * vol.nx,
                    sizeof(float) * static_cast<std::size_t>(vol.nx));
        if (ctx.progress) ctx.progress->advance(1);
        return Status::ok();
    };
    if (ctx.progress) ctx.progress->setTotal(static_cast<std::uint64_t>(passes));
    for (int k = 0; k < passes; ++k) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        PassBuffers& b = set[k % sets];
        cudaStream_t stream = dev->stream(k % sets);
        TOMO_RETURN_IF_ERROR(retire(b));
        b.s0 = k * S;
        b.count = std::min(S, vol.nz - b.s0);
        float* raw = b.raw.as<float>();
        std::memset(raw, 0, rows * det * 4);
        for (int s = 0; s < b.count; ++s)
            for (int p = 0; p < angles; ++p)
                std::memcpy(
                    raw + (static_cast<std::size_t>(s) * angles + p) * det,
                    &sino(static_cast<std::size_t>(b.s0 + s), static_cast<std::size_t>(p), 0),
                    sizeof(float) * static_cast<std::size_t>(det));
        TOMO_RETURN_IF_ERROR(cudaCheck(
            cudaMemcpyAsync(b.dRaw.get(), raw, rows * det * 4, cudaMemcpyHostToDevice, stream),
            "cudaMemcpyAsync(raw sinogram)"));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.filterStart.get(), stream), "event"));
        TOMO_RETURN_IF_ERROR(launchPadRows(b.dRaw.as<float>(), b.work.as<float>(),
                                           static_cast<int>(rows), det, N, stream));
        // Both streams share one plan pair (one cuFFT work area): the previous pass's filter
        // stage, on the other stream, must finish before this one's transforms start.
        if (k > 0 && sets == 2)
            TOMO_RETURN_IF_ERROR(cudaCheck(
                cudaStreamWaitEvent(stream, set[(k - 1) % sets].filterStop.get(), 0),
                "cudaStreamWaitEvent(filter stage)"));
        TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(plans.forward, stream), "cufftSetStream"));
        TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(plans.inverse, stream), "cufftSetStream"));
        TOMO_RETURN_IF_ERROR(cufftCheck(
            cufftExecR2C(plans.forward, b.work.as<cufftReal>(), b.work.as<cufftComplex>()),
            "cufftExecR2C(ramp filter)"));
        TOMO_RETURN_IF_ERROR(launchMultiplySpectra(b.work.as<float>(), dResponse.as<float>(),
                                                   static_cast<int>(rows), N, stream));
        TOMO_RETURN_IF_ERROR(cufftCheck(
            cufftExecC2R(plans.inverse, b.work.as<cufftComplex>(), b.work.as<cufftReal>()),
            "cufftExecC2R(ramp filter)"));
        TOMO_RETURN_IF_ERROR(launchPackPass(b.work.as<float>(), b.count, angles, det, N,
                                            launcher.channels(), launcher.halfStorage(),
                                            b.sinogram.get(), b.sinogram.pitch(), stream));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.filterStop.get(), stream), "event"));
        LaunchArgs args;
        args.sino = {b.sinogram.get(), b.sinogram.pitch(), b.texture.get(), det};
        args.consts = dConsts.as<float>();
        args.projBegin = 0;
        args.projEnd = angles;
        args.out = b.output.as<float>();
        args.nx = vol.nx;
        args.rows = vol.ny;
        args.smCounters = b.smCounters.as<unsigned>();
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.kernelStart.get(), stream), "event"));
        TOMO_RETURN_IF_ERROR(launcher.launch(args, stream).withContext(variantId));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.kernelStop.get(), stream), "event"));
        TOMO_RETURN_IF_ERROR(
            cudaCheck(cudaMemcpyAsync(b.readBack.get(), b.output.get(),
                                      static_cast<std::size_t>(b.count) * vol.ny * vol.nx * 4,
                                      cudaMemcpyDeviceToHost, stream),
                      "cudaMemcpyAsync(output slices)"));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(b.done.get(), stream), "event"));
        b.pending = true;
    }
    TOMO_RETURN_IF_ERROR(retire(set[0]));
    TOMO_RETURN_IF_ERROR(retire(set[1]));
    t.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (timings) *timings = t;
    return Status::ok();
}

}  // namespace tomo::cuda
