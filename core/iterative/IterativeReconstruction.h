#pragma once
/// @file IterativeReconstruction.h
/// @brief The one front door to every iterative method, used by `tomo recon --algo` and by the
/// GUI's jobs: builds the operator for the chosen algorithm (on-the-fly projectors of paper 001,
/// or the MemXCT matrix of paper 000), runs the solver slice-stack at once, reports each
/// iteration through the callback and returns the summary. Algorithms and their parameters are
/// those of AlgorithmSchema.h.

#include <functional>
#include <memory>
#include <span>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/mbir/GpuIcd.h"
#include "core/mbir/MbirMatrixCache.h"
#include "core/solvers/IterationInfo.h"
#include "core/solvers/LCurve.h"
#include "core/solvers/StoppingRule.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo {

struct IterativeRequest {
    std::string algorithm;       ///< an AlgorithmSpec id other than "fbp"
    ParameterValues parameters;  ///< resolved against that spec
    /// Optional ground truth ([slice][y][x], the output grid) for IterationInfo::error.
    const Volume* reference = nullptr;
    /// Optional starting image (same shape as the output); zeros when null.
    const Volume* initial = nullptr;
    /// Optional replacement for the CPU locality pair (e.g. a GPU pair,
    /// gpu/cuda/locality/CudaLocalityOperator.h, through app::iterativeOperatorFactory): used
    /// wherever usesLocalityPair() holds (the SIRT family by default); methods on the matched
    /// pair (CGLS, TV) and memxct ignore it. Its error is returned.
    std::function<Result<std::unique_ptr<SubsetOperator>>(
        const ParallelGeometry&, const VolumeGeometry&, const ParameterValues&)>
        makeOperator;
    /// Optional, MBIR: system matrices kept between runs (the Engine's), else built per run.
    MbirMatrixCache* mbirCache = nullptr;
    /// Optional, MBIR: GPU-ICD on the device this makes (core/mbir/GpuIcd.h; app::
    /// icdDeviceFactory for --backend cuda|opencl), a stack as one problem; empty: PSV-ICD on the
    /// CPU.
    IcdDeviceFactory makeIcdDevice;
    /// MBIR: bytes its system matrix may take (0: MbirOptions' default).
    std::size_t memoryBudget = 0;
    /// Optional: notes for the user as they happen (MBIR: the sigmas and how they were set,
    /// where the matrix came from, the warm start).
    std::function<void(const std::string&)> onNote;
    /// Optional, OS-SIRT and SART: the iterate after every subset update (SirtOptions).
    std::function<void(int subset, std::span<const float> x)> afterSubset;
};

/// True when the resolved @p params run the method on the locality pair of paper 001 (its
/// "projector" parameter is "locality"), the pair a device operator can replace.
bool usesLocalityPair(const ParameterValues& params);

/// The stopping rule of the resolved parameters (AlgorithmSchema's common stop parameters);
/// the noise estimate uses sinogramLayout(geom).
Result<StopOptions> stopOptionsFor(const ParameterValues& params, const ParallelGeometry& geom);

/// Reconstructs @p sino on @p vol into @p out (resized). With StopAndKeep from the callback the
/// result is the current iterate and the Status is OK (summary.reason tells). Cancelled when the
/// callback answers Cancel or ctx.stop fires (checked at least once per iteration and inside
/// projections). ctx.progress advances per iteration (setTotal = iterations); for memxct the
/// matrix build ("MemXCT: ..." stages) takes the first 30% and the iterations the rest.
Status reconstructIterative(const Sinograms& sino, const ParallelGeometry& geom,
                            const VolumeGeometry& vol, const IterativeRequest& request,
                            const IterationCallback& onIteration, Volume& out,
                            SolverSummary& summary, const ExecContext& ctx);

/// A regularisation sweep for an L-curve over lambda (P. C. Hansen, SIAM Review 34(4), 1992,
/// doi:10.1137/1034115): one full reconstruction of @p request per value of @p lambdas (the
/// request's algorithm must have a "lambda" parameter: cgls, tv), each point holding lambda,
/// the final residual norm ||A x - b||, the solution (semi)norm - ||x|| for cgls, TV(x) for
/// tv - and the error against request.reference when given. Each run has no stopping rule
/// (stop=none: the request's iteration count), so that the points differ only in lambda.
/// ctx.progress advances once per lambda; Cancelled when ctx.stop fires. Pick the lambda with
/// lcurveCorner().
Result<std::vector<LCurvePoint>> sweepRegularization(
    const Sinograms& sino, const ParallelGeometry& geom, const VolumeGeometry& vol,
    const IterativeRequest& request, std::span<const double> lambdas, const ExecContext& ctx);

}  // namespace tomo
