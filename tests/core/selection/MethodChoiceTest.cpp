// Direct or Fourier-domain FBP (MethodChoice.h) with injected rates: small jobs stay direct,
// large ones go to the Fourier method, a tolerance it cannot meet keeps direct FBP, transfers
// count on a GPU, and the reason names both predictions.
#include <gtest/gtest.h>

#include "core/selection/MethodChoice.h"

namespace tomo {
namespace {

struct Job {
    ParallelGeometry geom;
    VolumeGeometry grid;
};

Job job(int n, int views, int slices = 1) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, views);
    p.detectorCount = n;
    p.rows = slices;
    ParallelGeometry g = *ParallelGeometry::create(p);
    VolumeGeometry grid = VolumeGeometry::forDetector(g, n);
    return {g, grid};
}

MethodChoice choose(int n, int views, double gups, double tolerance,
                    const FourierMethodInfo& method = cpuGridrecInfo()) {
    const Job j = job(n, views);
    GridrecOptions options;
    options.tolerance = tolerance;
    const FourierPlan plan =
        *FourierPlan::create(j.geom, j.grid, options, method.sizes, method.cost);
    return chooseMethod({n, n, views, n, 1}, "cpu.simd.lin", gups, plan, method, tolerance);
}

TEST(MethodChoice, SmallJobsStayDirectLargeOnesGoToFourier) {
    // 13 GU/s: the single-slice CPU kernel's measured rate (docs/performance.md).
    const MethodChoice small = choose(64, 32, 13, 1e-3);
    EXPECT_FALSE(small.fourier) << small.reason;
    const MethodChoice large = choose(2048, 2048, 13, 1e-3);
    EXPECT_TRUE(large.fourier) << large.reason;
    EXPECT_NEAR(large.direct.seconds, 2048.0 * 2048 * 2048 / 13e9, 1e-6);
    EXPECT_LT(large.fourierEstimate.seconds, large.direct.seconds);
    EXPECT_LE(large.fourierEstimate.error, 1e-3);
    EXPECT_NE(large.reason.find("cpu.gridrec predicted"), std::string::npos) << large.reason;
    EXPECT_NE(large.reason.find("cpu.simd.lin predicted"), std::string::npos) << large.reason;
}

TEST(MethodChoice, AToleranceTheGriddingCannotMeetKeepsDirectFbp) {
    const MethodChoice strict = choose(2048, 2048, 13, 1e-8);
    EXPECT_FALSE(strict.fourier) << strict.reason;
    EXPECT_GT(strict.fourierEstimate.error, 1e-8);
    EXPECT_NE(strict.reason.find("over tolerance"), std::string::npos) << strict.reason;
    // An unknown direct rate: the Fourier method when it meets the tolerance.
    EXPECT_TRUE(choose(256, 256, 0, 1e-3).fourier);
    EXPECT_FALSE(choose(256, 256, 0, 1e-8).fourier);
}

TEST(MethodChoice, TransfersCountOnADevice) {
    FourierMethodInfo gpu = cpuGridrecInfo();
    gpu.id = "gpu.gridrec";
    gpu.cost.secondsPerTap = 1e-12;
    gpu.cost.secondsPerFftPoint = 1e-12;
    gpu.secondsPerTransferByte = 0.0;
    const MethodChoice free = choose(1024, 1024, 3000, 1e-3, gpu);
    gpu.secondsPerTransferByte = 1.0 / 25e9;
    const MethodChoice paid = choose(1024, 1024, 3000, 1e-3, gpu);
    // 4 bytes per sinogram value and image pixel, over 25 GB/s, for both methods.
    const double bus = 4.0 * (1024.0 * 1024 + 1024.0 * 1024) / 25e9;
    EXPECT_NEAR(paid.fourierEstimate.seconds - free.fourierEstimate.seconds, bus, 1e-9);
    EXPECT_NEAR(paid.direct.seconds - free.direct.seconds, bus, 1e-9);
}

}  // namespace
}  // namespace tomo
