// A known shift of the rotation axis (analytic sinograms with ParallelGeometry centre offsets)
// is recovered within 0.5 pixel by each estimator; bad inputs give messages.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/centering/CenterOfRotation.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

constexpr int kWidth = 128;

/// Sinogram [angle][detector] of the Shepp-Logan head (radius ~32 px) with the axis at
/// @p center, @p count angles over @p coverageDeg, optionally with Poisson noise.
struct Scan {
    Sinograms sino;
    std::vector<double> angles;
};
Scan makeScan(double center, int count, double coverageDeg, double photons = 0) {
    Scan s;
    s.angles = uniformAngles(0, coverageDeg * std::numbers::pi / 180, count);
    ParallelGeometry::Params p;
    p.angles = s.angles;
    p.detectorCount = kWidth;
    p.centerOfRotation = center;
    auto geom = ParallelGeometry::create(p);
    EXPECT_TRUE(geom.isOk());
    EXPECT_TRUE(Phantom::sheppLogan2d(32).project(*geom, s.sino, 2).isOk());
    if (photons > 0) {
        EXPECT_TRUE(addPoissonNoise(s.sino, photons, 11, 0.05).isOk());
    }
    return s;
}

class CenterOffsets : public ::testing::TestWithParam<double> {};

TEST_P(CenterOffsets, VoFourierMetricRecoversTheAxis) {
    const double truth = 0.5 * (kWidth - 1) + GetParam();
    Scan s = makeScan(truth, 180, 180);
    auto est = estimateCenterVo(s.sino.plane(0), s.angles);
    ASSERT_TRUE(est.isOk()) << est.status().toString();
    EXPECT_NEAR(est->center, truth, 0.5);
    EXPECT_GT(est->confidence, 0.5);
    EXPECT_EQ(est->method, "vo-fourier");
    EXPECT_EQ(est->trialCenters.size(), est->metric.size());
    RecordProperty("error_px", std::to_string(est->center - truth));
}

TEST_P(CenterOffsets, PhaseCorrelationOf360ScanRecoversTheAxis) {
    const double truth = 0.5 * (kWidth - 1) + GetParam();
    Scan s = makeScan(truth, 180, 360);
    auto est = estimateCenterPhaseCorrelation(s.sino.plane(0), s.angles);
    ASSERT_TRUE(est.isOk()) << est.status().toString();
    EXPECT_NEAR(est->center, truth, 0.5);
    EXPECT_GT(est->confidence, 0.5);
    EXPECT_FALSE(est->minimised);
    RecordProperty("error_px", std::to_string(est->center - truth));
}

TEST_P(CenterOffsets, SharpnessSweepRecoversTheAxis) {
    const double truth = 0.5 * (kWidth - 1) + GetParam();
    Scan s = makeScan(truth, 90, 180);
    for (SharpnessMetric m : {SharpnessMetric::Entropy, SharpnessMetric::AbsoluteSum}) {
        SharpnessSweepOptions o;
        o.metric = m;
        o.step = 1.0;
        auto est = estimateCenterSharpness(s.sino.plane(0), s.angles, o, ExecContext{2, {}, nullptr});
        ASSERT_TRUE(est.isOk()) << est.status().toString();
        EXPECT_NEAR(est->center, truth, 0.5) << est->method;
        EXPECT_GT(est->confidence, 0.3) << est->method;
    }
}

INSTANTIATE_TEST_SUITE_P(Offsets, CenterOffsets, ::testing::Values(3.3, -5.7));

TEST(CenterOfRotation, NoisyDataStillWithinHalfAPixel) {
    const double truth = 0.5 * (kWidth - 1) + 3.3;
    Scan s = makeScan(truth, 360, 360, 2e4);
    auto vo = estimateCenterVo(s.sino.plane(0), s.angles);
    auto pc = estimateCenterPhaseCorrelation(s.sino.plane(0), s.angles);
    ASSERT_TRUE(vo.isOk() && pc.isOk());
    EXPECT_NEAR(vo->center, truth, 0.5);
    EXPECT_NEAR(pc->center, truth, 0.5);
}

TEST(CenterOfRotation, ProjectionStackVersionUsesEveryRow) {
    // Projections [angle][row][column] with two identical rows give the sinogram's estimate.
    Scan s = makeScan(66.8, 120, 360);
    Array3<float> proj(120, 2, kWidth);
    for (std::size_t p = 0; p < 120; ++p)
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t j = 0; j < kWidth; ++j)
                proj(p, r, j) = s.sino(0, p, j);
    auto a = estimateCenterPhaseCorrelation(proj, s.angles);
    auto b = estimateCenterPhaseCorrelation(s.sino.plane(0), s.angles);
    ASSERT_TRUE(a.isOk() && b.isOk());
    EXPECT_NEAR(a->center, b->center, 1e-9);
}

TEST(CenterOfRotation, BadInputsGiveMessages) {
    Scan s = makeScan(63.5, 90, 180);
    // 180-degree scan: no 0/180 pair for phase correlation.
    auto pc = estimateCenterPhaseCorrelation(s.sino.plane(0), s.angles);
    ASSERT_FALSE(pc.isOk());
    EXPECT_NE(pc.status().message().find("360-degree"), std::string::npos);
    // Angle count mismatch.
    std::vector<double> fewer(s.angles.begin(), s.angles.end() - 1);
    EXPECT_NE(estimateCenterVo(s.sino.plane(0), fewer).status().message().find("89 angles"),
              std::string::npos);
    // Search range leaving the detector.
    VoCenterOptions vo;
    vo.searchCenter = 5;
    vo.searchRadius = 10;
    EXPECT_NE(estimateCenterVo(s.sino.plane(0), s.angles, vo).status().message().find("leaves the detector"),
              std::string::npos);
    // Too little angular coverage for Vo.
    Scan q = makeScan(63.5, 45, 90);
    EXPECT_NE(estimateCenterVo(q.sino.plane(0), q.angles).status().message().find("180 degrees"),
              std::string::npos);
    // NaN in the data.
    s.sino(0, 3, 4) = std::nanf("");
    EXPECT_EQ(estimateCenterSharpness(s.sino.plane(0), s.angles).status().code(), ErrorCode::InvalidData);
    EXPECT_FALSE(parseSharpnessMetric("blur").isOk());
}

TEST(CenterOfRotation, ConfidenceOfCurves) {
    const std::vector<double> x{0, 1, 2, 3, 4, 5, 6, 7, 8};
    // A single V: full confidence. Two equal minima far apart: none. Minimum on the border: none.
    EXPECT_DOUBLE_EQ(minimumConfidence(x, std::vector<double>{8, 6, 4, 2, 0, 2, 4, 6, 8}), 1.0);
    EXPECT_DOUBLE_EQ(minimumConfidence(x, std::vector<double>{8, 0, 4, 6, 8, 6, 4, 0, 8}), 0.0);
    EXPECT_DOUBLE_EQ(minimumConfidence(x, std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8}), 0.0);
    EXPECT_DOUBLE_EQ(minimumConfidence(x, std::vector<double>{8, 4, 8, 8, 0, 8, 8, 8, 8}), 0.5);
}

}  // namespace
}  // namespace tomo
