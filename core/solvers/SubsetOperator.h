#pragma once
/// @file SubsetOperator.h
/// @brief A LinearOperator over a parallel-beam sinogram stack that can also project and
/// back-project a subset of its projection angles, as ordered-subset methods need (OS-SIRT,
/// SART). The range is laid out [slice][angle][detector] (LinearOperator.h); subset s of S is
/// the interleaved set of angles {p : p mod S = s}, so each subset covers the whole angular
/// range with S times the spacing (paper 001, §1.2: Palenstijn, Batenburg, Sijbers, J. Struct.
/// Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017).
///
/// Subset calls with S = 1 compute exactly what forward() and adjoint() compute.

#include "core/solvers/LinearOperator.h"

namespace tomo {

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
};

/// InvalidArgument unless 1 <= subsets <= angles and 0 <= subset < subsets.
Status checkSubset(int subset, int subsets, int angles);

}  // namespace tomo
