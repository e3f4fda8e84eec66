// iFDK's R x C grid (ConeGrid2d.h) and performance model (ConeScalingModel.h) against the
// inequalities and equations worked by hand, and the paper's own choices (R = 32 for 4096^3,
// R = 256 for 8192^3 on 16 GB V100s).

#include <gtest/gtest.h>

#include <algorithm>

#include <vector>

#include "core/cone/ConeGrid2d.h"
#include "core/cone/ConeScalingModel.h"

namespace tomo {
namespace {

constexpr std::size_t kGiB = std::size_t(1) << 30;

ConeProblem paper4k() {
    return {4096, 4096, 4096, 2048, 2048, 4096};
}

TEST(ConeGrid2d, ThePapersRowsForItsProblemsOnSixteenGigabyteGpus) {
    ConeGridLimits l;
    l.memory = 16 * kGiB;
    l.hostMemory = 96 * kGiB;  // 384 GB per node, 4 ranks
    for (int ranks : {32, 64, 128, 256}) {
        l.ranks = ranks;
        auto g = chooseConeRankGrid(paper4k(), l);
        ASSERT_TRUE(g.isOk()) << g.status().message();
        EXPECT_EQ(g->rows, 32);  // 4 (4096^3 / 16 + 2048^2 32) > 16 GiB: 16 rows do not fit
        EXPECT_EQ(g->columns, ranks / 32);
    }
    ConeProblem p8k = paper4k();
    p8k.nx = p8k.ny = p8k.nz = 8192;
    for (int ranks : {256, 2048}) {
        l.ranks = ranks;
        auto g = chooseConeRankGrid(p8k, l);
        ASSERT_TRUE(g.isOk()) << g.status().message();
        EXPECT_EQ(g->rows, 256);
    }
}

TEST(ConeGrid2d, TheLeastRowsThatFitTheDeviceInequalityExactly) {
    const ConeProblem p{64, 64, 64, 32, 16, 100};
    // Device side for R rows: 4 (64 64 ceil(64 / R) + 32 16 32).
    auto device = [&](int rows) { return std::size_t(4) * (64 * 64 * (64 / rows) + 32 * 16 * 32); };
    ConeGridLimits l;
    l.ranks = 8;
    l.batch = 32;
    l.hostMemory = kGiB;
    l.memory = device(1);
    EXPECT_EQ(chooseConeRankGrid(p, l)->rows, 1);
    l.memory = device(1) - 1;
    EXPECT_EQ(chooseConeRankGrid(p, l)->rows, 2);
    l.memory = device(4);
    EXPECT_EQ(chooseConeRankGrid(p, l)->rows, 4);
    EXPECT_EQ(coneRankBytes(p, 4, 2, 32).device, device(4));
    // Host side: 4 (32 16 G + 64 64 16) with G the largest column's views: 100 views are 4
    // batches of 32 (the last of 4 views); C = 2 columns hold 2 batches each, 64 and 36 views.
    EXPECT_EQ(coneRankBytes(p, 4, 2, 32).gathered, 64);
    EXPECT_EQ(coneRankBytes(p, 4, 2, 32).host, std::size_t(4) * (32 * 16 * 64 + 64 * 64 * 16));
    l.memory = kGiB;
    l.hostMemory = coneRankBytes(p, 4, 2, 32).host;
    l.rows = 4;
    EXPECT_TRUE(chooseConeRankGrid(p, l).isOk());
    l.hostMemory -= 1;
    auto refused = chooseConeRankGrid(p, l);
    ASSERT_FALSE(refused.isOk());
    EXPECT_NE(refused.status().message().find("64 filtered views"), std::string::npos)
        << refused.status().message();
}

TEST(ConeGrid2d, ForcedRowsOrColumnsAreCheckedAndRefusalsNameTheNumbers) {
    const ConeProblem p{64, 64, 64, 32, 16, 100};
    ConeGridLimits l;
    l.ranks = 6;
    l.rows = 4;
    auto r = chooseConeRankGrid(p, l);
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(r.status().message().find("R = 4 does not divide the 6 ranks"), std::string::npos);
    l.rows = 0;
    l.columns = 3;
    auto c = chooseConeRankGrid(p, l);
    ASSERT_TRUE(c.isOk());
    EXPECT_EQ(c->rows, 2);
    EXPECT_EQ(c->columns, 3);
    l.rows = 3;
    l.columns = 3;
    EXPECT_FALSE(chooseConeRankGrid(p, l).isOk());
    // Nothing fits: 1 MiB cannot hold even one plane and a batch at the most rows.
    ConeGridLimits tiny;
    tiny.ranks = 2;
    tiny.memory = 1 << 16;
    auto none = chooseConeRankGrid(p, tiny);
    ASSERT_FALSE(none.isOk());
    EXPECT_NE(none.status().message().find("no R x C grid of 2 ranks fits 32 x 16 x 100 -> 64 x "
                                           "64 x 64 in 0.1 MiB"),
              std::string::npos)
        << none.status().message();
    // More rows than planes.
    ConeGridLimits many;
    many.ranks = 8;
    many.rows = 8;
    EXPECT_FALSE(chooseConeRankGrid(ConeProblem{8, 8, 4, 8, 8, 10}, many).isOk());
}

TEST(ConeGrid2d, SlabsAndViewsPartitionTheVolumeAndTheViewsInWholeBatches) {
    for (int rows : {1, 2, 3, 4})
        for (int columns : {1, 2, 3, 5}) {
            const ConeRankGrid g{rows, columns};
            int next = 0;
            for (int r = 0; r < rows; ++r) {
                const ConeRange s = coneRowPlanes(g, 37, r);
                EXPECT_EQ(s.first, next);
                EXPECT_GE(s.count, 37 / rows);
                next = s.end();
            }
            EXPECT_EQ(next, 37);
            const int np = 181, batch = 16;
            next = 0;
            for (int c = 0; c < columns; ++c) {
                const ConeRange col = coneColumnViews(g, np, batch, c);
                EXPECT_EQ(col.first, next);
                EXPECT_EQ(col.first % batch, 0);
                // Batch b of the column on row b mod R: every row's share within one batch of
                // the others', together the column's views.
                int inColumn = 0, least = np, most = 0;
                for (int r = 0; r < rows; ++r) {
                    const int n = coneRankViewCount(g, np, batch, r, c);
                    inColumn += n;
                    least = std::min(least, n);
                    most = std::max(most, n);
                }
                EXPECT_EQ(inColumn, col.count);
                EXPECT_LE(most - least, batch);
                next = col.end();
            }
            EXPECT_EQ(next, np);
        }
    const ConeRankGrid g{2, 3};
    EXPECT_EQ(g.rankAt(1, 2), 5);
    EXPECT_EQ(g.rowOf(5), 1);
    EXPECT_EQ(g.columnOf(5), 2);
}

TEST(ConeScalingModel, TheEquationsWorkedByHand) {
    const ConeProblem p = paper4k();
    ConeModelConstants k;
    k.loadBytesPerSecond = 64.0 * kGiB;
    k.filterViewsPerSecond = 400;
    k.ranksPerNode = 4;
    k.allgatherBytesPerSecond = 8.0 * kGiB;
    k.backProjectGups = 200;
    k.pcieBytesPerSecond = 12.0 * kGiB;
    k.pcieLinks = 2;
    k.transposeBytesPerSecond = 256.0 * kGiB;
    k.reduceBytesPerSecond = 4.0 * kGiB;
    k.storeBytesPerSecond = 32.0 * kGiB;
    const ConeModelTimes t = coneModel(p, ConeRankGrid{32, 8}, k);
    const double view = 4.0 * 2048 * 2048;                               // 16 MiB
    EXPECT_DOUBLE_EQ(t.load, view * 4096 / (64.0 * kGiB));               // 1 s
    EXPECT_DOUBLE_EQ(t.filter, 4096.0 * 4 / (256 * 400));                // 0.16 s
    EXPECT_DOUBLE_EQ(t.allgather, view * 512 * 31 / 32 / (8.0 * kGiB));  // 0.97 s
    EXPECT_DOUBLE_EQ(t.h2d, view * 4 * 4096 / (8 * 24.0 * kGiB));        // 1.33 s
    EXPECT_DOUBLE_EQ(t.backProject, t.h2d + 2.0 * 512 / 200);            // + 5.12 s
    EXPECT_DOUBLE_EQ(t.transpose, 8.0 / 256);                            // 8 GiB
    EXPECT_DOUBLE_EQ(t.d2h, 32.0 / 24);                                  // 4 x 8 GiB
    EXPECT_DOUBLE_EQ(t.reduce, 8.0 / 4);
    EXPECT_DOUBLE_EQ(t.store, 256.0 / 32);
    EXPECT_DOUBLE_EQ(t.compute, t.backProject);
    EXPECT_DOUBLE_EQ(t.post, t.transpose + t.d2h + t.reduce + t.store);
    EXPECT_DOUBLE_EQ(t.runtime, t.compute + t.post);
    EXPECT_DOUBLE_EQ(t.sequential, t.load + t.filter + t.allgather + t.backProject + t.post);
    EXPECT_DOUBLE_EQ(t.gups, 4096.0 * 4096 * 4096 * 4096 / (t.runtime * kGiB));
    // One column: nothing to reduce; no device: no copies, no transpose.
    ConeModelConstants cpu = k;
    cpu.pcieBytesPerSecond = 0;
    cpu.transposeBytesPerSecond = 0;
    const ConeModelTimes one = coneModel(p, ConeRankGrid{256, 1}, cpu);
    EXPECT_EQ(one.reduce, 0.0);
    EXPECT_EQ(one.h2d, 0.0);
    EXPECT_EQ(one.d2h, 0.0);
    EXPECT_DOUBLE_EQ(one.backProject, 4096.0 * 4096 * 16 * 4096 / (200.0 * kGiB));
}

}  // namespace
}  // namespace tomo
