// The one table of GPU variants every GPU backend registers (core/projectors/GpuVariants.h).
#include <gtest/gtest.h>

#include <set>

#include "core/projectors/GpuVariants.h"

namespace tomo {
namespace {

TEST(GpuVariants, NamesAreUniqueAndSayTheirFamilyAndSlices) {
    std::set<std::string> names;
    for (const GpuVariant& v : gpuVariants()) {
        SCOPED_TRACE(v.name);
        EXPECT_TRUE(names.insert(v.name).second) << "duplicate";
        const BackProjectorInfo info = gpuVariantInfo(v, "somegpu");
        EXPECT_EQ(info.id, "somegpu." + v.name);
        EXPECT_EQ(info.backend, "somegpu");
        EXPECT_EQ(v.name.rfind(info.family + ".", 0), 0u);
        std::string slices = std::to_string(info.slicesPerPass);
        slices.insert(0, 1, '.');
        slices.push_back('s');
        EXPECT_NE(v.name.find(slices), std::string::npos);
        // Oversampling approximates linear interpolation by a nearest lookup (".nn").
        const bool linear =
            info.interpolation == Interpolation::Linear && info.family != "oversampling";
        EXPECT_NE(v.name.find(linear ? ".lin." : ".nn."), std::string::npos);
        EXPECT_FALSE(info.description.empty());
        if (v.texture) continue;
        const GpuAluConfig& c = v.alu;
        EXPECT_TRUE(c.tile == 32 || c.tile == 64);
        EXPECT_TRUE(c.threads == 128 || c.threads == 256);
        EXPECT_EQ(c.threads % c.projectionsPerBatch, 0);
        if (c.family == AluFamily::Alu) {
            std::string tile = std::to_string(c.tile);
            tile += 'x';
            tile += std::to_string(c.tile);
            EXPECT_NE(v.name.find(tile), std::string::npos);
        }
        EXPECT_EQ(info.parameters.at("pixelsPerThread"), std::to_string(c.pixelsPerThread()));
    }
    EXPECT_EQ(names.size(), 35u);
}

TEST(GpuVariants, ApproximateKindsAreMarked) {
    for (const GpuVariant& v : gpuVariants()) {
        const BackProjectorInfo info = gpuVariantInfo(v, "x");
        const bool approximate =
            v.name.find("half") != std::string::npos || v.name.rfind("oversampling", 0) == 0;
        EXPECT_EQ(info.exact, !approximate) << v.name;
        EXPECT_EQ(info.precision, v.name.find("half") != std::string::npos ? "half" : "float32")
            << v.name;
    }
}

}  // namespace
}  // namespace tomo
