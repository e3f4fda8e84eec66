// backendSetup() for the CUDA test executable (tomo_gpu_cuda_tests): CPU variants plus every
// CUDA variant registered on device 0 (none, with the runtime's reason, without a GPU); and the
// CUDA projector pair of gpu/cuda/locality for LocalityDeviceTest.cpp; and the CUDA cone-beam
// variants on the registration's device context.
#include "GpuTestSupport.h"
#include "core/projectors/CpuBackProjectors.h"
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/CudaRowFilter.h"
#include "gpu/cuda/cone/CudaConeBackProjectors.h"
#include "gpu/cuda/locality/CudaLocalityOperator.h"
#include "gpu/cuda/mbir/CudaIcdDevice.h"

namespace tomo::test {
namespace {

struct CudaSetup {
    BackProjectorRegistry registry;
    GpuBackendSetup setup;
    std::shared_ptr<cuda::CudaDeviceContext> context;  ///< null without a device
};

const CudaSetup& cudaSetup() {
    static const CudaSetup setup = [] {
        CudaSetup s;
        registerCpuBackProjectors(s.registry);
        const cuda::CudaRegistration report = cuda::registerBackProjectors(s.registry);
        s.setup.backend = "cuda";
        s.setup.available = report.available;
        s.setup.device = report.device;
        s.setup.message = report.message;
        s.setup.registered = report.registered;
        s.setup.skipped = report.skipped;
        s.context = report.context;
        return s;
    }();
    return setup;
}

}  // namespace

const GpuBackendSetup& backendSetup() {
    static const GpuBackendSetup setup = [] {
        GpuBackendSetup s = cudaSetup().setup;
        s.registry = &cudaSetup().registry;
        return s;
    }();
    return setup;
}

const ConeBackProjectorRegistry& coneBackendRegistry() {
    static const ConeBackProjectorRegistry registry = [] {
        ConeBackProjectorRegistry r;
        cuda::registerCudaConeBackProjectors(r, cudaSetup().context);
        return r;
    }();
    return registry;
}

Result<std::unique_ptr<SubsetOperator>> makeDeviceLocalityOperator(const ParallelGeometry& geom,
                                                                   const VolumeGeometry& vol,
                                                                   RayOrdering ordering) {
    return cuda::makeCudaLocalityOperator(geom, vol, {.ordering = ordering});
}

Result<std::unique_ptr<IcdDevice>> makeDeviceIcd() {
    if (!cudaSetup().context) return notFound("no CUDA device: " + cudaSetup().setup.message);
    return cuda::makeCudaIcdDevice(cudaSetup().context);
}

Result<std::shared_ptr<RowFilterStage>> makeDeviceRowFilter() {
    if (!cudaSetup().context) return notFound("no CUDA device: " + cudaSetup().setup.message);
    return cuda::makeCufftRowFilter(cudaSetup().context);
}

}  // namespace tomo::test
