// The CPU cone back-projectors' slab accumulator: zeros without a memset up front (so a cancel
// is not kept waiting while hundreds of MiB are cleared on one thread), and a slab the machine
// cannot hold is an OutOfMemory message naming its size, never an abort.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ConeTestSupport.h"
#include "core/cone/ConeBackProjector.h"
#include "core/cone/ConeKernelSupport.h"

namespace tomo {
namespace {

TEST(ConeSlab, AFreshSlabIsZerosAndCanBeReleased) {
    cone::ZeroSlab slab;
    ASSERT_TRUE(slab.allocate(std::size_t{3} << 20).isOk());  // 12 MiB: above the mmap threshold
    ASSERT_EQ(slab.size(), std::size_t{3} << 20);
    EXPECT_TRUE(
        std::all_of(slab.data(), slab.data() + slab.size(), [](float v) { return v == 0; }));
    slab.data()[7] = 1.0f;
    ASSERT_TRUE(slab.allocate(1000).isOk());  // a second slab starts from zeros again
    EXPECT_TRUE(
        std::all_of(slab.data(), slab.data() + slab.size(), [](float v) { return v == 0; }));
    slab.reset();
    EXPECT_EQ(slab.size(), 0u);
    EXPECT_EQ(slab.data(), nullptr);
}

TEST(ConeSlab, ASlabTheMachineCannotHoldIsOutOfMemoryWithItsSize) {
    cone::ZeroSlab slab;
    const Status s = slab.allocate(std::numeric_limits<std::size_t>::max() / 8);
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(s.message().find("cone volume slab of"), std::string::npos) << s.message();
    EXPECT_EQ(slab.size(), 0u);
}

TEST(ConeSlab, EveryCpuVariantRefusesAnImpossibleSlabAndStaysUsable) {
    const test::ConeCase c = test::coneCase("ball", 40, 24);
    ConeBackProjectorRegistry registry;
    registerCpuConeBackProjectors(registry);
    // The largest grid the checks accept, 65536^3 voxels (1 PiB of floats): no machine holds it.
    const ConeVolumeGrid huge = ConeVolumeGrid::centred(1 << 16, 1 << 16, 1 << 16, 0.001);
    int refusedForMemory = 0;
    for (const ConeBackProjectorInfo& info : registry.list()) {
        SCOPED_TRACE(info.id);
        auto bp = registry.create(info.id).value();
        const Status refused = bp->begin(c.geometry, huge, 0, huge.nz, ExecContext{});
        if (refused.code() == ErrorCode::InvalidArgument) continue;  // a symmetry or size check
        ASSERT_EQ(refused.code(), ErrorCode::OutOfMemory) << refused.message();
        ++refusedForMemory;
        ASSERT_TRUE(bp->begin(c.geometry, c.grid, 0, c.grid.nz, ExecContext{}).isOk());
        const Result<Volume> empty = bp->finish(ExecContext{});
        ASSERT_TRUE(empty.isOk());
        float largest = 0.0f;
        for (std::size_t r = 0; r < empty->dim(0) * empty->dim(1); ++r)
            for (float v : empty->rows().row(r))
                largest = std::max(largest, std::abs(v));
        EXPECT_EQ(largest, 0.0f);
    }
    EXPECT_EQ(refusedForMemory, 3);  // standard, symmetric and rows: the grid itself is valid
}

}  // namespace
}  // namespace tomo
