// GPU-ICD's layout cache (core/mbir/GpuIcdLayoutCache.h, issue 27 item 4), no device needed:
// one build per (geometry, SV side), the same immutable layout handed to every later solve and
// equal to a fresh build; another side or geometry builds anew; the least recent goes beyond
// `keep`; a refused build (over the budget) is an error and leaves nothing behind.
#include <gtest/gtest.h>

#include <filesystem>

#include <array>

#include "core/mbir/GpuIcdLayoutCache.h"
#include "core/mbir/MbirMatrix.h"

namespace tomo {
namespace {

struct Case {
    MbirSliceGeometry g;
    MbirMatrix a;
};

Case makeCase(int size, int views) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.1, kPi, views);
    p.detectorCount = int(size * 1.45);
    p.centerOfRotation = 0.5 * (p.detectorCount - 1) + 0.7;
    const MbirSliceGeometry g(*ParallelGeometry::create(p), {size, size, 1, 1.0});
    return {g, MbirMatrix::build(g, MbirEntryType::Uint8, {}).value()};
}

GpuIcdOptions side(int s) {
    GpuIcdOptions o;
    o.side = s;
    return o;
}

constexpr std::size_t kBudget = std::size_t(1) << 30;

// Issue 27 item 4: find() gives what memory or disk holds and builds nothing (GPU-ICD reads a
// layout this way on a thread beside its other setup, then builds only when it gets nothing).
TEST(GpuIcdLayoutCache, FindGivesWhatMemoryOrDiskHoldsAndBuildsNothing) {
    const Case c = makeCase(40, 60);
    const auto dir = std::filesystem::temp_directory_path() / "tomo-gpuicd-layout-find";
    std::filesystem::remove_all(dir);
    MbirMatrixSource source{};
    {
        GpuIcdLayoutCache cache(2, dir);
        EXPECT_EQ(cache.find(c.g, side(12), kBudget, &source), nullptr);
        EXPECT_EQ(cache.builds(), 0u);
        auto built = cache.get(c.g, c.a, side(12), kBudget, {});
        ASSERT_TRUE(built.isOk()) << built.status().message();
        EXPECT_EQ(cache.find(c.g, side(12), kBudget, &source), *built);
        EXPECT_EQ(source, MbirMatrixSource::Memory);
    }
    GpuIcdLayoutCache fresh(2, dir);  // a fresh process
    const auto read = fresh.find(c.g, side(12), kBudget, &source);
    ASSERT_NE(read, nullptr);
    EXPECT_EQ(source, MbirMatrixSource::Disk);
    EXPECT_EQ(read->chunkMeta,
              GpuIcdLayout::build(c.g, c.a, side(12), kBudget, {}).value().chunkMeta);
    EXPECT_EQ(fresh.find(c.g, side(12), 16, &source), read) << "kept in memory once read";
    EXPECT_EQ(fresh.find(c.g, side(9), kBudget, &source), nullptr);
    EXPECT_EQ(fresh.builds(), 0u);
    std::filesystem::remove_all(dir);
}

TEST(GpuIcdLayoutCache, OneBuildPerGeometryAndSideSharedByLaterSolves) {
    const Case c = makeCase(40, 60);
    GpuIcdLayoutCache cache;
    MbirMatrixSource built{};
    auto first = cache.get(c.g, c.a, side(12), kBudget, {}, &built);
    ASSERT_TRUE(first.isOk()) << first.status().message();
    EXPECT_EQ(built, MbirMatrixSource::Built);
    auto again = cache.get(c.g, c.a, side(12), kBudget, {}, &built);
    ASSERT_TRUE(again.isOk());
    EXPECT_EQ(built, MbirMatrixSource::Memory);
    EXPECT_EQ(again->get(), first->get());  // the same object: nothing rebuilt or copied
    EXPECT_EQ(cache.builds(), 1u);

    const GpuIcdLayout fresh = GpuIcdLayout::build(c.g, c.a, side(12), kBudget, {}).value();
    EXPECT_EQ((*again)->tileRows, fresh.tileRows);
    EXPECT_EQ((*again)->chunkMeta, fresh.chunkMeta);
    EXPECT_EQ((*again)->order, fresh.order);
    EXPECT_EQ((*again)->svBase, fresh.svBase);

    auto other = cache.get(c.g, c.a, side(9), kBudget, {}, &built);  // another SV side
    ASSERT_TRUE(other.isOk());
    EXPECT_EQ(built, MbirMatrixSource::Built);
    EXPECT_EQ((*other)->side, 9);
    EXPECT_NE(GpuIcdLayoutCache::key(c.g, side(12)), GpuIcdLayoutCache::key(c.g, side(9)));
    EXPECT_EQ(cache.builds(), 2u);
}

TEST(GpuIcdLayoutCache, AnotherGeometryBuildsAndTheLeastRecentGoes) {
    const Case a = makeCase(40, 60), b = makeCase(40, 61);
    ASSERT_NE(a.g.key(), b.g.key());
    GpuIcdLayoutCache cache(1);
    ASSERT_TRUE(cache.get(a.g, a.a, side(12), kBudget, {}).isOk());
    ASSERT_TRUE(cache.get(b.g, b.a, side(12), kBudget, {}).isOk());
    EXPECT_EQ(cache.builds(), 2u);
    MbirMatrixSource built{};
    ASSERT_TRUE(cache.get(a.g, a.a, side(12), kBudget, {}, &built).isOk());  // a was evicted
    EXPECT_EQ(built, MbirMatrixSource::Built);
    EXPECT_EQ(cache.builds(), 3u);
}

TEST(GpuIcdLayoutCache, ARefusedBuildIsAnErrorAndKeepsNothing) {
    const Case c = makeCase(40, 60);
    GpuIcdLayoutCache cache;
    auto refused = cache.get(c.g, c.a, side(12), 1024, {});
    ASSERT_FALSE(refused.isOk());
    EXPECT_EQ(refused.status().code(), ErrorCode::OutOfMemory) << refused.status().message();
    EXPECT_EQ(cache.builds(), 0u);
    MbirMatrixSource built{};
    ASSERT_TRUE(cache.get(c.g, c.a, side(12), kBudget, {}, &built).isOk());
    EXPECT_EQ(built, MbirMatrixSource::Built);
}

// The device side of the reuse (IcdResidentLayout; CUDA keeps one per device context): a
// device holding layout A uploads only the state for A again, everything for another layout B,
// for a rebuilt A (a new identity) and after its buffers were freed or reallocated.
TEST(GpuIcdLayoutCache, ADeviceUploadsALayoutOnceAndTheStateEverySolve) {
    const Case c = makeCase(40, 60);
    GpuIcdLayoutCache cache;
    const auto a = cache.get(c.g, c.a, side(12), kBudget, {}).value();
    const auto b = cache.get(c.g, c.a, side(9), kBudget, {}).value();
    const GpuIcdLayout rebuilt = GpuIcdLayout::build(c.g, c.a, side(12), kBudget, {}).value();
    EXPECT_NE(a->id, 0u);
    EXPECT_NE(a->id, b->id);
    EXPECT_NE(a->id, rebuilt.id);
    EXPECT_EQ(cache.get(c.g, c.a, side(12), kBudget, {}).value()->id, a->id);

    // Buffers at fixed handles (the device context's), one moved.
    std::array<int, kIcdBufferCount> memory{};
    std::array<const void*, kIcdBufferCount> at{};
    for (int k = 0; k < kIcdBufferCount; ++k)
        at[std::size_t(k)] = &memory[std::size_t(k)];
    auto uploads = [&](const IcdResidentLayout& r, const GpuIcdLayout& l) {
        int n = 0;
        for (int k = 0; k < kIcdBufferCount; ++k)
            n += r.needsUpload(l, k, at[std::size_t(k)]) ? 1 : 0;
        return n;
    };
    const int layoutBuffers = kIcdViewRuns - kIcdTiles + 1;
    IcdResidentLayout resident;
    EXPECT_EQ(uploads(resident, *a), kIcdBufferCount);  // nothing on the device yet
    resident.loaded(*a, at);
    EXPECT_EQ(uploads(resident, *a), kIcdBufferCount - layoutBuffers);  // the next solve
    EXPECT_TRUE(resident.needsUpload(*a, kIcdImage, at[kIcdImage]));
    EXPECT_TRUE(resident.needsUpload(*a, kIcdError, at[kIcdError]));
    EXPECT_FALSE(resident.needsUpload(*a, kIcdTiles, at[kIcdTiles]));
    int moved = 0;
    EXPECT_TRUE(resident.needsUpload(*a, kIcdTiles, &moved));  // a buffer reallocated
    EXPECT_EQ(uploads(resident, *b), kIcdBufferCount);
    EXPECT_EQ(uploads(resident, rebuilt), kIcdBufferCount);
    resident.forget();
    EXPECT_EQ(uploads(resident, *a), kIcdBufferCount);
}

}  // namespace
}  // namespace tomo
