// The CUDA cone-beam variants beyond what ConeBackProjectorTest.cpp checks for every backend:
// their metadata without a device, and on a device the two fetch paths of shflBP (layered
// texture, __ldg) giving the same bits: they read the same texels and do the same arithmetic.
#include <gtest/gtest.h>

#include <set>

#include "ConeTestSupport.h"
#include "GpuTestSupport.h"
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
    EXPECT_EQ(ids, (std::set<std::string>{"cuda.fdk.standard", "cuda.fdk.shfl.tex",
                                          "cuda.fdk.shfl.ldg", "cuda.fdk.shfl.ldg.column"}));
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

}  // namespace
}  // namespace tomo
