// backendSetup() for the CUDA test executable (tomo_gpu_cuda_tests): CPU variants plus every
// CUDA variant registered on device 0 (none, with the runtime's reason, without a GPU); and the
// CUDA projector pair of gpu/cuda/locality for LocalityDeviceTest.cpp.
#include "GpuTestSupport.h"
#include "core/projectors/CpuBackProjectors.h"
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/locality/CudaLocalityOperator.h"

namespace tomo::test {
namespace {

struct CudaSetup {
    BackProjectorRegistry registry;
    GpuBackendSetup setup;
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

Result<std::unique_ptr<SubsetOperator>> makeDeviceLocalityOperator(const ParallelGeometry& geom,
                                                                   const VolumeGeometry& vol,
                                                                   RayOrdering ordering) {
    return cuda::makeCudaLocalityOperator(geom, vol, {.ordering = ordering});
}

}  // namespace tomo::test
