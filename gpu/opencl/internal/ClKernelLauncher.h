#pragma once
/// @file ClKernelLauncher.h
/// @brief The part of an OpenCL back-projector that differs between kernel families: how a pass
/// of sinograms is stored on the device and how the kernel is launched. ClBackProjectionStage
/// drives a launcher on core's pipeline (chunks, transfers, packing on the device, constants,
/// progress and cancellation are not the launcher's).
///
/// Coordinates every kernel uses (BackProjector.h): pixel (ix, iy) of the image reads detector
/// index u = (a + iy * cy) + ix * cx, with the per-projection constants
/// ClProjectionConstants {cx, cy, a, w} (one float4 per projection in __constant memory, w the
/// projection's weight), and adds w * interp(row, u). Outside [0, detectors - 1] samples read 0.
/// With an image2d and an unnormalised sampler the sample point is (u + 0.5, p + 0.5): texel
/// centres sit at half-integers, so linear filtering at u + 0.5 weights bins floor(u) and
/// floor(u) + 1 by 1 - frac(u) and frac(u), and nearest filtering picks floor(u + 0.5).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/data/Half.h"
#include "core/projectors/GpuProjectionConstants.h"
#include "gpu/opencl/internal/ClDeviceContext.h"

namespace tomo::opencl {

/// Per-projection constants as the kernels read them (a float4), computed once for every GPU
/// backend (core/projectors/GpuProjectionConstants.h).
using ClProjectionConstants = GpuProjectionConstants;

/// The shape of one pass: an image band of @p rows rows starting at @p rowBegin, against a
/// chunk of @p angles projections.
struct ClPassShape {
    int nx = 0;
    int rows = 0;      ///< rows of the band held in the output buffer
    int rowBegin = 0;  ///< first image row of the band
    int detectors = 0;
    int angles = 0;  ///< projections in the device sinogram (the angle chunk)
};

/// One kernel launch of a pass.
struct ClLaunch {
    cl_mem sinogram = nullptr;   ///< from createSinogram, filled by enqueueUpload
    cl_mem constants = nullptr;  ///< ClProjectionConstants[angles of the chunk], __constant
    cl_mem output = nullptr;     ///< float [slicesPerPass][rows][nx]
    int projBegin = 0;           ///< projection range within the chunk
    int projEnd = 0;
    bool accumulate = false;  ///< add to output (later launches of a pass) instead of overwriting
};

/// @brief A kernel family's storage and launch. One instance per back-projector; not
/// thread-safe (it holds kernel objects whose arguments it sets).
class ClKernelLauncher {
  public:
    virtual ~ClKernelLauncher() = default;

    /// Builds the program and kernels on @p dev (cached after the first call).
    virtual Status prepare(ClDeviceContext& dev) = 0;
    /// Slices per pass (1, 2 or 4).
    virtual int slicesPerPass() const = 0;
    /// Whether the device sinogram is an image (limits the angle chunk to the image height).
    virtual bool usesImage() const = 0;
    /// Bytes of one packed pass: angles x detectors x slicesPerPass in the family's storage.
    virtual std::size_t packedBytes(int angles, int detectors) const = 0;
    /// Values per texel of a packed pass (core/projectors/PassDriver.h packPassSlices: slice c
    /// in channel c, channels beyond the pass's slices zero), packed on the device by pack.cl.
    virtual int channels() const = 0;
    /// Whether the packed values are binary16 (else float).
    virtual bool halfStorage() const { return false; }
    /// A device sinogram for @p angles x @p detectors.
    virtual Result<ClMem> createSinogram(ClDeviceContext& dev, int angles, int detectors) = 0;
    /// Enqueues the copy of a packed pass from @p staging into @p sinogram on @p queue after
    /// @p wait; @p done receives the copy's event. One path for every family: an image copy
    /// when usesImage(), else a buffer copy of packedBytes().
    Status enqueueUpload(cl_command_queue queue, cl_mem staging, cl_mem sinogram, int angles,
                         int detectors, const std::vector<cl_event>& wait, ClEvent& done) const;
    /// Enqueues one launch on @p queue after @p wait; @p done receives its event.
    virtual Status enqueueKernel(cl_command_queue queue, const ClPassShape& shape,
                                 const ClLaunch& launch, const std::vector<cl_event>& wait,
                                 ClEvent& done) = 0;
};

/// Sets the arguments 0..9 every back-projection kernel shares: sinogram, constants,
/// projection range, detectors, output, nx, rows, first row, accumulate.
Status setBackProjectionArgs(const ClKernel& kernel, const ClPassShape& shape,
                             const ClLaunch& launch);

/// clEnqueueCopyBufferToImage of a whole width x height image (the upload of image families).
Status enqueueImageUpload(cl_command_queue queue, cl_mem staging, cl_mem image, int width,
                          int height, const std::vector<cl_event>& wait, ClEvent& done);
/// clEnqueueCopyBuffer of @p bytes (the upload of buffer families).
Status enqueueBufferUpload(cl_command_queue queue, cl_mem staging, cl_mem buffer, std::size_t bytes,
                           const std::vector<cl_event>& wait, ClEvent& done);
/// clEnqueueNDRangeKernel of a 2-D range with a 2-D work-group.
Status enqueueKernel2d(cl_command_queue queue, const ClKernel& kernel, std::size_t globalX,
                       std::size_t globalY, std::size_t localX, std::size_t localY,
                       const std::vector<cl_event>& wait, ClEvent& done, const char* name);

/// Rounds @p n up to a multiple of @p m.
inline std::size_t roundUp(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

using tomo::floatToHalf;  // core/data/Half.h

}  // namespace tomo::opencl
