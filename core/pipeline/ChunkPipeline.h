#pragma once
/// @file ChunkPipeline.h
/// @brief The pipeline driver every backend's FBP and back-projection runs through (issue 27
/// items 1, 2 and 5), written once: a job is cut into chunks of items (slices), and each chunk
/// goes through the same stages (ChunkStage: the row filter, the back-projection, or a Fourier
/// method from sinogram rows to image rows) in the same order on every backend.
///
/// Device mode (a GPU's DeviceQueues): a chunk enters the device once and leaves once. With
/// rings of two for every buffer (pinned staging in, device input, device output, pinned
/// staging out), chunk k + 1 is packed into pinned memory by a host thread and uploaded on the
/// Upload queue while chunk k's stages run on the Compute queue and chunk k - 1 is downloaded on
/// the Download queue and unpacked into the caller's memory by another host thread (several
/// threads copy each buffer). Event order (DeviceQueues.h), per chunk k with slot s = k mod 2:
///   upload(k)   waits for compute(k - 2)  (it overwrites the device input of slot s);
///   compute(k)  waits for upload(k) and for download(k - 2) (it overwrites the output of s);
///   download(k) waits for compute(k), and is enqueued after the host unpacked k - 2 (its
///               staging slot);
///   the host packs k + 1 into staging slot (k + 1) mod 2 after upload(k - 1) completed.
/// The stages' steps (a stage's kernel launches in groups: a back-projection's projection
/// ranges) are enqueued two deep: after enqueueing step i the host waits for step i - 1,
/// advances the progress by its work and checks the stop token, so a stop is honoured within
/// about two steps; between steps it issues chunk k + 1's upload as soon as its packing is done,
/// so that upload runs beside chunk k's kernels. Every transfer and step is bracketed by events
/// and its device interval goes into the timeline (Timeline.h); host packing and unpacking are
/// host spans.
///
/// Host mode (the CPU, no DeviceQueues): the chunk is loaded into the caller's scratch, the
/// stages run one after the other on the host threads of the ExecContext, and the result is
/// stored; the CPU keeps its own memory path, without copies through staging buffers.
///
/// Errors: the first error of a stage, transfer or host copy is returned after the queues are
/// drained and the host threads joined (nothing enqueued outlives the memory it uses); Cancelled
/// on ctx.stop; OutOfMemory from an allocation is returned as is, for runPipelineWithRetry.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/pipeline/DeviceQueues.h"
#include "core/pipeline/Timeline.h"

namespace tomo {

/// Chunk k of a run: items [first, first + count).
struct PipelineChunk {
    int index = 0;
    int slot = 0;  ///< ring slot (index mod 2)
    std::size_t first = 0, count = 0;
};

/// The device buffers of a chunk's slot (device mode; null in host mode).
struct ChunkBuffers {
    DeviceBufferRef input;   ///< the chunk's input as uploaded (count x inputBytesPerItem)
    DeviceBufferRef output;  ///< what the last stage leaves for download (count x output bytes)
};

/// @brief One stage of a pipeline, on the device (a GPU backend's kernels) or on the host.
class ChunkStage {
  public:
    virtual ~ChunkStage() = default;
    /// The timeline stage its steps count as (Filter, Kernels).
    virtual TimelineStage timelineStage() const = 0;
    /// The name of its progress scope in host mode ("filtering", "back-projection").
    virtual std::string label() const { return timelineStageName(timelineStage()); }
    /// Called once per run before the first chunk, with the largest chunk's items and the
    /// device bytes left beside the pipeline's rings (0 in host mode): plans, constants,
    /// buffers. OutOfMemory when even that does not fit.
    virtual Status prepare(std::size_t chunkItems, std::size_t budget) = 0;
    /// Steps of @p chunk (kernel launches or groups of them; 1 for one call); asked after
    /// prepare() (a stage's steps come from its plan).
    virtual int steps(const PipelineChunk& chunk) const = 0;
    /// Progress units of step @p step (the same unit for every stage of a run).
    virtual double work(const PipelineChunk& chunk, int step) const = 0;
    /// Device mode: enqueues step @p step's kernels on the Compute queue and returns (the
    /// driver waits). Host mode: runs the step; @p ctx carries its progress scope and stop.
    virtual Status run(const PipelineChunk& chunk, const ChunkBuffers& buffers, int step,
                       const ExecContext& ctx) = 0;
};

/// What a run moves, and how the host side of each chunk is read and written.
struct PipelineIo {
    std::size_t items = 0;       ///< slices (or views) of the job
    std::size_t chunkItems = 1;  ///< per chunk; the last chunk may have fewer
    /// Device mode: bytes per item on the host and on the device, input and output.
    std::size_t inputBytesPerItem = 0, outputBytesPerItem = 0;
    /// Device mode: the stages work in place on the input, which is downloaded as the output
    /// (a row filter alone); outputBytesPerItem is then inputBytesPerItem.
    bool inPlace = false;
    /// Device mode without output per chunk (outputBytesPerItem 0, not inPlace): the stages
    /// accumulate into what they keep on the device (FDK's slab), downloaded by their owner
    /// after the run; no output ring, downloads or unpacking.
    /// Device mode: copies bytes [offset, offset + bytes) of @p chunk's input (contiguous, item
    /// after item) to @p dst. Called from several host threads at once for disjoint ranges.
    /// Optional: hostStage alone may produce the staged input (FDK reads and weights views).
    std::function<void(const PipelineChunk& chunk, std::size_t offset, std::size_t bytes,
                       std::byte* dst)>
        pack;
    /// Device mode, optional: host work on @p chunk's packed input in the staging buffer before
    /// it is uploaded (the CPU's row filter where the device has none), run by the packing
    /// thread; its span counts as @p hostStageKind.
    std::function<Status(const PipelineChunk& chunk, std::byte* staging)> hostStage;
    TimelineStage hostStageKind = TimelineStage::Filter;
    /// Device mode: the inverse for the output: from @p src to the caller's memory.
    std::function<void(const PipelineChunk& chunk, std::size_t offset, std::size_t bytes,
                       const std::byte* src)>
        unpack;
    /// Host mode: makes @p chunk's input ready for the stages (the caller's scratch).
    std::function<Status(const PipelineChunk& chunk)> load;
    /// Host mode: takes the stages' result of @p chunk.
    std::function<Status(const PipelineChunk& chunk)> store;
};

/// Runs every chunk of @p io through @p stages: on @p queues (device mode), or on the host when
/// @p queues is null (file comment). ctx.progress: setTotal here, advanced per step.
/// Spans go to @p timeline when given, and its wall time is set.
Status runPipeline(DeviceQueues* queues, const PipelineIo& io,
                   const std::vector<ChunkStage*>& stages, const ExecContext& ctx,
                   Timeline* timeline = nullptr);

/// Device mode, before a run of @p io: the rings and every stage's prepare() (plans, programs,
/// constants, buffers) made as the run's first chunk would, and kept by @p queues and the
/// device's caches, so that runPipeline with the same sizes finds them (issue 27 item 4).
/// Nothing is uploaded or run; @p io's packing functions are not called.
Status preparePipeline(DeviceQueues& queues, const PipelineIo& io,
                       const std::vector<ChunkStage*>& stages);

/// The out-of-memory retry of a device run: runs @p run with @p io.chunkItems; on OutOfMemory
/// frees the queues' kept buffers and tries the same once more, then halves the chunk down to
/// @p minChunkItems (a multiple of it) before giving up with the last OutOfMemory.
Status runPipelineWithRetry(DeviceQueues& queues, PipelineIo io, std::size_t minChunkItems,
                            const std::function<Status(const PipelineIo&)>& run);

/// The chunk @p k of @p io.
PipelineChunk pipelineChunk(const PipelineIo& io, int k);

}  // namespace tomo
