// CUDA device discovery through the runtime API (plain C++, no kernels). CUDA 12+ removed
// clockRate and memoryClockRate from cudaDeviceProp, so numeric properties are read with
// cudaDeviceGetAttribute, which is stable across runtime versions.
#include "gpu/cuda/CudaDiscovery.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "core/devices/CpuFeatures.h"
#include "gpu/cuda/CudaArchitecture.h"
#include "gpu/cuda/internal/CufftLoader.h"

namespace tomo::cuda {
namespace {

std::string errorText(cudaError_t e) {
    return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
}

/// 12040 -> "12.4".
std::string versionText(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

/// Reads the attributes of one device into @p info; returns the first failing call's error.
cudaError_t describeDevice(int device, DeviceInfo& info) {
    cudaDeviceProp prop{};
    if (cudaError_t e = cudaGetDeviceProperties(&prop, device); e != cudaSuccess) return e;
    info.name = prop.name;
    info.globalMemoryBytes = prop.totalGlobalMem;

    struct Attr {
        cudaDeviceAttr id;
        int value = 0;
    };
    enum {
        kMajor,
        kMinor,
        kSms,
        kClock,
        kMemClock,
        kBusWidth,
        kShmBlock,
        kShmSm,
        kShmOptin,
        kL2,
        kRegsSm,
        kThreadsSm,
        kWarp,
        kEcc,
        kIntegrated,
        kPciDomain,
        kPciBus,
        kPciDevice,
        kCount
    };
    Attr attrs[kCount] = {{cudaDevAttrComputeCapabilityMajor},
                          {cudaDevAttrComputeCapabilityMinor},
                          {cudaDevAttrMultiProcessorCount},
                          {cudaDevAttrClockRate},
                          {cudaDevAttrMemoryClockRate},
                          {cudaDevAttrGlobalMemoryBusWidth},
                          {cudaDevAttrMaxSharedMemoryPerBlock},
                          {cudaDevAttrMaxSharedMemoryPerMultiprocessor},
                          {cudaDevAttrMaxSharedMemoryPerBlockOptin},
                          {cudaDevAttrL2CacheSize},
                          {cudaDevAttrMaxRegistersPerMultiprocessor},
                          {cudaDevAttrMaxThreadsPerMultiProcessor},
                          {cudaDevAttrWarpSize},
                          {cudaDevAttrEccEnabled},
                          {cudaDevAttrIntegrated},
                          {cudaDevAttrPciDomainId},
                          {cudaDevAttrPciBusId},
                          {cudaDevAttrPciDeviceId}};
    for (Attr& a : attrs)
        if (cudaError_t e = cudaDeviceGetAttribute(&a.value, a.id, device); e != cudaSuccess)
            return e;
    auto v = [&](int k) { return attrs[k].value; };

    info.architecture = architectureLabel(v(kMajor), v(kMinor));
    info.computeUnits = v(kSms);
    info.clockMHz = v(kClock) / 1000.0;
    info.localMemoryBytes = static_cast<std::uint64_t>(v(kShmBlock));
    auto bytes = [](int b) { return formatBytes(static_cast<std::uint64_t>(b)); };
    char pci[32];
    std::snprintf(pci, sizeof pci, "%04x:%02x:%02x.0", v(kPciDomain), v(kPciBus), v(kPciDevice));
    info.properties = {
        {"compute capability", std::to_string(v(kMajor)) + "." + std::to_string(v(kMinor))},
        {"multiprocessors", std::to_string(v(kSms))},
        {"shared memory per block", bytes(v(kShmBlock))},
        {"shared memory per block (opt-in)", bytes(v(kShmOptin))},
        {"shared memory per SM", bytes(v(kShmSm))},
        {"L2 cache", bytes(v(kL2))},
        {"registers per SM", std::to_string(v(kRegsSm))},
        {"max threads per SM", std::to_string(v(kThreadsSm))},
        {"warp size", std::to_string(v(kWarp))},
        {"memory clock", std::to_string(v(kMemClock) / 1000) + " MHz"},
        {"memory bus width", std::to_string(v(kBusWidth)) + " bit"},
        {"ECC", v(kEcc) ? "on" : "off"},
        {"integrated", v(kIntegrated) ? "yes" : "no"},
        {"PCI address", pci},
    };
    return cudaSuccess;
}

/// "cuFFT 12.0.0 (libcufft.so.12)", or the loader's reason why CUDA FBP is unavailable.
std::string cufftText() {
    const Result<CufftLibrary>& lib = processCufft();
    if (!lib.isOk()) return lib.status().message();
    int v = 0;
    if (lib->api().getVersion(&v) != CUFFT_SUCCESS) return "cuFFT (" + lib->source() + ")";
    return "cuFFT " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 100) + "." +
           std::to_string(v % 100) + " (" + lib->source() + ")";
}

}  // namespace

DeviceDiscovery discoverDevices() {
    DeviceDiscovery result;
    result.backend = "cuda";
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);  // 0 when no driver is installed
    cudaRuntimeGetVersion(&runtime);
    const std::string versions = "driver " + (driver ? versionText(driver) : std::string("none")) +
                                 ", runtime " + versionText(runtime);

    int count = 0;
    if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
        result.message = "no CUDA device: " + errorText(e) + "; " + versions + "; " + cufftText();
        cudaGetLastError();  // clear the sticky-free error state for later callers
        return result;
    }
    if (count == 0) {
        result.message =
            "no CUDA device: the runtime reports 0 devices; " + versions + "; " + cufftText();
        return result;
    }
    result.available = true;
    const std::string fft = cufftText();
    const bool fftLoaded = processCufft().isOk();
    for (int i = 0; i < count; ++i) {
        DeviceInfo info;
        info.backend = "cuda";
        info.index = i;
        info.vendor = "NVIDIA";
        info.driver = versions;
        if (cudaError_t e = describeDevice(i, info); e != cudaSuccess) {
            info.note = "cannot query device " + std::to_string(i) + ": " + errorText(e);
            cudaGetLastError();
        }
        info.properties.emplace_back("driver version", driver ? versionText(driver) : "none");
        info.properties.emplace_back("runtime version", versionText(runtime));
        info.properties.emplace_back("cuFFT", fft);
        if (!fftLoaded) info.note += (info.note.empty() ? "" : "; ") + fft;
        result.devices.push_back(std::move(info));
    }
    return result;
}

}  // namespace tomo::cuda
