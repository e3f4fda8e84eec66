#pragma once
/// @file IcdKernels.h
/// @brief Launch interface of GPU-ICD's CUDA kernels (paper 004, Algorithm 3; the layout and
/// schedule are core/mbir/GpuIcd.h's): the tile build, SVB gather, voxel update, deferred
/// write-back.
/// Internal to tomo_gpu_cuda (CUDA types); the kernels are IcdKernels.cu, their user
/// CudaIcdDevice.cpp. The same computation as gpu/opencl/mbir/icd.cl, with CUDA's native float
/// atomics, warp-shuffle reductions, the 8-bit tiles and weights through the read-only path
/// (__ldg) and the SVB errors through L2 (__ldcg: other blocks change them with atomics).

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/base/Status.h"
#include "core/mbir/GpuIcd.h"

namespace tomo::cuda {

/// A batch's SVBs and the sinograms they come from (gather and write-back).
struct IcdSheetArgs {
    float* e = nullptr;        ///< error sinograms, [slice] planes of padded [view][channel] rows
    const float* w = nullptr;  ///< weight sinograms, same layout
    int views = 0, rowLength = 0, padding = 0, rows = 0, pitch = 0;
    int svCount = 1;            ///< SVs per slice: an entry of `list` is slice * svCount + sv
    const int* list = nullptr;  ///< the pass's entries
    int first = 0;              ///< the batch's first entry of `list`
    const int* svBase = nullptr;
    float *svbE = nullptr, *svbOld = nullptr, *svbW = nullptr;
    int* counters = nullptr;  ///< per slot: the next voxel
};

struct IcdUpdateArgs {
    float* x = nullptr;  ///< the images, [slice][iy][ix]
    float* svbE = nullptr;
    const float* svbW = nullptr;
    const std::uint8_t* tiles = nullptr;
    const uint2* chunkMeta = nullptr;
    const float* scale = nullptr;
    const int *order = nullptr, *svFirst = nullptr, *svSize = nullptr, *list = nullptr;
    int first = 0;
    int* counters = nullptr;
    float* moved = nullptr;  ///< per entry of `list`: sum |delta|
    int* updates = nullptr;  ///< per entry of `list`: voxel updates
    int blocksPerSv = 1, rows = 0, pitch = 0, chunks = 0, nx = 0, ny = 0;
    int svCount = 1, slices = 1;
    unsigned rotation = 0;
    IcdKernelConstants k;
};

/// The tile build (GpuIcd.h; the OpenCL twin is icd.cl icdTiles): voxels [first, first + count)
/// from their codes, voxel `first`'s column first.
struct IcdTileArgs {
    const std::uint8_t* codes = nullptr;
    int first = 0, count = 0;
    const double* terms = nullptr;  ///< GpuIcdLayout::channelTerms
    const int* runs = nullptr;      ///< GpuIcdLayout::viewRuns
    const int* svBase = nullptr;
    const uint2* chunkMeta = nullptr;
    int views = 0, chunks = 0, nx = 0, ny = 0, side = 1, columnSize = 0;
    std::uint8_t* tiles = nullptr;
};

/// Every byte of the tiles of args.count voxels: a block of 32 threads per voxel and chunk.
Status launchIcdTiles(const IcdTileArgs& args, cudaStream_t stream);
/// @p count SVBs (slots): gather (resets the slots' counters) / write back.
Status launchIcdGather(const IcdSheetArgs& args, int count, cudaStream_t stream);
Status launchIcdWriteBack(const IcdSheetArgs& args, int count, cudaStream_t stream);
/// The most threads a block of icdUpdate may have on the current device: its registers decide
/// (nvcc 13: 80 per thread on sm_75 and sm_80, so fewer than 1024 threads there; 56 on sm_86 to
/// sm_90).
Result<int> icdUpdateMaxThreads();
/// @p count SVs x blocksPerSv blocks of @p threads (a power of two, 32..1024).
Status launchIcdUpdate(const IcdUpdateArgs& args, int count, int threads, cudaStream_t stream);

}  // namespace tomo::cuda
