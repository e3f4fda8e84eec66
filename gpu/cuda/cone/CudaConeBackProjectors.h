#pragma once
/// @file CudaConeBackProjectors.h
/// @brief Registration of the CUDA cone-beam (FDK) back-projectors (no CUDA types here).
///
/// Variants (kernels/ConeKernels.cu; paper 003, P. Chen et al., "iFDK", SC '19,
/// doi:10.1145/3295500.3356163, Listing 1 and Table 3):
///  - cuda.fdk.standard: the RTK-32-like baseline: 32 views per launch, matrices in __constant__
///    memory, the standard three-dot-product scheme per voxel, [v][u] projections in a layered
///    texture read with point sampling and FP32 software bilinear interpolation (any geometry);
///  - cuda.fdk.shfl.tex: shflBP (Tex-Tran): lane L of a warp computes 1/h2 and u of view L for
///    the warp's voxel column, __shfl_sync broadcasts them, each thread accumulates a voxel and
///    its mirror (j, ny-1-j) in registers; transposed projections in a layered texture;
///  - cuda.fdk.shfl.ldg: the same reading transposed padded projections with __ldg (L1-Tran,
///    the paper's proposed kernel; the default on a Column or Mirror geometry);
///  - cuda.fdk.shfl.ldg.column: shfl.ldg without the mirror (one thread per voxel of every
///    column) even on mirror geometries, for comparison; the shfl variants run this column
///    kernel themselves on Column geometries (vertical detector offset);
///  - cuda.fdk.tile: shfl.ldg with every column term of a view shuffled once (1/h2^2, u's
///    fraction and column, v = v0 + j dv), 4 voxel pairs per thread and blocks walked in (x, z)
///    patches so that a batch's projections stay in L2 (docs/cone-beam.md); preference below
///    shfl.ldg until a GPU run measures it;
///  - cuda.fdk.tile.pair: the tile kernel from column-pair images (detector columns u and u+1
///    interleaved): two taps per 8-byte load, the same bits as cuda.fdk.tile;
///  - cuda.fdk.tile.shared: the tile kernel with each view's detector patch staged in shared
///    memory (coalesced loads, then shared-memory taps; global taps where a patch exceeds the
///    stage), the same bits as cuda.fdk.tile.
/// All accumulate in plain device memory (the shfl kernels y-contiguous, transposed on the
/// device before the download) and reproduce core/cone/ConeBackProjector.h's arithmetic.

#include <memory>
#include <vector>

#include "core/cone/ConeBackProjector.h"

namespace tomo::cuda {

class CudaDeviceContext;  // gpu/cuda/internal/CudaDeviceContext.h

/// The metadata of the CUDA cone-beam variants this build compiles (no device needed).
std::vector<ConeBackProjectorInfo> compiledConeVariants();

/// Adds every CUDA cone-beam variant to @p registry, sharing @p device (the context
/// registerBackProjectors() opened: one per device); nothing when @p device is null.
void registerCudaConeBackProjectors(ConeBackProjectorRegistry& registry,
                                    std::shared_ptr<CudaDeviceContext> device);

}  // namespace tomo::cuda
