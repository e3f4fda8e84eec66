// The pass planner every GPU backend uses (core/projectors/PassPlan.h).
#include <gtest/gtest.h>

#include "core/projectors/PassPlan.h"

namespace tomo {
namespace {

PassLimits limits() {
    PassLimits l;
    l.slices = 10;
    l.slicesPerPass = 4;
    l.nx = 100;
    l.ny = 200;
    l.angles = 90;
    l.sinogramBytes = [](int chunk) { return std::size_t(chunk) * 1000; };
    l.updatesPerLaunch = 1e9;
    return l;
}

TEST(PassPlan, WholeJobWhenNothingLimitsIt) {
    auto p = planPasses(limits(), "test");
    ASSERT_TRUE(p.isOk());
    EXPECT_EQ(p->passes, 3);  // 4 + 4 + 2 slices
    EXPECT_EQ(p->bands, 1);
    EXPECT_EQ(p->bandRows, 200);
    EXPECT_EQ(p->angleChunk, 90);
    EXPECT_EQ(p->angleChunks, 1);
    EXPECT_EQ(p->projPerLaunch, 90);
    EXPECT_FALSE(p->smallest());
}

TEST(PassPlan, BudgetHalvesAngleChunksFirstThenBandsOf16Rows) {
    PassLimits l = limits();
    // Output band of 200 rows: 100 x 200 x 4 slices x 4 B = 320000 B, two of them.
    l.budget = 2 * 320000 + 2 * 1000;  // room for one-projection chunks only
    auto p = planPasses(l, "test");
    ASSERT_TRUE(p.isOk());
    EXPECT_EQ(p->angleChunk, 1);
    EXPECT_EQ(p->bandRows, 200);
    l.budget = 2 * 100 * 64 * 4 * 4 + 2 * 1000;  // bands of 64 rows
    p = planPasses(l, "test");
    ASSERT_TRUE(p.isOk());
    EXPECT_EQ(p->bandRows % 16, 0);
    EXPECT_LE(p->bandRows, 64);
    EXPECT_EQ(p->bands, (200 + p->bandRows - 1) / p->bandRows);
    EXPECT_LE(p->totalBytes, l.budget);
}

TEST(PassPlan, ShrinkAfterARefusalAndOutOfMemoryAtTheSmallest) {
    PassLimits l = limits();
    l.shrink = 3;  // 90 -> 45 -> 23 -> 12
    auto p = planPasses(l, "test");
    ASSERT_TRUE(p.isOk());
    EXPECT_EQ(p->angleChunk, 12);
    l.shrink = 24;
    p = planPasses(l, "test");
    ASSERT_TRUE(p.isOk());
    EXPECT_TRUE(p->smallest());
    l.budget = 100;  // nothing fits
    const auto none = planPasses(l, "variant x");
    EXPECT_EQ(none.status().code(), ErrorCode::OutOfMemory);
    EXPECT_NE(none.status().message().find("variant x"), std::string::npos);
}

TEST(PassPlan, LaunchesHoldWholeProjectionPhases) {
    PassLimits l = limits();
    l.updatesPerLaunch = 100 * 200 * 4 * 10.5;  // 10.5 projections per launch
    l.projectionAlign = 4;
    auto p = planPasses(l, "test");
    ASSERT_TRUE(p.isOk());
    EXPECT_EQ(p->projPerLaunch, 8);
}

}  // namespace
}  // namespace tomo
