#pragma once
/// @file ClBackProjector.h
/// @brief The OpenCL implementation of core's BackProjector: any kernel family
/// (ClKernelLauncher) on one ClDeviceContext, run through core's pipeline (issue 27).
///
/// Data flow (core/pipeline/ChunkPipeline.h; paper 002 section 4: chunks of slices, double
/// buffering, event-ordered asynchronous copies, pinned staging): chunks of slices are copied
/// into pinned staging (CL_MEM_ALLOC_HOST_PTR) by host threads and uploaded on queue(0) while
/// queue(1) back-projects the previous chunk (ClBackProjectionStage.h: packed on the device,
/// launches of about options.updatesPerLaunch pixel updates, bands copied into the chunk's
/// volume) and queue(2) downloads the one before; host threads copy the downloaded volume into
/// the caller's. After each launch the host waits for the previous one, checks ctx.stop and
/// advances ctx.progress: cancellation is honoured within about two launches. FBP (core/recon)
/// puts its filter stage before the back-projection stage on the same chunks (device()).
/// Memory: the pipeline's rings (two chunks in and out) plus the stage's packed pass, band and
/// constants within the device's budget; an allocation the device refuses returns OutOfMemory
/// naming the buffer and size after smaller chunks and items were tried; nothing throws.

#include <memory>

#include "core/projectors/BackProjector.h"
#include "core/projectors/DeviceBackProjection.h"
#include "core/projectors/PassPlan.h"
#include "gpu/opencl/internal/ClKernelLauncher.h"

namespace tomo::opencl {

/// Sizing knobs (0 = device limits); tests shrink them to force splitting.
struct ClBackProjectorOptions {
    std::size_t maxAllocation = 0;    ///< per buffer; 0 = the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE
    int maxAngleChunk = 0;            ///< projections per device sinogram; 0 = device limits
    double updatesPerLaunch = 3.2e7;  ///< pixel updates (x slices) per kernel launch
    /// The stage's buffers larger than this are refused as a device out of memory would refuse
    /// them (0 = never): tests of the retry with smaller items.
    std::size_t refuseAbove = 0;
};

class ClBackProjector final : public BackProjector, public DeviceBackProjection {
  public:
    ClBackProjector(BackProjectorInfo info, std::shared_ptr<ClDeviceContext> device,
                    std::unique_ptr<ClKernelLauncher> launcher,
                    ClBackProjectorOptions options = {});
    ~ClBackProjector() override;

    const BackProjectorInfo& info() const override { return m_info; }
    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override;
    DeviceBackProjection* device() override { return this; }

    Result<std::unique_ptr<DeviceQueues>> openQueues() override;
    Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues, const SinogramChunkLayout& in,
                                              const VolumeChunkLayout& out,
                                              const ParallelGeometry& geom,
                                              const VolumeGeometry& vol,
                                              std::span<const float> weights) override;
    /// The timeline of the last backProject() (tests and benches).
    const TimelineReport& lastTimeline() const { return m_timeline; }

  private:
    BackProjectorInfo m_info;
    std::shared_ptr<ClDeviceContext> m_device;
    std::unique_ptr<ClKernelLauncher> m_launcher;
    ClBackProjectorOptions m_options;
    TimelineReport m_timeline;
};

}  // namespace tomo::opencl
