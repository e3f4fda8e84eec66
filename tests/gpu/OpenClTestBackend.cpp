// backendSetup() for the OpenCL test executable (tomo_gpu_tests): the OpenCL registration of
// OpenClTestSupport.h seen through the backend-neutral GpuBackendSetup; and the OpenCL projector
// pair of gpu/opencl/locality for LocalityDeviceTest.cpp (program cache in the build tree); and
// the OpenCL cone-beam variants on the registration's device context.
#include "OpenClTestSupport.h"
#include "gpu/opencl/cone/OpenClConeBackProjectors.h"
#include "gpu/opencl/locality/OpenClLocalityOperator.h"
#include "gpu/opencl/mbir/OpenClIcdDevice.h"
#include "tomo/config.h"
#if TOMO_WITH_VKFFT
#include "gpu/opencl/OpenClRowFilter.h"
#endif

namespace tomo::test {

const GpuBackendSetup& backendSetup() {
    static const GpuBackendSetup setup = [] {
        const OpenClTestSetup& cl = openClSetup();
        GpuBackendSetup s;
        s.backend = "opencl";
        s.registry = &cl.registry;
        s.available = cl.report.available;
        s.device = cl.report.device;
        s.message = cl.report.message;
        s.registered = cl.report.registered;
        s.skipped = cl.report.skipped;
        return s;
    }();
    return setup;
}

const ConeBackProjectorRegistry& coneBackendRegistry() {
    static const ConeBackProjectorRegistry registry = [] {
        ConeBackProjectorRegistry r;
        opencl::registerOpenClConeBackProjectors(r, openClSetup().report.context);
        return r;
    }();
    return registry;
}

Result<std::unique_ptr<SubsetOperator>> makeDeviceLocalityOperator(const ParallelGeometry& geom,
                                                                   const VolumeGeometry& vol,
                                                                   RayOrdering ordering) {
    opencl::OpenClLocalityOptions options;
    options.ordering = ordering;
    options.cacheDirectory = openClTestCacheDirectory();
    return opencl::makeOpenClLocalityOperator(geom, vol, options);
}

Result<std::unique_ptr<IcdDevice>> makeDeviceIcd() {
    if (!openClSetup().report.available)
        return notFound("no OpenCL device: " + openClSetup().report.message);
    return opencl::makeOpenClIcdDevice(openClSetup().report.context);
}

Result<std::shared_ptr<RowFilterStage>> makeDeviceRowFilter() {
    if (!openClSetup().report.available)
        return notFound("no OpenCL device: " + openClSetup().report.message);
#if TOMO_WITH_VKFFT
    return opencl::makeOpenClRowFilter(openClSetup().report.context);
#else
    return notFound("built without VkFFT");
#endif
}

}  // namespace tomo::test
