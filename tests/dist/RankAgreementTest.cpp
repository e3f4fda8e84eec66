// The agreement protocol and the communicator's collectives across MPI ranks (issue 16).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "DistTestEnvironment.h"
#include "core/dist/RankAgreement.h"

namespace tomo {
namespace {

Communicator& world() {
    return test::DistEnvironment::world();
}

TEST(RankAgreement, SumsInRankOrderOnEveryRank) {
    RankAgreement agreement(world());
    const int n = world().size(), me = world().rank();
    double v[2] = {1.0 + me, 0.1 * me};
    agreement.sum(v);
    EXPECT_EQ(v[0], n * (n + 1) / 2.0);
    double expected = 0;
    for (int r = 0; r < n; ++r)
        expected += 0.1 * r;  // rank order
    EXPECT_EQ(v[1], expected);
    EXPECT_EQ(agreement.fromRoot(me == 0 ? 7.0 : 3.0), 7.0);
    EXPECT_TRUE(agreement.agree(Status::ok()).isOk());
}

TEST(RankAgreement, AFailureReachesRanksThatAreStillSumming) {
    RankAgreement agreement(world());
    const int n = world().size(), me = world().rank(), bad = n - 1;
    double v[1] = {1.0};
    agreement.sum(v);  // one good round first
    ASSERT_EQ(v[0], double(n));
    if (me == bad) {
        const Status s = agreement.agree(outOfMemory("no room for slab 3"));
        EXPECT_EQ(s.code(), ErrorCode::OutOfMemory);
    } else {
        agreement.sum(v);  // meets the failure instead of a sum
        EXPECT_TRUE(std::isnan(v[0]));
        EXPECT_TRUE(agreement.stopToken().stop_requested());
        agreement.sum(v);  // no more communication: still NaN at once
        EXPECT_TRUE(std::isnan(v[0]));
    }
    const Status s = agreement.agree(cancelled());
    EXPECT_EQ(s.code(), ErrorCode::OutOfMemory);
    EXPECT_EQ(s.message(), "rank " + std::to_string(bad) + ": no room for slab 3");
}

TEST(RankAgreement, TheLowestFailingRankIsReported) {
    RankAgreement agreement(world());
    const int me = world().rank();
    const Status s = agreement.agree(me == 0 ? Status::ok() : invalidData("bad " + std::to_string(me)));
    if (world().size() == 1) return;
    EXPECT_EQ(s.code(), ErrorCode::InvalidData);
    EXPECT_EQ(s.message(), "rank 1: bad 1");
}

TEST(Communicator, ReduceSumInRankOrderMatchesTheSequentialSum) {
    const int n = world().size(), me = world().rank();
    std::vector<float> mine(1000), out(1000);
    for (std::size_t i = 0; i < mine.size(); ++i)
        mine[i] = std::sin(float(i) * 0.37f + float(me)) * 1e3f;
    ASSERT_TRUE(reduceSumInRankOrder(world(), mine, out, 0, 128).isOk());
    if (me != 0) return;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        float expected = 0.f;
        for (int r = 0; r < n; ++r)
            expected += std::sin(float(i) * 0.37f + float(r)) * 1e3f;
        ASSERT_EQ(out[i], expected) << i;
    }
}

TEST(Communicator, AllgatherAndSplit) {
    const int n = world().size(), me = world().rank();
    const int mine[2] = {me, 10 * me};
    std::vector<int> all(2 * std::size_t(n));
    ASSERT_TRUE(world()
                    .allgather(std::as_bytes(std::span<const int>(mine)),
                               std::as_writable_bytes(std::span<int>(all)))
                    .isOk());
    for (int r = 0; r < n; ++r) {
        EXPECT_EQ(all[2 * std::size_t(r)], r);
        EXPECT_EQ(all[2 * std::size_t(r) + 1], 10 * r);
    }
    auto half = world().split(me % 2, me);
    ASSERT_TRUE(half.isOk());
    EXPECT_EQ((*half)->size(), (n + 1 - me % 2) / 2);
    EXPECT_EQ((*half)->rank(), me / 2);
}

}  // namespace
}  // namespace tomo
