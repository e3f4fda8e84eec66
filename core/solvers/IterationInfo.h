#pragma once
/// @file IterationInfo.h
/// @brief What an iterative solver reports after each iteration, how the caller answers, and the
/// summary a solver returns. Shared by every solver (SIRT, OS-SIRT, SART, CGLS, TV, MemXCT), the
/// CLI progress printer, the L-curve (LCurve.h) and the GUI's convergence dock.
///
/// Norms are Euclidean norms over the whole problem (all slices together), in the data's units:
/// the residual ||A x - b|| in line-integral units (sinogram values), the solution ||x|| in
/// attenuation per length unit times sqrt(voxel count). The callback runs on the solver's thread;
/// it must be quick (copy what it needs, e.g. the preview, and return).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/data/Array.h"

namespace tomo {

/// One iteration's numbers.
struct IterationInfo {
    int iteration = 0;            ///< 1-based count of completed iterations
    double residualNorm = 0;      ///< ||A x_k - b|| (for TV and Tikhonov: data term only)
    double solutionNorm = 0;      ///< ||x_k||
    double regularizer = 0;       ///< value of the regularisation term R(x_k), 0 when none
    std::optional<double> error;  ///< RMSE of x_k against the reference, when one was given
    double seconds = 0;           ///< wall clock since the solver started
    double iterationSeconds = 0;  ///< wall clock of this iteration
    /// The objective the solver minimises, when it has one (MBIR: data term + prior).
    std::optional<double> cost;
    double equits = 0;  ///< MBIR: voxel updates so far / voxel count (0 for other solvers)
    /// The current iterate x_k ([slice][y][x]); valid only during the callback, may be null
    /// when the solver has no host copy at hand (then the caller cannot preview this one).
    const Volume* iterate = nullptr;
};

/// The caller's answer after an iteration.
enum class IterationAction {
    Continue,     ///< go on
    Cancel,       ///< stop now; the solver returns Cancelled and the output is not meaningful
    StopAndKeep,  ///< stop now and return OK with the current iterate as the result
};

/// Called after every iteration; an empty function means "always Continue".
using IterationCallback = std::function<IterationAction(const IterationInfo&)>;

/// Why a solver stopped.
enum class TerminationReason {
    MaxIterations,    ///< ran the requested number of iterations
    Converged,        ///< the relative residual (or its change) fell below the tolerance
    StoppedByCaller,  ///< the callback answered StopAndKeep
    Cancelled,        ///< the callback answered Cancel or the job's stop token fired
    Breakdown,        ///< a numerical breakdown (e.g. CGLS with a zero search direction)
    StoppingRule,     ///< the stopping rule (StoppingRule.h: corner, discrepancy, rel-change)
};
const char* terminationReasonName(TerminationReason reason);  ///< "max-iterations", ...

/// Returned by every solver next to its Status.
struct SolverSummary {
    std::string algorithm;  ///< "sirt", "cgls", ...
    int iterations = 0;     ///< iterations completed
    TerminationReason reason = TerminationReason::MaxIterations;
    std::vector<IterationInfo> history;  ///< one entry per iteration, `iterate` set to null
    double seconds = 0;                  ///< total wall clock
    /// The iteration whose iterate is the result when it is not the last one run (the corner
    /// rule returns the iterate at the L-curve corner after running past it).
    std::optional<int> keptIteration;
    std::string stopRule = "none";  ///< the rule in force (stopRuleName)
    std::string stopNote;           ///< the rule's decision in one line, empty for none
    /// Internal (IterationMonitor to runKeepingIterate): keptIteration's iterate was not held
    /// and must be recomputed.
    bool keptPending = false;
};

}  // namespace tomo
