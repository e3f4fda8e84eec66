// The cufft* entry points the CUDA backend calls, defined here under cuFFT's own names and
// forwarding to the run-time loaded library (CufftLoader.h). No binary links libcufft.so, so
// these definitions are the only ones the static linker sees. Without a library every entry
// point returns CUFFT_SETUP_FAILED, which cufftCheck() reports with the loader's reason.
#include "gpu/cuda/internal/CufftLoader.h"

namespace {

/// The loaded entry points, or nullptr when cuFFT could not be opened.
const tomo::cuda::CufftLibrary::Api* api() {
    const auto& lib = tomo::cuda::processCufft();
    return lib.isOk() ? &lib.value().api() : nullptr;
}

}  // namespace

extern "C" {

cufftResult CUFFTAPI cufftPlanMany(cufftHandle* plan, int rank, int* n, int* inembed, int istride,
                                   int idist, int* onembed, int ostride, int odist, cufftType type,
                                   int batch) {
    const auto* a = api();
    return a ? a->planMany(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type,
                           batch)
             : CUFFT_SETUP_FAILED;
}

cufftResult CUFFTAPI cufftExecR2C(cufftHandle plan, cufftReal* idata, cufftComplex* odata) {
    const auto* a = api();
    return a ? a->execR2C(plan, idata, odata) : CUFFT_SETUP_FAILED;
}

cufftResult CUFFTAPI cufftExecC2R(cufftHandle plan, cufftComplex* idata, cufftReal* odata) {
    const auto* a = api();
    return a ? a->execC2R(plan, idata, odata) : CUFFT_SETUP_FAILED;
}

cufftResult CUFFTAPI cufftExecC2C(cufftHandle plan, cufftComplex* idata, cufftComplex* odata,
                                  int direction) {
    const auto* a = api();
    return a ? a->execC2C(plan, idata, odata, direction) : CUFFT_SETUP_FAILED;
}

cufftResult CUFFTAPI cufftSetStream(cufftHandle plan, cudaStream_t stream) {
    const auto* a = api();
    return a ? a->setStream(plan, stream) : CUFFT_SETUP_FAILED;
}

cufftResult CUFFTAPI cufftDestroy(cufftHandle plan) {
    const auto* a = api();
    return a ? a->destroy(plan) : CUFFT_SETUP_FAILED;
}

cufftResult CUFFTAPI cufftGetVersion(int* version) {
    const auto* a = api();
    return a ? a->getVersion(version) : CUFFT_SETUP_FAILED;
}

}  // extern "C"
