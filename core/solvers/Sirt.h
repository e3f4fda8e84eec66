#pragma once
/// @file Sirt.h
/// @brief SIRT, OS-SIRT and SART: the simultaneous algebraic reconstruction family, written
/// once against LinearOperator / SubsetOperator.
///
/// SIRT (in the form of paper 001 and ASTRA; Gregor & Benson, IEEE TMI 27(7), 2008,
/// doi:10.1109/TMI.2008.923696):
///   x_{k+1} = P( x_k + lambda C A^T R (b - A x_k) ),
/// R = diag(1 / A 1) (inverse ray sums), C = diag(1 / A^T 1) (inverse back-projected ones),
/// both computed once; rays or voxels with zero weight keep weight 0. P is the projection onto
/// x >= 0 when nonNegative is set (else the identity); lambda is the relaxation in (0, 2).
/// For a matched pair (A^T the exact transpose) and lambda in (0, 2) the weighted residual
/// ||b - A x||_R decreases monotonically on consistent data.
///
/// OS-SIRT with S subsets (paper 001, §1.2; Palenstijn, Batenburg, Sijbers, J. Struct. Biol.
/// 176(2), 2011, doi:10.1016/j.jsb.2011.07.017): the SIRT update restricted to the interleaved
/// angle subset s (angles p with p mod S = s), with column weights C_s = 1 / A_s^T 1, applied
/// for s = 0 .. S-1; one iteration is the full pass. S = 1 is SIRT (the same arithmetic), and
/// S = number of angles is SART (Andersen & Kak, Ultrasonic Imaging 6(1), 1984,
/// doi:10.1177/016173468400600107). The S column-weight vectors are kept when they fit in
/// 512 MiB, else recomputed per sub-iteration (one more back-projection each).
///
/// Cost per iteration: SIRT one forward and one back-projection (the residual of the new
/// iterate, reported to the callback, is the next iteration's residual). OS-SIRT one forward
/// and one back-projection per subset (each over 1/S of the angles) plus one full forward
/// projection for the reported residual.
///
/// Threading: runs on the caller's thread; the operators and vector helpers use ctx.threads.

#include <functional>
#include <span>

#include "core/solvers/LinearOperator.h"
#include "core/solvers/SolverSupport.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo {

struct SirtOptions : SolverOptions {
    double relaxation = 1.0;   ///< lambda, in (0, 2)
    bool nonNegative = false;  ///< project onto x >= 0 after every update
    int subsets = 1;           ///< OS-SIRT subsets S (solveOsSirt only), 1 .. angles
    /// solveOsSirt only, optional: called with the iterate after every subset update (for SART,
    /// after every single projection: the teaching mode's single-step ART). Cheap callers only.
    std::function<void(int subset, std::span<const float> x)> afterSubset;

    /// SolverOptions::validate plus relaxation and nonNegative checks.
    Status validate(const LinearOperator& op, std::span<const float> b,
                    std::span<const float> x) const;
};

/// SIRT. @p x holds the starting image on entry and the result on return (flat, domain size).
/// InvalidArgument for bad options or sizes (nothing run), Cancelled (x partially updated)
/// when the callback cancels or ctx.stop fires. summary.algorithm = "sirt".
Status solveSirt(LinearOperator& op, std::span<const float> b, std::span<float> x,
                 const SirtOptions& options, const IterationCallback& onIteration,
                 SolverSummary& summary, const ExecContext& ctx);

/// OS-SIRT with options.subsets interleaved subsets (summary.algorithm "os-sirt", or "sart"
/// when subsets equals the number of angles).
Status solveOsSirt(SubsetOperator& op, std::span<const float> b, std::span<float> x,
                   const SirtOptions& options, const IterationCallback& onIteration,
                   SolverSummary& summary, const ExecContext& ctx);

}  // namespace tomo
