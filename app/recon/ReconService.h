#pragma once
/// @file ReconService.h
/// @brief The one front door of reconstruction (issue 12): `tomo recon`, `tomo demo`, the
/// headless `tomostation`, the GUI session's FBP and iterative jobs and `tomo bench`'s FBP all
/// build a ReconRequest and call ReconService::run(). Nothing else reconstructs.
///
/// A request names a source (SinogramSource.h: a stack in memory or a file read by slabs),
/// the geometry of all its slices, the algorithm ("fbp" or an iterative AlgorithmSpec id) with
/// its parameters, the backend or variant, a memory budget, an optional reference and the
/// output (a file written by slabs, or a volume in memory). The service
///  1. resolves the algorithm's parameters against its schema and the back-projector variant
///     (named, else the Engine's default for the job's shape; a GPU backend without a device
///     falls back to the CPU with a note), or for iterative methods the operator backend
///     (the SIRT family on a device's locality pair through Engine::operatorFactory; methods
///     that need the exactly matched pair run on the CPU, with a note);
///  2. cuts the slices into slabs. FBP: as many slices as keep one slab's input, sinograms,
///     filtered copy and output under the budget, rounded up to whole FBP batches
///     (fbpChunkSlices) so that the bits do not depend on the slab size. Iterative:
///     `slabSlices` slices per solve (0: one solve over all slices, the norms over all);
///  3. per slab reads, reconstructs and hands the slab to the output, then frees it: with a file
///     output, peak memory is one slab plus a fixed overhead, whatever the volume's size. The
///     file appears at its path complete (VolumeWriter::commit()) or not at all (error, cancel);
///  4. reports progress (one child scope per slab), each iteration (onIteration; StopAndKeep
///     keeps the current iterate, later slabs are written as zeros and named in a note),
///     and the result: timings, iterations, the L-curve over all slabs (per iteration: norms as
///     root of summed squares, error as RMSE over all slices) and metrics of slice 0 against
///     the reference.
///
/// Across ranks (issue 16): a service given a communicator of more than one rank (main() under
/// mpirun) runs each request on all of them, every rank calling run() with the same request.
/// Rank 0 owns the output; every rank writes its own planes into the file where its format
/// stores planes at fixed places (raw, HDF5), else sends them to rank 0, which writes every
/// plane in order (app/recon/RankOutput.h, DistributedRecon.cpp). Cone-beam FDK runs on
/// paper 003's R x C grid (ConeDistributed.h). FBP: slab c on rank c mod N, the same slabs and
/// batches as one process, so the volume is bit-identical; each rank reads only its slabs' rows.
/// Iterative: contiguous shares of slices, one solve whose vector reductions are summed across
/// ranks in rank order (deterministic for a given N, within rounding of one process); with
/// slabSlices, and for MBIR, shares of whole chunks solved on their own. Notes, progress and
/// iterations are reported on rank 0 (rank 0's callback decides for all ranks). A rank that fails
/// makes every rank return its status ("rank R: ..."); the output is then never committed.
///
/// Threading: run() is synchronous on the calling thread (workers inside per ctx.threads);
/// callbacks run on it. One service may run several requests one after the other; the Engine
/// it uses must outlive it.

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/Engine.h"
#include "app/recon/Preflight.h"
#include "app/recon/ProjectionSource.h"
#include "app/recon/SinogramSource.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/cone/Fdk.h"
#include "core/data/Array.h"
#include "core/dist/Communicator.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/metrics/Metrics.h"
#include "core/recon/Fbp.h"
#include "core/solvers/IterationInfo.h"
#include "core/solvers/LCurve.h"

namespace tomo::app {

/// Where the reconstruction goes.
struct ReconOutput {
    /// A file of any format with a writer (FormatRegistry; written by slabs where the format
    /// can stream, else held whole and written at the end); empty: kept in memory
    /// (ReconReport::image).
    std::filesystem::path path;
    /// Provenance of the caller (e.g. "input", "preprocessing"); the service adds "geometry",
    /// "algorithm", "parameters" and "variant".
    std::map<std::string, std::string> provenance;
    std::optional<Tiff16Scale> tiff16;  ///< TIFF outputs as 16-bit counts
};

/// Which front end asks for a run: a refusal before it starts (Preflight.h) words its advice in
/// that front end's terms (the CLI's options, the GUI's controls, the Python keywords); the
/// numbers are the same.
enum class FrontEnd { Cli, Gui, Python };

struct ReconRequest {
    ReconRequest(std::shared_ptr<const SinogramSource> source_, ParallelGeometry geometry_,
                 VolumeGeometry grid_)
        : source(std::move(source_)), geometry(std::move(geometry_)), grid(grid_) {}

    std::shared_ptr<const SinogramSource> source;
    ParallelGeometry geometry;  ///< of all the source's slices (rows = slices)
    VolumeGeometry grid;        ///< nz = slices
    std::string algorithm = "fbp";
    /// Parameters by name (AlgorithmSpec schema; missing = default). For "fbp", "filter" and
    /// "cutoff" here override `fbp.filter`.
    std::map<std::string, std::string> parameters;
    FbpOptions fbp;                ///< FBP: filter window, cutoff, slices per batch
    std::string backend = "auto";  ///< auto | cpu | cuda | opencl
    std::string variant;           ///< FBP back-projector id; empty = the Engine's default
    Interpolation interpolation = Interpolation::Linear;
    bool interpolationGiven = false;  ///< a named variant of another interpolation is an error
    /// Bytes for one step (an FBP slab, an iterative solve); checked before the run starts
    /// (Preflight.h): below one step the minimum is used, said in a note; above what the
    /// machine has available it is lowered to that.
    std::size_t memoryBudget = defaultMemoryBudget();  ///< half of the memory available now
    std::size_t slabSlices = 0;  ///< slices per slab (FBP: rounded to batches), 0 = from budget
    std::shared_ptr<const Volume> reference;  ///< [slice][y][x]; optional
    /// Iterative methods: the starting image ([slice][y][x] of all slices, the output grid),
    /// e.g. the current result for a warm restart; each slab starts from its planes. Null: the
    /// algorithm's own start (zeros, or MBIR's `init`). FBP ignores it.
    std::shared_ptr<const Volume> initial;
    ReconOutput output;
    FrontEnd frontEnd = FrontEnd::Cli;  ///< whose terms a refusal's advice uses
};

/// A cone-beam FDK request (issue 14): projections [view][v][u], the circular geometry (RTK's,
/// core/cone/ConeGeometry.h), the volume grid, FDK's filter and weights, the backend or variant
/// (the Engine's cone registry; empty: the automatic choice for the geometry's symmetry), the
/// memory budget (FdkOptions::memoryBudget: slabs of planes within it), an optional reference
/// and the output (streamed by slabs where the format can; MetaImage/NRRD get the grid's
/// spacing and origin, RTK's frame).
struct ConeReconRequest {
    ConeReconRequest(std::shared_ptr<const ProjectionSource> source_, ConeGeometry geometry_,
                     ConeVolumeGrid grid_)
        : source(std::move(source_)), geometry(std::move(geometry_)), grid(grid_) {}

    std::shared_ptr<const ProjectionSource> source;
    ConeGeometry geometry;
    ConeVolumeGrid grid;
    FdkOptions fdk;
    std::string backend = "auto";             ///< auto | cpu | cuda | opencl
    std::string variant;                      ///< cone back-projector id; empty = automatic
    std::shared_ptr<const Volume> reference;  ///< [z][y][x] on grid; optional
    ReconOutput output;
    /// Across ranks: iFDK's grid of R rows (z-slabs) and C columns (view groups); 0: the least
    /// R that fits the memory budget, C from R (core/cone/ConeGrid2d.h).
    int rankRows = 0, rankColumns = 0;
};

/// The default cone-beam grid of @p g (`tomo recon` without --size/--voxel-size, the GUI's
/// Volume box): the geometry file's volume when it has one, else nu x nv x nu voxels of the
/// detector pitch scaled to the isocentre, centred (RTK's default frame).
ConeVolumeGrid defaultConeGrid(const ConeGeometry& g, const std::optional<ConeVolumeGrid>& file);

/// Where a slab lies, for per-iteration reports.
struct SlabInfo {
    std::size_t index = 0, count = 1;  ///< slab index of count
    std::size_t firstSlice = 0, slices = 0;
};

struct ReconCallbacks {
    /// Iterative methods: after every iteration of every slab's solve (info.iterate is the
    /// slab's current image while the call lasts). Continue, StopAndKeep or Cancel.
    std::function<IterationAction(const IterationInfo&, const SlabInfo&)> onIteration;
    /// Notes for the user (fallbacks, parameters ignored), as they happen.
    std::function<void(const std::string&)> onNote;
};

struct ReconReport {
    std::string algorithm;        ///< "fbp", "sirt", ...
    std::string variant;          ///< FBP: the back-projector id; iterative: the operator used
    std::string backend;          ///< backend that ran: "cpu", "cuda", "opencl"
    bool deviceOperator = false;  ///< iterative: a device operator (Engine::operatorFactory) ran
    std::array<std::size_t, 3> shape{};  ///< output {slices, ny, nx}
    std::size_t slabs = 0, slabSlices = 0;
    bool streamed = false;  ///< the output was written by slabs
    FbpTimings timings;     ///< FBP: summed over slabs; iterative: total = solve seconds
    // Iterative
    int iterations = 0;         ///< iterations of the combined curve
    bool stoppedEarly = false;  ///< StopAndKeep ended it
    std::size_t slicesDone = 0;
    std::string reason;  ///< termination reason of the last solve
    SolverSummary lastSummary;
    std::vector<LCurvePoint> curve;
    std::optional<std::size_t> corner;
    std::string cornerNote;  ///< why there is no corner (lcurveCorner's message), else empty
    /// Stopping rule (StoppingRule.h): each slab's solve applies it on its own. Per solved slab
    /// the iteration whose iterate is its result (the corner rule keeps an earlier one).
    std::vector<int> keptIterations;
    std::optional<std::size_t> kept;  ///< index in curve of that iteration when all slabs agree
    std::string stopNote;             ///< the last slab's rule decision (SolverSummary)
    // Both
    std::optional<ImageMetrics> metrics;  ///< slice 0 against reference slice 0
    Volume firstSlice;                    ///< a copy of slice 0 as one plane (previews)
    Volume image;                         ///< the result when ReconOutput::path is empty
    std::vector<std::string> notes;
    /// What the writer stores with the result (the request's provenance plus "geometry",
    /// "algorithm", "parameters", "variant" or "backend"), also when the result is kept in
    /// memory, so that saving it later stores the same.
    std::map<std::string, std::string> provenance;
    /// Parallel beam: what the preflight planned (memory per step, held data, disk).
    std::optional<PreflightReport> preflight;
    /// Cone beam: the FDK run's stage times, slabs, notes and warnings (also in notes).
    std::optional<FdkReport> fdk;
};

class ReconService {
  public:
    /// @p ranks: the processes of a distributed run (null or one rank: this process alone);
    /// it must outlive the service.
    explicit ReconService(const Engine& engine, Communicator* ranks = nullptr)
        : m_engine(engine), m_ranks(ranks) {}

    Result<ReconReport> run(const ReconRequest& request, const ReconCallbacks& callbacks,
                            const ExecContext& ctx) const;
    /// What run(@p request) would need and how it would cut the work, checked against this
    /// machine before anything is read or allocated (Preflight.h): the report, or the
    /// OutOfMemory / IoError that run() would return without starting. run() calls it first.
    /// @p machine: this machine now, or what a caller (a test) says it offers.
    Result<PreflightReport> preflight(
        const ReconRequest& request,
        const MachineResources& machine = MachineResources::probe()) const;
    /// Makes now what run(@p request) will need on its device (issue 27 item 4: the first live
    /// preview costs what the second does): for FBP on a GPU variant, the queues, the row
    /// filter's FFT plans, the kernels' programs, constants and buffers of its first slab,
    /// kept by the engine's device context, where run() finds them. Nothing is read, computed
    /// or written; nothing to make on the CPU, for gridrec or the iterative methods. Callers
    /// run it when data are loaded (the GUI) or beside the first read; errors as run()'s.
    Status prepare(const ReconRequest& request) const;
    /// Cone-beam FDK through the same output, notes and report (app/recon/ConeRecon.cpp).
    Result<ReconReport> run(const ConeReconRequest& request, const ReconCallbacks& callbacks,
                            const ExecContext& ctx) const;

    const Engine& engine() const { return m_engine; }

  private:
    const Engine& m_engine;
    Communicator* m_ranks = nullptr;
};

/// InvalidArgument unless @p path ends in .csv or .json (checked before computing).
Status checkLCurvePath(const std::filesystem::path& path);
/// Writes the L-curve of @p report (its curve and corner) as CSV or JSON by extension.
Status writeLCurve(const std::filesystem::path& path, const ReconReport& report);

}  // namespace tomo::app
