// PackKernels.cu - a pass of a chunk's sinogram rows packed on the device into the texel layout
// of the back-projection kernels (core/projectors/PassDriver.h packPassSlices, the same bytes;
// CudaBackProjectionStage.h): projections [a0, a0 + na) of the pass's slices [s0, s0 + count)
// of the chunk's rows ([slices][angles][pitch] floats) as na pitched rows of `detectors` texels
// of `channels` values, slice c in channel c, channels beyond count zero; binary16 with
// __float2half_rn (round to nearest even, as core/data/Half.h).

#include <cuda_fp16.h>

#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/CudaKernels.h"

namespace tomo::cuda {
namespace kernels {
namespace {

template <class T>
__device__ T packValue(float v);
template <>
__device__ float packValue<float>(float v) {
    return v;
}
template <>
__device__ unsigned short packValue<unsigned short>(float v) {
    return __half_as_ushort(__float2half_rn(v));
}

template <class T>
__global__ void packPass(const float* rows, size_t pitch, int angles, int s0, int count, int a0,
                         int na, int detectors, int channels, T* out, size_t outPitch) {
    for (int a = blockIdx.y; a < na; a += gridDim.y) {
        T* row = reinterpret_cast<T*>(reinterpret_cast<char*>(out) + a * outPitch);
        for (int d = blockIdx.x * blockDim.x + threadIdx.x; d < detectors;
             d += gridDim.x * blockDim.x)
            for (int c = 0; c < channels; ++c) {
                const float v =
                    c < count ? rows[(static_cast<size_t>(s0 + c) * angles + a0 + a) * pitch + d]
                              : 0.0f;
                row[static_cast<size_t>(d) * channels + c] = packValue<T>(v);
            }
    }
}

}  // namespace
}  // namespace kernels

Status launchPackPass(const PackArgs& a, cudaStream_t stream) {
    const dim3 grid(
        static_cast<unsigned>((a.detectors + 255) / 256 > 64 ? 64 : (a.detectors + 255) / 256),
        static_cast<unsigned>(a.na > 65535 ? 65535 : a.na));
    if (a.half)
        kernels::packPass<unsigned short><<<grid, 256, 0, stream>>>(
            a.rows, a.pitch, a.angles, a.s0, a.count, a.a0, a.na, a.detectors, a.channels,
            static_cast<unsigned short*>(a.out), a.outPitch);
    else
        kernels::packPass<float><<<grid, 256, 0, stream>>>(a.rows, a.pitch, a.angles, a.s0, a.count,
                                                           a.a0, a.na, a.detectors, a.channels,
                                                           static_cast<float*>(a.out), a.outPitch);
    return cudaCheck(cudaGetLastError(), "launch of packPass");
}

}  // namespace tomo::cuda
