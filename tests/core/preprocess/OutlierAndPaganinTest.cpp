// Zinger removal against a naive median reference; Paganin against its analytic filter response.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "TestUtil.h"
#include "core/preprocess/OutlierRemoval.h"
#include "core/preprocess/PhaseRetrieval.h"

namespace tomo {
namespace {

/// Median of the k x k window at (r, c) with replicated edges, by full sort in double.
double naiveMedian(const Array3<float>& a, std::size_t f, long r, long c, long k) {
    std::vector<double> v;
    const long rows = static_cast<long>(a.dim(1)), cols = static_cast<long>(a.dim(2));
    for (long dr = -k / 2; dr <= k / 2; ++dr)
        for (long dc = -k / 2; dc <= k / 2; ++dc)
            v.push_back(a(f, static_cast<std::size_t>(std::clamp(r + dr, 0L, rows - 1)),
                          static_cast<std::size_t>(std::clamp(c + dc, 0L, cols - 1))));
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

TEST(Zingers, ReplacesOnlyOutliersByTheirMedian) {
    Array3<float> img(2, 12, 15);
    for (std::size_t f = 0; f < 2; ++f)
        for (std::size_t r = 0; r < 12; ++r)
            for (std::size_t c = 0; c < 15; ++c)
                img(f, r, c) = static_cast<float>(1000 + 10 * r + 3 * c + 5 * f);
    const std::size_t spots[][3] = {{0, 0, 0}, {0, 5, 7}, {0, 11, 14}, {1, 3, 2}, {1, 8, 10}};
    Array3<float> clean = img.clone();
    for (auto s : spots)
        img(s[0], s[1], s[2]) *= 1.5f;
    Array3<float> dirty = img.clone();
    ZingerOptions o;
    o.threshold = 0.2;
    auto res = removeZingers(img, o);
    ASSERT_TRUE(res.isOk()) << res.status().toString();
    EXPECT_EQ(res->replaced, 5u);
    for (auto s : spots)
        EXPECT_DOUBLE_EQ(img(s[0], s[1], s[2]),
                         naiveMedian(dirty, s[0], static_cast<long>(s[1]), static_cast<long>(s[2]), 3));
    // Every other pixel is untouched, and the zingers are within 2% of the clean ramp.
    std::size_t changed = 0;
    for (std::size_t f = 0; f < 2; ++f)
        for (std::size_t r = 0; r < 12; ++r)
            for (std::size_t c = 0; c < 15; ++c) {
                changed += img(f, r, c) != dirty(f, r, c) ? 1 : 0;
                EXPECT_NEAR(img(f, r, c), clean(f, r, c), 0.02 * clean(f, r, c));
            }
    EXPECT_EQ(changed, 5u);
}

TEST(Zingers, MedianFilterMatchesNaiveReferenceAndAbsoluteMode) {
    Array3<float> img(1, 9, 11);
    test::fillRandom(img, 5, 0.f, 1.f);
    Array3<float> orig = img.clone();
    ZingerOptions o;
    o.size = 5;
    o.mode = ThresholdMode::Absolute;
    o.threshold = 0.3;
    auto res = removeZingers(img, o);
    ASSERT_TRUE(res.isOk());
    std::size_t expected = 0;
    for (long r = 0; r < 9; ++r)
        for (long c = 0; c < 11; ++c) {
            const double m = naiveMedian(orig, 0, r, c, 5);
            const double v = orig(0, static_cast<std::size_t>(r), static_cast<std::size_t>(c));
            const bool out = std::fabs(v - m) > 0.3;
            expected += out ? 1 : 0;
            EXPECT_DOUBLE_EQ(img(0, static_cast<std::size_t>(r), static_cast<std::size_t>(c)), out ? m : v);
        }
    EXPECT_EQ(res->replaced, expected);
    EXPECT_GT(expected, 0u);
}

TEST(Zingers, BadOptionsAndValues) {
    Array3<float> img(1, 4, 4);
    ZingerOptions o;
    o.size = 4;
    EXPECT_EQ(removeZingers(img, o).status().code(), ErrorCode::InvalidArgument);
    o.size = 3;
    o.threshold = 0;
    EXPECT_NE(removeZingers(img, o).status().message().find("threshold"), std::string::npos);
    o.threshold = 0.1;
    img(0, 1, 1) = std::numeric_limits<float>::infinity();
    EXPECT_EQ(removeZingers(img, o).status().code(), ErrorCode::InvalidData);
}

TEST(Paganin, FilterConstantFromPhysicalUnits) {
    PaganinOptions o{20.0, 100.0, 1.0, 100.0};
    // lambda = 12.398 keV A / 20 keV = 0.61992 A; a = pi lambda z (delta/beta) / p^2.
    const double expected = std::numbers::pi * 0.6199209921660013e-10 * 0.1 * 100.0 / 1e-12;
    EXPECT_NEAR(o.filterConstant(), expected, 1e-9 * expected);
    EXPECT_NEAR(o.filterConstant(), 1947.54, 0.01);
}

TEST(Paganin, CosinesAreEigenfunctionsWithTheAnalyticResponse) {
    // 16 x 32 frames: a cosine along the columns (frequency 3/64 cycles/pixel) and one along
    // the rows (5/32) on a constant; the even extension of power-of-two sides is exactly
    // periodic in the padded FFT, so the output is the input scaled by the filter response.
    const std::size_t rows = 16, cols = 32;
    PaganinOptions o{20.0, 100.0, 1.0, 10.0};  // a = 194.75
    Array3<float> f(2, rows, cols);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            f(0, r, c) = static_cast<float>(
                1 + 0.1 * std::cos(std::numbers::pi * 3 * (static_cast<double>(c) + 0.5) / cols));
            f(1, r, c) = static_cast<float>(
                1 + 0.1 * std::cos(std::numbers::pi * 5 * (static_cast<double>(r) + 0.5) / rows));
        }
    Array3<float> in = f.clone();
    ASSERT_TRUE(retrievePhasePaganin(f, o).isOk());
    const double a = o.filterConstant();
    const double h0 = 1 / (1 + a * (3.0 / 64) * (3.0 / 64));
    const double h1 = 1 / (1 + a * (5.0 / 32) * (5.0 / 32));
    EXPECT_LT(h1, 0.25);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            EXPECT_NEAR(f(0, r, c), 1 + (in(0, r, c) - 1) * h0, 2e-6);
            EXPECT_NEAR(f(1, r, c), 1 + (in(1, r, c) - 1) * h1, 2e-6);
        }
    EXPECT_NEAR(o.response(3.0 / 64, 0), h0, 1e-15);
}

TEST(Paganin, ZeroDeltaOverBetaIsIdentityAndBadOptionsFail) {
    Array3<float> f(1, 7, 9);
    test::fillRandom(f, 2, 0.5f, 1.f);
    Array3<float> in = f.clone();
    ASSERT_TRUE(retrievePhasePaganin(f, PaganinOptions{20, 100, 1, 0}).isOk());
    EXPECT_LT(test::maxRelDiff(f, in), 1e-6);
    EXPECT_NE(retrievePhasePaganin(f, PaganinOptions{0, 100, 1, 10}).message().find("energy"),
              std::string::npos);
    EXPECT_NE(retrievePhasePaganin(f, PaganinOptions{20, 100, -1, 10}).message().find("pixel size"),
              std::string::npos);
}

}  // namespace
}  // namespace tomo
