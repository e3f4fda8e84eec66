#include "app/Backends.h"

#include "app/Selection.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/VariantCost.h"
#include "tomo/config.h"

#if TOMO_WITH_CUDA
#include "gpu/cuda/CudaDiscovery.h"
#endif
#if TOMO_WITH_OPENCL
#include "gpu/opencl/OpenClBackProjectors.h"
#include "gpu/opencl/OpenClDiscovery.h"
#endif

namespace tomo::app {

BackProjectorRegistry makeRegistry() {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
#if TOMO_WITH_OPENCL
    (void)opencl::registerBackProjectors(registry);
#endif
    return registry;
}

std::string defaultVariant(const BackProjectorRegistry& registry, const std::string& backend,
                           Interpolation interpolation) {
    const bool linear = interpolation == Interpolation::Linear;
    if (auto cached = cachedVariant(registry, backend == "auto" ? "cpu" : backend, interpolation))
        return *cached;  // `tomo tune`'s measured choice for this device and build
    // GPU backends have no back-projector variants in this build yet: "auto" means CPU.
    if (backend == "cpu" || backend == "auto") {
        std::string id = linear ? "cpu.simd.lin" : "cpu.simd.nn";
        if (registry.contains(id)) return id;
    }
    // No measurement yet: the variant the performance model predicts fastest on the backend's
    // first device (paper 002's model; `tomo tune` replaces it by a measured choice).
    std::string best;
    double bestRate = -1.0;
    const auto device = primaryDevice(backend);
    for (const BackProjectorInfo& info : registry.list()) {
        if (!((backend == "auto" || info.backend == backend) && info.interpolation == interpolation &&
              info.exact && info.family != "reference"))
            continue;
        double rate = 0.0;
        if (device.isOk()) {
            if (auto cost = costFor(info); cost.isOk())
                rate = predict(traitsFor(*device), *cost).gups;
        }
        if (best.empty() || rate > bestRate) {
            best = info.id;
            bestRate = rate;
        }
    }
    return best;
}

std::vector<DeviceDiscovery> discoverAllDevices() {
    std::vector<DeviceDiscovery> all;
    all.push_back(discoverCpu());
#if TOMO_WITH_CUDA
    all.push_back(cuda::discoverDevices());
#else
    all.push_back({"cuda", false, "not compiled in (no nvcc at configure time)", {}});
#endif
#if TOMO_WITH_OPENCL
    all.push_back(opencl::discoverDevices());
#else
    all.push_back(
        {"opencl", false, "not compiled in (no OpenCL headers or loader at configure time)", {}});
#endif
    return all;
}

std::vector<std::string> compiledBackends() {
    std::vector<std::string> b{"cpu"};
#if TOMO_WITH_CUDA
    b.push_back("cuda");
#endif
#if TOMO_WITH_OPENCL
    b.push_back("opencl");
#endif
    return b;
}

}  // namespace tomo::app
