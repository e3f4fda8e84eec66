#pragma once
/// @file ClBackProjector.h
/// @brief The OpenCL implementation of core's BackProjector: host sinograms in, host volume out,
/// any kernel family (ClKernelLauncher) on one ClDeviceContext.
///
/// Data flow of backProject() (paper 002, section 4 of the digest: chunks of slices, double
/// buffering, event-based asynchronous enqueues, pinned staging memory):
///  1. Per-projection constants {cx, cy, a, w} (ClKernelLauncher.h) are computed in double and
///     uploaded once per call, one __constant buffer per angle chunk. An angle chunk holds at
///     most min(constant buffer / 16 B, image height limit, options.maxAngleChunk) projections.
///  2. The slices are processed in passes of slicesPerPass; the image in bands of rows so that
///     one output buffer stays under the device's max allocation (options.maxAllocation); each
///     (pass, band, angle chunk) is an item. Items run through core's pass driver
///     (core/projectors/PassDriver.h, the loop every GPU backend shares; this file supplies
///     the queue operations) and alternate between two buffer sets (staging buffer from
///     CL_MEM_ALLOC_HOST_PTR, device sinogram) and two output bands: the host maps the
///     staging buffer and packs item k + 1 while the device runs item k.
///  3. queue(0) uploads staging -> device sinogram; queue(1) runs the kernel, waiting on the
///     upload's event, in launches of about options.updatesPerLaunch pixel updates (a projection
///     range each). After each launch the host waits for the previous one, checks ctx.stop and
///     advances ctx.progress: cancellation is honoured within about two launches.
///  4. After the last angle chunk of a band, the band is read back (clEnqueueReadBufferRect)
///     straight into the volume's pitched rows, non-blocking; everything is finished before
///     backProject returns, whatever the outcome.
/// Memory: 2 x (staging + sinogram + output band) + constants. An allocation the device refuses
/// returns OutOfMemory naming the buffer and size; nothing throws.

#include <memory>

#include "core/projectors/BackProjector.h"
#include "core/projectors/PassPlan.h"
#include "gpu/opencl/internal/ClKernelLauncher.h"

namespace tomo::opencl {

/// Sizing knobs (0 = device limits); tests shrink them to force splitting.
struct ClBackProjectorOptions {
    std::size_t maxAllocation = 0;    ///< per buffer; 0 = the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE
    int maxAngleChunk = 0;            ///< projections per device sinogram; 0 = device limits
    double updatesPerLaunch = 3.2e7;  ///< pixel updates (x slices) per kernel launch
    /// Buffers larger than this are refused as a device out of memory would refuse them (0 =
    /// never): tests of the retry with smaller items.
    std::size_t refuseAbove = 0;
};

class ClBackProjector final : public BackProjector {
  public:
    ClBackProjector(BackProjectorInfo info, std::shared_ptr<ClDeviceContext> device,
                    std::unique_ptr<ClKernelLauncher> launcher,
                    ClBackProjectorOptions options = {});
    ~ClBackProjector() override;

    const BackProjectorInfo& info() const override { return m_info; }
    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override;

  private:
    Result<PassPlan> plan(const Sinograms& sino, const VolumeGeometry& vol, int shrink) const;
    Status run(const Sinograms& sino, const VolumeGeometry& vol,
               const std::vector<ClProjectionConstants>& constants, const PassPlan& plan,
               Volume& out, const ExecContext& ctx);

    BackProjectorInfo m_info;
    std::shared_ptr<ClDeviceContext> m_device;
    std::unique_ptr<ClKernelLauncher> m_launcher;
    ClBackProjectorOptions m_options;
};

}  // namespace tomo::opencl
