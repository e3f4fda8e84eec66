// The CUDA gridrec's cost model (cuda::cudaGridrecInfo(): the plan's choice and `method=auto`)
// against what an H200 measured (2026-11-27, the adbf1b7 gather kernel; docs/performance.md
// "Gridrec on CUDA", docs/cuda.md "Where gridrec's device time goes"): 2048 views x 2048^2 x 64
// slices at width 5, oversampling 1.5, `kernels` 0.170 s (of which the gather ~0.167 s) and the
// spectra (pack, row FFT, samples) 0.125 ms per pair of slices; direct FBP's
// `cuda.alu.lin.2s.64x64` at 2680 GU/s kernel-only in the same session. No device is needed.
#include <gtest/gtest.h>

#include "core/selection/MethodChoice.h"
#include "gpu/cuda/fourier/CudaGridrec.h"

namespace tomo {
namespace {

constexpr double kH200DirectGups = 2680;                      // cuda.alu.lin.2s.64x64, measured
constexpr double kH200DeviceSeconds64 = 0.170 + 32 * 125e-6;  // kernels + spectra, 64 slices

struct Problem {
    ParallelGeometry geom;
    VolumeGeometry grid;
    FourierPlan plan;
};

/// N^2 from N views; the plan the model chooses, or the one given by @p options.
Problem problem(int n, const GridrecOptions& options = {}) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, n);
    p.detectorCount = n;
    ParallelGeometry g = *ParallelGeometry::create(p);
    VolumeGeometry grid = VolumeGeometry::forDetector(g, n);
    const FourierMethodInfo info = cuda::cudaGridrecInfo();
    FourierPlan plan = *FourierPlan::create(g, grid, options, info.sizes, info.cost);
    return {g, grid, std::move(plan)};
}

MethodChoice chooseOnH200(const Problem& p, int slices) {
    return chooseMethod({p.grid.nx, p.grid.ny, p.geom.angleCount(), p.geom.detectorCount(), slices},
                        "cuda.alu.lin.2s.64x64", kH200DirectGups, p.plan, cuda::cudaGridrecInfo(),
                        GridrecOptions{}.tolerance);
}

TEST(CudaGridrecCost, PredictsTheDeviceTimeTheH200Measured) {
    GridrecOptions measured;  // the plan the H200 ran
    measured.kernelWidth = 5;
    measured.oversampling = 1.5;
    const Problem p = problem(2048, measured);
    ASSERT_EQ(p.plan.choice().width, 5);
    ASSERT_DOUBLE_EQ(p.plan.choice().oversampling, 1.5);
    const double predicted = p.plan.predictedSeconds(cuda::cudaGridrecInfo().cost, 64);
    EXPECT_NEAR(predicted, kH200DeviceSeconds64, 0.1 * kH200DeviceSeconds64)
        << "predicted " << predicted << " s";
}

TEST(CudaGridrecCost, AutoTakesGridrecAt2048AndDirectFbpAt1024) {
    // Per slice, the gather's 0.5 N 2N W^2 taps at 25 ps against N^3 updates at 2680 GU/s: they
    // cross between N = 1536 and 1792 (the plan's W = 4 at oversampling 2). At 2048^2 x 64 the
    // measured device times agree: gridrec 0.174 s, direct 2048^3 x 64 / 2680e9 = 0.205 s. (At
    // 2 ps a tap, the model took gridrec from 512^2 up, 7x faster than direct at 2048^2.)
    const MethodChoice small = chooseOnH200(problem(1024), 16);
    EXPECT_FALSE(small.fourier) << small.reason;
    const MethodChoice large = chooseOnH200(problem(2048), 64);
    EXPECT_TRUE(large.fourier) << large.reason;
}

}  // namespace
}  // namespace tomo
