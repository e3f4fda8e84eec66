#pragma once
/// @file VectorOps.h
/// @brief The vector helpers every solver is written with (LinearOperator.h): dot products,
/// norms, y = a x + b y, fills and element-wise products over flat float vectors in host memory.
///
/// Reductions accumulate in double over fixed blocks of kVectorBlock elements and add the block
/// sums in index order, so results are bit-identical for every thread count. Element-wise
/// operations are split over ctx.threads workers (0 = all hardware threads); ctx.stop and
/// ctx.progress are not used (each call is a single memory pass, far below 50 ms per block).
/// Sizes must match; a mismatch is a programming error caught by assert in debug builds, and
/// the functions then touch only the common prefix.

#include <cstddef>
#include <span>

#include "core/base/ExecContext.h"

namespace tomo {

/// Elements per work item (and per partial sum) of the vector helpers.
inline constexpr std::size_t kVectorBlock = 1 << 15;

/// @p local summed over the ranks of ctx.across (CrossRankSum.h), or @p local without it. The
/// reductions below (dot, norm, rmsDifference) go through it: with ctx.across set, each rank
/// passes its part of the vectors and gets the whole vectors' result.
double sumAcrossRanks(double local, const ExecContext& ctx);
/// sum_i a[i] * b[i] in double.
double dot(std::span<const float> a, std::span<const float> b, const ExecContext& ctx = {});
/// sqrt(dot(a, a)).
double norm(std::span<const float> a, const ExecContext& ctx = {});
/// y = alpha * x + beta * y.
void axpby(double alpha, std::span<const float> x, double beta, std::span<float> y,
           const ExecContext& ctx = {});
/// y[i] = value.
void fill(std::span<float> y, float value, const ExecContext& ctx = {});
/// y[i] *= w[i].
void multiply(std::span<const float> w, std::span<float> y, const ExecContext& ctx = {});
/// y[i] = max(y[i], 0) (the non-negativity projection).
void clampNonNegative(std::span<float> y, const ExecContext& ctx = {});
/// w[i] = v[i] > eps ? 1 / v[i] : 0 (SIRT's row and column weights; rays or voxels the
/// operator never touches get weight 0 and are left alone).
void invertWeights(std::span<const float> v, std::span<float> w, float eps = 1e-12f,
                   const ExecContext& ctx = {});
/// sqrt(sum_i (a[i] - b[i])^2 / n), the RMSE of two vectors (0 for empty ones).
double rmsDifference(std::span<const float> a, std::span<const float> b,
                     const ExecContext& ctx = {});

}  // namespace tomo
