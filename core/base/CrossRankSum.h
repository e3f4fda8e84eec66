#pragma once
/// @file CrossRankSum.h
/// @brief Sums over the processes that each hold a part of one distributed vector (MPI ranks,
/// core/dist): the reductions of the vector helpers (VectorOps.h) go through it when an
/// ExecContext carries one, so a solver written for one process runs across ranks unchanged.

#include <span>

namespace tomo {

class CrossRankSum {
  public:
    virtual ~CrossRankSum() = default;
    /// Replaces each of @p values by its sum over all ranks, added in rank order (the same bits
    /// on every rank and in every run with the same ranks). Every rank calls it the same number
    /// of times with the same count. After a rank has failed (core/dist/RankAgreement.h) the
    /// values become NaN and the caller's stop token is triggered.
    virtual void sum(std::span<double> values) = 0;
};

}  // namespace tomo
