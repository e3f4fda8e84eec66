#pragma once
/// @file DeviceQueues.h
/// @brief The queue operations a GPU backend supplies to core (issue 27): buffers kept by key,
/// asynchronous transfers and events on three queues with fixed roles. Everything else of a
/// device run (chunking, staging rings, which queue waits for what, host threads, progress,
/// stop, the timeline) is written once in core (ChunkPipeline.h); CUDA (gpu/cuda/internal/
/// CudaQueues.h: streams), OpenCL (gpu/opencl/internal/ClQueues.h: in-order command queues) and
/// the simulated device of the tests (tests/core/pipeline/SimulatedQueues.h) implement it, so the
/// host code a CUDA run executes is the code the OpenCL and simulated runs test.
///
/// Roles (paper 002 section 4; tomocupy and RTK do the same with streams): Upload carries host
/// to device copies, Compute the stages' kernels, Download device to host copies. Each queue
/// runs its work in order; work on one queue waits for another's only through events
/// (wait(role, event)), never through queue order. A backend's stages (ChunkStage) enqueue their
/// kernels on the Compute queue through the backend's own handle of it.
///
/// Buffers are the backend's, kept under their key between runs and grown on demand (a buffer
/// too small is freed before the larger one is allocated), so a second run of the same shape
/// allocates nothing (issue 27 item 4). pinnedBuffer() is page-locked host memory (the staging
/// rings): transfers from and to it are asynchronous and run at the link's speed.
/// Threading: one run at a time per DeviceQueues object (the backend holds its device's lock
/// for the object's lifetime); sync() may be called from a second host thread.

#include <cstddef>
#include <memory>
#include <string>

#include "core/base/Status.h"

namespace tomo {

enum class QueueRole : int { Upload = 0, Compute = 1, Download = 2 };
inline constexpr int kQueueRoles = 3;

/// "upload", "compute", "download".
const char* queueRoleName(QueueRole role);

/// Device memory kept by the queues: the backend's handle (a CUDA device pointer, a cl_mem, the
/// simulator's index) and its size. Valid until releaseBuffers() or the buffer's key is grown.
struct DeviceBufferRef {
    void* handle = nullptr;
    std::size_t bytes = 0;
    explicit operator bool() const { return handle != nullptr; }
};

/// A point in one queue's work, made by record(): the backend's event. Null = no event (waits
/// and syncs on it return at once).
class QueueEventBase {
  public:
    virtual ~QueueEventBase() = default;
};
using QueueEvent = std::shared_ptr<const QueueEventBase>;

class DeviceQueues {
  public:
    virtual ~DeviceQueues() = default;
    /// The device, for reports ("NVIDIA H100 80GB HBM3", "pthread-...").
    virtual std::string deviceName() const = 0;
    /// Bytes a run may keep on the device (buffers of every key together).
    virtual std::size_t memoryBudget() const = 0;

    /// Device buffer @p key of at least @p bytes. OutOfMemory names the key and the size.
    virtual Result<DeviceBufferRef> deviceBuffer(const std::string& key, std::size_t bytes) = 0;
    /// Page-locked host buffer @p key of at least @p bytes.
    virtual Result<void*> pinnedBuffer(const std::string& key, std::size_t bytes) = 0;
    /// Frees every kept buffer (after an allocation failure, before a retry with less).
    virtual void releaseBuffers() = 0;

    /// Enqueues the copy of @p bytes from host @p src (pinned or not) to @p dst at @p offset on
    /// @p role's queue. @p src must stay unchanged until an event recorded after it completed.
    virtual Status upload(QueueRole role, DeviceBufferRef dst, std::size_t offset, const void* src,
                          std::size_t bytes) = 0;
    /// Enqueues the copy of @p bytes of @p src from @p offset into host @p dst.
    virtual Status download(QueueRole role, void* dst, DeviceBufferRef src, std::size_t offset,
                            std::size_t bytes) = 0;

    /// An event after everything enqueued on @p role so far.
    virtual Result<QueueEvent> record(QueueRole role) = 0;
    /// Work enqueued on @p role from now on starts after @p event (device side; the host
    /// does not wait).
    virtual Status wait(QueueRole role, const QueueEvent& event) = 0;
    /// The host waits for @p event.
    virtual Status sync(const QueueEvent& event) = 0;
    /// Seconds on the device's clock at which @p event completed (after sync(event)), for the
    /// timeline's device spans.
    virtual Result<double> eventSeconds(const QueueEvent& event) = 0;
    /// Waits for every queue (a run's end, whatever its outcome: nothing enqueued may outlive
    /// the host memory it reads or writes).
    virtual void drain() noexcept = 0;
};

}  // namespace tomo
