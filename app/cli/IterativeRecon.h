#pragma once
/// @file IterativeRecon.h
/// @brief The iterative half of `tomo recon --algo sirt|os-sirt|sart|cgls|tv|memxct`: parses the
/// algorithm parameters (--iterations, repeated --param NAME=VALUE) against the algorithm's
/// schema (core/iterative/AlgorithmSchema.h), runs reconstructIterative on the sinogram stack,
/// prints one progress line per iteration on stderr, turns Ctrl-C into StopAndKeep and writes
/// the L-curve with its corner (core/solvers/LCurve.h).
///
/// Slices: the whole stack is one solve by default (the norms of every iteration are over all
/// slices; MemXCT builds its matrix once for all of them). With --chunk N the stack is solved N
/// slices at a time, each chunk its own solve with the same parameters; the reported numbers
/// and the L-curve are then those of the whole stack, combined per iteration over the chunks:
/// residual and solution norms as the root of the summed squares (the norms of the
/// concatenated vectors), the regulariser as the sum, the error as the RMSE over all slices,
/// the time as the sum. Iterations missing in a chunk that stopped early (tolerance) end the
/// combined curve there.
///
/// Ctrl-C (SIGINT/SIGTERM through InterruptToStop): the running solve answers StopAndKeep after
/// the iteration in progress and its current iterate is the result; chunks not yet started are
/// left at zero and named on stderr. The command then writes the output and exits 0.
/// Threading: the solve runs on the calling thread with @p threads workers inside.

#include <cstddef>
#include <map>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/solvers/LCurve.h"

namespace tomo::cli {

/// Every `--param` value of argv (both `--param A=B` and `--param=A=B`; a value may also list
/// several pairs separated by commas), in order; InvalidArgument for a pair without '=' or a
/// missing value. The parser keeps only the last occurrence, hence this scan.
Result<std::map<std::string, std::string>> collectParams(int argc, char** argv);

/// What runIterativeRecon needs besides the data.
struct IterativeCliOptions {
    AlgorithmSpec spec;
    ParameterValues params;                 ///< resolved against spec
    std::size_t chunkSlices = 0;            ///< slices per solve, 0 = the whole stack in one solve
    bool quiet = false;                     ///< no per-iteration lines
    std::optional<std::string> lcurvePath;  ///< .csv or .json
    /// "cpu", "cuda" or "opencl": methods on the locality pair (usesLocalityPair(): the SIRT
    /// family by default) run on that device's pair (app::iterativeOperatorFactory); CGLS, TV
    /// and MemXCT need an exactly matched pair and stay on the CPU (with a note on stderr).
    std::string backend = "cpu";
};

/// What a run did.
struct IterativeCliReport {
    int iterations = 0;              ///< iterations of the combined curve
    bool interrupted = false;        ///< Ctrl-C ended it (StopAndKeep)
    std::string reason;              ///< termination reason of the last solve
    std::vector<LCurvePoint> curve;  ///< combined per-iteration points
    std::optional<std::size_t> corner;
    double seconds = 0;
};

/// InvalidArgument unless @p path ends in .csv or .json (checked before computing).
Status checkLCurvePath(const std::string& path);

/// Reconstructs @p sino into @p out ([slice][y][x]) as described above. @p reference (may be
/// null: the grid's shape) gives each iteration's error. Errors of reconstructIterative pass
/// through; the L-curve file is written when asked and the run has at least 3 iterations
/// (fewer: a note on stderr, no file).
Status runIterativeRecon(const Sinograms& sino, const ParallelGeometry& geom,
                         const VolumeGeometry& grid, const IterativeCliOptions& options,
                         const Volume* reference, std::stop_token interrupt, int threads,
                         Volume& out, IterativeCliReport& report);

}  // namespace tomo::cli
