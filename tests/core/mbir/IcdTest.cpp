// The ICD voxel update and the q-GGMRF prior against brute force: the surrogate majorises rho,
// repeated surrogate steps reach the exact 1-D minimiser found by a fine search, one step never
// raises the 1-D cost, positivity clamps at 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/mbir/IcdUpdate.h"
#include "core/mbir/Qggmrf.h"

namespace tomo {
namespace {

double cost1d(double t, double v, double theta1, double theta2, const double* value,
              const double* weight, int n, const Qggmrf& prior) {
    double f = theta1 * (t - v) + 0.5 * theta2 * (t - v) * (t - v);
    for (int k = 0; k < n; ++k)
        f += weight[k] * prior.potential(t - value[k]);
    return f;
}

/// Minimiser by a fine grid then golden-section refinement (the cost is convex in t).
double bruteMinimum(double v, double theta1, double theta2, const double* value,
                    const double* weight, int n, const Qggmrf& prior, bool positivity) {
    const double lo = positivity ? 0.0 : -100.0, hi = 100.0, step = (hi - lo) / 40000.0;
    double best = lo;
    for (int i = 0; i <= 40000; ++i) {
        const double t = lo + step * i;
        if (cost1d(t, v, theta1, theta2, value, weight, n, prior) <
            cost1d(best, v, theta1, theta2, value, weight, n, prior))
            best = t;
    }
    double a = std::max(lo, best - step), b = best + step;
    const double r = (std::sqrt(5.0) - 1) / 2;
    for (int i = 0; i < 200; ++i) {
        const double c = b - r * (b - a), d = a + r * (b - a);
        if (cost1d(c, v, theta1, theta2, value, weight, n, prior) <
            cost1d(d, v, theta1, theta2, value, weight, n, prior))
            b = d;
        else
            a = c;
    }
    return 0.5 * (a + b);
}

TEST(Qggmrf, SurrogateMajorisesThePotentialAndTouchesIt) {
    for (double q : {1.0, 1.2, 1.6, 2.0}) {
        const Qggmrf prior({.p = 2.0, .q = q, .T = 0.7, .sigmaX = 0.3});
        for (double d : {-2.0, -0.4, -0.05, 0.0, 0.01, 0.3, 1.5}) {
            const double a = prior.surrogate(d);
            for (double t = -3; t <= 3; t += 0.01)
                ASSERT_LE(prior.potential(t), prior.potential(d) + a * (t * t - d * d) + 1e-12)
                    << "q " << q << " d " << d << " t " << t;
        }
        // Quadratic near 0 with curvature 1 / sigma_x^2 when q < p: rho(d) ~ d^2 / (2 sigma_x^2)
        // (for q = p the denominator is 2 everywhere: half that).
        const double expected = q < 2 ? 1.0 : 0.5;
        EXPECT_NEAR(prior.potential(1e-12) / (1e-24 / (2 * 0.09)), expected, 1e-3);
    }
}

TEST(IcdVoxelStep, RepeatedSurrogateStepsReachTheExactOneDimensionalMinimum) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int trial = 0; trial < 40; ++trial) {
        const Qggmrf prior({.p = 2.0, .q = 1.2, .T = 1.0, .sigmaX = 0.05 + 0.5 * u(rng)});
        double value[10], weight[10];
        const int n = 8 + trial % 3;
        for (int k = 0; k < n; ++k) {
            value[k] = 2.0 * u(rng);
            weight[k] = 0.05 + 0.1 * u(rng);
        }
        const double v = 2.0 * u(rng);
        const double theta2 = 0.1 + 20.0 * u(rng);
        const double theta1 = (u(rng) - 0.5) * 40.0;
        const bool positivity = trial % 2 == 0;
        const double exact = bruteMinimum(v, theta1, theta2, value, weight, n, prior, positivity);
        const double many =
            icdVoxelStep(v, theta1, theta2, value, weight, n, prior, positivity, 500);
        EXPECT_NEAR(many, exact, 1e-5 * std::max(1.0, std::fabs(exact))) << "trial " << trial;
        const double one = icdVoxelStep(v, theta1, theta2, value, weight, n, prior, positivity, 1);
        EXPECT_LE(cost1d(one, v, theta1, theta2, value, weight, n, prior),
                  cost1d(v, v, theta1, theta2, value, weight, n, prior) + 1e-12);
        if (positivity) {
            EXPECT_GE(one, 0.0);
        }
    }
}

TEST(IcdVoxelStep, QuadraticPriorIsSolvedInOneStepAndPositivityClampsAtZero) {
    const Qggmrf quadratic({.p = 2.0, .q = 2.0, .T = 1.0, .sigmaX = 0.5});
    const double value[2] = {1.0, 3.0}, weight[2] = {0.5, 0.5};
    // With q = p the denominator is 2: rho(d) = d^2 / (4 sigma_x^2) = d^2, so
    // f(t) = 2 (t - 1) + 2 (t - 1)^2 + 0.5 (t - 1)^2 + 0.5 (t - 3)^2 and f'(t) = 0 gives
    // 2 + 4 (t - 1) + (t - 1) + (t - 3) = 0, t = 6 / 6.
    const double t = (-2.0 + 4.0 + 1.0 + 3.0) / 6.0;
    EXPECT_NEAR(icdVoxelStep(1.0, 2.0, 4.0, value, weight, 2, quadratic, false, 1), t, 1e-12);
    EXPECT_EQ(icdVoxelStep(1.0, 100.0, 4.0, value, weight, 2, quadratic, true, 1), 0.0);
    EXPECT_LT(icdVoxelStep(1.0, 100.0, 4.0, value, weight, 2, quadratic, false, 1), 0.0);
}

}  // namespace
}  // namespace tomo
