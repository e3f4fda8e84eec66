// FBP's row-filter stage with cuFFT as a stage of core's pipeline (see CudaRowFilter.h).
#include "gpu/cuda/CudaRowFilter.h"

#include <algorithm>
#include <string>

#include "gpu/cuda/CufftAvailability.h"
#include "gpu/cuda/internal/CudaQueues.h"
#include "gpu/cuda/kernels/CudaKernels.h"

namespace tomo::cuda {
namespace {

constexpr std::size_t kMaxBlockRows = 4096;

/// The filter in place on a chunk's rows, a block of rows per step, on the compute stream.
class CufftFilterStage final : public ChunkStage {
  public:
    CufftFilterStage(CudaQueues& q, const RampFilter& filter, const SinogramChunkLayout& in)
        : m_q(q), m_filter(filter), m_in(in) {}
    TimelineStage timelineStage() const override { return TimelineStage::Filter; }
    std::string label() const override { return "filtering"; }

    Status prepare(std::size_t chunkItems, std::size_t budget) override {
        const int n = m_filter.paddedWidth();
        const std::size_t rows = chunkItems * static_cast<std::size_t>(m_in.angles);
        const std::size_t perRow = (static_cast<std::size_t>(n) + 2) * sizeof(float);
        m_block = std::min({rows, kMaxBlockRows, std::max<std::size_t>(1, budget / perRow)});
        CudaDeviceContext& dev = m_q.context();
        TOMO_ASSIGN_OR_RETURN(m_plans, dev.fftPlans(n, static_cast<int>(m_block)));
        TOMO_ASSIGN_OR_RETURN(m_work, dev.device("filter.spectra", m_block * perRow));
        const std::span<const float> response = m_filter.response();
        TOMO_ASSIGN_OR_RETURN(m_response, dev.device("filter.response", response.size_bytes()));
        return cudaCheck(cudaMemcpyAsync(m_response->get(), response.data(), response.size_bytes(),
                                         cudaMemcpyHostToDevice, m_q.computeStream()),
                         "cudaMemcpyAsync(filter response)");
    }
    int steps(const PipelineChunk& c) const override {
        const std::size_t rows = c.count * static_cast<std::size_t>(m_in.angles);
        return static_cast<int>((rows + m_block - 1) / m_block);
    }
    double work(const PipelineChunk& c, int step) const override {
        return double(rowsOf(c, step)) * m_filter.paddedWidth();
    }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int step,
               const ExecContext&) override {
        const cudaStream_t stream = m_q.computeStream();
        const int n = m_filter.paddedWidth(), det = m_in.detectors;
        const int count = static_cast<int>(rowsOf(c, step));
        float* rows =
            CudaQueues::ptr<float>(b.input) + static_cast<std::size_t>(step) * m_block * m_in.pitch;
        float* work = m_work->as<float>();
        TOMO_RETURN_IF_ERROR(launchPadRows(rows, m_in.pitch, work, count, det, n, stream));
        const cufftHandle forward = m_plans->forward.get(), inverse = m_plans->inverse.get();
        TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(forward, stream), "cufftSetStream"));
        TOMO_RETURN_IF_ERROR(cufftCheck(cufftSetStream(inverse, stream), "cufftSetStream"));
        TOMO_RETURN_IF_ERROR(
            cufftCheck(cufftExecR2C(forward, m_work->as<cufftReal>(), m_work->as<cufftComplex>()),
                       "cufftExecR2C(ramp filter)"));
        TOMO_RETURN_IF_ERROR(
            launchMultiplySpectra(work, m_response->as<float>(), count, n, stream));
        TOMO_RETURN_IF_ERROR(
            cufftCheck(cufftExecC2R(inverse, m_work->as<cufftComplex>(), m_work->as<cufftReal>()),
                       "cufftExecC2R(ramp filter)"));
        return launchUnpadRows(work, rows, m_in.pitch, count, det, n, stream);
    }

  private:
    std::size_t rowsOf(const PipelineChunk& c, int step) const {
        const std::size_t rows = c.count * static_cast<std::size_t>(m_in.angles);
        return std::min(m_block, rows - static_cast<std::size_t>(step) * m_block);
    }

    CudaQueues& m_q;
    const RampFilter& m_filter;
    SinogramChunkLayout m_in;
    std::size_t m_block = 1;
    std::shared_ptr<CudaDeviceContext::FftPlans> m_plans;  ///< held for the run
    DeviceBuffer* m_work = nullptr;
    DeviceBuffer* m_response = nullptr;
};

class CufftRowFilter final : public RowFilterStage {
  public:
    explicit CufftRowFilter(std::shared_ptr<CudaDeviceContext> device)
        : m_device(std::move(device)) {}
    std::string name() const override { return "cufft on " + m_device->traits().name; }
    Status apply(const RampFilter& filter, Sinograms& rows, const ExecContext& ctx) override {
        if (rows.dim(0) * rows.dim(1) == 0) return Status::ok();
        TOMO_ASSIGN_OR_RETURN(std::unique_ptr<CudaQueues> queues, CudaQueues::open(m_device));
        return filterRowsOnDevice(*queues, *this, filter, rows, ctx);
    }
    Result<std::unique_ptr<ChunkStage>> deviceStage(DeviceQueues& queues, const RampFilter& filter,
                                                    const SinogramChunkLayout& in) override {
        auto* q = dynamic_cast<CudaQueues*>(&queues);
        if (!q || &q->context() != m_device.get()) return std::unique_ptr<ChunkStage>();
        return std::unique_ptr<ChunkStage>(std::make_unique<CufftFilterStage>(*q, filter, in));
    }

  private:
    std::shared_ptr<CudaDeviceContext> m_device;
};

}  // namespace

Result<std::shared_ptr<RowFilterStage>> makeCufftRowFilter(
    std::shared_ptr<CudaDeviceContext> device) {
    TOMO_RETURN_IF_ERROR(cufftAvailability());
    if (!device) return invalidArgument("cuFFT row filter: no CUDA device context");
    return std::shared_ptr<RowFilterStage>(std::make_shared<CufftRowFilter>(std::move(device)));
}

}  // namespace tomo::cuda
