#pragma once
/// @file SubsetOperator.h
/// @brief A LinearOperator over a parallel-beam sinogram stack that can also project and
/// back-project a subset of its projection angles, as ordered-subset methods need (OS-SIRT,
/// SART). The range is laid out [slice][angle][detector] (LinearOperator.h); subset s of S is
/// the interleaved set of angles {p : p mod S = s}, so each subset covers the whole angular
/// range with S times the spacing (paper 001, §1.2: Palenstijn, Batenburg, Sijbers, J. Struct.
/// Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017).
///
/// Subset calls with S = 1 compute exactly what forward() and adjoint() compute; that is the
/// default forward() and adjoint() here, so an implementation needs only the subset calls
/// (it may still override both, e.g. with a faster whole-range path).

#include <string>

#include "core/solvers/LinearOperator.h"

namespace tomo {

/// InvalidArgument unless 1 <= subsets <= angles and 0 <= subset < subsets.
Status checkSubset(int subset, int subsets, int angles);

class SubsetOperator : public LinearOperator {
  public:
    virtual int angleCount() const = 0;     ///< projections per slice
    virtual int detectorCount() const = 0;  ///< detector pixels per projection row
    /// Slices of the stack: rangeSize() / (angleCount() * detectorCount()).
    std::size_t sliceCount() const {
        return rangeSize() /
               (static_cast<std::size_t>(angleCount()) * static_cast<std::size_t>(detectorCount()));
    }
    /// Writes the rows of the angles of subset @p subset of @p subsets in @p y (full range
    /// size) and leaves the other rows unchanged. InvalidArgument for sizes or a bad subset.
    virtual Status forwardSubset(std::span<const float> x, std::span<float> y, int subset,
                                 int subsets, const ExecContext& ctx) = 0;
    /// x = A_s^T y, reading only the rows of the subset's angles from @p y (full range size).
    virtual Status adjointSubset(std::span<const float> y, std::span<float> x, int subset,
                                 int subsets, const ExecContext& ctx) = 0;

    /// y = A x: forwardSubset() with subset 0 of 1.
    Status forward(std::span<const float> x, std::span<float> y, const ExecContext& ctx) override {
        return forwardSubset(x, y, 0, 1, ctx);
    }
    /// x = A^T y: adjointSubset() with subset 0 of 1.
    Status adjoint(std::span<const float> y, std::span<float> x, const ExecContext& ctx) override {
        return adjointSubset(y, x, 0, 1, ctx);
    }

  protected:
    /// The argument check of a subset call: InvalidArgument naming name() and the sizes unless
    /// @p x == domainSize() and @p y == rangeSize(), then checkSubset() against angleCount().
    Status checkSubsetCall(std::size_t x, std::size_t y, int subset, int subsets) const {
        if (x != domainSize() || y != rangeSize())
            return invalidArgument(name() + ": vectors of " + std::to_string(x) + " and " +
                                   std::to_string(y) + " values, expected " +
                                   std::to_string(domainSize()) + " and " +
                                   std::to_string(rangeSize()));
        return checkSubset(subset, subsets, angleCount());
    }
};

}  // namespace tomo
