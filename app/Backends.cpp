#include "app/Backends.h"

#include "app/Selection.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/VariantCost.h"
#include "tomo/config.h"

#if TOMO_WITH_CUDA
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/CudaDiscovery.h"
#include "gpu/cuda/CudaFbp.h"
#include "gpu/cuda/CufftAvailability.h"
#include "gpu/cuda/locality/CudaLocalityOperator.h"
#endif
#if TOMO_WITH_OPENCL
#include "gpu/opencl/OpenClBackProjectors.h"
#include "gpu/opencl/OpenClDiscovery.h"
#include "gpu/opencl/locality/OpenClLocalityOperator.h"
#endif

namespace tomo::app {

BackProjectorRegistry makeRegistry() {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
#if TOMO_WITH_CUDA
    (void)cuda::registerBackProjectors(registry);
#endif
#if TOMO_WITH_OPENCL
    (void)opencl::registerBackProjectors(registry);
#endif
    return registry;
}

std::string autoBackend(const BackProjectorRegistry& registry) {
    if (!registry.list("cuda").empty()) return "cuda";
    if (!registry.list("opencl").empty()) {
        if (auto device = primaryDevice("opencl"); device.isOk())
            for (const auto& [key, value] : device->properties)
                if (key == "type" && value == "GPU") return "opencl";
    }
    return "cpu";
}

std::string defaultVariant(const BackProjectorRegistry& registry, const std::string& requested,
                           Interpolation interpolation, const JobShape& shape) {
    const std::string backend = requested == "auto" ? autoBackend(registry) : requested;
    if (auto cached = cachedVariant(registry, backend, interpolation, shape))
        return *cached;  // `tomo tune`'s measured choice for this device, build and class
    // No measurement for this class: the model's default for the job's slices.
    DeviceTraits traits;
    if (backend != "cpu" || !registry.contains("cpu.simd.lin"))
        if (const auto device = primaryDevice(backend); device.isOk()) traits = traitsFor(*device);
    return modelDefault(registry, traits, backend, interpolation, true, shape.slices);
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

std::vector<BackProjectorInfo> compiledVariants(const std::string& backend,
                                                const BackProjectorRegistry& registry) {
#if TOMO_WITH_CUDA
    if (backend == "cuda") return cuda::compiledVariants();
#endif
    return registry.list(backend);
}

bool hasDeviceFbp(const std::string& backend) {
#if TOMO_WITH_CUDA
    if (backend == "cuda")
        return cuda::cufftAvailability().isOk() && cuda::discoverDevices().available;
#endif
    (void)backend;
    return false;
}

Status reconstructFbpOnBackend(const Sinograms& sino, const ParallelGeometry& geom,
                               const VolumeGeometry& vol, BackProjector& backProjector,
                               const FbpOptions& options, Volume& out, const ExecContext& ctx,
                               FbpTimings* timings) {
#if TOMO_WITH_CUDA
    // Without cuFFT (no CUDA toolkit) the CUDA back-projector still runs, under the CPU filter.
    if (backProjector.info().backend == "cuda" && cuda::cufftAvailability().isOk()) {
        cuda::CudaFbpTimings t;
        TOMO_RETURN_IF_ERROR(
            cuda::reconstructFbp(sino, geom, vol, backProjector, options, out, ctx, &t));
        if (timings) *timings = {t.filtering, t.kernels, t.total};
        return Status::ok();
    }
#endif
    return reconstructFbp(sino, geom, vol, backProjector, options, out, ctx, timings);
}

decltype(IterativeRequest::makeOperator) iterativeOperatorFactory(const std::string& backend) {
#if TOMO_WITH_CUDA
    if (backend == "cuda")
        return [](const ParallelGeometry& geom, const VolumeGeometry& vol,
                  const ParameterValues& params) -> Result<std::unique_ptr<SubsetOperator>> {
            cuda::CudaLocalityOptions options;
            if (!params.text("ordering").empty()) {
                TOMO_ASSIGN_OR_RETURN(options.ordering, parseRayOrdering(params.text("ordering")));
            }
            return cuda::makeCudaLocalityOperator(geom, vol, options);
        };
#endif
#if TOMO_WITH_OPENCL
    if (backend == "opencl")
        return [](const ParallelGeometry& geom, const VolumeGeometry& vol,
                  const ParameterValues& params) -> Result<std::unique_ptr<SubsetOperator>> {
            opencl::OpenClLocalityOptions options;
            if (!params.text("ordering").empty()) {
                TOMO_ASSIGN_OR_RETURN(options.ordering, parseRayOrdering(params.text("ordering")));
            }
            return opencl::makeOpenClLocalityOperator(geom, vol, options);
        };
#endif
    (void)backend;
    return {};
}

}  // namespace tomo::app
