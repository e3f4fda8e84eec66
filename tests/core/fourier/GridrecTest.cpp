// Gridrec on the CPU against a double-precision evaluation of its definition and against FBP:
// any geometry (axis, per-view corrections, grid offsets, pitch and voxel size), both slice
// groupings, thread counts, errors.
#include <gtest/gtest.h>

#include <random>

#include "GridrecReference.h"
#include "ReconTestUtil.h"
#include "core/fourier/Gridrec.h"
#include "core/metrics/Metrics.h"
#include "core/projectors/CpuBackProjectors.h"

namespace tomo {
namespace {

double maxDiff(const Volume& a, const Volume& b) {
    double m = 0;
    for (std::size_t s = 0; s < a.dim(0); ++s)
        for (std::size_t y = 0; y < a.dim(1); ++y)
            for (std::size_t x = 0; x < a.dim(2); ++x)
                m = std::max(m, double(std::abs(a(s, y, x) - b(s, y, x))));
    return m;
}

struct SmallCase {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms sino;
};

/// 3 slices (a pair and a single one) of random rows; non-uniform angles over more than 180
/// degrees, an axis 1.7 pixels off the centre with per-view corrections, pitch != voxel size,
/// an image of odd x even size whose centre is off the axis.
SmallCase smallCase(double voxel) {
    ParallelGeometry::Params p;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> jitter(-0.03, 0.03);
    for (int i = 0; i < 17; ++i)
        p.angles.push_back(0.2 + i * 3.4 / 17 + jitter(rng));
    p.detectorCount = 30;
    p.rows = 3;
    p.detectorPitch = 0.8;
    p.centerOfRotation = 14.5 + 1.7;
    for (int i = 0; i < 17; ++i)
        p.centerCorrection.push_back(0.4 * std::sin(i));
    SmallCase c{*ParallelGeometry::create(p), VolumeGeometry{31, 24, 3, voxel, 1.3, -0.7},
                Sinograms(3, 17, 30)};
    std::uniform_real_distribution<float> value(0.f, 1.f);
    for (std::size_t s = 0; s < 3; ++s)
        for (std::size_t a = 0; a < 17; ++a)
            for (float& v : c.sino.row(s, a))
                v = value(rng);
    return c;
}

// Voxels larger than the pitch put samples past the image's Nyquist (aliased, as point sampling
// does), smaller ones do not; every interpolation response.
TEST(Gridrec, MatchesADoublePrecisionEvaluationOfItsDefinition) {
    for (auto [voxel, interpolation] : {std::pair{1.1, GridrecInterpolation::Trigonometric},
                                        {0.7, GridrecInterpolation::Linear},
                                        {1.0, GridrecInterpolation::Nearest}}) {
        SmallCase c = smallCase(voxel);
        FilterOptions filter{FilterWindow::Hamming, 0.9};
        const Volume reference =
            test::referenceGridrec(c.sino, c.geom, c.vol, filter, interpolation);
        const double peak = test::maxAbs(reference);
        GridrecOptions accurate;
        accurate.filter = filter;
        accurate.interpolation = interpolation;
        accurate.tolerance = 1e-6;
        Volume out;
        GridrecTimings t;
        ASSERT_TRUE(reconstructGridrec(c.sino, c.geom, c.vol, accurate, out, {}, &t).isOk());
        // Measured 1.6e-7 and 2.4e-7 (float rounding; oversampling 3, width 8).
        EXPECT_LT(maxDiff(out, reference), 1e-6 * peak) << "voxel " << voxel;
        // The default tolerance: within the plan's predicted error, whatever its choice.
        GridrecOptions fast;
        fast.filter = filter;
        fast.interpolation = interpolation;
        const FourierPlan plan =
            *FourierPlan::create(c.geom, c.vol, fast, cpuFftSizeRule(), cpuFourierCost());
        ASSERT_TRUE(reconstructGridrec(c.sino, c.geom, c.vol, fast, out, {}).isOk());
        EXPECT_LT(maxDiff(out, reference), plan.choice().predictedError * peak) << plan.describe();
    }
}

// Whole lines of a pair and half lines of a slice alone sum the same terms (the Hermitian
// halves of a real slice): they differ by float rounding only, not by the gridding's error.
TEST(Gridrec, PairsAndSingleSlicesGiveTheSameImage) {
    SmallCase c = smallCase(1.0);
    for (std::size_t a = 0; a < 17; ++a)
        for (std::size_t j = 0; j < 30; ++j)
            c.sino(2, a, j) = c.sino(0, a, j);
    Volume out;
    ASSERT_TRUE(reconstructGridrec(c.sino, c.geom, c.vol, {}, out, {}).isOk());
    double diff = 0;
    for (std::size_t y = 0; y < 24; ++y)
        for (std::size_t x = 0; x < 31; ++x)
            diff = std::max(diff, double(std::abs(out(0, y, x) - out(2, y, x))));
    const FourierPlan plan =
        *FourierPlan::create(c.geom, c.vol, {}, cpuFftSizeRule(), cpuFourierCost());
    EXPECT_LT(diff, plan.kernel().roundingError() * test::maxAbs(out)) << plan.describe();
    EXPECT_LT(plan.kernel().roundingError(), 0.1 * plan.choice().predictedError);
}

TEST(Gridrec, ThreadCountsGiveTheSameBits) {
    SmallCase c = smallCase(1.0);
    Volume one, two, three;
    ASSERT_TRUE(reconstructGridrec(c.sino, c.geom, c.vol, {}, one, {1, {}, nullptr}).isOk());
    ASSERT_TRUE(reconstructGridrec(c.sino, c.geom, c.vol, {}, two, {2, {}, nullptr}).isOk());
    ASSERT_TRUE(reconstructGridrec(c.sino, c.geom, c.vol, {}, three, {3, {}, nullptr}).isOk());
    EXPECT_EQ(maxDiff(one, two), 0.0);
    EXPECT_EQ(maxDiff(one, three), 0.0);
}

TEST(Gridrec, RejectsMismatchedInputAndBadOptions) {
    SmallCase c = smallCase(1.0);
    Volume out;
    Sinograms wrong(3, 16, 30);
    Status s = reconstructGridrec(wrong, c.geom, c.vol, {}, out, {});
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(s.message().find("does not match"), std::string::npos);
    GridrecOptions bad[4];
    bad[0].tolerance = 0;
    bad[1].oversampling = 0.9;
    bad[2].kernelWidth = 17;
    bad[3].filter = {FilterWindow::Hann, 0.0};
    for (const GridrecOptions& options : bad)
        EXPECT_EQ(reconstructGridrec(c.sino, c.geom, c.vol, options, out, {}).code(),
                  ErrorCode::InvalidArgument);
    GridrecOptions tooWide;
    tooWide.kernelWidth = 16;
    VolumeGeometry tiny{8, 8, 3, 1.0};
    s = reconstructGridrec(c.sino, c.geom, tiny, tooWide, out, {});
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(s.message().find("too small"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace tomo
