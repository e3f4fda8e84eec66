// The CUDA cone-beam variants beyond what ConeBackProjectorTest.cpp checks for every backend:
// their metadata without a device, and on a device the two fetch paths of shflBP (layered
// texture, __ldg) giving the same bits: they read the same texels and do the same arithmetic.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "ConeTestSupport.h"
#include "GpuTestSupport.h"
#include "gpu/cuda/cone/CudaConeBackProjector.h"
#include "gpu/cuda/cone/CudaConeBackProjectors.h"

namespace tomo {
namespace {

TEST(CudaCone, CompiledVariantsAreListedWithoutADevice) {
    std::set<std::string> ids;
    for (const ConeBackProjectorInfo& info : cuda::compiledConeVariants()) {
        ids.insert(info.id);
        EXPECT_EQ(info.backend, "cuda");
        EXPECT_EQ(info.needs,
                  info.family == "standard" ? ConeSymmetry::General : ConeSymmetry::Column)
            << info.id;
        EXPECT_FALSE(info.description.empty());
    }
    EXPECT_EQ(ids,
              (std::set<std::string>{"cuda.fdk.standard", "cuda.fdk.shfl.tex", "cuda.fdk.shfl.ldg",
                                     "cuda.fdk.shfl.ldg.column", "cuda.fdk.tile",
                                     "cuda.fdk.tile.pair", "cuda.fdk.tile.shared"}));
    ConeBackProjectorRegistry registry;
    cuda::registerCudaConeBackProjectors(registry, nullptr);  // no device: nothing
    EXPECT_TRUE(registry.list().empty());
    // On a Column or Mirror geometry the automatic choice is the paper's L1-Tran kernel.
    ConeBackProjectorRegistry all;
    for (const ConeBackProjectorInfo& info : cuda::compiledConeVariants())
        all.add(info, [] { return Result<std::unique_ptr<ConeBackProjector>>(unsupported("")); });
    EXPECT_EQ(all.choose(ConeSymmetry::Mirror, "cuda").value(), "cuda.fdk.shfl.ldg");
    EXPECT_EQ(all.choose(ConeSymmetry::General, "cuda").value(), "cuda.fdk.standard");
}

// The slab planner (runFdk) sizes slabs by bytesFor(): the texture fetch holds a batch twice
// (padded into scratch, then copied into the layered array), __ldg once; the shfl kernels add
// their transpose staging. Arithmetic only: no device needed.
TEST(CudaCone, TheSlabBudgetCountsEveryCopyOfABatch) {
    const std::size_t voxels = 512 * 512 * 64, batch = std::size_t(771) * 771 * cuda::kConeBatch;
    const std::size_t plane = 512 * 512;
    auto bytes = [&](bool symmetric, cuda::ConeFetch fetch, std::size_t v) {
        cuda::CudaConeBackProjector bp(ConeBackProjectorInfo{}, nullptr,
                                       cuda::CudaConeConfig{symmetric, true, fetch});
        return bp.bytesFor(plane, v / plane, batch);
    };
    using cuda::ConeFetch;
    EXPECT_EQ(bytes(false, ConeFetch::Texture, voxels), 4 * (voxels + 2 * batch));
    EXPECT_EQ(bytes(true, ConeFetch::Ldg, voxels), 4 * (2 * voxels + batch));
    EXPECT_EQ(bytes(true, ConeFetch::Texture, voxels),
              bytes(true, ConeFetch::Ldg, voxels) + 4 * batch);
    // Column-pair images (cuda.fdk.tile.pair) hold a batch in twice the floats.
    cuda::CudaConeConfig pairs{true, true, ConeFetch::Ldg, true, true};
    EXPECT_EQ(cuda::CudaConeBackProjector(ConeBackProjectorInfo{}, nullptr, pairs)
                  .bytesFor(plane, voxels / plane, batch),
              bytes(true, ConeFetch::Ldg, voxels) + 4 * batch);
    EXPECT_EQ(pairs.imageFloats(768, 512), std::size_t(2) * 771 * 515);
    // The transpose staging is a ring of two chunks within 16 Mi floats...
    const std::size_t big = std::size_t(2048) * 2048 * 512;
    auto at = [&](std::size_t side, std::size_t planes) {
        return cuda::CudaConeBackProjector(ConeBackProjectorInfo{}, nullptr,
                                           cuda::CudaConeConfig{true, true, ConeFetch::Ldg})
            .bytesFor(side * side, planes, batch);
    };
    EXPECT_EQ(at(2048, 512), 4 * (big + batch + (std::size_t(16) << 20)));
    // ...or of two whole planes where a plane takes more than half of it (4096^2: 128 MiB).
    const std::size_t plane4k = std::size_t(4096) * 4096;
    EXPECT_EQ(at(4096, 64), 4 * (64 * plane4k + batch + 2 * plane4k));
}

TEST(CudaCone, TextureAndLdgFetchesGiveTheSameBits) {
    TOMO_SKIP_WITHOUT_BACKEND();
    for (double offsetY : {0.0, 6.0}) {
        const test::ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60, offsetY);
        auto tex =
            test::runToVolume(c, *test::coneBackendRegistry().create("cuda.fdk.shfl.tex").value());
        auto ldg =
            test::runToVolume(c, *test::coneBackendRegistry().create("cuda.fdk.shfl.ldg").value());
        ASSERT_TRUE(tex.isOk() && ldg.isOk());
        EXPECT_EQ(test::relativeRmse(*tex, *ldg), 0.0) << offsetY;
    }
}

// The tile kernel reads the same taps from column-pair images (two per 8-byte load) and from
// the patch staged in shared memory (global taps where it does not fit) and does the same
// arithmetic: the same bits, on mirror, column, tall and coarse geometries.
TEST(CudaCone, TheTileVariantsGiveTheSameBits) {
    TOMO_SKIP_WITHOUT_BACKEND();
    for (const test::ConeCase& c : test::symmetricCases("ellipsoids:6:3")) {
        auto tile =
            test::runToVolume(c, *test::coneBackendRegistry().create("cuda.fdk.tile").value());
        ASSERT_TRUE(tile.isOk());
        for (const char* id : {"cuda.fdk.tile.pair", "cuda.fdk.tile.shared"}) {
            auto other = test::runToVolume(c, *test::coneBackendRegistry().create(id).value());
            ASSERT_TRUE(other.isOk()) << id;
            EXPECT_EQ(test::relativeRmse(*other, *tile), 0.0) << id << " " << c.grid.ny;
        }
    }
}

}  // namespace
}  // namespace tomo
