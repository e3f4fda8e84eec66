#pragma once
/// @file ReconSteps.h
/// @brief The steps of ReconService::run() (ReconService.h), shared by its files: the
/// resolved request, the output a slab at a time, and the FBP and iterative slab loops.
/// Internal to app/recon.

#include <future>
#include <memory>
#include <optional>
#include <string>

#include "app/recon/Preflight.h"
#include "app/recon/ReconService.h"
#include "core/dataset/VolumeStream.h"
#include "core/fourier/FourierMethod.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/iterative/IterativeReconstruction.h"

namespace tomo {
class RankAgreement;
}

namespace tomo::app::detail {

/// A request with its algorithm, parameters and implementation decided.
struct Resolved {
    AlgorithmSpec spec;
    ParameterValues params;
    FbpOptions fbp;                                 ///< with "filter"/"cutoff" applied
    std::string backend;                            ///< "cpu", "cuda", "opencl"
    std::string variant;                            ///< FBP back-projector id / operator name
    std::unique_ptr<BackProjector> backProjector;   ///< FBP
    std::unique_ptr<FourierReconstructor> fourier;  ///< gridrec
    GridrecOptions gridrec;                         ///< gridrec: its parameters resolved
    std::size_t gridrecWorkBytes = 0;               ///< gridrec: its working memory
    decltype(IterativeRequest::makeOperator) makeOperator;  ///< iterative on a device
    IcdDeviceFactory makeIcdDevice;                         ///< MBIR as GPU-ICD on a device
    /// Bytes one step may take: the request's budget, lowered by the preflight to the memory
    /// the machine has available.
    std::size_t budget = 0;
};

/// A note for the user: to @p callbacks' onNote as it happens and into @p report.
void note(ReconReport& report, const ReconCallbacks& callbacks, std::string text);
/// Why @p backend has no device (its discovery's message, else a generic reason).
std::string whyNoDevice(const std::string& backend);
/// Gridrec's resolution (ResolveFourier.cpp): its parameters (FBP's filter flags, then the
/// schema's values) and the Fourier implementation of the backend (auto: a GPU's when
/// registered, else the CPU's with a note), its working memory for the slab plan.
Status resolveFourier(const Engine& engine, const ReconRequest& request, Resolved& r,
                      ReconReport& report, const ReconCallbacks& callbacks);
/// FBP with method auto (ResolveFourier.cpp): direct FBP as resolved in @p r, or gridrec on the
/// same backend when MethodChoice.h predicts it faster within the tolerance; the reason noted.
Status chooseDirectOrFourier(const Engine& engine, const ReconRequest& request, Resolved& r,
                             ReconReport& report, const ReconCallbacks& callbacks);
/// Resolves @p request against the engine (ReconService.h step 1); notes go to @p report.
Result<Resolved> resolve(const Engine& engine, const ReconRequest& request, ReconReport& report,
                         const ReconCallbacks& callbacks);

/// A note for the user: told through @p callbacks now and kept in @p report.
void note(ReconReport& report, const ReconCallbacks& callbacks, std::string text);

/// Checks @p request before it starts and plans its steps (Preflight.h); sets resolved.budget.
/// OutOfMemory or IoError naming what is needed and what the machine has.
Result<PreflightReport> preflight(const ReconRequest& request, Resolved& resolved,
                                  const MachineResources& machine);

/// @brief The output of a run, a slab at a time: a streamed file, a file written whole at the
/// end, or a volume in memory. Keeps a copy of slice 0 and its metrics against the reference.
class SlabOutput {
  public:
    /// Where and how a run's volume goes, whatever the geometry.
    struct Spec {
        std::filesystem::path path;  ///< empty: kept in memory
        std::array<std::size_t, 3> shape{};
        WriteOptions options;
        std::shared_ptr<const Volume> reference;
        std::size_t memoryBudget = 0;
    };
    static Result<SlabOutput> open(const Spec& spec, ReconReport& report);
    /// The parallel-beam output of @p request; @p sharedPlanes: laid out for other processes
    /// to write planes into (a distributed run's ranks: RankOutput.h).
    static Result<SlabOutput> open(const ReconRequest& request, const Resolved& resolved,
                                   ReconReport& report, bool sharedPlanes = false);
    SlabOutput(SlabOutput&&) noexcept;
    SlabOutput& operator=(SlabOutput&&) noexcept;
    ~SlabOutput();

    /// Slab of planes [first, first + slab.dim(0)).
    Status put(std::size_t first, Volume&& slab);
    /// Planes [first, first + count) as zeros (slabs a stopped run never reached).
    Status zeros(std::size_t first, std::size_t count);
    /// Finishes the file (or hands the volume to report.image).
    Status commit(ReconReport& report);
    /// Where other processes may write planes into the file being written (PlaneFile.h): a
    /// streamed raw file, or HDF5 opened with WriteOptions::sharedPlanes; none otherwise.
    std::optional<PlaneFileLayout> planeLayout() const;
    /// Planes [first, first + count) written through planeLayout() by another process.
    Status writtenElsewhere(std::size_t first, std::size_t count);

    struct State;

  private:
    SlabOutput();
    std::unique_ptr<State> m_state;
};

/// How FBP (and gridrec) cut a request into slabs (ReconService.h step 2): slab c holds slices
/// [c slabSlices, min((c + 1) slabSlices, slices)), every slab whole FBP batches (gridrec:
/// whole pairs of slices, so that every slab pairs slices as one call does).
struct FbpPlan {
    FbpOptions batched;  ///< with chunkSlices set to the batch
    std::size_t slabSlices = 0, slabs = 0;
};
/// Slices per FBP batch of @p request (fbpChunkSlices of its back-projector).
std::size_t fbpBatch(const ReconRequest& request, const Resolved& resolved);
/// The plan of @p request within resolved.budget (the slab counts go to @p report); across
/// @p ranks, slabs no larger than a rank's share (rounded up to whole batches), so every rank
/// gets work.
FbpPlan planFbp(const ReconRequest& request, Resolved& resolved, ReconReport& report,
                int ranks = 1);
/// Reconstructs one stack by FBP (reconstructFbp with the resolved back-projector and
/// @p plan's batches) or gridrec (the resolved FourierReconstructor); @p timings: gridrec's
/// spectra count as filtering, its spreading and transforms as back-projection.
Status reconstructAnalytic(Resolved& resolved, const FbpPlan& plan, const Sinograms& sino,
                           const ParallelGeometry& geom, const VolumeGeometry& grid, Volume& out,
                           const ExecContext& ctx, FbpTimings& timings);
/// Reads and reconstructs slab @p c of @p plan (its timings added to @p report); when given,
/// @p prepared (a preparation started beside the read, prepareFbpSlabs) is waited for between
/// the read and the reconstruction.
Result<Volume> reconstructFbpSlab(const ReconRequest& request, Resolved& resolved,
                                  const FbpPlan& plan, std::size_t c, ReconReport& report,
                                  const ExecContext& ctx, std::future<Status>* prepared = nullptr);
/// What runFbpSlabs will need on a GPU back-projector's device for its first slab, made now
/// (core/recon prepareFbp): nothing for gridrec, iterative methods or the CPU.
Status prepareFbpSlabs(const ReconRequest& request, Resolved& resolved, ReconReport& report);
Status runFbpSlabs(const ReconRequest& request, Resolved& resolved, SlabOutput& out,
                   ReconReport& report, const ExecContext& ctx);

Status runIterativeSlabs(const Engine& engine, const ReconRequest& request,
                         const Resolved& resolved, const ReconCallbacks& callbacks, SlabOutput& out,
                         ReconReport& report, const ExecContext& ctx);

/// The report of one solve over the whole stack (@p summary): reason, kept iteration, stop
/// note and the L-curve with its corner, as runIterativeSlabs reports its slabs.
void reportSolve(const SolverSummary& summary, ReconReport& report);

/// MemXCT across ranks by its partitioned SpMV (DistributedMemxct.cpp): when the "distribute"
/// parameter says spmv, or auto with fewer slices than ranks.
bool usesPartitionedMemxct(const ReconRequest& request, const Resolved& resolved, int ranks);
Status memxctAcrossRanks(const ReconRequest& request, const Resolved& resolved,
                         const ReconCallbacks& callbacks, SlabOutput* out, ReconReport& report,
                         RankAgreement& agreement, const ExecContext& ctx);

/// @p request across the ranks of @p comm (ReconService.h, "Across ranks"; DistributedRecon.cpp).
Result<ReconReport> runAcrossRanks(const Engine& engine, Communicator& comm,
                                   const ReconRequest& request, const ReconCallbacks& callbacks,
                                   const ExecContext& ctx);

/// The geometry and grid of slices [first, first + count) of @p request.
Result<ParallelGeometry> slabGeometry(const ParallelGeometry& all, std::size_t count);

}  // namespace tomo::app::detail
