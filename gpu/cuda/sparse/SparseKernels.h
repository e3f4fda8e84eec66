#pragma once
/// @file SparseKernels.h
/// @brief Launchers of the MemXCT CUDA SpMV kernels (paper 000, section 3.3: M. Hidayetoglu et
/// al., SC'19, doi:10.1145/3295500.3356220). Device pointers only; internal to
/// tomo_gpu_cuda_sparse. Each launcher enqueues on @p stream and returns the launch error.
///
/// Layouts (one CUDA block = one partition of blockRows rows, one thread per row):
///  - ELL, transposed and zero-padded per block: block b has width[b] columns; entry k of local
///    row t sits at offset[b] + k * blockRows + t (coalesced across the block's threads);
///    padding has index 0 and value 0, so no thread branches on it.
///  - Buffered: for every stage s of block b, the threads first copy x[map[mapBegin[s] + i]]
///    for i < mapBegin[s+1] - mapBegin[s] into shared memory (block-strided), synchronise, and
///    then walk the stage's ELL slice (width stageWidth[s], offset stageOffset[s], 16-bit local
///    indices) accumulating in a register across stages.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tomo::cuda {

cudaError_t launchEllSpmv(int blocks, int blockRows, std::size_t rows, const std::uint64_t* offset,
                          const std::uint32_t* width, const std::int32_t* index, const float* value,
                          const float* x, float* y, cudaStream_t stream);

cudaError_t launchBufferedSpmv(int blocks, int blockRows, std::size_t rows,
                               std::size_t sharedFloats, const std::uint32_t* stageBegin,
                               const std::uint64_t* mapBegin, const std::uint32_t* map,
                               const std::uint64_t* stageOffset, const std::uint32_t* stageWidth,
                               const std::uint16_t* index, const float* value, const float* x,
                               float* y, cudaStream_t stream);

}  // namespace tomo::cuda
