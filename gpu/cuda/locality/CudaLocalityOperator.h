#pragma once
/// @file CudaLocalityOperator.h
/// @brief The projector pair of paper 001 on a CUDA GPU as a SubsetOperator for the iterative
/// solvers (core/solvers): ray-driven slice-interpolated forward projection with a selectable
/// ray-to-block ordering and voxel-driven back-projection on tiles. No CUDA types here.
///
/// Paper: W. J. Palenstijn, K. J. Batenburg, J. Sijbers, "Performance improvements for
/// iterative electron tomography reconstruction using graphics processing units (GPUs)",
/// J. Struct. Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017 (§2, Table 1).
///
/// Model: exactly core/locality/LocalityOperator's (the Joseph model of RayGeometry.h for the
/// forward projection; linear-interpolating voxel-driven back-projection weighted by
/// voxelSize^2 / pitch, an unmatched pair: matchedAdjoint() is false, so CGLS refuses it and
/// the SIRT family runs on it). Same float operations (kernels compiled without FMA
/// contraction), so the results agree with the CPU operator to float rounding of the per-ray
/// setup (~1e-6 relative; the tests allow 1e-4).
/// Schedule (gpu/cuda/locality/LocalityKernels.h): a forward thread block is 16 angles x 32
/// rays of one orientation group (rays stepping along rows, or along columns, each group sorted
/// by angle), one thread per ray, reading the volume through a texture object (point sampling,
/// float interpolation in the kernel); the orderings (a)-(d) of RayOrdering.h map threads to
/// rays: spread or consecutive angles, spread or consecutive detectors, and (d) sweeps the
/// block's rays slab by slab (8 slabs, a barrier between them). Back-projection: one thread
/// per pixel of a 32 x 16 tile, angles in increasing order, sinogram read through a texture.
///
/// Host loop: core's (core/locality/DeviceLocality.h): each call is a run of core's pipeline over
/// the slices on this device's streams (CudaQueues.h: pinned staging, uploads on one stream,
/// kernels on another, downloads on a third), so copies of successive chunks overlap kernels;
/// this file supplies the kernels as a ChunkStage (a texture object over the chunk's input
/// buffer; forward: one launch per orientation group and chunk; back-projection: one per chunk)
/// and the constant tables. Slice items are padded to 128 floats; a chunk is capped by the 1-D
/// texture limit and gridDim.z. Never run on a GPU yet (compiled only).
/// Device memory: the tables at creation, the pipeline's rings per call.
/// Threading: not thread-safe (one solver at a time).

#include <memory>

#include "core/base/Status.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/locality/RayOrdering.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo::cuda {

class CudaDeviceContext;  // gpu/cuda/internal/CudaDeviceContext.h (no CUDA types here)

struct CudaLocalityOptions {
    RayOrdering ordering = RayOrdering::StripSegments;  ///< forward ray-to-block ordering
    int device = -1;                                    ///< CUDA device index; -1 = device 0
    /// The device context to run on (the registry's, CudaRegistration::context: devices owned
    /// once); null = open `device` here.
    std::shared_ptr<CudaDeviceContext> context;
};

/// The CUDA operator for @p geom on @p vol ("cuda.locality.<ordering>"). NotFound when there
/// is no CUDA device (the runtime's reason in the message); InvalidArgument for an invalid grid
/// or vol.nz != geom.rows(); Unsupported when one slice exceeds the device's 1-D texture limit;
/// OutOfMemory when the volume and sinogram do not fit on the device.
Result<std::unique_ptr<SubsetOperator>> makeCudaLocalityOperator(
    const ParallelGeometry& geom, const VolumeGeometry& vol,
    const CudaLocalityOptions& options = {});

}  // namespace tomo::cuda
