#pragma once
/// @file DeviceInfo.h
/// @brief Description of a compute device (CPU, CUDA GPU or OpenCL device) for `tomo devices`,
/// the GUI's device panel and the variant selector. Backends fill it; nothing here depends on a
/// GPU runtime.
///
/// Discovery functions: `discoverCpu()` (here), `tomo::cuda::discoverDevices()`
/// (gpu/cuda/CudaDiscovery.h) and `tomo::opencl::discoverDevices()` (gpu/opencl/OpenClDiscovery.h).
/// Each one never throws and never aborts: a missing runtime, driver or device is reported as
/// `available == false` with a message, a problem with one device in that device's `note`.
/// Units: bytes for memory, MHz for clocks. Properties hold display strings ("48 KiB", "yes").
/// Threading: discovery functions are reentrant but may be slow (creating GPU contexts); call
/// them from a worker thread in interactive code and cache the result.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tomo {

struct DeviceInfo {
    std::string backend;  ///< "cpu", "cuda", "opencl"
    int index = 0;        ///< index within the backend (OpenCL: flat over platforms)
    std::string name;     ///< marketing name ("NVIDIA H100 80GB HBM3", "AMD EPYC")
    std::string vendor;
    std::string driver;  ///< driver / runtime version string
    std::string
        architecture;  ///< "Hopper (sm_90)", "x86-64 AVX-512", "CPU (Portable Computing Language)"
    int computeUnits = 0;  ///< SMs, CUs or CPU threads
    double clockMHz = 0;
    std::uint64_t globalMemoryBytes = 0;
    std::uint64_t localMemoryBytes = 0;  ///< shared/local memory per block or work-group
    /// Further properties as (key, value) pairs in display order (image support, fp16, L2, ...).
    std::vector<std::pair<std::string, std::string>> properties;
    /// Why a backend found no device or skipped this one (empty when usable).
    std::string note;
};

/// Result of asking one backend for its devices.
struct DeviceDiscovery {
    std::string backend;
    bool available = false;  ///< the backend is compiled in and its runtime answered
    std::string message;     ///< why not, when !available ("no CUDA-capable device: ...")
    std::vector<DeviceInfo> devices;
};

/// The host CPU: model name (/proc/cpuinfo "model name", else "unknown CPU"), hardware threads
/// (computeUnits), run-time SIMD level (architecture "x86-64 AVX-512" etc., property "SIMD"; see
/// CpuFeatures.h), clock, physical memory (sysconf) and cache sizes from sysfs when present.
/// Always available with exactly one device.
DeviceDiscovery discoverCpu();

}  // namespace tomo
