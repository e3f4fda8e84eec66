// ConeBackProjector::finishInto() on the CPU variants (the interface's default: finish()'s
// volume stored into the caller's): into NaN-filled memory on a grid whose rows have padding,
// every stored float is written - the bits of finish(), zeros in the padding; a volume of other
// dims is refused. The GPU variants' own finishInto (a download written once) is tested by
// tests/gpu/ConeBackProjectorTest.cpp on PoCL and CUDA.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "ConeTestSupport.h"
#include "core/cone/ConeBackProjector.h"
#include "core/cone/Fdk.h"

namespace tomo {
namespace {

TEST(ConeFinishInto, CpuVariantsWriteEveryStoredFloatOfTheCallersVolume) {
    ConeBackProjectorRegistry registry;
    registerCpuConeBackProjectors(registry);
    const test::ConeCase c = test::coneCase("ellipsoids:6:3", 360, 30);
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(45, 41, 48, 1.0);  // pitch 48
    const int first = 5, planes = 9;
    const ExecContext ctx;
    for (const ConeBackProjectorInfo& info : registry.list()) {
        if (!handles(info.needs, c.geometry.symmetry(grid))) continue;
        auto bp = registry.create(info.id).value();
        ASSERT_TRUE(bp->begin(c.geometry, grid, first, planes, ctx).isOk()) << info.id;
        ASSERT_TRUE(bp->add(0, c.projections, ctx).isOk()) << info.id;
        const Volume fresh = bp->finish(ctx).value();
        Volume wrong = Volume::create(planes, 41, 44).value();
        ASSERT_TRUE(bp->begin(c.geometry, grid, first, planes, ctx).isOk()) << info.id;
        EXPECT_EQ(bp->finishInto(wrong, ctx).code(), ErrorCode::InvalidArgument) << info.id;
        Volume into = Volume::createUninitialised(planes, 41, 45).value();
        const std::size_t stored = std::size_t(planes) * 41 * into.pitch();
        std::fill(into.data(), into.data() + stored, std::numeric_limits<float>::quiet_NaN());
        ASSERT_TRUE(bp->begin(c.geometry, grid, first, planes, ctx).isOk()) << info.id;
        ASSERT_TRUE(bp->add(0, c.projections, ctx).isOk()) << info.id;
        ASSERT_TRUE(bp->finishInto(into, ctx).isOk()) << info.id;
        EXPECT_EQ(std::memcmp(into.data(), fresh.data(), stored * sizeof(float)), 0) << info.id;
        std::size_t padding = 0;
        for (std::size_t r = 0; r < std::size_t(planes) * 41; ++r)
            for (std::size_t x = 45; x < into.pitch(); ++x)
                padding += into.data()[r * into.pitch() + x] != 0.0f;
        EXPECT_EQ(padding, 0u) << info.id;
    }
}

}  // namespace
}  // namespace tomo
