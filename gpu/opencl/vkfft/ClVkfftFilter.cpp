// FBP's row filter on OpenCL with VkFFT, as a stage of core's pipeline (OpenClRowFilter.h).
// ClHandle.h (through ClQueues.h) first: it fixes CL_TARGET_OPENCL_VERSION for VkFFT's CL/cl.h.
#include "gpu/opencl/internal/ClQueues.h"
// clang-format off
#include <vkFFT.h>
// clang-format on

#include <algorithm>
#include <string>

#include "gpu/opencl/OpenClRowFilter.h"
#include "gpu/opencl/internal/ClKernelLauncher.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {
namespace {

constexpr std::size_t kMaxBlockRows = 4096;

/// One VkFFT application: in-place R2C and C2R of `batch` rows of n real samples stored n + 2
/// floats apart. The configuration keeps pointers to the handles and the size: members.
class VkfftPlan {
  public:
    static Result<std::shared_ptr<VkfftPlan>> create(ClDeviceContext& dev, cl_mem buffer, int n,
                                                     int batch) {
        auto p = std::shared_ptr<VkfftPlan>(new VkfftPlan());
        p->m_device = dev.device();
        p->m_context = dev.context();
        p->m_bytes = static_cast<std::uint64_t>(n + 2) * static_cast<std::uint64_t>(batch) * 4;
        p->m_buffer = buffer;
        VkFFTConfiguration c{};
        c.FFTdim = 1;
        c.size[0] = static_cast<std::uint64_t>(n);
        c.numberBatches = static_cast<std::uint64_t>(batch);
        c.performR2C = 1;
        c.device = &p->m_device;
        c.context = &p->m_context;
        c.bufferSize = &p->m_bytes;
        c.buffer = &p->m_buffer;
        const VkFFTResult r = initializeVkFFT(&p->m_app, c);
        if (r != VKFFT_SUCCESS)
            return unsupported("VkFFT: initializeVkFFT(" + std::to_string(n) + " x " +
                               std::to_string(batch) + " rows) failed with code " +
                               std::to_string(static_cast<int>(r)));
        p->m_ready = true;
        return p;
    }
    ~VkfftPlan() {
        if (m_ready) deleteVkFFT(&m_app);
    }
    /// Enqueues the transform of @p buffer on @p queue: -1 forward (R2C), 1 inverse (C2R).
    Status run(cl_command_queue queue, cl_mem buffer, int direction) {
        VkFFTLaunchParams launch{};
        launch.commandQueue = &queue;
        launch.buffer = &buffer;
        const VkFFTResult r = VkFFTAppend(&m_app, direction, &launch);
        if (r == VKFFT_SUCCESS) return Status::ok();
        return deviceError("VkFFT: VkFFTAppend failed with code " +
                           std::to_string(static_cast<int>(r)));
    }

  private:
    VkfftPlan() = default;
    VkFFTApplication m_app{};
    cl_device_id m_device = nullptr;
    cl_context m_context = nullptr;
    std::uint64_t m_bytes = 0;
    cl_mem m_buffer = nullptr;
    bool m_ready = false;
};

/// The filter in place on a chunk's rows, a block of rows per step, on the compute queue.
class VkfftFilterStage final : public ChunkStage {
  public:
    VkfftFilterStage(ClQueues& q, const RampFilter& filter, const SinogramChunkLayout& in)
        : m_q(q), m_filter(filter), m_in(in) {}
    TimelineStage timelineStage() const override { return TimelineStage::Filter; }
    std::string label() const override { return "filtering"; }
    Status prepare(std::size_t chunkItems, std::size_t budget) override;
    int steps(const PipelineChunk& c) const override {
        return static_cast<int>((c.count * std::size_t(m_in.angles) + m_block - 1) / m_block);
    }
    double work(const PipelineChunk& c, int step) const override {
        return double(rowsOf(c, step)) * m_filter.paddedWidth();
    }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int step,
               const ExecContext&) override;

  private:
    std::size_t rowsOf(const PipelineChunk& c, int step) const {
        const std::size_t rows = c.count * static_cast<std::size_t>(m_in.angles);
        return std::min(m_block, rows - static_cast<std::size_t>(step) * m_block);
    }
    Status enqueue(const ClKernel& k, std::size_t x, int rows, const char* what) {
        ClEvent done;
        return enqueueKernel2d(m_q.computeQueue(), k, roundUp(x, 64),
                               static_cast<std::size_t>(rows), 64, 1, {}, done, what);
    }

    ClQueues& m_q;
    const RampFilter& m_filter;
    SinogramChunkLayout m_in;
    std::size_t m_block = 1;
    std::shared_ptr<VkfftPlan> m_plan;
    cl_mem m_work = nullptr, m_response = nullptr;
    ClKernel m_pad, m_multiply, m_unpad;
};

Status VkfftFilterStage::prepare(std::size_t chunkItems, std::size_t budget) {
    ClDeviceContext& dev = m_q.context();
    const int n = m_filter.paddedWidth();
    const std::size_t perRow = (static_cast<std::size_t>(n) + 2) * sizeof(float);
    m_block = std::min({chunkItems * static_cast<std::size_t>(m_in.angles), kMaxBlockRows,
                        std::max<std::size_t>(1, budget / perRow)});
    TOMO_ASSIGN_OR_RETURN(DeviceBufferRef work,
                          m_q.deviceBuffer("filter.spectra", m_block * perRow));
    m_work = ClQueues::mem(work);
    const std::span<const float> response = m_filter.response();
    TOMO_ASSIGN_OR_RETURN(DeviceBufferRef r,
                          m_q.deviceBuffer("filter.response", response.size_bytes()));
    m_response = ClQueues::mem(r);
    TOMO_RETURN_IF_ERROR(
        clCheck(clEnqueueWriteBuffer(m_q.computeQueue(), m_response, CL_TRUE, 0,
                                     response.size_bytes(), response.data(), 0, nullptr, nullptr),
                "clEnqueueWriteBuffer(filter response)"));
    const std::string key = "vkfft." + std::to_string(n) + "." + std::to_string(m_block);
    TOMO_ASSIGN_OR_RETURN(m_plan, dev.cached<VkfftPlan>(key, [&] {
        return VkfftPlan::create(dev, m_work, n, static_cast<int>(m_block));
    }));
    TOMO_ASSIGN_OR_RETURN(ClProgram program,
                          dev.program("filter.cl", kernelSource("filter.cl"), ""));
    TOMO_ASSIGN_OR_RETURN(m_pad, dev.kernel(program, "padRows"));
    TOMO_ASSIGN_OR_RETURN(m_multiply, dev.kernel(program, "multiplySpectra"));
    TOMO_ASSIGN_OR_RETURN(m_unpad, dev.kernel(program, "unpadRows"));
    return Status::ok();
}

Status VkfftFilterStage::run(const PipelineChunk& c, const ChunkBuffers& b, int step,
                             const ExecContext&) {
    const cl_int n = m_filter.paddedWidth(), det = m_in.detectors;
    const cl_int count = static_cast<cl_int>(rowsOf(c, step));
    const cl_int first = static_cast<cl_int>(static_cast<std::size_t>(step) * m_block);
    const cl_int pitch = static_cast<cl_int>(m_in.pitch);
    const cl_mem rows = ClQueues::mem(b.input);
    TOMO_RETURN_IF_ERROR(setKernelArgs(m_pad, rows, pitch, first, count, det, n, m_work));
    TOMO_RETURN_IF_ERROR(enqueue(m_pad, std::size_t(n) + 2, count, "padRows"));
    TOMO_RETURN_IF_ERROR(m_plan->run(m_q.computeQueue(), m_work, -1));
    const cl_int bins = n / 2 + 1;
    TOMO_RETURN_IF_ERROR(setKernelArgs(m_multiply, m_work, m_response, count, bins));
    TOMO_RETURN_IF_ERROR(enqueue(m_multiply, std::size_t(bins), count, "multiplySpectra"));
    TOMO_RETURN_IF_ERROR(m_plan->run(m_q.computeQueue(), m_work, 1));
    TOMO_RETURN_IF_ERROR(setKernelArgs(m_unpad, m_work, n, count, det, pitch, first, rows));
    return enqueue(m_unpad, std::size_t(det), count, "unpadRows");
}

class VkfftRowFilter final : public RowFilterStage {
  public:
    explicit VkfftRowFilter(std::shared_ptr<ClDeviceContext> device)
        : m_device(std::move(device)) {}
    std::string name() const override { return "vkfft on " + m_device->traits().name; }
    Status apply(const RampFilter& filter, Sinograms& rows, const ExecContext& ctx) override {
        if (rows.dim(0) * rows.dim(1) == 0) return Status::ok();
        ClQueues queues(m_device);
        return filterRowsOnDevice(queues, *this, filter, rows, ctx);
    }
    Result<std::unique_ptr<ChunkStage>> deviceStage(DeviceQueues& queues, const RampFilter& filter,
                                                    const SinogramChunkLayout& in) override {
        auto* q = dynamic_cast<ClQueues*>(&queues);
        if (!q || &q->context() != m_device.get()) return std::unique_ptr<ChunkStage>();
        return std::unique_ptr<ChunkStage>(std::make_unique<VkfftFilterStage>(*q, filter, in));
    }

  private:
    std::shared_ptr<ClDeviceContext> m_device;
};

}  // namespace

Result<std::shared_ptr<RowFilterStage>> makeOpenClRowFilter(
    std::shared_ptr<ClDeviceContext> device) {
    if (!device) return invalidArgument("VkFFT row filter: no OpenCL device context");
    return std::shared_ptr<RowFilterStage>(std::make_shared<VkfftRowFilter>(std::move(device)));
}

}  // namespace tomo::opencl
