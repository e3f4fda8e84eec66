// FBP's row-filter stage with cuFFT on two streams (see CudaRowFilter.h).
#include "gpu/cuda/CudaRowFilter.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/base/Progress.h"
#include "gpu/cuda/CufftAvailability.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/kernels/CudaKernels.h"

namespace tomo::cuda {
namespace {

constexpr std::size_t kMaxBlockRows = 4096;

/// Row r of @p rows ([slice][angle][detector]) as a flat index r = slice * angles + angle.
float* rowAt(Sinograms& rows, std::size_t r) {
    const std::size_t angles = rows.dim(1);
    return rows.row(r / angles, r % angles).data();
}

/// One of the two alternating blocks: the context's scratch buffers of slot k.
struct Slot {
    PinnedBuffer* host = nullptr;  ///< [block][detectors] staging, in and out
    DeviceBuffer* raw = nullptr;   ///< the same on the device
    DeviceBuffer* work = nullptr;  ///< [block][N + 2] padded rows / spectra
    CudaEvent filtered, done;
    bool pending = false;  ///< host holds filtered rows not yet copied into the chunk
    std::size_t first = 0, count = 0;
};

class CufftRowFilter final : public RowFilterStage {
  public:
    explicit CufftRowFilter(std::shared_ptr<CudaDeviceContext> device)
        : m_device(std::move(device)) {}
    std::string name() const override { return "cufft on " + m_device->traits().name; }
    Status apply(const RampFilter& filter, Sinograms& rows, const ExecContext& ctx) override;

  private:
    Status run(const RampFilter& filter, Sinograms& rows, std::size_t block,
               const ExecContext& ctx);
    std::shared_ptr<CudaDeviceContext> m_device;
};

/// Copies slot @p s's filtered rows back into @p rows once its download is done.
Status retire(Slot& s, Sinograms& rows) {
    if (!s.pending) return Status::ok();
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventSynchronize(s.done.get()), "cuFFT row filter"));
    s.pending = false;
    const std::size_t det = rows.dim(2);
    const float* src = s.host->as<float>();
    for (std::size_t r = 0; r < s.count; ++r)
        std::memcpy(rowAt(rows, s.first + r), src + r * det, det * sizeof(float));
    return Status::ok();
}

/// Enqueues slot @p s's rows on @p stream: upload, pad, R2C, multiply, C2R, unpad, download.
/// The transforms wait for @p previous's (both streams share one plan pair and work area).
Status enqueueBlock(Slot& s, const Slot* previous, const CudaDeviceContext::FftPlans& plans,
                    const float* response, int det, int n, cudaStream_t stream) {
    const int count = static_cast<int>(s.count);
    const std::size_t bytes = s.count * static_cast<std::size_t>(det) * sizeof(float);
    TOMO_RETURN_IF_ERROR(cudaCheck(
        cudaMemcpyAsync(s.raw->get(), s.host->get(), bytes, cudaMemcpyHostToDevice, stream),
        "cudaMemcpyAsync(rows)"));
    TOMO_RETURN_IF_ERROR(
        launchPadRows(s.raw->as<float>(), s.work->as<float>(), count, det, n, stream));
    if (previous)
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaStreamWaitEvent(stream, previous->filtered.get(), 0),
                                       "cudaStreamWaitEvent(previous transforms)"));
    TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(plans.forward, stream), "cufftSetStream"));
    TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(plans.inverse, stream), "cufftSetStream"));
    TOMO_RETURN_IF_ERROR(
        cufftCheck(cufftExecR2C(plans.forward, s.work->as<cufftReal>(), s.work->as<cufftComplex>()),
                   "cufftExecR2C(ramp filter)"));
    TOMO_RETURN_IF_ERROR(launchMultiplySpectra(s.work->as<float>(), response, count, n, stream));
    TOMO_RETURN_IF_ERROR(
        cufftCheck(cufftExecC2R(plans.inverse, s.work->as<cufftComplex>(), s.work->as<cufftReal>()),
                   "cufftExecC2R(ramp filter)"));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(s.filtered.get(), stream), "cudaEventRecord"));
    TOMO_RETURN_IF_ERROR(
        launchUnpadRows(s.work->as<float>(), s.raw->as<float>(), count, det, n, stream));
    TOMO_RETURN_IF_ERROR(cudaCheck(
        cudaMemcpyAsync(s.host->get(), s.raw->get(), bytes, cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync(filtered rows)"));
    return cudaCheck(cudaEventRecord(s.done.get(), stream), "cudaEventRecord");
}

/// Waits for both streams when leaving run(), whatever the outcome.
struct SyncStreams {
    const CudaDeviceContext& device;
    ~SyncStreams() { device.synchronizeStreams(); }
};

Status CufftRowFilter::run(const RampFilter& filter, Sinograms& rows, std::size_t block,
                           const ExecContext& ctx) {
    CudaDeviceContext& dev = *m_device;
    const int det = filter.width(), n = filter.paddedWidth();
    const std::size_t total = rows.dim(0) * rows.dim(1);
    const std::span<const float> response = filter.response();
    TOMO_ASSIGN_OR_RETURN(DeviceBuffer * dResponse,
                          dev.device("device.response", response.size_bytes()));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemcpy(dResponse->get(), response.data(),
                                              response.size_bytes(), cudaMemcpyHostToDevice),
                                   "cudaMemcpy(filter response)"));
    // Pageable cudaMemcpy may return before its DMA is done, and the non-blocking streams do
    // not order after the legacy default stream: wait for the upload here.
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaStreamSynchronize(nullptr), "upload of the response"));
    TOMO_ASSIGN_OR_RETURN(auto plans, dev.fftPlans(n, static_cast<int>(block)));
    const std::size_t blocks = (total + block - 1) / block;
    Slot slots[2];
    for (std::size_t k = 0; k < std::min<std::size_t>(blocks, 2); ++k) {
        Slot& s = slots[k];
        const std::string key = std::to_string(k);
        TOMO_ASSIGN_OR_RETURN(s.host, dev.pinned("pinned.rows." + key, block * det * 4));
        TOMO_ASSIGN_OR_RETURN(s.raw, dev.device("device.rows." + key, block * det * 4));
        TOMO_ASSIGN_OR_RETURN(s.work, dev.device("device.spectra." + key, block * (n + 2) * 4));
        TOMO_ASSIGN_OR_RETURN(s.filtered, createEvent());
        TOMO_ASSIGN_OR_RETURN(s.done, createEvent());
    }
    SyncStreams sync{dev};  // after the buffers: runs before they are released
    if (ctx.progress) ctx.progress->setTotal(total);
    for (std::size_t k = 0; k < blocks; ++k) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        Slot& s = slots[k & 1];
        TOMO_RETURN_IF_ERROR(retire(s, rows));
        if (k >= 2 && ctx.progress) ctx.progress->advance(s.count);
        s.first = k * block;
        s.count = std::min(block, total - s.first);
        float* host = s.host->as<float>();
        for (std::size_t r = 0; r < s.count; ++r)
            std::memcpy(host + r * det, rowAt(rows, s.first + r), det * sizeof(float));
        const Slot* previous = k > 0 ? &slots[(k - 1) & 1] : nullptr;
        TOMO_RETURN_IF_ERROR(enqueueBlock(s, previous, plans, dResponse->as<float>(), det, n,
                                          dev.stream(static_cast<int>(k & 1))));
        s.pending = true;
    }
    for (Slot& s : slots) {
        const bool pending = s.pending;
        TOMO_RETURN_IF_ERROR(retire(s, rows));
        if (pending && ctx.progress) ctx.progress->advance(s.count);
    }
    return Status::ok();
}

Status CufftRowFilter::apply(const RampFilter& filter, Sinograms& rows, const ExecContext& ctx) {
    if (rows.dim(2) != static_cast<std::size_t>(filter.width()))
        return invalidArgument("cuFFT row filter: rows of " + std::to_string(rows.dim(2)) +
                               " detectors, the filter is for " + std::to_string(filter.width()));
    const std::size_t total = rows.dim(0) * rows.dim(1);
    if (total == 0) return Status::ok();
    const std::size_t perRow =
        (static_cast<std::size_t>(filter.width()) * 2 + filter.paddedWidth() + 2) * sizeof(float);
    std::size_t block = std::min(
        {total, kMaxBlockRows, std::max<std::size_t>(1, m_device->memoryBudget() / (2 * perRow))});
    const auto lock = m_device->lockScratch();  // one job at a time on the device
    TOMO_RETURN_IF_ERROR(m_device->activate());
    for (;;) {
        Status s = run(filter, rows, block, ctx);
        if (s.code() != ErrorCode::OutOfMemory || block == 1) return s;
        m_device->releaseScratch();  // other jobs' buffers, then smaller blocks
        block = (block + 1) / 2;
    }
}

}  // namespace

Result<std::shared_ptr<RowFilterStage>> makeCufftRowFilter(
    std::shared_ptr<CudaDeviceContext> device) {
    TOMO_RETURN_IF_ERROR(cufftAvailability());
    if (!device) return invalidArgument("cuFFT row filter: no CUDA device context");
    return std::shared_ptr<RowFilterStage>(std::make_shared<CufftRowFilter>(std::move(device)));
}

}  // namespace tomo::cuda
