#pragma once
/// @file OpenClLocalityOperator.h
/// @brief The projector pair of paper 001 on an OpenCL device as a SubsetOperator for the
/// iterative solvers (core/solvers): ray-driven slice-interpolated forward projection with a
/// selectable ray-to-block ordering and voxel-driven back-projection on tiles. No OpenCL types
/// here (the kernels are gpu/opencl/locality/locality.cl, embedded like kernels/*.cl).
///
/// Paper: W. J. Palenstijn, K. J. Batenburg, J. Sijbers, "Performance improvements for
/// iterative electron tomography reconstruction using graphics processing units (GPUs)",
/// J. Struct. Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017 (§2, Table 1).
///
/// Model: exactly core/locality/LocalityOperator's and gpu/cuda/locality's (the Joseph model of
/// RayGeometry.h for the forward projection; linear-interpolating voxel-driven back-projection
/// weighted by voxelSize^2 / pitch, an unmatched pair: matchedAdjoint() is false, so CGLS
/// refuses it and the SIRT family runs on it). Kernels are float-only (no cl_khr_fp64 needed):
/// the double-precision setup of the CPU operator - per ray pos0 = a + b j rounded to float and
/// its active lines, per (projection, tile) the tile's first detector position u0 - is computed
/// on the host once at creation and uploaded as tables; the inner loops use the CPU operator's
/// float operations in its order with FP_CONTRACT OFF, so results agree with the CPU to float
/// rounding (the tests allow 1e-4 relative).
/// Schedule: a forward work-group is 16 angles x 32 rays of one orientation group (rays stepping
/// along rows, or along columns; each group sorted by angle), one work-item per ray; the
/// orderings (a)-(d) of RayOrdering.h map work-items to rays: spread or consecutive angles,
/// spread or consecutive detectors, and (d) sweeps the group's rays slab by slab (8 slabs of
/// image lines, partial sums accumulated in order, a barrier between slabs). Back-projection:
/// one work-item per pixel of a 32 x 16 tile, the projections in increasing angle, their
/// constants staged in local memory 512 at a time. Work-groups of 512 work-items are required
/// (Unsupported otherwise).
///
/// Host loop: core's (core/locality/DeviceLocality.h): each call is a run of core's pipeline over
/// the slices, on this device's queues (ClQueues.h), so uploads, kernels and downloads of
/// successive chunks overlap; this file supplies the kernels as a ChunkStage (forward: one
/// launch per orientation group and chunk; back-projection: one per chunk) and the tables.
/// Device memory: the tables at creation (OutOfMemory naming the table when one does not fit),
/// the pipeline's rings per call. Threading: not thread-safe (one solver at a time).

#include <memory>
#include <string>

#include "core/base/Status.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/locality/RayOrdering.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo::opencl {

class ClDeviceContext;  // gpu/opencl/internal/ClDeviceContext.h (no OpenCL types here)

struct OpenClLocalityOptions {
    RayOrdering ordering = RayOrdering::StripSegments;  ///< forward ray-to-block ordering
    /// OpenCL device, counted flat over platforms (OpenClDiscovery.h order); -1 = first GPU,
    /// else the first device.
    int device = -1;
    /// Directory of the on-disk program cache (ClDeviceOptions); empty = the default one.
    std::string cacheDirectory;
    /// The device context to run on (the registry's, OpenClRegistration::context: devices owned
    /// once); null = open `device` here.
    std::shared_ptr<ClDeviceContext> context;
};

/// The OpenCL operator for @p geom on @p vol ("opencl.locality.<ordering>"). InvalidArgument
/// for an invalid grid or vol.nz != geom.rows() (checked before any device is opened);
/// NotFound when there is no OpenCL platform or device (the loader's reason in the message);
/// Unsupported when the device cannot run 512-work-item work-groups; DeviceError with the
/// build log when the kernels do not build; OutOfMemory when a buffer does not fit.
Result<std::unique_ptr<SubsetOperator>> makeOpenClLocalityOperator(
    const ParallelGeometry& geom, const VolumeGeometry& vol,
    const OpenClLocalityOptions& options = {});

}  // namespace tomo::opencl
