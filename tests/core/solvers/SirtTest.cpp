// SIRT / OS-SIRT / SART on the matched Joseph pair: monotone residual on consistent data, the
// S = 1 identity, and the callback's Cancel / StopAndKeep semantics.
#include <gtest/gtest.h>

#include <stop_token>

#include "SolverTestSupport.h"
#include "core/solvers/Sirt.h"
#include "core/solvers/VectorOps.h"

namespace tomo {
namespace {

TEST(Sirt, ResidualDecreasesMonotonicallyOnConsistentData) {
    test::SmallProblem p = test::makeSmallProblem(24, 30);
    std::vector<float> x(p.op->domainSize(), 0.f);
    SirtOptions o;
    o.iterations = 60;
    o.reference = p.truth;
    SolverSummary summary;
    ASSERT_TRUE(solveSirt(*p.op, p.data, x, o, {}, summary, {}).isOk());
    ASSERT_EQ(summary.history.size(), 60u);
    EXPECT_EQ(summary.reason, TerminationReason::MaxIterations);
    EXPECT_EQ(summary.algorithm, "sirt");
    for (std::size_t k = 1; k < summary.history.size(); ++k)
        EXPECT_LE(summary.history[k].residualNorm, summary.history[k - 1].residualNorm * 1.000001)
            << "iteration " << k + 1;
    // Converging towards the truth: the residual falls well below ||b|| and so does the error.
    EXPECT_LT(summary.history.back().residualNorm, 0.05 * norm(p.data));
    ASSERT_TRUE(summary.history.back().error.has_value());
    EXPECT_LT(*summary.history.back().error, 0.5 * *summary.history.front().error);
    // The reported residual is that of the returned image.
    std::vector<float> r(p.op->rangeSize());
    ASSERT_TRUE(p.op->forward(x, r, {}).isOk());
    axpby(1.0, p.data, -1.0, r);
    EXPECT_NEAR(norm(r), summary.history.back().residualNorm, 1e-5 * norm(p.data));
}

TEST(Sirt, OsSirtWithOneSubsetEqualsSirt) {
    test::SmallProblem p = test::makeSmallProblem(20, 18);
    SirtOptions o;
    o.iterations = 7;
    o.relaxation = 1.3;
    o.nonNegative = true;
    std::vector<float> a(p.op->domainSize(), 0.f), b(a);
    SolverSummary sa, sb;
    ASSERT_TRUE(solveSirt(*p.op, p.data, a, o, {}, sa, {}).isOk());
    o.subsets = 1;
    ASSERT_TRUE(solveOsSirt(*p.op, p.data, b, o, {}, sb, {}).isOk());
    EXPECT_EQ(sb.algorithm, "os-sirt");
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_NEAR(a[i], b[i], 1e-6f * (1.f + std::abs(a[i]))) << i;
    for (std::size_t k = 0; k < sa.history.size(); ++k)
        EXPECT_NEAR(sa.history[k].residualNorm, sb.history[k].residualNorm,
                    1e-6 * sa.history[k].residualNorm);
}

TEST(Sirt, SubsetsConvergeFasterPerPassAndSartIsTheAngleLimit) {
    test::SmallProblem p = test::makeSmallProblem(20, 20);
    SirtOptions o;
    o.iterations = 3;
    std::vector<float> sirt(p.op->domainSize(), 0.f), os(sirt), sart(sirt);
    SolverSummary s1, s5, sa;
    ASSERT_TRUE(solveSirt(*p.op, p.data, sirt, o, {}, s1, {}).isOk());
    o.subsets = 5;
    ASSERT_TRUE(solveOsSirt(*p.op, p.data, os, o, {}, s5, {}).isOk());
    o.subsets = 20;
    o.relaxation = 0.5;
    ASSERT_TRUE(solveOsSirt(*p.op, p.data, sart, o, {}, sa, {}).isOk());
    EXPECT_EQ(sa.algorithm, "sart");
    EXPECT_LT(s5.history.back().residualNorm, s1.history.back().residualNorm);
    EXPECT_LT(sa.history.back().residualNorm, s1.history.back().residualNorm);
    o.subsets = 21;
    EXPECT_EQ(solveOsSirt(*p.op, p.data, sart, o, {}, sa, {}).code(), ErrorCode::InvalidArgument);
}

TEST(Sirt, CancelStopsWithinOneIteration) {
    test::SmallProblem p = test::makeSmallProblem(16, 12);
    std::vector<float> x(p.op->domainSize(), 0.f);
    SirtOptions o;
    o.iterations = 50;
    SolverSummary summary;
    int calls = 0;
    Status s = solveSirt(*p.op, p.data, x, o,
                         [&](const IterationInfo& info) {
                             ++calls;
                             return info.iteration == 3 ? IterationAction::Cancel
                                                        : IterationAction::Continue;
                         },
                         summary, {});
    EXPECT_EQ(s.code(), ErrorCode::Cancelled);
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(summary.iterations, 3);
    EXPECT_EQ(summary.reason, TerminationReason::Cancelled);

    // The job's stop token fired during iteration 2: no further iteration completes.
    std::stop_source stop;
    calls = 0;
    s = solveSirt(
        *p.op, p.data, x, o,
        [&](const IterationInfo& info) {
            ++calls;
            if (info.iteration == 2) stop.request_stop();
            return IterationAction::Continue;
        },
        summary, ExecContext{1, stop.get_token(), nullptr});
    EXPECT_EQ(s.code(), ErrorCode::Cancelled);
    EXPECT_EQ(calls, 2);
}

TEST(Sirt, StopAndKeepReturnsTheCurrentIterate) {
    test::SmallProblem p = test::makeSmallProblem(16, 12);
    SirtOptions o;
    o.iterations = 40;
    o.shape = {1, 16, 16};
    std::vector<float> x(p.op->domainSize(), 0.f), preview;
    SolverSummary summary;
    Status s = solveSirt(*p.op, p.data, x, o,
                         [&](const IterationInfo& info) {
                             if (info.iteration < 4) return IterationAction::Continue;
                             // Copy the preview the callback sees.
                             for (std::size_t r = 0; r < 16; ++r)
                                 for (float v : info.iterate->row(0, r))
                                     preview.push_back(v);
                             return IterationAction::StopAndKeep;
                         },
                         summary, {});
    ASSERT_TRUE(s.isOk()) << s.toString();
    EXPECT_EQ(summary.reason, TerminationReason::StoppedByCaller);
    EXPECT_EQ(summary.iterations, 4);
    ASSERT_EQ(preview.size(), x.size());
    EXPECT_EQ(preview, x);
    // And it is exactly the 4-iteration result.
    std::vector<float> four(p.op->domainSize(), 0.f);
    o.iterations = 4;
    ASSERT_TRUE(solveSirt(*p.op, p.data, four, o, {}, summary, {}).isOk());
    EXPECT_EQ(four, x);
}

TEST(Sirt, RejectsBadOptions) {
    test::SmallProblem p = test::makeSmallProblem(8, 6);
    std::vector<float> x(p.op->domainSize(), 0.f), shortX(3);
    SolverSummary summary;
    SirtOptions o;
    o.relaxation = 2.0;
    EXPECT_EQ(solveSirt(*p.op, p.data, x, o, {}, summary, {}).code(), ErrorCode::InvalidArgument);
    o.relaxation = 1.0;
    o.iterations = 0;
    EXPECT_EQ(solveSirt(*p.op, p.data, x, o, {}, summary, {}).code(), ErrorCode::InvalidArgument);
    o.iterations = 3;
    EXPECT_EQ(solveSirt(*p.op, p.data, shortX, o, {}, summary, {}).code(),
              ErrorCode::InvalidArgument);
}

TEST(Sirt, ToleranceStopsAsConverged) {
    test::SmallProblem p = test::makeSmallProblem(16, 16);
    std::vector<float> x(p.op->domainSize(), 0.f);
    SirtOptions o;
    o.iterations = 500;
    o.tolerance = 0.05;
    SolverSummary summary;
    ASSERT_TRUE(solveSirt(*p.op, p.data, x, o, {}, summary, {}).isOk());
    EXPECT_EQ(summary.reason, TerminationReason::Converged);
    EXPECT_LT(summary.iterations, 500);
    EXPECT_LE(summary.history.back().residualNorm, 0.05 * norm(p.data));
    EXPECT_GT(summary.history[summary.history.size() - 2].residualNorm, 0.05 * norm(p.data));
}

}  // namespace
}  // namespace tomo
