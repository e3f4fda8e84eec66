// FdkWeightKernels.cu - FDK's weights on the device (ConeKernels.h launchFdkWeights): the
// formulas of core/cone/FdkWeightFormula.h, the CPU's, compiled here in float.
#include <cuda_runtime.h>

#include <string>

#include "core/cone/FdkWeightFormula.h"
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/ConeKernels.h"

namespace tomo::cuda {
namespace kernels {
namespace {

/// Thread (iu, view): the column's redundancy once, then its nv pixels.
__global__ void fdkWeightKernel(FdkWeightArgs a) {
    const int iu = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int view = static_cast<int>(blockIdx.y);
    if (iu >= a.nu) return;
    const float* p = a.table + static_cast<std::size_t>(a.firstView + view) * TOMO_FDK_VIEW_PARAMS;
    const float c = p[0], beta = p[1], u0 = p[2], v0 = p[3], sdd = p[4];
    const float du = a.originU + static_cast<float>(iu) * a.pitchU - u0;
    const float cr =
        c * fdk::tomoFdkRedundancy(a.mode, du, sdd, beta, a.delta, a.halfWidth, a.longSide);
    float* col = a.rows + static_cast<std::size_t>(view) * a.nv * a.pitch + iu;
    for (int iv = 0; iv < a.nv; ++iv) {
        const float dv = a.originV + static_cast<float>(iv) * a.pitchV - v0;
        col[static_cast<std::size_t>(iv) * a.pitch] *= cr * fdk::tomoFdkCosine(sdd, du, dv);
    }
}

}  // namespace
}  // namespace kernels

Status launchFdkWeights(const FdkWeightArgs& a, cudaStream_t stream) {
    if (a.views < 1 || a.views > 65535)
        return invalidArgument("FDK weights of " + std::to_string(a.views) + " views");
    const dim3 grid(static_cast<unsigned>((a.nu + 127) / 128), static_cast<unsigned>(a.views));
    kernels::fdkWeightKernel<<<grid, 128, 0, stream>>>(a);
    return cudaCheck(cudaGetLastError(), "launch of the FDK weights");
}

}  // namespace tomo::cuda
