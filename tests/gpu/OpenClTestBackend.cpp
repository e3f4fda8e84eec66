// backendSetup() for the OpenCL test executable (tomo_gpu_tests): the OpenCL registration of
// OpenClTestSupport.h seen through the backend-neutral GpuBackendSetup.
#include "OpenClTestSupport.h"

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

}  // namespace tomo::test
