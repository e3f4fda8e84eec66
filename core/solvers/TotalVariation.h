#pragma once
/// @file TotalVariation.h
/// @brief Total-variation regularised reconstruction by the primal-dual algorithm of
/// Chambolle and Pock with diagonal preconditioning:
///   minimise 1/2 ||A x - b||^2 + lambda TV(x)   (optionally subject to x >= 0),
/// TV(x) = sum over pixels of sqrt((D_x x)^2 + (D_y x)^2), isotropic, per slice (2-D), with
/// forward differences between neighbouring pixels (unit spacing) and zero difference past the
/// last row and column (Neumann boundary). A. Chambolle, T. Pock, J. Math. Imaging Vis. 40(1),
/// 2011, doi:10.1007/s10851-010-0251-1; T. Pock, A. Chambolle, ICCV 2011,
/// doi:10.1109/ICCV.2011.6126441 (preconditioning); E. Y. Sidky, J. H. Jorgensen, X. Pan, Phys.
/// Med. Biol. 57(10), 2012, doi:10.1088/0031-9155/57/10/3065 (its use in CT).
///
/// With K = [A; D] the steps are tau_j = g / (sum_i A_ij + 4) (column sums of |K|) and
/// sigma_i = 1 / (g sum_j A_ij) for data rows, 1 / (2 g) for difference rows (row sums of |K|),
/// which needs no operator-norm estimate; g (`stepBalance`) trades primal against dual steps
/// without changing the convergence condition. g = 1 (the plain preconditioner) oscillated
/// through errors twice FBP's for hundreds of iterations on noisy Shepp-Logans; g = 0.05 reached
/// within 3% of the converged error in 100 iterations on 512^2 x 720 and 256^2 x 90 / 180 views
/// (docs/algorithms.md); the front door (reconstructIterative) now picks g from the data's
/// signal-to-noise ratio when lambda is automatic, 0.01 to 0.05 (docs/accuracy.md).
/// Per iteration:
///   p = (p + sigma (A xbar - b)) / (1 + sigma)       (prox of the data term's conjugate)
///   q = clip_lambda(q + sigma D xbar)                 (projection of each pixel's 2-vector)
///   x' = P(x - tau (A^T p + D^T q)),  xbar = 2 x' - x (P: clamp to x >= 0 if requested)
/// A xbar = 2 A x' - A x is formed from the forward projection of x', so one iteration costs
/// one forward and one adjoint projection, and ||A x' - b|| comes for free.
/// IterationInfo: residualNorm = ||A x - b||, solutionNorm = ||x||, regularizer = lambda TV(x).
///
/// Units: lambda is in (data unit)^2 per (image unit): with line integrals as data and
/// attenuation per length as image, lambda scales like detector pitch x length. The useful
/// range depends on the noise; sweepRegularization (IterativeReconstruction.h) or the GUI's
/// L-curve find it. The operator need not be matched (the algorithm uses A^T only through the
/// dual update), but with an unmatched pair the fixed point is that of the pair.
/// Threading: the caller's thread; the operator, differences and vector helpers use ctx.threads.

#include <span>

#include "core/solvers/SolverSupport.h"

namespace tomo {

struct TvOptions : SolverOptions {
    double lambda = 0.01;       ///< TV weight lambda > 0
    bool nonNegative = true;    ///< constrain x >= 0
    double stepBalance = 0.05;  ///< g above: primal steps times g, dual steps over g (> 0)
};

/// TV reconstruction; options.shape must give the volume's shape. @p x holds the starting
/// image on entry and the result on return. summary.algorithm = "tv".
Status solveTv(LinearOperator& op, std::span<const float> b, std::span<float> x,
               const TvOptions& options, const IterationCallback& onIteration,
               SolverSummary& summary, const ExecContext& ctx);

/// Isotropic total variation of @p x (shape @p shape), summed over all slices, in double.
double totalVariation(std::span<const float> x, const VolumeShape& shape,
                      const ExecContext& ctx = {});

}  // namespace tomo
