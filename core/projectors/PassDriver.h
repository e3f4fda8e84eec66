#pragma once
/// @file PassDriver.h
/// @brief The launch sequence of a GPU back-projection stage, written once for every GPU
/// backend (issues 12 and 27): CUDA and OpenCL supply the storage and the kernels; which pass,
/// band and angle chunk each launch covers, when a pass's sinograms are packed, when a launch
/// adds to its band and when a band is complete are here.
///
/// A stage (core/projectors/DeviceBackProjection.h) back-projects a chunk of slices that is
/// already on the device. Its PassPlan (PassPlan.h) cuts the chunk into items (pass of
/// slicesPerPass slices, band of rows, angle chunk) in pass-major, band, angle-chunk order; each
/// item's projections run in launches of plan.projPerLaunch, each launch one step of the stage
/// (core/pipeline/ChunkPipeline.h: the driver enqueues steps two deep, reports progress and
/// checks the stop token between them). Before an item's first launch the backend packs the
/// item's slices and angle chunk from the chunk's rows into the variant's layout on the device
/// (packPassSlices() defines it), unless the previous item packed the same; the first launch of
/// a band overwrites it, later ones add; after the band's last launch it is complete (copied
/// into the chunk's output where the kernels do not write there directly).

#include <cstdint>
#include <functional>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/projectors/PassPlan.h"

namespace tomo {

/// Item k of a plan: where it reads and writes.
struct PassItem {
    int index = 0;
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

/// One launch of a stage: projections [begin, end) of its item's angle chunk.
struct PassStep {
    PassItem item;
    int begin = 0, end = 0;
    bool pack = false;        ///< pack the item's slices and angle chunk first
    bool accumulate = false;  ///< add to the band (not the band's first launch)
    bool bandDone = false;    ///< the band's last launch: the band is complete after it
    /// Pixel updates of the launch (projections x rows x nx x slicesPerPass), for progress.
    double updates = 0;
};

/// Every launch of @p plan for @p job (at most slicesPerPass slices per pass), in order.
std::vector<PassStep> passSteps(const PassPlan& plan, const PassJob& job, int nx);

/// The out-of-memory retry of a stage's buffers: plans with shrink = 0, 1, ... and runs
/// @p allocate with each until it returns something other than OutOfMemory or the plan already
/// had the smallest items. After the first refusal @p releaseKept (when set) frees buffers kept
/// from other jobs and the same plan is tried once more before items shrink.
Status runWithRetry(const std::function<Result<PassPlan>(int shrink)>& plan,
                    const std::function<Status(const PassPlan&)>& allocate,
                    const std::function<void()>& releaseKept = {});

/// The layout of a packed pass for every GPU backend (the device pack kernels of CUDA and
/// OpenCL produce exactly these bytes; tests compare them): projections [a0, a0 + na) of slices
/// [s0, s0 + count) of @p sino as rows of detector texels of @p channels values each, slice c in
/// channel c (channels beyond count zero), as floats or, when @p half, binary16
/// (core/data/Half.h, round to nearest even). Rows are unpadded: detectors x channels values.
void packPassSlices(const Sinograms& sino, int s0, int count, int a0, int na, int channels,
                    bool half, void* dst);

}  // namespace tomo
