// Core's queue operations on an OpenCL device (ClQueues.h).
#include "gpu/opencl/internal/ClQueues.h"

namespace tomo::opencl {
namespace {

struct ClQueueEvent final : QueueEventBase {
    ClEvent event;
};

cl_event eventOf(const QueueEvent& e) {
    return e ? static_cast<const ClQueueEvent&>(*e).event.get() : nullptr;
}

}  // namespace

ClQueues::ClQueues(std::shared_ptr<ClDeviceContext> device)
    : m_device(std::move(device)), m_lock(m_device->lockScratch()) {}

ClQueues::~ClQueues() {
    drain();
}

Result<DeviceBufferRef> ClQueues::deviceBuffer(const std::string& key, std::size_t bytes) {
    TOMO_ASSIGN_OR_RETURN(cl_mem mem, m_device->scratchBuffer(key, bytes));
    return DeviceBufferRef{mem, bytes};
}

Result<void*> ClQueues::pinnedBuffer(const std::string& key, std::size_t bytes) {
    return m_device->pinnedScratch(key, bytes);
}

Status ClQueues::upload(QueueRole role, DeviceBufferRef dst, std::size_t offset, const void* src,
                        std::size_t bytes) {
    return clCheck(clEnqueueWriteBuffer(queue(role), mem(dst), CL_FALSE, offset, bytes, src, 0,
                                        nullptr, nullptr),
                   "clEnqueueWriteBuffer(" + std::to_string(bytes >> 10) + " KiB)");
}

Status ClQueues::download(QueueRole role, void* dst, DeviceBufferRef src, std::size_t offset,
                          std::size_t bytes) {
    return clCheck(clEnqueueReadBuffer(queue(role), mem(src), CL_FALSE, offset, bytes, dst, 0,
                                       nullptr, nullptr),
                   "clEnqueueReadBuffer(" + std::to_string(bytes >> 10) + " KiB)");
}

Result<QueueEvent> ClQueues::record(QueueRole role) {
    auto e = std::make_shared<ClQueueEvent>();
    TOMO_RETURN_IF_ERROR(
        clCheck(clEnqueueMarkerWithWaitList(queue(role), 0, nullptr, e->event.out()),
                "clEnqueueMarkerWithWaitList"));
    // Markers do not make an in-order queue start its work: submit it.
    TOMO_RETURN_IF_ERROR(clCheck(clFlush(queue(role)), "clFlush"));
    return QueueEvent(std::move(e));
}

Status ClQueues::wait(QueueRole role, const QueueEvent& event) {
    cl_event e = eventOf(event);
    if (!e) return Status::ok();
    return clCheck(clEnqueueBarrierWithWaitList(queue(role), 1, &e, nullptr),
                   "clEnqueueBarrierWithWaitList");
}

Status ClQueues::sync(const QueueEvent& event) {
    cl_event e = eventOf(event);
    if (!e) return Status::ok();
    return clCheck(clWaitForEvents(1, &e), "clWaitForEvents");
}

Result<double> ClQueues::eventSeconds(const QueueEvent& event) {
    cl_event e = eventOf(event);
    if (!e) return 0.0;
    cl_ulong ns = 0;
    TOMO_RETURN_IF_ERROR(
        clCheck(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof ns, &ns, nullptr),
                "clGetEventProfilingInfo"));
    return static_cast<double>(ns) * 1e-9;
}

void ClQueues::drain() noexcept {
    for (int r = 0; r < kQueueRoles; ++r)
        clFinish(queue(static_cast<QueueRole>(r)));
}

}  // namespace tomo::opencl
