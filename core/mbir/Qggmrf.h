#pragma once
/// @file Qggmrf.h
/// @brief The q-GGMRF prior of MBIR (J.-B. Thibault, K. Sauer, C. Bouman, J. Hsieh, "A
/// three-dimensional statistical approach to improved image quality for multislice helical CT",
/// Med. Phys. 34(11), 2007, doi:10.1118/1.2789499), its symmetric quadratic surrogate, and the
/// neighbourhood weights b_jk.
///
/// Potential, for a difference d between neighbours:
///     rho(d) = (|d|^p / (p sigma_x^p)) / (1 + |d / (T sigma_x)|^(p - q)),
/// quadratic near 0 (exponent p) and like |d|^q far from it (edge preserving), with
/// 1 <= q <= p <= 2. Convention: p is the exponent near zero and q the one for large
/// differences, as in Thibault et al. and paper 004's digest. svmbir and mbirjax name them the
/// other way round (their p = 1.2 is our q, their q = 2 our p); the defaults p = 2, q = 1.2,
/// T = 1 are the same shape as svmbir's defaults, not the same weight: svmbir's potential is
/// |d|^1.2 / (1.2 sigma_x^1.2) u / (1 + u) (1 / 1.2 where ours has 1 / 2 near 0), normalised
/// over 10 neighbours also on one slice (docs/mbir.md: 1.29 times ours on a slice).
///
/// Neighbourhood: 8 neighbours in a slice (weight 1 for the 4 nearest, 1/sqrt 2 for the
/// diagonals) and, for stacks, 2 across slices (weight 1), normalised to sum 1 over the
/// neighbours a voxel has in the full grid shape (svmbir normalises over 10 always).

#include <array>

#include "core/base/Status.h"

namespace tomo {

struct QggmrfParams {
    double p = 2.0;       ///< exponent near zero, in [1, 2]
    double q = 1.2;       ///< exponent for large differences, in [1, p]
    double T = 1.0;       ///< threshold in units of sigma_x (> 0)
    double sigmaX = 1.0;  ///< scale, attenuation per length unit (> 0)

    Status validate() const;  ///< InvalidArgument naming the offending parameter
};

class Qggmrf {
  public:
    explicit Qggmrf(const QggmrfParams& params);

    /// rho(d).
    double potential(double d) const;
    /// rho'(d) / (2 d), the surrogate coefficient: rho(t) <= rho(d) + a (t^2 - d^2) for all t,
    /// with a = surrogate(d) (tight at t = +-d). Finite at d = 0 for p = 2 (1 / (2 sigma_x^2));
    /// for p < 2, |d| is floored at 1e-6 T sigma_x.
    double surrogate(double d) const;

    const QggmrfParams& params() const { return m_params; }

  private:
    QggmrfParams m_params;
    double m_invSigmaP = 1;  ///< 1 / sigma_x^p
    double m_invTs = 1;      ///< 1 / (T sigma_x)
    double m_floor = 0;
};

/// Neighbour weights of one voxel: in-slice nearest, in-slice diagonal, across slices.
struct NeighbourWeights {
    float nearest = 0, diagonal = 0, across = 0;
};
/// Normalised weights for a stack of @p slices (across = 0 for one slice).
NeighbourWeights neighbourWeights(int slices);

}  // namespace tomo
