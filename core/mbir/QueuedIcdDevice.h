#pragma once
/// @file QueuedIcdDevice.h
/// @brief GPU-ICD's host loop, once for every backend (issue 27 item 7): the IcdDevice of
/// GpuIcd.h written on core's queue operations (core/pipeline/DeviceQueues.h). Buffers are the
/// queues' kept buffers under icdBuffers()' names, so a second solve of the same shape allocates
/// nothing; the layout's are uploaded only when the device holds another layout
/// (IcdResidentLayout, kept by the backend's device context), the tiles then built on the device
/// from the matrix's codes, sent in slabs of kIcdCodeSlabBytes; every transfer runs on the
/// Compute queue, in order with the kernels, and the host waits on an event where it hands data
/// over (pass list, statistics, read-back). A backend supplies its queues and IcdKernels: the
/// tile build and the three kernels of a batch (gpu/cuda/mbir/CudaIcdDevice.cpp,
/// gpu/opencl/mbir/OpenClIcdDevice.cpp), nothing else.

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/mbir/GpuIcd.h"
#include "core/pipeline/DeviceQueues.h"

namespace tomo {

/// What every launch of a solve reads: its buffers (indices IcdBuffer), the layout and options
/// of load(), the stack's slices and the pass's rotation and constants (zero skipping resolved
/// for the pass).
struct IcdLaunchState {
    std::array<DeviceBufferRef, kIcdBufferCount> buffers{};
    const GpuIcdLayout* layout = nullptr;
    GpuIcdOptions options;
    IcdKernelConstants constants;
    int slices = 1;
    std::uint32_t rotation = 0;
};

/// A backend's GPU-ICD kernels (the same computation on CUDA and OpenCL).
class IcdKernels {
  public:
    virtual ~IcdKernels() = default;
    /// "CUDA NVIDIA H100 ...", "OpenCL pthread-...": the device for the solve's note.
    virtual std::string name() const = 0;
    /// Builds or finds the kernels; Unsupported when @p options exceed the device's limits.
    virtual Status prepare(const GpuIcdOptions& options) = 0;
    /// Enqueues gather, update and write-back of the pass-list entries [first, first + count)
    /// on the Compute queue.
    virtual Status runBatch(const IcdLaunchState& state, int first, int count) = 0;
    /// Enqueues, on the Compute queue, the build of the tiles of voxels [first, first + count)
    /// from their codes in the kIcdCodes buffer (voxel `first`'s column first): every byte of
    /// their tiles, as GpuIcdLayout::hostTiles writes them.
    virtual Status buildTiles(const IcdLaunchState& state, int first, int count) = 0;
};

/// The device of a solve: @p queues (held for its lifetime: one solve at a time per device),
/// @p kernels, and @p resident, the layout the device context's buffers hold (it outlives the
/// queues' device context, which owns it).
std::unique_ptr<IcdDevice> makeQueuedIcdDevice(std::unique_ptr<DeviceQueues> queues,
                                               std::unique_ptr<IcdKernels> kernels,
                                               IcdResidentLayout& resident);

}  // namespace tomo
