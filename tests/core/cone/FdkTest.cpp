// FDK: the double-precision reference against the analytic phantom, every registered CPU
// variant against the reference (paper 003's criterion: relative RMSE 1e-5), short scan,
// half-fan and non-uniform angles against the full scan, slabs and cancellation.

#include <gtest/gtest.h>

#include <cmath>

#include "ConeTestSupport.h"
#include "core/cone/ConeBackProjector.h"
#include "core/cone/ConePhantom.h"
#include "core/cone/Fdk.h"

namespace tomo {
namespace {

using test::ConeCase;

TEST(ConePhantom, LineIntegralsAreExact) {
    const ConePhantom ball = ConePhantom::fromName("ball", 10.0).value();  // radius 5 mm
    EXPECT_NEAR(ball.lineIntegral({-100, 0, 0}, {100, 0, 0}), 10.0, 1e-12);
    EXPECT_NEAR(ball.lineIntegral({-100, 3, 0}, {100, 3, 0}), 2 * std::sqrt(25.0 - 9), 1e-12);
    EXPECT_NEAR(ball.lineIntegral({0, -50, 4}, {0, 50, 4}), 2 * std::sqrt(25.0 - 16), 1e-12);
    EXPECT_EQ(ball.lineIntegral({-100, 6, 0}, {100, 6, 0}), 0.0);
    // The phantom's z is RTK's y: Shepp-Logan's tall axis (0.9) lies along the rotation axis.
    const ConePhantom sl = ConePhantom::sheppLogan(1.0);
    EXPECT_NEAR(sl.lineIntegral({0, -5, 0}, {0, 5, 0}), 2 * 0.9 * 1.0 - 2 * 0.88 * 0.8, 0.2);
}

TEST(Fdk, TheReferenceReconstructsTheAnalyticPhantom) {
    const ConeCase c = test::coneCase("shepp-logan", 360, 120);
    auto ref = referenceFdk(c.geometry, c.projections, c.grid, c.options);
    ASSERT_TRUE(ref.isOk()) << ref.status().message();
    // Near the central plane FDK is exact up to sampling: compare 8 axial planes there.
    const double err = test::centralPlanesRmse(*ref, c.truth, 8);
    RecordProperty("rmse_central", std::to_string(err));
    // Measured 0.050 (120 or 360 views alike): the error sits on the 0.55 mm thick skull,
    // sampled by 1 mm voxels; flat regions agree to about 0.005 (the ball below).
    EXPECT_LT(err, 0.06);
    const ConeCase ball = test::coneCase("ball", 360, 120);
    auto b = referenceFdk(ball.geometry, ball.projections, ball.grid, ball.options);
    ASSERT_TRUE(b.isOk());
    EXPECT_NEAR(test::centreMean(*b, 4), 1.0, 0.01);  // quantitative: density 1 gives 1
}

TEST(Fdk, EveryCpuVariantMatchesTheDoublePrecisionReference) {
    ConeBackProjectorRegistry registry;
    registerCpuConeBackProjectors(registry);
    ASSERT_GE(registry.list().size(), 2u);
    const ConeCase c = test::coneCase("shepp-logan", 360, 120);
    auto ref = referenceFdk(c.geometry, c.projections, c.grid, c.options);
    ASSERT_TRUE(ref.isOk());
    for (const ConeBackProjectorInfo& info : registry.list()) {
        auto bp = registry.create(info.id);
        ASSERT_TRUE(bp.isOk());
        auto out = test::runToVolume(c, **bp);
        ASSERT_TRUE(out.isOk()) << info.id << ": " << out.status().message();
        EXPECT_LT(test::relativeRmse(*out, *ref), 1e-5) << info.id;
    }
}

TEST(Fdk, TheGeneralKernelEqualsTheSymmetricOneWhereBothApply) {
    ConeBackProjectorRegistry registry;
    registerCpuConeBackProjectors(registry);
    for (double offsetY : {0.0, 6.0}) {  // mirror, then column symmetry (vertical offset)
        ConeCase c = test::coneCase("ellipsoids:6:3", 360, 90, offsetY);
        auto standard = test::runToVolume(c, *registry.create("cpu.fdk.standard").value());
        auto symmetric = test::runToVolume(c, *registry.create("cpu.fdk.symmetric").value());
        ASSERT_TRUE(standard.isOk() && symmetric.isOk());
        EXPECT_LT(test::relativeRmse(*symmetric, *standard), 5e-6) << offsetY;  // measured 1.4e-6
    }
}

TEST(Fdk, TiltedGeometriesGoToTheGeneralKernel) {
    ConeBackProjectorRegistry registry;
    registerCpuConeBackProjectors(registry);
    ConeCase c = test::coneCase("ellipsoids:6:3", 360, 90, 0.0, 0.04);
    ASSERT_EQ(c.geometry.symmetry(c.grid), ConeSymmetry::General);
    EXPECT_EQ(registry.choose(ConeSymmetry::General, "cpu").value(), "cpu.fdk.standard");
    EXPECT_EQ(registry.choose(ConeSymmetry::Mirror, "cpu").value(), "cpu.fdk.symmetric");
    auto symmetric = registry.create("cpu.fdk.symmetric").value();
    EXPECT_FALSE(symmetric->begin(c.geometry, c.grid, 0, c.grid.nz, {}).isOk());
    auto out = test::runToVolume(c, *registry.create("cpu.fdk.standard").value());
    auto ref = referenceFdk(c.geometry, c.projections, c.grid, c.options);
    ASSERT_TRUE(out.isOk() && ref.isOk());
    EXPECT_LT(test::relativeRmse(*out, *ref), 1e-5);
    EXPECT_LT(test::centralPlanesRmse(*out, c.truth, 8), 0.05);
}

}  // namespace
}  // namespace tomo

namespace tomo {
namespace {

Volume cpuFdk(const test::ConeCase& c, int slabPlanes = 0) {
    ConeBackProjectorRegistry registry;
    registerCpuConeBackProjectors(registry);
    const std::string id = registry.choose(c.geometry.symmetry(c.grid), "cpu").value();
    return test::runToVolume(c, *registry.create(id).value(), slabPlanes).value();
}

TEST(Fdk, AShortScanWithParkerWeightsMatchesTheFullScan) {
    const test::ConeCase full = test::coneCase("shepp-logan", 360, 180);
    // 180 degrees + fan angle (2 atan(57.6 / 450) = 14.6 degrees) + margin.
    test::ConeCase shortScan = test::coneCase("shepp-logan", 210, 105);
    auto w = FdkWeights::create(shortScan.geometry, {}).value();
    EXPECT_TRUE(w.shortScan());
    EXPECT_TRUE(w.warnings().empty());
    EXPECT_FALSE(FdkWeights::create(full.geometry, {}).value().shortScan());
    const Volume a = cpuFdk(full), b = cpuFdk(shortScan);
    const double full_err = test::centralPlanesRmse(a, full.truth, 8);
    const double short_err = test::centralPlanesRmse(b, full.truth, 8);
    RecordProperty("short_scan_rmse", std::to_string(short_err));
    EXPECT_LT(short_err, full_err * 1.25);
    EXPECT_NEAR(test::centreMean(b, 3), test::centreMean(a, 3), 0.01);
    // Without Parker weights the doubly measured lines are counted twice.
    shortScan.options.weights.shortScan = ShortScanMode::Off;
    EXPECT_GT(test::centralPlanesRmse(cpuFdk(shortScan), full.truth, 8), 2 * short_err);
}

TEST(Fdk, TooShortAnArcIsWarnedAbout) {
    const test::ConeCase c = test::coneCase("ball", 170, 60);
    auto w = FdkWeights::create(c.geometry, {}).value();
    EXPECT_TRUE(w.shortScan());
    ASSERT_FALSE(w.warnings().empty());
    EXPECT_NE(w.warnings()[0].find("insufficient"), std::string::npos);
}

TEST(Fdk, ADisplacedDetectorOnAFullScanMatchesTheCentredOne) {
    const test::ConeCase centred = test::coneCase("shepp-logan", 360, 180);
    // 64 columns shifted by 22.8 mm (19 pixels): 13 columns left of the central ray, 50 right.
    test::ConeCase halfFan = test::coneCase("shepp-logan", 360, 180, 0.0, 0.0, 22.8, 64);
    auto w = FdkWeights::create(halfFan.geometry, {}).value();
    EXPECT_TRUE(w.displaced());
    const Volume a = cpuFdk(centred), b = cpuFdk(halfFan);
    const double err = test::centralPlanesRmse(b, centred.truth, 8);
    RecordProperty("half_fan_rmse", std::to_string(err));
    EXPECT_LT(err, test::centralPlanesRmse(a, centred.truth, 8) * 1.3);
    halfFan.options.weights.displaced = DisplacedDetectorMode::Off;
    EXPECT_GT(test::centralPlanesRmse(cpuFdk(halfFan), centred.truth, 8), 2 * err);
}

TEST(Fdk, NonUniformAnglesAreWeightedByTheirGaps) {
    std::vector<double> angles;
    for (int k = 0; k < 150; ++k)  // dense on one half, sparse on the other
        angles.push_back(k < 100 ? k * 1.8 * kPi / 180 : (180 + (k - 100) * 3.6) * kPi / 180);
    const test::ConeCase c = test::coneCase("ball", 360, 150, 0, 0, 0, 96, angles);
    const Volume v = cpuFdk(c);
    EXPECT_NEAR(test::centreMean(v, 4), 1.0, 0.01);
    // Equal weights would count the dense half twice as much.
    FdkWeights w = FdkWeights::create(c.geometry, {}).value();
    EXPECT_NEAR(w.factor(120) / w.factor(50), 2.0, 1e-9);
}

TEST(Fdk, SlabsGiveTheSameBitsAsOneVolume) {
    const test::ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60);
    const Volume whole = cpuFdk(c), slabs = cpuFdk(c, 7);
    EXPECT_EQ(test::relativeRmse(slabs, whole), 0.0);
}

TEST(Fdk, CancelStopsTheRun) {
    const test::ConeCase c = test::coneCase("ball", 360, 60);
    ConeBackProjectorRegistry registry;
    registerCpuConeBackProjectors(registry);
    auto bp = registry.create("cpu.fdk.symmetric").value();
    std::stop_source stop;
    stop.request_stop();
    ExecContext ctx;
    ctx.stop = stop.get_token();
    auto read = [&](int, int, View2<float> v) {
        for (std::size_t r = 0; r < v.rows(); ++r)
            std::fill(v.row(r).begin(), v.row(r).end(), 0.0f);
        return Status::ok();
    };
    auto r = runFdk(
        c.geometry, c.grid, c.options, *bp, read, [](int, Volume&&) { return Status::ok(); }, ctx);
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::Cancelled);
}

}  // namespace
}  // namespace tomo
