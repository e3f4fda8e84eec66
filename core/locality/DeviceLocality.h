#pragma once
/// @file DeviceLocality.h
/// @brief The projector pair of paper 001 on a GPU (CUDA or OpenCL) as a SubsetOperator, with
/// its host loop written once (issue 27 item 7): every forwardSubset() and adjointSubset() is a
/// run of core's pipeline (core/pipeline/ChunkPipeline.h) over the slices of the stack, on the
/// backend's queue operations (DeviceQueues.h), so chunk k + 1's slices upload while chunk k's
/// kernels run and chunk k - 1's results download. A backend supplies only LocalityDevice: its
/// queues, its kernels as a ChunkStage, and its limits. W. J. Palenstijn, K. J. Batenburg,
/// J. Sijbers, J. Struct. Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017.
///
/// Items are slices. Forward: a chunk's input is its slices of x ([y][x] each, padded to
/// volumeStride floats), its output the subset's sinogram rows of those slices, compact: row
/// q = (p - subset) / subsets of projection p, rows x detectors floats padded to sinoStride;
/// the host writes them into y's rows of the subset and leaves the others unchanged. Back-
/// projection: the same compact rows in, slices of x out. The subset's projections in launch
/// order (subsetLaunchOrder, RayOrdering.h) are uploaded once per call on the compute queue.
/// What a kernel computes for one slice does not depend on the chunk it is in, so results do
/// not depend on the chunk size (the tests hold them bit for bit).
///
/// Vectors: host spans, domain [slice][y][x], range [slice][angle][detector] (LinearOperator.h).
/// Device memory: the pipeline's rings, sized from the device budget (runPipelineWithRetry
/// halves the chunk on OutOfMemory), plus the backend's constant tables made at creation.
/// Threading: not thread-safe (one solver at a time); each call holds the device's queues for
/// its duration. ctx.stop is checked between kernel steps (Cancelled); ctx.progress is not
/// advanced; ctx.threads bounds the host threads that pack and unpack.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/geometry/ParallelGeometry.h"
#include "core/locality/LocalityPair.h"
#include "core/locality/RayGeometry.h"
#include "core/locality/RayOrdering.h"
#include "core/pipeline/ChunkPipeline.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo {

/// One call of the operator, as the backend's stage sees it.
struct LocalityCall {
    bool forward = true;
    RayOrdering ordering = RayOrdering::StripSegments;  ///< of the forward projection
    int subset = 0, subsets = 1;
    int rows = 0;  ///< the subset's projections: rows of a compact sinogram slice
    /// The subset's projection indices in launch order; forward: the first rowsCount step
    /// along rows (each group by angle), back-projection: all by angle.
    std::vector<int> order;
    int rowsCount = 0;
    DeviceBufferRef orderOnDevice;  ///< order as ints on the device (uploaded before the run)
    std::size_t volumeStride = 0;   ///< floats per slice item of the volume on the device
    std::size_t sinoStride = 0;     ///< floats per slice item of the compact sinogram rows
    /// The compact row of projection @p p of this subset.
    int rowOf(int p) const { return (p - subset) / subsets; }
};

/// One kernel launch of a call on a chunk: forward, an orientation group (rows: the rays step
/// along rows), order[begin, begin + count); back-projection, the whole order.
struct LocalityLaunch {
    bool rows = false;
    int begin = 0, count = 0;
};

/// @brief What every backend's stage of a call shares: its launches per chunk (forward: the
/// rows group, then the columns group, each when not empty; back-projection: one), its
/// timeline stage (Kernels), label and work. A backend adds prepare() and run().
class LocalityStage : public ChunkStage {
  public:
    LocalityStage(const LocalityCall& call, const VolumeGeometry& vol);
    TimelineStage timelineStage() const override { return TimelineStage::Kernels; }
    std::string label() const override;
    int steps(const PipelineChunk&) const override { return static_cast<int>(m_launches.size()); }
    /// Projections x pixels x slices of the step's launch.
    double work(const PipelineChunk& chunk, int step) const override;

  protected:
    const LocalityCall& m_call;
    std::vector<LocalityLaunch> m_launches;
    double m_pixels = 0;  ///< nx * ny
};

/// @brief The backend's side of the device operator.
class LocalityDevice {
  public:
    virtual ~LocalityDevice() = default;
    /// "opencl.locality", "cuda.locality" (the operator's name adds the ordering).
    virtual std::string prefix() const = 0;
    /// The device's queues for one call; the device is held until they go.
    virtual Result<std::unique_ptr<DeviceQueues>> openQueues() = 0;
    /// Slice items are padded to a multiple of this many floats (CUDA's texture rows: 128).
    virtual std::size_t sliceAlignment() const { return 1; }
    /// The most slices one chunk may hold when an item has @p itemFloats floats (launch grid
    /// and texture limits); 0 when not even one fits.
    virtual std::size_t maxChunkSlices(std::size_t itemFloats) const = 0;
    /// The kernels of @p call for one chunk: reads ChunkBuffers::input, writes ::output.
    virtual Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues,
                                                      const LocalityCall& call) = 0;
};

class DeviceLocalityOperator final : public LocalityPair {
  public:
    DeviceLocalityOperator(std::unique_ptr<LocalityDevice> device, const ParallelGeometry& geom,
                           const VolumeGeometry& vol, RayOrdering ordering);

    std::string name() const override;

    Status forwardSubset(std::span<const float> x, std::span<float> y, int subset, int subsets,
                         const ExecContext& ctx) override;
    Status adjointSubset(std::span<const float> y, std::span<float> x, int subset, int subsets,
                         const ExecContext& ctx) override;

    /// The timeline of every call since creation or resetTimeline() (issue 27 item 5): the
    /// calls' walls and busy times added.
    const TimelineReport& timeline() const { return m_timeline; }
    void resetTimeline() { m_timeline = {}; }
    /// Slices per chunk (0: automatic, at least 4 chunks of at most 256 MiB), for tests and
    /// studies; the device's limits and budget still cap it.
    void setChunkSlices(std::size_t slices) { m_chunkSlices = slices; }

  private:
    Status run(bool forward, const float* in, float* out, int subset, int subsets,
               const ExecContext& ctx);

    std::unique_ptr<LocalityDevice> m_device;
    VolumeGeometry m_vol;
    std::size_t m_chunkSlices = 0;
    TimelineReport m_timeline;
};

/// The sinogram rows of subset @p subset of @p subsets per slice.
int subsetRows(int subset, int subsets, int angles);

}  // namespace tomo
