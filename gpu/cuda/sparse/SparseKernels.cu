#include "gpu/cuda/sparse/SparseKernels.h"

namespace tomo::cuda {
namespace {

__global__ void ellSpmv(std::size_t rows, const std::uint64_t* __restrict__ offset,
                        const std::uint32_t* __restrict__ width,
                        const std::int32_t* __restrict__ index, const float* __restrict__ value,
                        const float* __restrict__ x, float* __restrict__ y) {
    const unsigned b = blockIdx.x, t = threadIdx.x, n = blockDim.x;
    const std::size_t row = std::size_t(b) * n + t;
    const std::uint64_t base = offset[b] + t;
    const std::uint32_t w = width[b];
    float acc = 0.0f;
    for (std::uint32_t k = 0; k < w; ++k) {
        const std::uint64_t e = base + std::uint64_t(k) * n;
        acc += x[index[e]] * value[e];
    }
    if (row < rows) y[row] = acc;
}

__global__ void bufferedSpmv(std::size_t rows, const std::uint32_t* __restrict__ stageBegin,
                             const std::uint64_t* __restrict__ mapBegin,
                             const std::uint32_t* __restrict__ map,
                             const std::uint64_t* __restrict__ stageOffset,
                             const std::uint32_t* __restrict__ stageWidth,
                             const std::uint16_t* __restrict__ index,
                             const float* __restrict__ value, const float* __restrict__ x,
                             float* __restrict__ y) {
    extern __shared__ float buffer[];
    const unsigned b = blockIdx.x, t = threadIdx.x, n = blockDim.x;
    float acc = 0.0f;
    for (std::uint32_t s = stageBegin[b]; s < stageBegin[b + 1]; ++s) {
        const std::uint64_t m0 = mapBegin[s];
        const unsigned count = static_cast<unsigned>(mapBegin[s + 1] - m0);
        __syncthreads();  // the previous stage is done with the buffer
        for (unsigned i = t; i < count; i += n)
            buffer[i] = x[map[m0 + i]];
        __syncthreads();
        const std::uint64_t base = stageOffset[s] + t;
        const std::uint32_t w = stageWidth[s];
        for (std::uint32_t k = 0; k < w; ++k) {
            const std::uint64_t e = base + std::uint64_t(k) * n;
            acc += buffer[index[e]] * value[e];
        }
    }
    const std::size_t row = std::size_t(b) * n + t;
    if (row < rows) y[row] = acc;
}

}  // namespace

cudaError_t launchEllSpmv(int blocks, int blockRows, std::size_t rows, const std::uint64_t* offset,
                          const std::uint32_t* width, const std::int32_t* index, const float* value,
                          const float* x, float* y, cudaStream_t stream) {
    if (blocks == 0) return cudaSuccess;
    ellSpmv<<<blocks, blockRows, 0, stream>>>(rows, offset, width, index, value, x, y);
    return cudaGetLastError();
}

cudaError_t launchBufferedSpmv(int blocks, int blockRows, std::size_t rows,
                               std::size_t sharedFloats, const std::uint32_t* stageBegin,
                               const std::uint64_t* mapBegin, const std::uint32_t* map,
                               const std::uint64_t* stageOffset, const std::uint32_t* stageWidth,
                               const std::uint16_t* index, const float* value, const float* x,
                               float* y, cudaStream_t stream) {
    if (blocks == 0) return cudaSuccess;
    const std::size_t bytes = sharedFloats * sizeof(float);
    if (bytes > 48 * 1024) {
        const cudaError_t err = cudaFuncSetAttribute(
            bufferedSpmv, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
        if (err != cudaSuccess) return err;
    }
    bufferedSpmv<<<blocks, blockRows, bytes, stream>>>(rows, stageBegin, mapBegin, map, stageOffset,
                                                       stageWidth, index, value, x, y);
    return cudaGetLastError();
}

}  // namespace tomo::cuda
