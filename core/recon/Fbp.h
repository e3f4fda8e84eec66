#pragma once
/// @file Fbp.h
/// @brief Filtered back-projection for parallel beam: ramp filtering of every detector row, then
/// back-projection with angular weights, in chunks of slices so that progress and cancellation
/// are reported per chunk. The result is quantitative (attenuation per unit length).
///
/// FBP is two stages composed here, the same way on every backend (issue 12; as RTK's CUDA FDK
/// swaps in only its GPU sub-filters): a row-filter stage (RowFilterStage: the CPU's FFTW or
/// radix-2 RampFilter when none is given, cuFFT on CUDA, VkFFT on OpenCL) and the
/// back-projection stage (any BackProjector). A backend's registration (app/Backends.h
/// rowFilterStage()) decides which row filter goes with its back-projectors; nothing here knows
/// a backend's name. Both stages run through core's pipeline driver (core/pipeline/
/// ChunkPipeline.h, issue 27): on a GPU back-projector (BackProjector::device()) a chunk of
/// sinograms is uploaded once, filtered on the device when the row filter has a device stage
/// there (else by the CPU on the packing thread, before the upload), back-projected from the
/// device and its image downloaded once, while the next chunk uploads and the previous one
/// downloads; on the CPU the chunk is copied into scratch, filtered in place and back-projected
/// (host mode). The timings carry the run's timeline (wall, busy time per stage, overlap).

#include <memory>
#include <string>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/filter/RampFilter.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/pipeline/Timeline.h"
#include "core/projectors/BackProjector.h"
#include "core/projectors/DeviceBackProjection.h"

namespace tomo {

/// @brief Stage 1 of FBP: replaces every row of a chunk by its ramp-filtered row, with @p filter's
/// response and scaling (RampFilter.h). Implementations: the CPU's RampFilter::apply (the
/// default, when FbpOptions::rowFilter is null) and a GPU backend's (gpu/cuda CufftRowFilter).
/// Results agree with RampFilter::apply to float rounding of the FFTs.
class RowFilterStage {
  public:
    virtual ~RowFilterStage() = default;
    /// "cufft on <device>" and the like, for reports.
    virtual std::string name() const = 0;
    /// Filters every row of @p rows ([slice][angle][detector], detector = filter.width()) in
    /// place. Progress: setTotal and advance on ctx.progress; Cancelled on ctx.stop (checked at
    /// least per block of rows); OutOfMemory naming the sizes when even one row does not fit.
    virtual Status apply(const RampFilter& filter, Sinograms& rows, const ExecContext& ctx) = 0;
    /// The same filter as a stage of a device pipeline on @p queues, in place on the chunk's
    /// input rows (layout @p in), when this filter runs on that device; null otherwise (the
    /// CPU's filter then runs on each chunk before its upload).
    virtual Result<std::unique_ptr<ChunkStage>> deviceStage(DeviceQueues& queues,
                                                            const RampFilter& filter,
                                                            const SinogramChunkLayout& in) {
        (void)queues, (void)filter, (void)in;
        return std::unique_ptr<ChunkStage>();
    }
};

/// A device row filter's host form (RowFilterStage::apply for GPU filters): @p rows go through
/// core's pipeline on @p queues with @p filter's device stage alone (uploaded, filtered in place,
/// downloaded back into @p rows, chunk after chunk, copies beside the transforms). Unsupported
/// when the filter has no stage on those queues.
Status filterRowsOnDevice(DeviceQueues& queues, RowFilterStage& filter, const RampFilter& ramp,
                          Sinograms& rows, const ExecContext& ctx);

struct FbpOptions {
    FilterOptions filter;
    /// The row-filter stage; null: the CPU's (RampFilter::apply over ctx.threads).
    std::shared_ptr<RowFilterStage> rowFilter;
    /// Slices filtered and back-projected per chunk (0 = choose: enough to fill the SIMD width
    /// and keep a chunk under ~50 ms per thread so a stop request is honoured quickly).
    int chunkSlices = 0;
};

/// Time spent per stage: busy seconds of the filter and back-projection stages (on a GPU their
/// device time, transfers not included), the wall seconds of the whole call, and the timeline
/// of the whole call (its wall = total; its setup stage = checks + allocation + open + the
/// pipeline's own setup: staging rings and the stages' prepare on a first run).
struct FbpTimings {
    double filtering = 0;
    double backProjection = 0;
    double total = 0;
    TimelineReport timeline;
    /// The call's consecutive parts, which add up to total: the checks and the filter's
    /// response; the output's allocation (none when `out` already had the grid's shape); the
    /// device's queues and stages (context, modules, plans; 0 on the CPU); the pipeline's wall.
    double checks = 0, allocation = 0, open = 0, pipeline = 0;
};

/// Slices per chunk reconstructFbp uses for a stack of @p slices sinograms of @p angles x
/// @p detectors: options.chunkSlices when set, else a multiple of the variant's slices per pass,
/// at least 8 slices' worth of work and at most ~256 MiB of scratch sinogram. Callers that split
/// a stack themselves (row chunks of an acquisition) use whole multiples of it to get the same
/// bits as one call, since back-projectors pick their kernel by the number of slices per call.
std::size_t fbpChunkSlices(const FbpOptions& options, const BackProjector& backProjector,
                           std::size_t slices, std::size_t angles, std::size_t detectors);

/// Reconstructs @p sino (`[slice][angle][detector]`, left unchanged) on the grid @p vol with
/// @p backProjector into @p out. Progress: filtering and back-projection each advance ctx.progress
/// per chunk (setTotal is done here). Stops with Cancelled within one chunk of ctx.stop.
/// @p out is reused when it already has the grid's shape, else allocated uninitialised: the
/// pipeline writes every element (padding zero), first touching the pages on its copy threads.
/// On an error @p out is left empty.
Status reconstructFbp(const Sinograms& sino, const ParallelGeometry& geom,
                      const VolumeGeometry& vol, BackProjector& backProjector,
                      const FbpOptions& options, Volume& out, const ExecContext& ctx,
                      FbpTimings* timings = nullptr);

/// What reconstructFbp of @p slices sinograms of layout @p in (and @p geom, @p vol,
/// @p options) needs on @p backProjector's device, made now (issue 27 item 4: no first-call
/// penalty): its queues opened, its stages made and prepared with the pipeline's rings as the
/// run's first chunk would (FFT plans, programs, constants, buffers), all kept by the device
/// context, so that the run finds them. Nothing is uploaded or run; nothing to make on the CPU.
/// Errors as the run's (InvalidArgument for the shapes, OutOfMemory).
Status prepareFbp(std::size_t slices, const SinogramChunkLayout& in, const ParallelGeometry& geom,
                  const VolumeGeometry& vol, BackProjector& backProjector,
                  const FbpOptions& options);

}  // namespace tomo
