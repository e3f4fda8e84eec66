#pragma once
/// @file Cgls.h
/// @brief CGLS: conjugate gradients on the normal equations without forming A^T A, with optional
/// Tikhonov damping: minimises ||A x - b||^2 + lambda^2 ||x||^2 (M. R. Hestenes, E. Stiefel, J.
/// Res. NBS 49(6), 1952, doi:10.6028/jres.049.044; A. Bjorck, Numerical Methods for Least Squares
/// Problems, SIAM 1996, §7.4, doi:10.1137/1.9781611971484).
///
///   r = b - A x, s = A^T r - lambda^2 x, p = s, gamma = ||s||^2
///   repeat: q = A p, alpha = gamma / (||q||^2 + lambda^2 ||p||^2), x += alpha p, r -= alpha q,
///           s = A^T r - lambda^2 x, gamma' = ||s||^2, p = s + (gamma' / gamma) p
///
/// Needs a matched pair (op.matchedAdjoint(); InvalidArgument otherwise): with an unmatched
/// adjoint the search directions lose conjugacy and the iteration can diverge. Undamped CGLS is
/// itself a regulariser by early stopping: on noisy data the error against the truth falls,
/// reaches a minimum and rises again; the L-curve corner (LCurve.h) estimates that iteration.
/// A zero gradient (gamma = 0: x already solves the problem) ends with TerminationReason
/// Breakdown and status OK. Cost per iteration: one forward and one adjoint projection.
/// Threading: the caller's thread; the operator and vector helpers use ctx.threads.

#include <span>

#include "core/solvers/SolverSupport.h"

namespace tomo {

struct CglsOptions : SolverOptions {
    double lambda = 0;  ///< Tikhonov damping lambda >= 0 (0 = plain least squares)
};

/// CGLS. @p x holds the starting image on entry and the result on return.
/// summary.algorithm = "cgls"; IterationInfo::regularizer = lambda^2 ||x||^2.
Status solveCgls(LinearOperator& op, std::span<const float> b, std::span<float> x,
                 const CglsOptions& options, const IterationCallback& onIteration,
                 SolverSummary& summary, const ExecContext& ctx);

}  // namespace tomo
