// CUDA's side of tests/core/fourier/FourierTestSupport.h: FourierMethodTest.cpp runs on
// cuda.gridrec on device 0 (no device or no cuFFT: the tests skip, or fail with
// TOMO_REQUIRE_DEVICE=1), compared with the CPU's gridrec of the same registry.
#include "FourierTestSupport.h"
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/fourier/CudaGridrec.h"

namespace tomo::test {

const FourierRegistry& fourierTestRegistry() {
    static const FourierRegistry registry = [] {
        FourierRegistry r;
        registerCpuFourier(r);
        BackProjectorRegistry unused;  // opens device 0's context, as the application does
        const cuda::CudaRegistration report = cuda::registerBackProjectors(unused);
        if (report.context && cuda::makeCudaGridrec(report.context).isOk())
            r.add(cuda::cudaGridrecInfo(),
                  [context = report.context] { return cuda::makeCudaGridrec(context).value(); });
        return r;
    }();
    return registry;
}

std::string fourierBackendUnderTest() {
    return "cuda";
}

}  // namespace tomo::test
