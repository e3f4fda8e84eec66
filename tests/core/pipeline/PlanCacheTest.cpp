// The device plan cache (core/pipeline/PlanCache.h, CUDA's cuFFT plans): bounded however many
// chunk shapes a session sees, a kept shape is never planned twice, a plan in use survives its
// eviction, a failed plan is not kept.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>

#include "core/pipeline/PlanCache.h"

namespace tomo {
namespace {

/// A stand-in plan that counts how many of it exist (a cuFFT plan and its work area).
struct CountedPlan {
    explicit CountedPlan(int* alive, int id) : alive(alive), id(id) { ++*alive; }
    CountedPlan(CountedPlan&& o) noexcept : alive(o.alive), id(o.id) { o.alive = nullptr; }
    CountedPlan(const CountedPlan&) = delete;
    CountedPlan& operator=(const CountedPlan&) = delete;
    CountedPlan& operator=(CountedPlan&&) = delete;
    ~CountedPlan() {
        if (alive) --*alive;
    }
    int* alive;
    int id;
};

using Key = std::array<int, 2>;  // (padded width, rows per batch), as CUDA's row filter keys it

TEST(PlanCache, EveryChunkSizeOfASessionKeepsAtMostTheCapacity) {
    int alive = 0;
    PlanCache<Key, CountedPlan> cache(4);
    // FBP's row filter plans (n, rows of a block); the block follows the chunk, so a session of
    // previews with 1..300 slices of 7 angles asks for 300 shapes.
    for (int rows = 7; rows <= 2100; rows += 7) {
        auto plan = cache.get(Key{4096, rows}, [&] { return Result(CountedPlan(&alive, rows)); });
        ASSERT_TRUE(plan.isOk());
        EXPECT_EQ((*plan)->id, rows);
        EXPECT_LE(cache.size(), 4u);
    }
    EXPECT_EQ(cache.made(), 300u);
    EXPECT_EQ(alive, 4);  // the evicted plans were destroyed
}

TEST(PlanCache, AKeptShapeIsNotPlannedAgainAndTheLeastRecentGoesFirst) {
    int alive = 0;
    PlanCache<Key, CountedPlan> cache(2);
    auto make = [&](int id) { return [&alive, id] { return Result(CountedPlan(&alive, id)); }; };
    const auto a = *cache.get(Key{512, 1}, make(1));
    ASSERT_TRUE(cache.get(Key{512, 2}, make(2)).isOk());
    EXPECT_EQ(*cache.get(Key{512, 1}, make(99)), a);  // a hit: the same plan, nothing made
    EXPECT_EQ(cache.made(), 2u);
    ASSERT_TRUE(cache.get(Key{512, 3}, make(3)).isOk());  // drops (512, 2), used least recently
    EXPECT_EQ((*cache.get(Key{512, 1}, make(98)))->id, 1);
    EXPECT_EQ((*cache.get(Key{512, 2}, make(4)))->id, 4);  // planned again
    EXPECT_EQ(cache.made(), 4u);
}

TEST(PlanCache, APlanInUseOutlivesItsEviction) {
    int alive = 0;
    PlanCache<Key, CountedPlan> cache(1);
    std::shared_ptr<CountedPlan> held =
        *cache.get(Key{256, 8}, [&] { return Result(CountedPlan(&alive, 1)); });
    ASSERT_TRUE(cache.get(Key{256, 16}, [&] { return Result(CountedPlan(&alive, 2)); }).isOk());
    EXPECT_EQ(cache.size(), 1u);
    EXPECT_EQ(alive, 2);  // the held plan is out of the cache but not destroyed
    EXPECT_EQ(held->id, 1);
    held.reset();
    EXPECT_EQ(alive, 1);
}

TEST(PlanCache, AFailedPlanIsNotKept) {
    int alive = 0;
    PlanCache<Key, CountedPlan> cache(4);
    auto failed = cache.get(Key{8192, 4096}, [] {
        return Result<CountedPlan>(Status(ErrorCode::OutOfMemory, "cufftPlanMany: out of memory"));
    });
    ASSERT_FALSE(failed.isOk());
    EXPECT_EQ(failed.status().code(), ErrorCode::OutOfMemory);
    EXPECT_EQ(cache.size(), 0u);
    EXPECT_TRUE(cache.get(Key{8192, 4096}, [&] { return Result(CountedPlan(&alive, 1)); }).isOk());
    EXPECT_EQ(cache.made(), 1u);
}

// OpenCL's context keeps its FFT applications type-erased (shared_ptr<void>), made shared.
TEST(PlanCache, KeepsPlansMadeSharedAndTypeErased) {
    int alive = 0;
    PlanCache<std::string, void> cache(2);
    for (int i = 0; i < 5; ++i) {
        auto kept =
            cache.get("vkfft.64." + std::to_string(i), [&]() -> Result<std::shared_ptr<void>> {
                return std::static_pointer_cast<void>(std::make_shared<CountedPlan>(&alive, i));
            });
        ASSERT_TRUE(kept.isOk());
        EXPECT_EQ(static_cast<CountedPlan*>(kept->get())->id, i);
    }
    EXPECT_EQ(cache.size(), 2u);
    EXPECT_EQ(alive, 2);
}

}  // namespace
}  // namespace tomo
