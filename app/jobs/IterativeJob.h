#pragma once
/// @file IterativeJob.h
/// @brief An iterative reconstruction of a Dataset (SIRT, CGLS, ... through
/// core/iterative/IterativeReconstruction.h) as a GUI job: per-iteration reports with a copy of
/// the preview slice, live previews throttled to a fixed rate, "finish early" (stop and keep the
/// current iterate) and cancellation (discard). Plain C++: the Qt adapter (app/qt/JobRunner)
/// forwards the reports to the GUI thread.
///
/// Reports: `onReport` is called on the solver's thread after every iteration with the numbers
/// of IterationInfo (its `iterate` pointer cleared) and, when the solver handed out its iterate,
/// an immutable copy of slice `previewSlice` of it. `preview` is true for the first iteration
/// and then at most once per `previewInterval` (default 150 ms, ~6.7 Hz, inside the 5-10 Hz the
/// GUI wants): the views refresh only on those, the convergence dock keeps every report's slice
/// as a snapshot (within its own memory budget). Copying a slice costs rows x cols floats per
/// iteration; with `snapshots` off only the preview reports carry one.
///
/// Stopping: `finishEarly()` is polled after each iteration; when it answers true the solver is
/// told StopAndKeep and the outcome is the current iterate (summary.reason StoppedByCaller).
/// A stop request on ctx.stop makes the solver return Cancelled within an iteration (the core
/// checks it inside projections too); the caller then keeps its previous result.
///
/// Threading: runs on the calling (worker) thread; `onReport` and `finishEarly` must be
/// thread-safe and quick.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/jobs/DemoJob.h"
#include "app/jobs/SliceImage.h"
#include "core/solvers/IterationInfo.h"

namespace tomo::app {

struct IterativeJobSpec {
    std::string algorithm = "sirt";                 ///< an AlgorithmSpec id other than "fbp"
    std::map<std::string, std::string> parameters;  ///< by ParameterSpec::name; missing = default
    int previewSlice = 0;                           ///< slice of the iterate copied for the GUI
    std::chrono::milliseconds previewInterval{150};
    bool snapshots = true;  ///< copy the preview slice on every iteration, not only on previews
    /// auto | cpu | cuda | opencl: the SIRT family runs on that device's operator pair
    /// (ReconService.h); "auto" = the engine's automatic backend.
    std::string backend = "auto";
    /// The starting image (all slices, the dataset's grid), e.g. the current result for a warm
    /// restart (ReconRequest::initial); null: the algorithm's own start.
    std::shared_ptr<const Volume> initial;
    FrontEnd frontEnd = FrontEnd::Cli;  ///< ReconRequest::frontEnd (the GUI's Session: Gui)
};

/// One iteration as the GUI sees it.
struct IterationReport {
    IterationInfo info;                       ///< info.iterate is null
    std::shared_ptr<const SliceImage> slice;  ///< slice previewSlice of x_k; null when unknown
    bool preview = false;                     ///< refresh the live views with `slice`
};

struct IterativeOutcome {
    ReconOutcome recon;              ///< image, metrics against the truth; variant = algorithm id
    SolverSummary summary;           ///< iterations, reason, history
    std::string backend;             ///< where the operators ran: "cpu", "opencl", "cuda"
    bool deviceOperator = false;     ///< a device operator pair ran (not the CPU projectors)
    std::vector<std::string> notes;  ///< e.g. why the CPU ran instead of the asked backend
};

/// Runs the algorithm on @p data through @p service (ReconService.h: whole slice stack in one
/// solve, output grid data.grid, reference data.truth when its shape matches).
/// InvalidArgument for an unknown algorithm or parameter (naming it), Cancelled when ctx.stop
/// fires.
Result<IterativeOutcome> runIterativeJob(const ReconService& service,
                                         std::shared_ptr<const Dataset> data,
                                         const IterativeJobSpec& spec,
                                         const std::function<void(IterationReport)>& onReport,
                                         const std::function<bool()>& finishEarly,
                                         const ExecContext& ctx);

}  // namespace tomo::app
