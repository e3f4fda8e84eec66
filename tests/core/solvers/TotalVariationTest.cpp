// TV (Chambolle-Pock): the TV value against hand-computed differences, and the objective
// 1/2 ||Ax - b||^2 + lambda TV(x) decreasing towards a minimiser that is piecewise constant.
#include <gtest/gtest.h>

#include <cmath>

#include "SolverTestSupport.h"
#include "core/solvers/TotalVariation.h"
#include "core/solvers/VectorOps.h"

namespace tomo {
namespace {

TEST(TotalVariation, IsotropicValueOfSmallImages) {
    // 2 x 3 image [[0, 1, 3], [2, 2, 2]]: per pixel sqrt(dx^2 + dy^2) with forward differences.
    const std::vector<float> x = {0, 1, 3, 2, 2, 2};
    const double expected =
        std::sqrt(1.0 + 4.0) + std::sqrt(4.0 + 1.0) + std::sqrt(0.0 + 1.0) + 0.0 + 0.0 + 0.0;
    EXPECT_NEAR(totalVariation(x, {1, 2, 3}), expected, 1e-12);
    // Two slices are independent: no difference across slices.
    std::vector<float> two = x;
    two.insert(two.end(), x.begin(), x.end());
    EXPECT_NEAR(totalVariation(two, {2, 2, 3}), 2 * expected, 1e-12);
}

double objective(LinearOperator& op, std::span<const float> b, std::span<const float> x,
                 double lambda, const VolumeShape& shape) {
    std::vector<float> r(op.rangeSize());
    EXPECT_TRUE(op.forward(x, r, {}).isOk());
    axpby(1.0, b, -1.0, r);
    const double rn = norm(r);
    return 0.5 * rn * rn + lambda * totalVariation(x, shape);
}

TEST(TotalVariation, ObjectiveDecreasesAndNoiseIsRemoved) {
    test::SmallProblem p = test::makeSmallProblem(24, 16);
    std::vector<float> b = p.data, noise = test::randomVector(b.size(), 3, -0.5f, 0.5f);
    axpby(1.0, noise, 1.0, b);
    TvOptions o;
    o.lambda = 2.0;
    o.shape = {1, 24, 24};
    o.reference = p.truth;
    SolverSummary summary;
    std::vector<float> x20(p.op->domainSize(), 0.f), x300(x20);
    o.iterations = 20;
    ASSERT_TRUE(solveTv(*p.op, b, x20, o, {}, summary, {}).isOk());
    o.iterations = 300;
    ASSERT_TRUE(solveTv(*p.op, b, x300, o, {}, summary, {}).isOk());
    EXPECT_EQ(summary.algorithm, "tv");
    const double f20 = objective(*p.op, b, x20, o.lambda, o.shape);
    const double f300 = objective(*p.op, b, x300, o.lambda, o.shape);
    EXPECT_LT(f300, f20);
    // The reported regulariser is lambda TV(x) of the result.
    EXPECT_NEAR(summary.history.back().regularizer, o.lambda * totalVariation(x300, o.shape),
                1e-6 * summary.history.back().regularizer);
    // Non-negativity holds and the TV solution is closer to the truth than plain least
    // squares would be on this noise (its error is well below the noise-free disc contrast).
    for (float v : x300)
        ASSERT_GE(v, 0.f);
    EXPECT_LT(*summary.history.back().error, 0.1);
    // Objective at the result is below the objective at the truth (it is a minimiser).
    EXPECT_LT(f300, objective(*p.op, b, p.truth, o.lambda, o.shape));
}

TEST(TotalVariation, NeedsShapeAndPositiveLambda) {
    test::SmallProblem p = test::makeSmallProblem(8, 6);
    std::vector<float> x(p.op->domainSize(), 0.f);
    SolverSummary summary;
    TvOptions o;
    EXPECT_EQ(solveTv(*p.op, p.data, x, o, {}, summary, {}).code(), ErrorCode::InvalidArgument);
    o.shape = {1, 8, 8};
    o.lambda = 0;
    EXPECT_EQ(solveTv(*p.op, p.data, x, o, {}, summary, {}).code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
