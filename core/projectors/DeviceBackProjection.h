#pragma once
/// @file DeviceBackProjection.h
/// @brief What a GPU back-projector offers core's pipeline (core/pipeline/ChunkPipeline.h) so
/// that a chunk of sinograms enters the device once and its image leaves once (issue 27 item 1):
/// the device's queue operations for one run, and the back-projection as a stage that reads the
/// chunk's rows where the pipeline uploaded them (or where a device filter stage left them) and
/// packs them on the device into the variant's layout (slices interleaved into texels, binary16).
/// core/recon's reconstructFbp and the backends' own backProject() compose the same stages; a
/// Fourier-domain method can be a stage on the same buffers (rows in, image rows out).

#include <cstddef>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/pipeline/ChunkPipeline.h"
#include "core/projectors/PassDriver.h"

namespace tomo {

/// A chunk of sinograms in the pipeline's input buffer: [count][angles][pitch] floats, the
/// first `detectors` of each row valid (the host Sinograms' layout, uploaded as it is).
struct SinogramChunkLayout {
    int angles = 0, detectors = 0;
    std::size_t pitch = 0;  ///< floats per row
    std::size_t bytesPerSlice() const { return static_cast<std::size_t>(angles) * pitch * 4; }
};

/// A chunk of the volume in the pipeline's output buffer: [count][ny][nx] floats, dense (the
/// host's padded rows are restored when it is unpacked).
struct VolumeChunkLayout {
    int nx = 0, ny = 0;
    std::size_t bytesPerSlice() const { return static_cast<std::size_t>(nx) * ny * 4; }
};

/// @brief The device side of a GPU back-projector (BackProjector::device()).
class DeviceBackProjection {
  public:
    virtual ~DeviceBackProjection() = default;
    /// The device's queues for one run; the device is held (one run at a time) until they go.
    virtual Result<std::unique_ptr<DeviceQueues>> openQueues() = 0;
    /// The back-projection of chunks in @p in's layout into @p out's on @p queues (from
    /// openQueues()), with one weight per projection: out[s][iy][ix] = sum_p w_p
    /// interp(rows[s][p], u) as BackProjector.h defines; each step is one kernel launch (a range
    /// of projections of a pass and angle chunk).
    virtual Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues,
                                                      const SinogramChunkLayout& in,
                                                      const VolumeChunkLayout& out,
                                                      const ParallelGeometry& geom,
                                                      const VolumeGeometry& vol,
                                                      std::span<const float> weights) = 0;
};

/// @brief The host side a back-projection stage of every backend shares: its pass plan (made
/// and allocated with runWithRetry's shrinking), the launch sequence per chunk size (passSteps,
/// cached), each step's work. A backend supplies the plan's sizes, its buffers and run().
class PassPlanStage : public ChunkStage {
  public:
    PassPlanStage(const SinogramChunkLayout& in, const VolumeChunkLayout& out)
        : m_in(in), m_out(out) {}
    TimelineStage timelineStage() const override { return TimelineStage::Kernels; }
    std::string label() const override { return "back-projection"; }
    int steps(const PipelineChunk& chunk) const override;
    double work(const PipelineChunk& chunk, int step) const override;

  protected:
    /// The plan for chunks of @p chunkItems within @p budget bytes, @p shrink times smaller.
    virtual Result<PassPlan> plan(std::size_t chunkItems, std::size_t budget, int shrink) const = 0;
    /// plan()'s common limits: the chunk's shape, the budget, the launch size and the shrink;
    /// each backend adds its device limits and byte model.
    PassLimits limits(std::size_t chunkItems, int slicesPerPass, std::size_t budget,
                      double updatesPerLaunch, int shrink) const;
    /// The device buffers of @p p (the backend's scratch).
    virtual Status allocate(const PassPlan& p) = 0;
    /// prepare()'s common part: plans and allocates (runWithRetry), forgets earlier steps.
    Status preparePlan(std::size_t chunkItems, std::size_t budget);
    /// The launch sequence of a chunk of @p chunk's size.
    const std::vector<PassStep>& stepsFor(const PipelineChunk& chunk) const;

    SinogramChunkLayout m_in;
    VolumeChunkLayout m_out;
    PassPlan m_plan;

  private:
    mutable std::map<std::size_t, std::vector<PassStep>> m_steps;  // per chunk size
};

/// Slices per chunk of a stack of @p slices sinograms of @p bytesPerSlice bytes for a variant of
/// @p slicesPerPass: at least 8 slices' worth of work, at most ~256 MiB of sinogram, a multiple
/// of the slices per pass (the chunks of FBP, core/recon fbpChunkSlices, and of a GPU variant's
/// backProject()).
std::size_t stackChunkSlices(std::size_t slicesPerPass, std::size_t slices,
                             std::size_t bytesPerSlice);

/// The pipeline's host side for a stack of sinograms in and a volume out, @p chunkSlices slices
/// per chunk: packing copies the sinograms' planes as they are (padded rows), unpacking restores
/// the volume's padded rows from the dense device layout. @p sino and @p out must outlive it.
PipelineIo stackPipelineIo(const Sinograms& sino, Volume& out, std::size_t chunkSlices);
/// Its sizes alone (no packing), for a preparation (core/recon prepareFbp): @p slices sinograms
/// of layout @p in, volume slices of layout @p out.
PipelineIo stackPipelineSizes(std::size_t slices, const SinogramChunkLayout& in,
                              const VolumeChunkLayout& out, std::size_t chunkSlices);

/// A GPU variant's backProject(): @p sino uploaded chunk by chunk, back-projected on the device
/// and downloaded into @p out (prepared by prepareBackProjection), through core's pipeline
/// with its out-of-memory retry; chunks of @p chunkSlices (a multiple of the variant's slices
/// per pass). The run's spans go to @p timeline when given.
Status backProjectOnDevice(DeviceBackProjection& device, const Sinograms& sino,
                           const ParallelGeometry& geom, const VolumeGeometry& vol,
                           std::span<const float> weights, Volume& out, std::size_t chunkSlices,
                           std::size_t slicesPerPass, const ExecContext& ctx,
                           Timeline* timeline = nullptr);

}  // namespace tomo
