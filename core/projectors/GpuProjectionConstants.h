#pragma once
/// @file GpuProjectionConstants.h
/// @brief The per-projection constants every GPU back-projection kernel reads (CUDA and OpenCL,
/// one float4 per projection): the fractional detector index of pixel (ix, iy) is
/// u = a + ix cx + iy cy, weighted by w. Computed once here for both backends, in double and
/// rounded once to float, with exactly the expressions of the CPU kernels
/// (BackProjectionKernels.h), so that every backend starts from the same floats.

#include <span>
#include <vector>

#include "core/geometry/ParallelGeometry.h"

namespace tomo {

struct GpuProjectionConstants {
    float cx;  ///< du/dix = voxelSize cos(theta) / pitch
    float cy;  ///< du/diy = -voxelSize sin(theta) / pitch (row 0 is the top)
    float a;   ///< u at pixel (0, 0), with the projection's axis correction
    float w;   ///< the projection's weight
};
static_assert(sizeof(GpuProjectionConstants) == 4 * sizeof(float), "one float4 per projection");

/// The constants of every projection of @p geom on @p vol with @p weights (one per angle).
std::vector<GpuProjectionConstants> gpuProjectionConstants(const ParallelGeometry& geom,
                                                           const VolumeGeometry& vol,
                                                           std::span<const float> weights);

}  // namespace tomo
