#pragma once
/// @file ClQueues.h
/// @brief Core's queue operations (core/pipeline/DeviceQueues.h) on an OpenCL device: the
/// context's three in-order, profiled queues in their roles (upload, compute, download), its
/// scratch buffers by key, pinned host buffers from CL_MEM_ALLOC_HOST_PTR mapped once, markers as
/// events (clEnqueueMarkerWithWaitList), waits as barriers with a wait list, and event times
/// from the profiling counters. Holds the context's scratch lock for its lifetime: one run at a
/// time per device. The stages of gpu/opencl (ClBackProjectionStage.h, ClFilterStage.h) enqueue
/// their kernels on computeQueue() and resolve buffers with mem().

#include <memory>
#include <mutex>

#include "core/pipeline/DeviceQueues.h"
#include "gpu/opencl/internal/ClDeviceContext.h"

namespace tomo::opencl {

class ClQueues final : public DeviceQueues {
  public:
    explicit ClQueues(std::shared_ptr<ClDeviceContext> device);
    ~ClQueues() override;

    std::string deviceName() const override { return m_device->traits().name; }
    std::size_t memoryBudget() const override { return m_device->memoryBudget(); }
    Result<DeviceBufferRef> deviceBuffer(const std::string& key, std::size_t bytes) override;
    Result<void*> pinnedBuffer(const std::string& key, std::size_t bytes) override;
    void releaseBuffers() override { m_device->releaseScratch(); }
    Status upload(QueueRole role, DeviceBufferRef dst, std::size_t offset, const void* src,
                  std::size_t bytes) override;
    Status download(QueueRole role, void* dst, DeviceBufferRef src, std::size_t offset,
                    std::size_t bytes) override;
    Result<QueueEvent> record(QueueRole role) override;
    Status wait(QueueRole role, const QueueEvent& event) override;
    Status sync(const QueueEvent& event) override;
    Result<double> eventSeconds(const QueueEvent& event) override;
    void drain() noexcept override;

    ClDeviceContext& context() const { return *m_device; }
    cl_command_queue queue(QueueRole role) const { return m_device->queue(static_cast<int>(role)); }
    cl_command_queue computeQueue() const { return queue(QueueRole::Compute); }
    static cl_mem mem(const DeviceBufferRef& ref) { return static_cast<cl_mem>(ref.handle); }

  private:
    std::shared_ptr<ClDeviceContext> m_device;
    std::unique_lock<std::mutex> m_lock;
};

}  // namespace tomo::opencl
