#pragma once
/// @file Fdk.h
/// @brief Cone-beam FDK (Feldkamp, Davis & Kress 1984; paper 003): weights (FdkWeights.h),
/// the ramp filter along detector rows (core/filter's RampFilter: the same filters, windows
/// and quantitative scaling as the 2-D FBP), then back-projection by any ConeBackProjector,
/// a slab of the volume at a time.
///
/// Pipeline (runFdk): per slab of z planes, views are read and filtered in batches and handed to
/// the back-projector. On the CPU the batches go one after the other through add(). A GPU
/// back-projector (ConeBackProjector::device()) runs the slab through core's pipeline
/// (core/pipeline/ChunkPipeline.h, issue 27 item 3): a host thread reads batch b + 1 into pinned
/// staging (and applies the weights and the CPU ramp when the device has no filter stage) while
/// batch b is uploaded raw, weighted (FdkWeightStage.h), ramp-filtered on the device
/// (FdkOptions::rowFilter: cuFFT, VkFFT) and back-projected into the resident slab, which leaves
/// the device once at finish(). Slabs are sized
/// so that the back-projector's slab and batch (ConeBackProjector::bytesFor, paper 003's memory
/// inequality) and the host's copies fit the memory budget; with more than one slab the filtered
/// views are kept in memory when they fit half the budget, else read and filtered again per slab.
/// Each finished slab goes to the sink and is freed, so a volume larger than the budget streams to
/// its file.
///
/// Output: attenuation per unit length (mm^-1 when projections are line integrals in mm^-1 *
/// mm), as RTK's FDK: a uniform ball of density 1 reconstructs to 1.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/cone/ConeBackProjector.h"
#include "core/cone/FdkWeights.h"
#include "core/filter/RampFilter.h"
#include "core/pipeline/Timeline.h"

namespace tomo {

class RowFilterStage;  // core/recon/Fbp.h

struct FdkOptions {
    FilterOptions filter;
    FdkWeightOptions weights;
    int batch = 0;                                    ///< views per batch; 0 = the variant's
    std::size_t memoryBudget = std::size_t(1) << 30;  ///< bytes for a slab and its batches
    int slabPlanes = 0;                               ///< z planes per slab; 0 = from budget
    /// The ramp filter's device stage for a GPU back-projector (RowFilterStage::deviceStage:
    /// cuFFT, VkFFT); null, or none on that device: the CPU filters each batch before upload.
    std::shared_ptr<RowFilterStage> rowFilter;
    /// With a device ramp: the weights on the device too (FdkWeightStage.h), so the views are
    /// uploaded raw; false: the packing thread weighs them on the host (the comparison of the
    /// tests and benchmarks).
    bool deviceWeights = true;
    Status validate() const;
};

/// Seconds per stage, summed over slabs (read and filter overlap back-projection on devices).
/// gather and reduce: a distributed run's exchanges (app/recon/ConeDistributed.h), else 0;
/// overlapped: there, the wall seconds of filter, gather and back-project run together.
struct FdkTimings {
    double read = 0, filter = 0, backProject = 0, store = 0, total = 0;
    double gather = 0, reduce = 0, overlapped = 0;
    ConeDeviceTimes
        device;  ///< inside backProject and store on a device: H2D, kernel, transpose, D2H
};

/// The timeline report of @p t (core/pipeline/Timeline.h), the form `tomo bench` and
/// scripts/gpu-check print for every path: wall = total, read, filter, on a device its upload,
/// kernels (transposes included) and download, else the back-projection as kernels, store as
/// write. Busy times are the stages' sums (FDK's stages report sums, not intervals).
TimelineReport fdkTimeline(const FdkTimings& t);

struct FdkReport {
    std::string variant;
    FdkTimings timings;
    int slabs = 0, slabPlanes = 0, batch = 0;
    bool filteredCached = false;  ///< the filtered views were kept for all slabs
    double gups = 0;              ///< nx ny nz np / (total 2^30)
    std::vector<std::string> notes, warnings;
};

/// Reads views [first, first + count) into @p out: count x nv rows of nu pixels, view after
/// view, in the caller's memory (on a device the pipeline's pinned staging, reused from batch to
/// batch, so the views are copied once on their way to the device). The reader writes the nu
/// pixels of every row; the padding beyond them is the caller's. Called by one thread at a time.
using ConeViewReader = std::function<Status(int first, int count, View2<float> out)>;

/// Copies views [first, first + out.rows() / nv) of @p held (views held in memory) to @p out on
/// @p threads host threads (0 = all): the reader of projections that are already in memory.
Status copyHeldViews(const Array3<float>& held, std::size_t first, View2<float> out, int threads);

/// Receives the slab of z planes [first, first + slab.dim(0)).
using ConeSlabSink = std::function<Status(int first, Volume&& slab)>;

/// Runs FDK. Progress: one unit per (slab, batch). Cancelled within one batch.
Result<FdkReport> runFdk(const ConeGeometry& geometry, const ConeVolumeGrid& grid,
                         const FdkOptions& options, ConeBackProjector& backProjector,
                         const ConeViewReader& read, const ConeSlabSink& sink,
                         const ExecContext& ctx);

/// Views per batch of a run of @p options with @p bp (FdkOptions::batch, else the variant's
/// preferred batch; at most the view count). runFdk reads, filters and back-projects the views
/// in batches [b batch, min((b + 1) batch, np)); the ramp filter's FFT blocks follow the batch,
/// so a run that splits the views along these batches filters every view to the same bits.
int fdkBatch(const ConeGeometry& geometry, const FdkOptions& options, const ConeBackProjector& bp);

/// Views [first, first + views->dim(0)) of the geometry, already weighted and filtered.
struct FdkFiltered {
    int first = 0;
    const Array3<float>* views = nullptr;
    /// Null when every view is in @p views already. Otherwise called before views [first,
    /// first + count) are taken from @p views (in view order, one batch at a time); it returns
    /// once they are there, or with the reason they will not come (views still arriving while
    /// the back-projection runs: app/recon/ConeDistributed.h's pipeline).
    std::function<Status(int first, int count)> ready;
};

/// runFdk's back-projection alone, of planes [firstPlane, firstPlane + planes) of @p grid from
/// filtered views held in memory (e.g. gathered from other ranks: paper 003's column of an
/// R x C grid): the same slabs (within the budget left beside the views), batches of fdkBatch
/// views counted from filtered.first, and sink. Per voxel the views are added in order, so with
/// filtered.first = 0 and every view the bits equal runFdk's for those planes.
Result<FdkReport> backProjectFiltered(const ConeGeometry& geometry, const ConeVolumeGrid& grid,
                                      const FdkOptions& options, ConeBackProjector& backProjector,
                                      const FdkFiltered& filtered, int firstPlane, int planes,
                                      const ConeSlabSink& sink, const ExecContext& ctx);

/// The filter stage alone: weights then the ramp, in place, for views [first, first + n).
class FdkFilter {
  public:
    static Result<FdkFilter> create(const ConeGeometry& geometry, const FdkOptions& options);
    /// @p views: count x nv rows of nu pixels, view after view (ConeViewReader's layout).
    Status apply(int first, View2<float> views, const ExecContext& ctx) const;
    /// The weights alone (the ramp then runs on the device).
    void weigh(int first, View2<float> views) const;
    const FdkWeights& weights() const { return m_weights; }
    const RampFilter& ramp() const { return m_ramp; }

    /// Reads views [first, first + count) with @p read into @p out (allocated unless it has
    /// that shape already) and filters them (one batch of runFdk); adds the seconds to
    /// timings.read and timings.filter.
    Status readAndApply(const ConeViewReader& read, int first, int count, Array3<float>& out,
                        FdkTimings& timings, const ExecContext& ctx) const;

  private:
    FdkFilter(FdkWeights w, RampFilter r) : m_weights(std::move(w)), m_ramp(std::move(r)) {}
    FdkWeights m_weights;
    RampFilter m_ramp;
};

/// The double-precision reference FDK (the oracle of the tests): the same weights, the same
/// filter response applied as a direct convolution in double (its spatial kernel from the
/// response by an inverse DFT in double), and the standard voxel-driven back-projection with
/// the interpolation rule of ConeBackProjector.h in double. O(np nv nu^2 + np N) for filtering:
/// meant for test sizes.
Result<Volume> referenceFdk(const ConeGeometry& geometry, const Array3<float>& projections,
                            const ConeVolumeGrid& grid, const FdkOptions& options,
                            const ExecContext& ctx = {});

}  // namespace tomo
