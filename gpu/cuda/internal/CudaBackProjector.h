#pragma once
/// @file CudaBackProjector.h
/// @brief The CUDA implementation of core's BackProjector: any kernel family (CudaLauncher) on
/// one CudaDeviceContext, run through core's pipeline (core/pipeline/ChunkPipeline.h, issue 27),
/// the host code every GPU backend and the simulated device of the tests share.
///
/// Data flow of backProject() (paper 002 §4: chunks of slices, double buffering, pinned memory,
/// event-ordered asynchronous copies; doi:10.1007/s11554-019-00883-w): chunks of slices are
/// copied into pinned staging by host threads and uploaded on stream 0 while stream 1
/// back-projects the previous chunk (CudaBackProjectionStage.h: packed on the device into the
/// pitched texture layout, launches of about options.updatesPerLaunch updates) and stream 2
/// downloads the one before into pinned memory, from which host threads copy it into the volume.
/// Per-projection constants {cx, cy, a, w} are computed in double and uploaded once per call.
/// FBP (core/recon) puts the cuFFT filter stage (CudaRowFilter.h) before the back-projection on
/// the same chunk (device()): the chunk enters the device once and its image leaves once.
/// Kernel time: the timeline's kernel busy time (events around every launch).
/// Memory: the pipeline's rings (two chunks of rows in and of volume out) and the stage's
/// pitched sinogram, band and constants within the context's budget; the pipeline halves its
/// chunk and the stage its items when the device refuses an allocation, then OutOfMemory
/// names the buffer. Not yet run on a GPU in this form.

#include <memory>

#include "core/projectors/BackProjector.h"
#include "core/projectors/DeviceBackProjection.h"
#include "core/projectors/PassPlan.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/internal/CudaLauncher.h"

namespace tomo::cuda {

/// Sizing knobs (0 = device limits); tests shrink them to force splitting.
struct CudaBackProjectorOptions {
    int maxAngleChunk = 0;            ///< projections per device sinogram (0 = limits)
    int maxBandRows = 0;              ///< rows per output band (0 = whole image)
    double updatesPerLaunch = 2.0e9;  ///< pixel updates (x slices) per kernel launch
};

/// Per-projection constants {cx, cy, a, w} (4 floats each) of @p geom on @p vol: those of
/// every GPU backend (core/projectors/GpuProjectionConstants.h) as a float array.
std::vector<float> projectionConstants(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                       std::span<const float> weights);

class CudaBackProjector final : public BackProjector, public DeviceBackProjection {
  public:
    CudaBackProjector(BackProjectorInfo info, std::shared_ptr<CudaDeviceContext> device,
                      CudaLauncher launcher, CudaBackProjectorOptions options = {});
    ~CudaBackProjector() override;

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

    /// Seconds the last backProject() spent in kernels (the timeline's kernel busy time, from
    /// events around every launch), for kernel-only throughput.
    double lastKernelSeconds() const { return m_timeline.busyOf(TimelineStage::Kernels); }
    /// The timeline of the last backProject().
    const TimelineReport& lastTimeline() const { return m_timeline; }
    /// The device context (shared with the registry's other variants and the FBP pipeline)
    /// and the kernel family this back-projector launches.
    const std::shared_ptr<CudaDeviceContext>& context() const { return m_device; }
    const CudaLauncher& launcher() const { return m_launcher; }

  private:
    BackProjectorInfo m_info;
    std::shared_ptr<CudaDeviceContext> m_device;
    CudaLauncher m_launcher;
    CudaBackProjectorOptions m_options;
    TimelineReport m_timeline;
};

}  // namespace tomo::cuda
