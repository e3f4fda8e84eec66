#include "app/Backends.h"

#include "app/Selection.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/VariantCost.h"
#include "tomo/config.h"

#if TOMO_WITH_CUDA
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/CudaDiscovery.h"
#include "gpu/cuda/CudaRowFilter.h"
#include "gpu/cuda/CufftAvailability.h"
#include "gpu/cuda/cone/CudaConeBackProjectors.h"
#include "gpu/cuda/fourier/CudaGridrec.h"
#include "gpu/cuda/locality/CudaLocalityOperator.h"
#include "gpu/cuda/mbir/CudaIcdDevice.h"
#endif
#if TOMO_WITH_OPENCL
#include "gpu/opencl/OpenClBackProjectors.h"
#include "gpu/opencl/OpenClDiscovery.h"
#if TOMO_WITH_VKFFT
#include "gpu/opencl/OpenClRowFilter.h"
#include "gpu/opencl/internal/ClDeviceContext.h"
#endif
#include "gpu/opencl/cone/OpenClConeBackProjectors.h"
#include "gpu/opencl/locality/OpenClLocalityOperator.h"
#include "gpu/opencl/mbir/OpenClIcdDevice.h"
#endif

namespace tomo::app {

struct DeviceContexts {
#if TOMO_WITH_CUDA
    std::shared_ptr<cuda::CudaDeviceContext> cuda;
    std::string cudaName;
#endif
#if TOMO_WITH_OPENCL
    std::shared_ptr<opencl::ClDeviceContext> opencl;
    std::string openclName;
#endif
};

std::shared_ptr<DeviceContexts> registerBackends(BackProjectorRegistry& registry) {
    auto devices = std::make_shared<DeviceContexts>();
    registerCpuBackProjectors(registry);
#if TOMO_WITH_CUDA
    cuda::CudaRegistration cudaReport = cuda::registerBackProjectors(registry);
    devices->cuda = std::move(cudaReport.context);
    devices->cudaName = cudaReport.device;
#endif
#if TOMO_WITH_OPENCL
    opencl::OpenClRegistration openclReport = opencl::registerBackProjectors(registry);
    devices->opencl = std::move(openclReport.context);
    devices->openclName = openclReport.device;
#endif
    return devices;
}

std::vector<OpenDevice> openDevices(const DeviceContexts& devices) {
    std::vector<OpenDevice> open;
#if TOMO_WITH_CUDA
    if (devices.cuda) open.push_back({"cuda", devices.cudaName, devices.cuda.use_count() - 1});
#endif
#if TOMO_WITH_OPENCL
    if (devices.opencl)
        open.push_back({"opencl", devices.openclName, devices.opencl.use_count() - 1});
#endif
    (void)devices;
    return open;
}

void registerConeBackends(ConeBackProjectorRegistry& registry, const DeviceContexts& devices) {
    registerCpuConeBackProjectors(registry);
#if TOMO_WITH_CUDA
    cuda::registerCudaConeBackProjectors(registry, devices.cuda);  // nothing without a device
#endif
#if TOMO_WITH_OPENCL
    opencl::registerOpenClConeBackProjectors(registry, devices.opencl);
#endif
    (void)devices;
}

void registerFourierBackends(FourierRegistry& registry, const DeviceContexts& devices) {
    registerCpuFourier(registry);
#if TOMO_WITH_CUDA
    // With a device and cuFFT: the same context as the back-projectors and the row filter.
    if (devices.cuda && cuda::makeCudaGridrec(devices.cuda).isOk())
        registry.add(cuda::cudaGridrecInfo(),
                     [context = devices.cuda] { return cuda::makeCudaGridrec(context).value(); });
#endif
    (void)devices;
}

BackProjectorRegistry makeRegistry() {
    BackProjectorRegistry registry;
    (void)registerBackends(registry);  // the variants' factories keep their contexts
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

std::shared_ptr<RowFilterStage> rowFilterStage(const std::string& backend,
                                               const DeviceContexts& devices) {
#if TOMO_WITH_CUDA
    // Without cuFFT (no CUDA toolkit) the CUDA back-projector still runs, under the CPU filter.
    if (backend == "cuda" && devices.cuda)
        if (auto stage = cuda::makeCufftRowFilter(devices.cuda); stage.isOk())
            return std::move(*stage);
#endif
#if TOMO_WITH_VKFFT
    // VkFFT on OpenCL GPUs. On a CPU device (PoCL) the CPU's FFTW filters each chunk on the
    // packing thread beside the device's back-projection: faster there than VkFFT's kernels
    // on the same cores (docs/opencl.md), and the default.
    if (backend == "opencl" && devices.opencl && devices.opencl->traits().isGpu)
        if (auto stage = opencl::makeOpenClRowFilter(devices.opencl); stage.isOk())
            return std::move(*stage);
#endif
    (void)backend;
    (void)devices;
    return nullptr;
}

decltype(IterativeRequest::makeOperator) iterativeOperatorFactory(
    const std::string& backend, std::shared_ptr<const DeviceContexts> devices) {
#if TOMO_WITH_CUDA
    if (backend == "cuda")
        return [devices](const ParallelGeometry& geom, const VolumeGeometry& vol,
                         const ParameterValues& params) -> Result<std::unique_ptr<SubsetOperator>> {
            cuda::CudaLocalityOptions options;
            if (devices) options.context = devices->cuda;  // the registry's context
            if (!params.text("ordering").empty()) {
                TOMO_ASSIGN_OR_RETURN(options.ordering, parseRayOrdering(params.text("ordering")));
            }
            return cuda::makeCudaLocalityOperator(geom, vol, options);
        };
#endif
#if TOMO_WITH_OPENCL
    if (backend == "opencl")
        return [devices](const ParallelGeometry& geom, const VolumeGeometry& vol,
                         const ParameterValues& params) -> Result<std::unique_ptr<SubsetOperator>> {
            opencl::OpenClLocalityOptions options;
            if (devices) options.context = devices->opencl;  // the registry's context
            if (!params.text("ordering").empty()) {
                TOMO_ASSIGN_OR_RETURN(options.ordering, parseRayOrdering(params.text("ordering")));
            }
            return opencl::makeOpenClLocalityOperator(geom, vol, options);
        };
#endif
    (void)backend;
    (void)devices;
    return {};
}

IcdDeviceFactory icdDeviceFactory(const std::string& backend,
                                  std::shared_ptr<const DeviceContexts> devices) {
#if TOMO_WITH_CUDA
    if (backend == "cuda")
        return [devices]() -> Result<std::unique_ptr<IcdDevice>> {
            return cuda::makeCudaIcdDevice(devices ? devices->cuda : nullptr);
        };
#endif
#if TOMO_WITH_OPENCL
    if (backend == "opencl")
        return [devices]() -> Result<std::unique_ptr<IcdDevice>> {
            return opencl::makeOpenClIcdDevice(devices ? devices->opencl : nullptr);
        };
#endif
    (void)backend;
    (void)devices;
    return {};
}

}  // namespace tomo::app
