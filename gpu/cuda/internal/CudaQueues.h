#pragma once
/// @file CudaQueues.h
/// @brief Core's queue operations (core/pipeline/DeviceQueues.h) on a CUDA device: the
/// context's three non-blocking streams in their roles (stream(0) uploads, stream(1) kernels,
/// stream(2) downloads), its scratch buffers by key (device memory and cudaHostAlloc pinned
/// staging, kept between runs and grown on demand), timing events as the queue events
/// (cudaEventRecord, cudaStreamWaitEvent, cudaEventSynchronize) and their times against an
/// origin event recorded when the queues open. Holds the context's scratch lock for its lifetime
/// (one run at a time per device) and makes the device current. The stages of gpu/cuda
/// (CudaBackProjectionStage.h, CudaRowFilter.cpp) enqueue their kernels on computeStream().
/// Internal (CUDA types). Not yet run on a GPU.

#include <memory>
#include <mutex>

#include "core/pipeline/DeviceQueues.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"

namespace tomo::cuda {

class CudaQueues final : public DeviceQueues {
  public:
    /// The queues of @p device; DeviceError when the device cannot be made current or the
    /// origin event cannot be recorded.
    static Result<std::unique_ptr<CudaQueues>> open(std::shared_ptr<CudaDeviceContext> device);
    ~CudaQueues() override;

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
    void drain() noexcept override { m_device->synchronizeStreams(); }

    CudaDeviceContext& context() const { return *m_device; }
    cudaStream_t stream(QueueRole role) const { return m_device->stream(static_cast<int>(role)); }
    cudaStream_t computeStream() const { return stream(QueueRole::Compute); }
    template <class T>
    static T* ptr(const DeviceBufferRef& ref) {
        return static_cast<T*>(ref.handle);
    }

  private:
    explicit CudaQueues(std::shared_ptr<CudaDeviceContext> device);
    std::shared_ptr<CudaDeviceContext> m_device;
    std::unique_lock<std::mutex> m_lock;
    CudaEvent m_origin;
};

}  // namespace tomo::cuda
