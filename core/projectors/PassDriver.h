#pragma once
/// @file PassDriver.h
/// @brief The item loop of a GPU back-projection, written once for every GPU backend (issue 12):
/// CUDA and OpenCL supply a PassQueue (buffers, queue operations, kernel launches) and nothing
/// else; bands, angle chunks, double buffering, progress, cancellation and the out-of-memory
/// retry are here.
///
/// The items of a PassPlan (PassPlan.h) run in pass-major, band, angle-chunk order. Item k uses
/// sinogram buffer set k mod 2 and output band (k / angleChunks) mod 2 (the chunks of a band
/// accumulate into one band). While the device runs item k, a host thread packs item k + 1 into
/// the other set's staging memory; its upload is enqueued when packing is done (paper 002 §4:
/// double buffering, pinned staging, event-ordered asynchronous copies,
/// doi:10.1007/s11554-019-00883-w). An item's projections go to the device in launches of
/// plan.projPerLaunch; after enqueueing launch i the host waits for launch i - 1 (two launches
/// queued at most), advances ctx.progress by its projections and checks ctx.stop, so a stop is
/// honoured within one launch. The last chunk of a band enqueues its read-back; finish() waits
/// for the read-backs. On every return path the queue is drained by the queue's own destructor
/// or finish(): a PassQueue must not let enqueued work outlive its buffers.

#include <functional>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/projectors/PassPlan.h"

namespace tomo {

/// Item k of a plan: where it reads and writes.
struct PassItem {
    int index = 0;
    int slot = 0;                ///< sinogram buffer set (index mod 2)
    int outputSlot = 0;          ///< output band buffer ((index / angleChunks) mod 2)
    int s0 = 0, count = 0;       ///< slices [s0, s0 + count) (count < slicesPerPass on a last pass)
    int rowBegin = 0, rows = 0;  ///< image rows of the band
    int chunk = 0, a0 = 0, na = 0;  ///< angle chunk and its projections [a0, a0 + na)
    bool lastChunk = false;         ///< the band is complete after this item
};

/// The job a plan was made for: nz slices, ny image rows, A projections.
struct PassJob {
    int slices = 1, rows = 1, angles = 1;
};

/// Item @p k of @p plan for @p job.
PassItem passItem(const PassPlan& plan, const PassJob& job, int k);

/// What a GPU backend does for the driver. Calls come from the driver's thread, in this order:
/// allocate, then per item beginStaging (of item k + 1, while item k runs), upload, launch and
/// waitLaunch, download on the band's last chunk; finish at the end.
class PassQueue {
  public:
    virtual ~PassQueue() = default;
    /// Buffers for @p plan: min(items, 2) sinogram sets (staging + device sinogram), min(bands x
    /// passes, 2) output bands, the projection constants. OutOfMemory when the device refuses one.
    virtual Status allocate(const PassPlan& plan) = 0;
    /// Host memory to pack @p item into (the plan's sinogramBytes), once the set's previous
    /// upload is done and, where the upload overwrites the device sinogram at once, its
    /// previous kernels too.
    virtual Result<void*> beginStaging(const PassItem& item) = 0;
    /// Enqueues the upload of the packed @p item: after the set's previous kernels, before the
    /// item's own.
    virtual Status upload(const PassItem& item) = 0;
    /// Enqueues the kernels of projections [begin, end) of @p item into its output band, adding
    /// to it when @p accumulate (else overwriting).
    virtual Status launch(const PassItem& item, int begin, int end, bool accumulate) = 0;
    /// Waits for the oldest launch not yet waited for.
    virtual Status waitLaunch() = 0;
    /// Enqueues the read-back of @p item's complete band into the output volume.
    virtual Status download(const PassItem& item) = 0;
    /// Waits until every enqueued read-back is in the output volume.
    virtual Status finish() = 0;
};

/// Packs the slices and projections of an item into staging memory in the backend's layout.
using PassPacker = std::function<void(const PassItem& item, void* staging)>;

/// Runs every item of @p plan through @p queue (file comment). Sets ctx.progress's total to
/// passes x bands x angles. Errors: the queue's, Cancelled on ctx.stop.
Status runPasses(const PassPlan& plan, const PassJob& job, PassQueue& queue, const PassPacker& pack,
                 const ExecContext& ctx);

/// The out-of-memory retry of every GPU backend: plans with shrink = 0, 1, ... and runs each
/// until a run returns something other than OutOfMemory or the plan already had the smallest
/// items. After the first refusal @p releaseKept (when set) frees buffers kept from other jobs
/// and the same plan is tried once more before items shrink.
Status runWithRetry(const std::function<Result<PassPlan>(int shrink)>& plan,
                    const std::function<Status(const PassPlan&)>& run,
                    const std::function<void()>& releaseKept = {});

/// The one packing of a pass for every GPU backend: projections [a0, a0 + na) of slices
/// [s0, s0 + count) of @p sino as rows of detector texels of @p channels values each, slice c
/// in channel c (channels beyond count zero), as floats or, when @p half, binary16
/// (core/data/Half.h). Rows are unpadded: detectors x channels values.
void packPassSlices(const Sinograms& sino, int s0, int count, int a0, int na, int channels,
                    bool half, void* dst);

}  // namespace tomo
