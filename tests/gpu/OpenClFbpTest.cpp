// FBP end to end: host FFTW filtering + OpenCL back-projection equals the CPU path.
#include <gtest/gtest.h>

#include "OpenClTestSupport.h"
#include "core/phantom/Phantom.h"
#include "core/recon/Fbp.h"

namespace tomo {
namespace {

TEST(OpenClFbp, EqualsCpuFbpOnSheppLogan) {
    TOMO_SKIP_WITHOUT_OPENCL();
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, 60);
    params.detectorCount = 72;
    params.rows = 3;
    params.detectorPitch = 2.0 / 64;
    const ParallelGeometry geom = ParallelGeometry::create(params).value();
    Sinograms sino;
    ASSERT_TRUE(Phantom::sheppLogan3d().project(geom, sino, 2).isOk());
    const VolumeGeometry vol{64, 64, 3, 2.0 / 64};
    const auto& registry = test::openClSetup().registry;
    auto reference = registry.make("cpu.reference.lin").value();
    Volume cpu;
    ASSERT_TRUE(reconstructFbp(sino, geom, vol, *reference, {}, cpu, {}).isOk());
    for (const char* id : {"opencl.texture.lin.1s", "opencl.texture.lin.2s"}) {
        if (!registry.contains(id)) continue;
        auto bp = registry.make(id).value();
        Volume gpu;
        FbpOptions options;
        options.chunkSlices = 2;  // two chunks: 2 + 1 slices
        ASSERT_TRUE(reconstructFbp(sino, geom, vol, *bp, options, gpu, {}).isOk());
        EXPECT_LT(test::maxRelError(gpu, cpu), 1e-4) << id;
    }
}

}  // namespace
}  // namespace tomo
