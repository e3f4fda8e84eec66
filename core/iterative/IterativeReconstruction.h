#pragma once
/// @file IterativeReconstruction.h
/// @brief The one front door to every iterative method, used by `tomo recon --algo` and by the
/// GUI's jobs: builds the operator for the chosen algorithm (on-the-fly projectors of paper 001,
/// or the MemXCT matrix of paper 000), runs the solver slice-stack at once, reports each
/// iteration through the callback and returns the summary. Algorithms and their parameters are
/// those of AlgorithmSchema.h.

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/solvers/IterationInfo.h"

namespace tomo {

struct IterativeRequest {
    std::string algorithm;       ///< an AlgorithmSpec id other than "fbp"
    ParameterValues parameters;  ///< resolved against that spec
    /// Optional ground truth ([slice][y][x], the output grid) for IterationInfo::error.
    const Volume* reference = nullptr;
    /// Optional starting image (same shape as the output); zeros when null.
    const Volume* initial = nullptr;
};

/// Reconstructs @p sino on @p vol into @p out (resized). With StopAndKeep from the callback the
/// result is the current iterate and the Status is OK (summary.reason tells). Cancelled when the
/// callback answers Cancel or ctx.stop fires (checked at least once per iteration and inside
/// projections). ctx.progress advances per iteration (setTotal = iterations).
Status reconstructIterative(const Sinograms& sino, const ParallelGeometry& geom,
                            const VolumeGeometry& vol, const IterativeRequest& request,
                            const IterationCallback& onIteration, Volume& out,
                            SolverSummary& summary, const ExecContext& ctx);

}  // namespace tomo
