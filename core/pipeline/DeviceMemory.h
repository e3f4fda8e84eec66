#pragma once
/// @file DeviceMemory.h
/// @brief The memory budget of a GPU run, from what the device says (issue 27 item 6): one
/// policy for every backend. CUDA reads cudaMemGetInfo when its context opens; OpenCL has no
/// free-memory query, so it gives CL_DEVICE_GLOBAL_MEM_SIZE less what this process holds there
/// outside the runs' reusable scratch, and CL_DEVICE_MAX_MEM_ALLOC_SIZE per buffer. The
/// planners (PassPlan.h's passes and chunks, FDK's slabs, GPU-ICD's tiles) size their work
/// against the budget; an allocation the driver still refuses gives a smaller chunk or a
/// message (ChunkPipeline.h), never an abort.

#include <cstddef>
#include <string>

namespace tomo {

struct DeviceMemoryInfo {
    std::size_t total = 0;          ///< the device's memory
    std::size_t free = 0;           ///< free for this process now
    std::size_t maxAllocation = 0;  ///< the largest single buffer (0: no limit beyond free)
    bool sharesHostMemory = false;  ///< a CPU device (PoCL): its memory is the host's
};

/// Bytes a run may keep on the device: the free memory less a margin for the driver's context,
/// FFT work areas and other processes (a tenth of the device, at least 256 MiB); half of that
/// on a device that shares the host's memory (the host holds the same data beside it).
std::size_t deviceMemoryBudget(const DeviceMemoryInfo& memory);

/// "141.0 GiB device, 139.2 GiB free, budget 125.1 GiB, buffers up to 35.2 GiB" for reports.
std::string describeDeviceMemory(const DeviceMemoryInfo& memory);

}  // namespace tomo
