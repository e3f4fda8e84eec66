#pragma once
/// @file LocalityKernels.h
/// @brief Launch interface of the CUDA projector pair of paper 001 (W. J. Palenstijn,
/// K. J. Batenburg, J. Sijbers, J. Struct. Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017):
/// the ray-driven slice-interpolated (Joseph) forward projector with the four ray-to-block
/// orderings and the voxel-driven tiled back-projector. Internal to tomo_gpu_cuda (CUDA types);
/// the kernels are in LocalityKernels.cu (target tomo_gpu_cuda_kernels), the operator that uses
/// them in CudaLocalityOperator.cpp.
///
/// Both kernels compute exactly what core/locality/LocalityOperator.cpp computes, in the same
/// float operations and summation order (no contraction into FMAs), so the two agree to float
/// rounding of the per-ray setup: pos0 = a + b j in double rounded to float, samples at
/// pos0 + d k for the active lines of RayGeometry.h's activeLines(), linear interpolation with
/// zero outside the line, times step. Back-projection: u = (u0 + duy iy) + dux ix per pixel of a
/// 32 x 16 tile with u0 in double per (tile, projection), linear interpolation of the row,
/// zero outside the detector, times voxelSize^2 / pitch.
///
/// Memory: one chunk of core's pipeline (core/locality/DeviceLocality.h): volume slices and a
/// subset's compact sinogram rows (projection p in row (p - subsetFirst) / subsetStep), slices
/// a stride apart (a multiple of 128 floats, so every slice is 512-byte aligned); the kernels read
/// their input through a 1-D texture object (tex1Dfetch, point sampling; the interpolation is
/// done in float by the kernel, because the texture unit's 8-bit interpolation weights would cost
/// ~1e-3). One texture covers the chunk's input; a launch covers every slice of the chunk.

#include <cuda_runtime_api.h>

#include <cstddef>

#include "core/base/Status.h"

namespace tomo::cuda {

inline constexpr int kLocalityBlockAngles = 16;     ///< angles per forward block (paper 001)
inline constexpr int kLocalityBlockDetectors = 32;  ///< rays per angle in a forward block
inline constexpr int kLocalitySegments = 8;         ///< segments per ray in ordering (d)
inline constexpr int kLocalityTileX = 32;           ///< back-projection tile (pixels)
inline constexpr int kLocalityTileY = 16;

/// The affine ray parameters of one projection (RayGeometry.h's RayAngle).
struct LocalityRay {
    double a = 0, b = 0, d = 0;  ///< pos = a + b j + d k
    float step = 0;              ///< length of one line step
};

/// Which ray a forward thread computes (RayOrdering.h).
struct LocalityOrdering {
    bool spreadAngles = false;     ///< (a), (b): the block's angles spread over the range
    bool spreadDetectors = false;  ///< (a): the block's detectors spread over the detector
    bool segments = false;         ///< (d): slab by slab, kLocalitySegments slabs
};

/// One forward launch: the projections @p projections[0, count) of one orientation group (all
/// stepping along rows, or all along columns), sorted by angle.
struct LocalityForwardArgs {
    cudaTextureObject_t volume = 0;     ///< a chunk's slices of x, [z][y][x]
    std::size_t volumeStride = 0;       ///< floats between slices
    const LocalityRay* rays = nullptr;  ///< per projection index
    const int* projections = nullptr;   ///< projection indices of the group
    int count = 0;
    bool alongRows = true;
    LocalityOrdering ordering;
    int nx = 0, ny = 0, detectors = 0;
    int slices = 0;
    float* sino = nullptr;  ///< output row of (z, p) at sino + z * sinoStride + row(p) * detectors
    std::size_t sinoStride = 0;           ///< floats between slices of the sinogram buffer
    int subsetFirst = 0, subsetStep = 1;  ///< row(p) = (p - subsetFirst) / subsetStep
};

/// One back-projection launch: every pixel of the chunk's slices.
struct LocalityBackArgs {
    cudaTextureObject_t sino = 0;  ///< a chunk's compact rows, [z][row(p)][detector]
    std::size_t sinoStride = 0;
    const double* cosines = nullptr;  ///< per projection index
    const double* sines = nullptr;
    const double* centers = nullptr;   ///< detector centre c_p (pixels)
    const int* projections = nullptr;  ///< the projections to sum, sorted by angle
    int count = 0;
    int nx = 0, ny = 0, detectors = 0;
    double x0 = 0, y0 = 0, voxelSize = 1, pitch = 1;  ///< VolumeGeometry x(0), y(0)
    float weight = 1;                                 ///< voxelSize^2 / pitch
    int slices = 0;
    float* volume = nullptr;  ///< output pixel (z, iy, ix) at volume + z * volumeStride + ...
    std::size_t volumeStride = 0;
    int subsetFirst = 0, subsetStep = 1;  ///< row(p) = (p - subsetFirst) / subsetStep
};

/// Forward projection of one orientation group; DeviceError when the launch fails.
Status launchLocalityForward(const LocalityForwardArgs& args, cudaStream_t stream);
/// Voxel-driven back-projection; DeviceError when the launch fails.
Status launchLocalityBack(const LocalityBackArgs& args, cudaStream_t stream);

}  // namespace tomo::cuda
