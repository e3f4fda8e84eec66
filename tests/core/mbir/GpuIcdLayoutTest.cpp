// GPU-ICD's host half (core/mbir/GpuIcd.h), no device needed: the chunked, zero-padded tiles
// (GpuIcdLayout::hostTiles, the reference of the device's build) hold exactly the 8-bit matrix
// (every entry where its view and channel say, nothing else), and
// the schedule launches batches of one colour spread over the image, visits every SV in the
// first pass and keeps paper 004's launch threshold in the partial ones. The kernels themselves are
// tested against PSV-ICD in tests/gpu/GpuIcdTest.cpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <numeric>
#include <set>

#include "core/mbir/GpuIcd.h"
#include "core/mbir/MbirMatrix.h"

namespace tomo {
namespace {

struct Slice {
    ParallelGeometry geom;
    VolumeGeometry vol;
};

Slice slice(int size, int views, double centerShift = 0.0) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.1, kPi, views);
    p.detectorCount = int(size * 1.45);
    p.centerOfRotation = 0.5 * (p.detectorCount - 1) + centerShift;
    return {*ParallelGeometry::create(p), {size, size, 1, 1.0}};
}

TEST(GpuIcdLayout, TilesHoldExactlyTheEightBitMatrix) {
    const Slice s = slice(45, 70, 1.3);  // 70 views: a last chunk of 6 views
    const MbirSliceGeometry g(s.geom, s.vol);
    auto a = MbirMatrix::build(g, MbirEntryType::Uint8, {});
    ASSERT_TRUE(a.isOk()) << a.status().message();
    GpuIcdOptions o;
    o.side = 13;
    auto l = GpuIcdLayout::build(g, *a, o, std::size_t(1) << 30, {});
    ASSERT_TRUE(l.isOk()) << l.status().message();
    EXPECT_EQ(l->chunks, 3);
    EXPECT_EQ(l->pitch, 96);
    EXPECT_EQ(l->svCount(), 16u);  // 4 x 4 SVs of 13 (the last ones 6 wide)
    const auto tiles = l->hostTiles(g, *a, {});
    ASSERT_TRUE(tiles.isOk()) << tiles.status().message();
    ASSERT_EQ(tiles->size(), l->tileBytes());
    std::uint64_t tileSum = 0, matrixSum = 0;
    for (std::uint8_t c : *tiles)
        tileSum += c;
    const int svx = 4;
    for (int iy = 0; iy < g.ny(); ++iy)
        for (int ix = 0; ix < g.nx(); ++ix) {
            const std::size_t j = std::size_t(iy) * g.nx() + ix;
            EXPECT_EQ(l->scale[j], a->scale(j));
            const std::size_t sv = std::size_t(iy / 13) * svx + std::size_t(ix / 13);
            for (int v = 0; v < g.views(); ++v) {
                const int c = v / kIcdChunkViews;
                const std::uint32_t first = l->chunkMeta[2 * (j * l->chunks + c)];
                const std::uint32_t word = l->chunkMeta[2 * (j * l->chunks + c) + 1];
                const int rowStart = int(word & 0xffffu), rowCount = int(word >> 16);
                for (int k = 0; k < g.count(v); ++k) {
                    const int row = g.firstChannel(v, ix, iy) + k -
                                    l->svBase[sv * std::size_t(g.views()) + std::size_t(v)];
                    ASSERT_GE(row, rowStart);
                    ASSERT_LT(row, rowStart + rowCount);
                    ASSERT_LT(row, l->rows) << "outside the SVB";
                    const std::uint8_t code = a->codes(j)[g.offset(v) + std::size_t(k)];
                    matrixSum += code;
                    ASSERT_EQ((*tiles)[(std::size_t(first) + std::size_t(row - rowStart)) *
                                           kIcdChunkViews +
                                       std::size_t(v % kIcdChunkViews)],
                              code)
                        << "voxel " << ix << "," << iy << " view " << v << " entry " << k;
                }
            }
        }
    EXPECT_EQ(tileSum, matrixSum) << "entries outside the voxel's runs";
    ExecContext one;
    one.threads = 1;  // the rows of the image on one thread give the same tiles
    EXPECT_EQ(l->hostTiles(g, *a, one).value(), *tiles);
    // The tables of the device's build: the geometry's channel terms and runs.
    EXPECT_EQ(l->channelTerms.size(), 3 * std::size_t(g.views()) + 45 + 45 + 1);
    ASSERT_EQ(l->viewRuns.size(), 2 * std::size_t(g.views()));
    for (int v = 0; v < g.views(); ++v) {
        EXPECT_EQ(std::size_t(l->viewRuns[std::size_t(v)]), g.offset(v));
        EXPECT_EQ(l->viewRuns[std::size_t(g.views() + v)], g.count(v));
    }
    EXPECT_EQ(l->columnSize, a->columnSize());
    // Each SV lists its own voxels once.
    std::set<std::int32_t> all(l->order.begin(), l->order.end());
    EXPECT_EQ(all.size(), g.voxels());
}

TEST(GpuIcdLayout, RefusesFloatEntriesAndChecksTheBudget) {
    const Slice s = slice(24, 30);
    const MbirSliceGeometry g(s.geom, s.vol);
    auto f = MbirMatrix::build(g, MbirEntryType::Float, {});
    ASSERT_TRUE(f.isOk());
    auto refused = GpuIcdLayout::build(g, *f, {}, std::size_t(1) << 30, {});
    ASSERT_FALSE(refused.isOk());
    EXPECT_NE(refused.status().message().find("matrix=uint8"), std::string::npos);
    auto a = MbirMatrix::build(g, MbirEntryType::Uint8, {});
    auto small = GpuIcdLayout::build(g, *a, {}, 1000, {});
    ASSERT_FALSE(small.isOk());
    EXPECT_EQ(small.status().code(), ErrorCode::OutOfMemory);
    EXPECT_NE(small.status().message().find("budget"), std::string::npos);
}

/// Records the launches of the schedule (no kernels run).
class RecordingDevice final : public IcdDevice {
  public:
    std::string name() const override { return "recorder"; }
    std::size_t memoryBudget() const override { return std::size_t(1) << 30; }
    Status load(const GpuIcdLayout&, const MbirMatrix&, const GpuIcdOptions&,
                const IcdKernelConstants&, int, const std::vector<float>&,
                const std::vector<float>&, const std::vector<float>&) override {
        return Status::ok();
    }
    Status beginPass(const std::vector<std::int32_t>& svs, std::uint32_t, bool) override {
        list = svs;
        batches.clear();
        return Status::ok();
    }
    Status runBatch(int first, int count) override {
        batches.emplace_back(first, count);
        return Status::ok();
    }
    Status endPass(std::vector<float>& moved, std::vector<std::int32_t>& updates) override {
        moved.assign(list.size(), 0.f);
        for (std::size_t i = 0; i < list.size(); ++i)
            moved[i] = float(list[i]);  // a made-up update amount: larger for later SVs
        updates.assign(list.size(), 1);
        return Status::ok();
    }
    Status read(std::vector<float>&, std::vector<float>&) override { return Status::ok(); }
    Status readTiles(std::vector<std::uint8_t>&) override { return Status::ok(); }
    void setTimeline(Timeline*) override {}

    std::vector<std::int32_t> list;
    std::vector<std::pair<int, int>> batches;
};

TEST(GpuIcdPlan, BatchesKeepOneColourAndTheLaunchThreshold) {
    const Slice s = slice(100, 40);
    const MbirSliceGeometry g(s.geom, s.vol);
    auto a = MbirMatrix::build(g, MbirEntryType::Uint8, {});
    GpuIcdOptions o;
    o.side = 5;  // 400 SVs, 100 of each colour
    o.batch = 16;
    auto l = GpuIcdLayout::build(g, *a, o, std::size_t(1) << 30, {});
    ASSERT_TRUE(l.isOk());
    RecordingDevice device;
    GpuIcdPlan plan(*l, o, device);
    PsvIterationStats stats;
    ASSERT_TRUE(plan.iterate(1, {}, stats, false).isOk());
    EXPECT_EQ(device.list.size(), 400u) << "the first pass visits every SV";
    EXPECT_EQ(stats.visited, g.voxels());
    for (const auto& [first, count] : device.batches) {
        EXPECT_LE(count, 16);
        for (int i = first; i < first + count; ++i)
            EXPECT_EQ(l->colour[std::size_t(device.list[std::size_t(i)])],
                      l->colour[std::size_t(device.list[std::size_t(first)])]);
    }
    // A batch is spread over the image (its SVs share one stale error sinogram): the first one
    // reaches more than half of the 10 SV rows of its colour, where rows in order would be 2.
    std::set<int> rows;
    for (int i = 0; i < device.batches.front().second; ++i)
        rows.insert(device.list[std::size_t(i)] / 20);
    EXPECT_GT(rows.size(), 5u);
    // Pass 2: the top 25% by update (100 SVs, the highest indices), colour by colour; a colour's
    // leftover below 16 / 4 after its first batch waits.
    ASSERT_TRUE(plan.iterate(2, {}, stats, true).isOk());
    for (const auto& [first, count] : device.batches) {
        const bool sameColour =
            first > 0 && l->colour[std::size_t(device.list[std::size_t(first)])] ==
                             l->colour[std::size_t(device.list[std::size_t(first - 1)])];
        if (sameColour) {
            EXPECT_GE(count, 4);
        }
    }
    for (std::int32_t sv : device.list)
        EXPECT_GE(sv, 300 - 20) << "not among the largest updates";
    EXPECT_LE(device.list.size(), 100u);
    EXPECT_GE(device.list.size(), 100u - 4 * 3);
}

// Issue 27 item 4: a stack is one problem. Entries are z * svCount + sv; a launch never holds two
// SVs with neighbouring voxels (3-D checkerboard: in-slice colour and slice parity), takes at
// most `batch` SVs of any one slice (they share that slice's error sinogram) and up to
// ceil(slices / 2) slices (icdLaunchSize, what the device allocates); the first pass visits every
// SV of every slice once.
TEST(GpuIcdPlan, AStackIsOnePassOverEverySliceWithNoNeighboursInALaunch) {
    const Slice s = slice(100, 40);
    const MbirSliceGeometry g(s.geom, s.vol);
    auto a = MbirMatrix::build(g, MbirEntryType::Uint8, {});
    GpuIcdOptions o;
    o.side = 5;  // 400 SVs of 20 x 20 per slice
    o.batch = 8;
    auto l = GpuIcdLayout::build(g, *a, o, std::size_t(1) << 30, {});
    ASSERT_TRUE(l.isOk());
    const int slices = 5;
    EXPECT_EQ(icdLaunchSize(8, slices), 24);  // 3 slices of a parity, 8 each
    EXPECT_EQ(icdLaunchSize(8, 1), 8);
    EXPECT_EQ(icdLaunchSize(64, 40), 256);  // kIcdMaxLaunch
    EXPECT_GT(l->deviceBytes(8, slices), l->deviceBytes(8, 1) + 4 * g.voxels() * 4);
    RecordingDevice device;
    GpuIcdPlan plan(*l, o, device, slices);
    PsvIterationStats stats;
    ASSERT_TRUE(plan.iterate(1, {}, stats, false).isOk());
    ASSERT_EQ(device.list.size(), 400u * slices);
    EXPECT_EQ(stats.visited, g.voxels() * slices);
    std::set<std::int32_t> seen(device.list.begin(), device.list.end());
    EXPECT_EQ(seen.size(), device.list.size());
    for (const auto& [first, count] : device.batches) {
        EXPECT_LE(count, 24);
        std::map<int, int> perSlice;
        for (int i = first; i < first + count; ++i) {
            const int e = device.list[std::size_t(i)], sv = e % 400, z = e / 400;
            ++perSlice[z];
            for (int k = first; k < i; ++k) {  // no neighbours: same SV in the next slice, or
                const int f = device.list[std::size_t(k)], tv = f % 400, y = f / 400;
                const int dx = std::abs(sv % 20 - tv % 20), dy = std::abs(sv / 20 - tv / 20);
                EXPECT_FALSE(sv == tv && std::abs(z - y) == 1)
                    << "SV " << sv << " in slices " << z << " and " << y;
                EXPECT_FALSE(z == y && dx <= 1 && dy <= 1) << "adjacent SVs in slice " << z;
            }
        }
        for (const auto& [z, n] : perSlice)
            EXPECT_LE(n, 8) << "slice " << z;
    }
    // Launches fill up across slices: per colour (4 in-slice x 2 parities), the 100 SVs of each
    // of its 3 or 2 slices in ceil(100 / 8) launches, not 13 per slice.
    EXPECT_EQ(device.batches.size(), 8u * 13u);
}

}  // namespace
}  // namespace tomo
