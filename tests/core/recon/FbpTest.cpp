// FBP against analytic phantoms: accuracy, quantitative scaling, filters, cancellation, progress.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <thread>

#include "ReconTestUtil.h"
#include "core/metrics/Metrics.h"
#include "core/projectors/CpuBackProjectors.h"

namespace tomo {
namespace {

using test::FbpCase;

// The reference case: 512x512 image, 720 angles over 180 degrees, 768 detectors, 4 rays
// per bin, against the 4x4-supersampled rasterised phantom.
TEST(Fbp, SheppLogan512MatchesPhantomQuantitatively) {
    const Phantom phantom = Phantom::sheppLogan2d(256.0);
    FbpCase c;
    c.size = 512;
    c.angles = 720;
    c.detectors = 768;
    Volume rec;
    ASSERT_TRUE(test::runFbp(phantom, c, rec).isOk());
    VolumeGeometry grid{512, 512, 1, 1.0};
    Volume truth;
    ASSERT_TRUE(phantom.rasterize(grid, truth, 4).isOk());

    auto err = rmse(rec.plane(0), truth.plane(0));
    ASSERT_TRUE(err.isOk());
    // Measured 0.0337 (edges of the 1.0-density skull dominate); bound with margin.
    EXPECT_LT(*err, 0.045);

    // Flat regions (5x5 patch means, away from every edge) within 1% of the phantom value.
    struct Point {
        double xn, yn;
    };
    for (Point p : {Point{0.0, 0.35}, Point{0.0, -0.3}, Point{0.45, 0.45}, Point{-0.4, -0.35},
                    Point{0.3, -0.45}}) {
        const double x = 256.0 * p.xn, y = 256.0 * p.yn;
        const double expected = phantom.value(x, y);
        const int ix = int(std::lround(grid.ix(x))), iy = int(std::lround(grid.iy(y)));
        const double got = test::patchMean(rec, ix, iy);
        EXPECT_NEAR(got, expected, 0.01 * std::abs(expected))
            << "at (" << p.xn << ", " << p.yn << ")";
    }
}

// Physical units: with a detector pitch of 0.25 mm the values are still densities per mm.
TEST(Fbp, ScalingIsIndependentOfPitch) {
    const double pitch = 0.25;
    const Phantom disc = Phantom::single({0.5, 0.6, 0.6, 0, 0.1, -0.05, 0, 0}, true, 64 * pitch);
    FbpCase c;
    c.size = 128;
    c.detectors = 185;
    c.pitch = pitch;
    Volume rec;
    ASSERT_TRUE(test::runFbp(disc, c, rec).isOk());
    VolumeGeometry grid{128, 128, 1, pitch};
    const double x = 0.1 * 64 * pitch, y = -0.05 * 64 * pitch;
    EXPECT_NEAR(test::patchMean(rec, int(std::lround(grid.ix(x))), int(std::lround(grid.iy(y)))),
                0.5, 0.005);
}

TEST(Fbp, EveryFilterReconstructsTheDensityOfALargeDisc) {
    const Phantom disc = Phantom::single({1.0, 0.7, 0.7, 0, 0, 0, 0, 0}, true, 64);
    for (FilterWindow w : {FilterWindow::RamLak, FilterWindow::SheppLogan, FilterWindow::Cosine,
                           FilterWindow::Hamming, FilterWindow::Hann}) {
        FbpCase c;
        c.filter.window = w;
        Volume rec;
        ASSERT_TRUE(test::runFbp(disc, c, rec).isOk());
        // Windows only smooth: the plateau of a large disc keeps its density.
        EXPECT_NEAR(test::patchMean(rec, 64, 64, 4), 1.0, 0.01) << filterWindowName(w);
    }
}

TEST(Fbp, NearestAndLinearAgreeOnSmoothData) {
    const Phantom disc = Phantom::single({1.0, 0.5, 0.35, 0, 0.1, 0.1, 0, 0.4}, true, 64);
    FbpCase lin, nn;
    nn.variant = "cpu.simd.nn";
    Volume a, b;
    ASSERT_TRUE(test::runFbp(disc, lin, a).isOk());
    ASSERT_TRUE(test::runFbp(disc, nn, b).isOk());
    EXPECT_LT(*rmse(a.plane(0), b.plane(0)), 0.05);
    EXPECT_NEAR(test::patchMean(b, 64 + 6, 64 - 6, 2), 1.0, 0.03);
}

TEST(Fbp, ReportsProgressAndStopsPromptlyWhenCancelled) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, 1024);
    p.detectorCount = 1024;
    p.rows = 16;
    auto geom = ParallelGeometry::create(p);
    ASSERT_TRUE(geom.isOk());
    Sinograms sino(16, 1024, 1024);
    sino.fill(1.0f);
    VolumeGeometry grid = VolumeGeometry::forDetector(*geom, 1024);
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    auto bp = registry.make("cpu.simd.lin");
    ASSERT_TRUE(bp.isOk());

    test::CountingSink sink;
    Progress progress(&sink);
    std::stop_source stop;
    Volume out;
    Status result;
    std::atomic<bool> done{false};
    std::chrono::steady_clock::time_point stoppedAt;
    std::jthread worker([&] {
        result = reconstructFbp(sino, *geom, grid, **bp, {}, out, {0, stop.get_token(), &progress});
        done = true;
    });
    // Let it run until some progress has been reported, then cancel and time the reaction.
    auto t0 = std::chrono::steady_clock::now();
    while (sink.calls < 2 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stoppedAt = std::chrono::steady_clock::now();
    stop.request_stop();
    worker.join();
    const double reaction =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stoppedAt).count();
    std::printf("FBP stopped %.1f ms after the stop request\n", reaction * 1e3);
    EXPECT_GE(sink.calls.load(), 2);
    EXPECT_GT(sink.last.load(), 0.0);
    EXPECT_LT(sink.last.load(), 1.0);
    EXPECT_EQ(result.code(), ErrorCode::Cancelled);
    // A responsiveness promise (the issue asks for 100 ms, printed above), so a bound, at 10x the
    // worst measured on the 2-core VM at load 6-7 (5-49 ms in 9 runs): a stop checked only
    // between chunks or whole passes takes over a second here and still fails it.
    EXPECT_LT(reaction, 0.5) << "took " << reaction << " s to stop";
}

TEST(Fbp, RejectsMismatchedInput) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, 10);
    p.detectorCount = 20;
    auto geom = ParallelGeometry::create(p);
    Sinograms sino(1, 11, 20);
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    auto bp = registry.make("cpu.simd.lin");
    Volume out;
    Status s = reconstructFbp(sino, *geom, VolumeGeometry{16, 16, 1, 1.0}, **bp, {}, out, {});
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(s.message().find("does not match"), std::string::npos);
    FbpOptions bad;
    bad.filter.cutoff = 0;
    Sinograms ok(1, 10, 20);
    EXPECT_EQ(reconstructFbp(ok, *geom, VolumeGeometry{16, 16, 1, 1.0}, **bp, bad, out, {}).code(),
              ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
