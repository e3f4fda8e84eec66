// The Kaiser-Bessel gridding kernel: its analytic transform (the deapodisation) against
// numerical integration, its polynomials against its values, its predicted errors.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/fourier/GriddingKernel.h"

namespace tomo {
namespace {

using std::numbers::pi;

/// integral over [-W/2, W/2] of phi(u) cos(2 pi f u) du by composite Gauss-Legendre (5 points on
/// each of 400 panels), in double: independent of the closed form.
double integratedTransform(const GriddingKernel& k, double f) {
    static const double x[5] = {-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                0.9061798459386640};
    static const double w[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                0.4786286704993665, 0.2369268850561891};
    const int panels = 400;
    const double a = -0.5 * k.width(), h = double(k.width()) / panels;
    double sum = 0;
    for (int p = 0; p < panels; ++p) {
        const double mid = a + (p + 0.5) * h;
        for (int i = 0; i < 5; ++i) {
            const double u = mid + 0.5 * h * x[i];
            sum += 0.5 * h * w[i] * k.value(u) * std::cos(2 * pi * f * u);
        }
    }
    return sum;
}

TEST(GriddingKernel, BesselI0MatchesTabulatedValues) {
    // Abramowitz & Stegun, table 9.8 (and I0(0) = 1).
    EXPECT_DOUBLE_EQ(besselI0(0.0), 1.0);
    EXPECT_NEAR(besselI0(1.0), 1.266065877752008, 1e-14);
    EXPECT_NEAR(besselI0(5.0), 27.23987182360445, 1e-12);
    EXPECT_NEAR(besselI0(10.0) / 2815.716628466254, 1.0, 1e-13);
}

TEST(GriddingKernel, DeapodisationMatchesItsAnalyticTransform) {
    for (int width : {2, 4, 6, 9, 16})
        for (double s : {1.25, 2.0}) {
            auto k = GriddingKernel::create(width, s);
            ASSERT_TRUE(k.isOk()) << k.status().message();
            const double peak = k->transform(0);
            // Inside the image band (deapodisation), past it (aliases), both sinh and sin forms.
            for (double f : {0.0, 0.1, 0.25, 0.4, 0.5, 0.75, 1.0, 1.6, 3.3}) {
                const double numeric = integratedTransform(*k, f);
                EXPECT_NEAR(k->transform(f), numeric, 1e-11 * peak)
                    << "W " << width << " s " << s << " f " << f;
            }
        }
}

TEST(GriddingKernel, PolynomialsFollowTheKernel) {
    for (int width : {2, 3, 4, 6, 8, 12, 16}) {
        auto k = GriddingKernel::create(width, 1.5);
        ASSERT_TRUE(k.isOk());
        EXPECT_LE(k->polynomialError(), std::max(0.1 * k->aliasingError(), 3e-7));
        float w[GriddingKernel::kMaxWidth];
        double worst = 0, sum = 0;
        const double alias = k->aliasingError();
        for (int s = 1; s <= 997; ++s) {  // offsets other than the fit's check points
            const float t = float(s) / 997.f;
            k->weights(t, w);
            for (int i = 0; i < width; ++i)
                worst = std::max(worst, std::abs(w[i] - k->value(double(t) + i - 0.5 * width)));
            if (s == 500)
                for (int i = 0; i < width; ++i)
                    sum += w[i];
        }
        EXPECT_LE(worst, 1.5 * k->polynomialError() + 1e-7) << "W " << width;
        // The weights of one sample sum to phihat(0) plus its aliases phihat(n), n != 0.
        EXPECT_NEAR(sum, k->transform(0), (3 * alias + 1e-6) * k->transform(0)) << "W " << width;
    }
}

TEST(GriddingKernel, ErrorsFallWithWidthAndOversampling) {
    double previous = 1;
    for (int width = 2; width <= 8; ++width) {
        auto k = GriddingKernel::create(width, 2.0);
        ASSERT_TRUE(k.isOk());
        EXPECT_LT(k->aliasingError(), previous) << "W " << width;
        previous = k->aliasingError();
    }
    EXPECT_LT(GriddingKernel::create(4, 2.0)->aliasingError(),
              GriddingKernel::create(4, 1.25)->aliasingError());
    // Rounding, amplified by the deapodisation, grows with the width at low oversampling.
    EXPECT_GT(GriddingKernel::create(10, 1.25)->roundingError(),
              GriddingKernel::create(5, 1.25)->roundingError());
    for (auto [tolerance, s] :
         {std::pair{1e-2, 1.25}, {1e-3, 1.25}, {1e-3, 2.0}, {1e-5, 2.0}, {1e-6, 3.0}}) {
        auto k = GriddingKernel::create(widthForTolerance(tolerance, s), s);
        EXPECT_LE(k->predictedError(), tolerance) << tolerance << " at " << s;
    }
    // At 1.25 nothing reaches 1e-6: the width of the least predicted error is chosen.
    const int w = widthForTolerance(1e-6, 1.25);
    for (int other = 2; other <= 16; ++other)
        EXPECT_LE(GriddingKernel::create(w, 1.25)->predictedError(),
                  GriddingKernel::create(other, 1.25)->predictedError() * 1.000001);
}

TEST(GriddingKernel, RejectsWidthsAndOversamplingOutOfRange) {
    EXPECT_EQ(GriddingKernel::create(1, 2.0).status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(GriddingKernel::create(17, 2.0).status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(GriddingKernel::create(4, 1.0).status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(GriddingKernel::create(4, std::nan("")).status().code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
