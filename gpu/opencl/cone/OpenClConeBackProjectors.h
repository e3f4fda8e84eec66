#pragma once
/// @file OpenClConeBackProjectors.h
/// @brief Registration of the OpenCL cone-beam (FDK) back-projectors (no OpenCL types here).
///
/// Variants (kernels/cone.cl; paper 003, P. Chen et al., "iFDK", SC '19,
/// doi:10.1145/3295500.3356163):
///  - opencl.fdk.standard: voxel-driven, the three matrix rows per voxel and view (any geometry);
///  - opencl.fdk.symmetric: Algorithm 4: one work-group per voxel column along y, one work-item
///    per voxel pair j, ny-1-j on mirror-symmetric geometries (per voxel j on Column ones), u and
///    1/h2 once per column and view shared by sub-group broadcasts where the device has
///    cl_khr_subgroups or cl_intel_subgroups, else through local memory (on CPU devices such as
///    PoCL with a barrier after every view, measured faster there: ClConeBackProjector.cpp);
///    transposed projections, a y-contiguous volume transposed back on the device. Needs
///    ConeSymmetry::Column;
///  - opencl.fdk.tile: the twin of CUDA's cuda.fdk.tile (column terms once per view and column,
///    v = v0 + j dv, 4 voxel pairs per work-item, groups walked in (x, z) patches), through local
///    memory; below opencl.fdk.symmetric in the automatic choice. Needs ConeSymmetry::Column;
///  - opencl.fdk.tile.pair / opencl.fdk.tile.shared: the twins of cuda.fdk.tile.pair and
///    cuda.fdk.tile.shared (column-pair images; each view's detector patch staged in local
///    memory), the same bits as opencl.fdk.tile.
/// All reproduce core/cone/ConeBackProjector.h's arithmetic in float.

#include <memory>

#include "core/cone/ConeBackProjector.h"

namespace tomo::opencl {

class ClDeviceContext;  // gpu/opencl/internal/ClDeviceContext.h

/// Adds the cone-beam variants @p device can run to @p registry (none when @p device is null).
/// The factories share @p device (the context registerBackProjectors() opened: one per device).
void registerOpenClConeBackProjectors(ConeBackProjectorRegistry& registry,
                                      std::shared_ptr<ClDeviceContext> device);

}  // namespace tomo::opencl
