// addPoissonNoise: statistics against the exact Poisson expectation, reproducibility by seed,
// clamping of zero counts, and argument checks.
#include <gtest/gtest.h>

#include <cmath>

#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

/// Exact mean and variance of -ln(max(N, 0.5) / n0) for N ~ Poisson(lambda), by summing the
/// probability mass function in double precision.
struct Moments {
    double mean = 0, variance = 0;
};
Moments exactMoments(double lambda, double n0) {
    double m1 = 0, m2 = 0;
    const int kMax = static_cast<int>(lambda + 40.0 * std::sqrt(lambda) + 40.0);
    for (int k = 0; k <= kMax; ++k) {
        const double pmf = std::exp(k * std::log(lambda) - lambda - std::lgamma(k + 1.0));
        const double v = -std::log(k == 0 ? 0.5 / n0 : k / n0);
        m1 += pmf * v;
        m2 += pmf * v * v;
    }
    return {m1, m2 - m1 * m1};
}

Sinograms constantSinograms(std::size_t slices, std::size_t angles, std::size_t dets, float p) {
    Sinograms s(slices, angles, dets);
    s.fill(p);
    return s;
}

void sampleMoments(const Sinograms& s, double& mean, double& variance) {
    double sum = 0, sum2 = 0;
    const View2<const float> rows = s.rows();
    for (std::size_t r = 0; r < rows.rows(); ++r)
        for (float v : rows.row(r)) {
            sum += v;
            sum2 += static_cast<double>(v) * v;
        }
    const double n = static_cast<double>(s.elementCount());
    mean = sum / n;
    variance = (sum2 - sum * sum / n) / (n - 1);
}

TEST(PoissonNoise, MeanAndVarianceMatchTheExactPoissonMoments) {
    const double n0 = 1000.0, p = 1.0;
    Sinograms s = constantSinograms(2, 10, 1000, static_cast<float>(p));  // 20000 samples
    std::size_t clamped = 99;
    ASSERT_TRUE(addPoissonNoise(s, n0, 11, 1.0, &clamped).isOk());
    EXPECT_EQ(clamped, 0u);
    const double lambda = n0 * std::exp(-p);
    const Moments exact = exactMoments(lambda, n0);
    double mean = 0, variance = 0;
    sampleMoments(s, mean, variance);
    // Five standard errors of the mean; the variance within 5 % (its standard error is ~1 %).
    EXPECT_NEAR(mean, exact.mean, 5.0 * std::sqrt(exact.variance / 20000.0));
    EXPECT_NEAR(mean, p, 0.01);
    EXPECT_NEAR(variance, exact.variance, 0.05 * exact.variance);
    EXPECT_NEAR(variance, 1.0 / lambda, 0.05 / lambda);  // the textbook 1 / (N0 exp(-p))
}

TEST(PoissonNoise, AttenuationScaleMapsUnitsBeforeAndAfterCounting) {
    // p = 2 (per unit) with scale 0.5: lambda = N0 exp(-1), result divided by 0.5.
    const double n0 = 2000.0, p = 2.0, scale = 0.5;
    Sinograms s = constantSinograms(1, 20, 1000, static_cast<float>(p));
    ASSERT_TRUE(addPoissonNoise(s, n0, 3, scale).isOk());
    const Moments exact = exactMoments(n0 * std::exp(-p * scale), n0);
    double mean = 0, variance = 0;
    sampleMoments(s, mean, variance);
    EXPECT_NEAR(mean, exact.mean / scale, 5.0 * std::sqrt(exact.variance / 20000.0) / scale);
    EXPECT_NEAR(variance, exact.variance / (scale * scale),
                0.05 * exact.variance / (scale * scale));
}

TEST(PoissonNoise, SameSeedSameNoiseAndRowsDrawIndependentlyOfTheStackSize) {
    Sinograms a = constantSinograms(3, 8, 64, 0.5f);
    Sinograms b = a.clone();
    Sinograms c = a.clone();
    Sinograms firstOnly = constantSinograms(1, 8, 64, 0.5f);
    ASSERT_TRUE(addPoissonNoise(a, 500.0, 7).isOk());
    ASSERT_TRUE(addPoissonNoise(b, 500.0, 7).isOk());
    ASSERT_TRUE(addPoissonNoise(c, 500.0, 8).isOk());
    ASSERT_TRUE(addPoissonNoise(firstOnly, 500.0, 7).isOk());
    int differ = 0;
    for (std::size_t s = 0; s < 3; ++s)
        for (std::size_t p = 0; p < 8; ++p)
            for (std::size_t j = 0; j < 64; ++j) {
                ASSERT_EQ(a(s, p, j), b(s, p, j));
                differ += a(s, p, j) != c(s, p, j);
                if (s == 0) {
                    ASSERT_EQ(a(s, p, j), firstOnly(s, p, j));
                }
            }
    EXPECT_GT(differ, 3 * 8 * 64 / 2);  // counts of ~300 photons rarely coincide
}

TEST(PoissonNoise, OpaqueRaysAreClampedToHalfAPhotonAndCounted) {
    Sinograms s = constantSinograms(1, 4, 10, 60.0f);  // N0 exp(-60) ~ 1e-24 photons
    s(0, 0, 0) = 0.0f;                                 // one clear ray
    std::size_t clamped = 0;
    ASSERT_TRUE(addPoissonNoise(s, 100.0, 1, 1.0, &clamped).isOk());
    EXPECT_EQ(clamped, 39u);
    EXPECT_NEAR(s(0, 3, 9), std::log(200.0), 1e-6);  // -ln(0.5 / 100)
    EXPECT_LT(std::abs(s(0, 0, 0)), 0.5);            // ~100 photons: |ln(N / 100)| small
}

TEST(PoissonNoise, RejectsBadArgumentsWithoutTouchingTheData) {
    Sinograms s = constantSinograms(1, 2, 3, 1.0f);
    EXPECT_EQ(addPoissonNoise(s, 0.0, 1).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(addPoissonNoise(s, 100.0, 1, -1.0).code(), ErrorCode::InvalidArgument);
    s(0, 1, 2) = std::nanf("");
    Status st = addPoissonNoise(s, 100.0, 1);
    EXPECT_EQ(st.code(), ErrorCode::InvalidData);
    EXPECT_NE(st.message().find("row 1, detector 2"), std::string::npos) << st.message();
    EXPECT_EQ(s(0, 0, 0), 1.0f);
}

}  // namespace
}  // namespace tomo
