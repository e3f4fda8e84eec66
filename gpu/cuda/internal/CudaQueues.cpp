// Core's queue operations on a CUDA device (CudaQueues.h).
#include "gpu/cuda/internal/CudaQueues.h"

namespace tomo::cuda {
namespace {

struct CudaQueueEvent final : QueueEventBase {
    CudaEvent event;
};

cudaEvent_t eventOf(const QueueEvent& e) {
    return e ? static_cast<const CudaQueueEvent&>(*e).event.get() : nullptr;
}

}  // namespace

CudaQueues::CudaQueues(std::shared_ptr<CudaDeviceContext> device)
    : m_device(std::move(device)), m_lock(m_device->lockScratch()) {}

Result<std::unique_ptr<CudaQueues>> CudaQueues::open(std::shared_ptr<CudaDeviceContext> device) {
    if (!device) return invalidArgument("CUDA queues: no device context");
    std::unique_ptr<CudaQueues> q(new CudaQueues(std::move(device)));
    TOMO_RETURN_IF_ERROR(q->m_device->activate());
    TOMO_ASSIGN_OR_RETURN(q->m_origin, createEvent(true));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaEventRecord(q->m_origin.get(), q->stream(QueueRole::Upload)),
                                   "cudaEventRecord(origin)"));
    return q;
}

CudaQueues::~CudaQueues() {
    drain();
}

Result<DeviceBufferRef> CudaQueues::deviceBuffer(const std::string& key, std::size_t bytes) {
    TOMO_ASSIGN_OR_RETURN(DeviceBuffer * b, m_device->device(key, bytes));
    return DeviceBufferRef{b->get(), b->bytes()};
}

Result<void*> CudaQueues::pinnedBuffer(const std::string& key, std::size_t bytes) {
    TOMO_ASSIGN_OR_RETURN(PinnedBuffer * b, m_device->pinned(key, bytes));
    return b->get();
}

Status CudaQueues::upload(QueueRole role, DeviceBufferRef dst, std::size_t offset, const void* src,
                          std::size_t bytes) {
    return cudaCheck(cudaMemcpyAsync(static_cast<char*>(dst.handle) + offset, src, bytes,
                                     cudaMemcpyHostToDevice, stream(role)),
                     "cudaMemcpyAsync(upload, " + mebibytes(bytes) + ")");
}

Status CudaQueues::download(QueueRole role, void* dst, DeviceBufferRef src, std::size_t offset,
                            std::size_t bytes) {
    return cudaCheck(cudaMemcpyAsync(dst, static_cast<const char*>(src.handle) + offset, bytes,
                                     cudaMemcpyDeviceToHost, stream(role)),
                     "cudaMemcpyAsync(download, " + mebibytes(bytes) + ")");
}

Result<QueueEvent> CudaQueues::record(QueueRole role) {
    auto e = std::make_shared<CudaQueueEvent>();
    TOMO_ASSIGN_OR_RETURN(e->event, createEvent(true));
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaEventRecord(e->event.get(), stream(role)), "cudaEventRecord"));
    return QueueEvent(std::move(e));
}

Status CudaQueues::wait(QueueRole role, const QueueEvent& event) {
    cudaEvent_t e = eventOf(event);
    if (!e) return Status::ok();
    return cudaCheck(cudaStreamWaitEvent(stream(role), e, 0), "cudaStreamWaitEvent");
}

Status CudaQueues::sync(const QueueEvent& event) {
    cudaEvent_t e = eventOf(event);
    if (!e) return Status::ok();
    TOMO_RETURN_IF_ERROR(m_device->activate());  // also from the pipeline's host threads
    return cudaCheck(cudaEventSynchronize(e), "cudaEventSynchronize");
}

Result<double> CudaQueues::eventSeconds(const QueueEvent& event) {
    cudaEvent_t e = eventOf(event);
    if (!e) return 0.0;
    float ms = 0.f;
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaEventElapsedTime(&ms, m_origin.get(), e), "cudaEventElapsedTime"));
    return 1e-3 * static_cast<double>(ms);
}

}  // namespace tomo::cuda
