#pragma once
/// @file ConeKernels.h
/// @brief The launch interface of the CUDA cone-beam (FDK) back-projection kernels
/// (kernels/ConeKernels.cu; paper 003: P. Chen et al., "iFDK", SC '19,
/// doi:10.1145/3295500.3356163, Listing 1). Internal to tomo_gpu_cuda (CUDA runtime types);
/// compiled by g++ (gpu/cuda/cone) and nvcc.
///
/// Arithmetic: core/cone/ConeBackProjector.h's, per voxel (i, j, k) of the WHOLE grid
/// (k = slab plane + firstPlane) and view p: h = M_p (i, j, k, 1), u = h0 / h2, v = h1 / h2,
/// vol += bilinear(q_p, u, v) / h2^2 with u, v clamped to [-1, n] and the projection extended by
/// zeros; bilinear along u first, then v. Projections are core/cone/ConeKernelSupport.h's padded
/// images (1 zero row/column before, 2 after), so no fetch needs a bounds check.
///
/// Kernels (one launch = at most kConeBatch views, their matrices in __constant__ memory):
///  - Standard (RTK-32-like baseline): one thread per voxel, three rows per voxel and view,
///    [v][u] images in a layered texture (point sampling, FP32 software bilinear), volume
///    [plane][y][x];
///  - ShflMirror (Listing 1's shflBP with our axes: the rotation axis is y): a warp is 32
///    consecutive voxel pairs (j, ny-1-j) of one column (i, k); lane L computes 1/h2 and u of
///    view L, __shfl_sync broadcasts them; one dot product per voxel pair and view; the voxel and
///    its mirror accumulate in registers, written once per launch (no atomics);
///  - ShflColumn: the same without the mirror, one thread per voxel j (Column geometries);
///  both read transposed [u][v] images through a layered texture (Texture, point sampling) or
///  __ldg from device memory (Ldg, "L1-Tran"), and accumulate into a y-contiguous volume
///  [plane][x][y], which launchConeTranspose() turns into [plane][y][x];
///  - TileMirror / TileColumn (Ldg only): ShflMirror / ShflColumn with every column term of a
///    view shuffled once (1/h2^2, u's fraction and column offset, v = v0 + j dv: no dot
///    product per voxel), 4 voxels (pairs) per thread 32 apart, and blocks walked in compact
///    patches of the (x, z) plane so that a batch's projection footprint stays in L2; with
///    `pairs`, from column-pair images: two taps per 8-byte load (the same bits); with
///    `staged`, the taps from the block's detector patch staged in shared memory (the same bits).
///
/// The matrices live in one __constant__ bank per device: launchConeBackProjection() copies
/// them with cudaMemcpyToSymbolAsync on @p stream, stream-ordered with the kernels; callers on a
/// device must issue all their cone launches on one stream and hold the device's scratch lock
/// (CudaDeviceContext::lockScratch) from the copy until the launch has been queued behind it.

#include <cuda_runtime_api.h>

#include <cstddef>

#include "core/base/Status.h"

namespace tomo::cuda {

inline constexpr int kConeBatch = 32;  ///< views per launch: the lanes of a warp

enum class ConeKernel { Standard, ShflMirror, ShflColumn, TileMirror, TileColumn };
enum class ConeFetch { Texture, Ldg };

struct ConeLaunchArgs {
    ConeKernel kernel = ConeKernel::Standard;
    ConeFetch fetch = ConeFetch::Texture;  ///< Standard: Texture only
    const float* proj = nullptr;           ///< Ldg: the views' padded images, image floats apart
    cudaTextureObject_t texture = 0;       ///< Texture: layer p = view p of the launch
    int views = 0;                         ///< 1 .. kConeBatch
    int stride = 0;                        ///< floats per padded row (fast axis + 3)
    std::size_t image = 0;                 ///< floats per padded image
    float maxU = 0, maxV = 0;              ///< nu, nv: the upper clamps
    float nv1 = 0;                         ///< nv - 1: the mirror of v is nv1 - v
    /// Tile only: column-pair images (ConePadArgs::pairs; image counts their floats).
    bool pairs = false;
    /// Tile only, not with pairs: each view's detector patch staged in shared memory
    /// (cuda.fdk.tile.shared; views whose patch does not fit read by __ldg): the same bits.
    bool staged = false;
    float* acc = nullptr;  ///< the slab's accumulator
    int nx = 0, ny = 0, planes = 0, firstPlane = 0;
};

/// Copies @p matrices (args.views x 12 floats, row-major 3x4) to __constant__ memory and
/// launches the kernel over the slab (grids of at most 65535 planes). InvalidArgument for a bad
/// view count, Unsupported for a fetch the kernel lacks, DeviceError when a launch fails.
Status launchConeBackProjection(const ConeLaunchArgs& args, const float* matrices,
                                cudaStream_t stream);

/// A batch of filtered views on the device ([views][nv][pitch] floats) into the padded images
/// the kernels read (core/cone/ConeKernelSupport.h packViews: 1 zero row/column before, 2 after,
/// transposed to [u][v] for the shfl kernels).
struct ConePadArgs {
    const float* rows = nullptr;
    std::size_t pitch = 0;  ///< floats per detector row
    int nu = 0, nv = 0, views = 0;
    bool transposed = false;
    /// Transposed only: each element followed by the next column's ((u, v), (u + 1, v)), so
    /// the image has 2 x stride x (slow + 3) floats (cuda.fdk.tile.pair).
    bool pairs = false;
    float* out = nullptr;
    int stride = 0;         ///< floats per padded row
    std::size_t image = 0;  ///< floats per padded image
};
Status launchConePad(const ConePadArgs& args, cudaStream_t stream);

/// FDK's weights (core/cone/FdkWeightFormula.h, in float) of a batch of raw views on the device
/// ([views][nv][pitch] floats, in place; kernels/FdkWeightKernels.cu): one thread per (column,
/// view) evaluates the column's redundancy once and the cosine of each of its rows.
struct FdkWeightArgs {
    float* rows = nullptr;
    std::size_t pitch = 0;
    const float* table = nullptr;  ///< TOMO_FDK_VIEW_PARAMS floats per view of the geometry
    int firstView = 0, views = 0;  ///< the batch's rows of the table
    int nu = 0, nv = 0, mode = 0;
    float delta = 0, halfWidth = 0, longSide = 1;
    float originU = 0, pitchU = 1, originV = 0, pitchV = 1;
};
Status launchFdkWeights(const FdkWeightArgs& args, cudaStream_t stream);

/// Planes [kBegin, kBegin + planes) of @p columns ([plane][x][y]) into @p out ([planes][y][x]).
Status launchConeTranspose(const float* columns, float* out, int nx, int ny, int kBegin, int planes,
                           cudaStream_t stream);

}  // namespace tomo::cuda
