// Analytic phantoms: closed-form line integrals against numerical integration of value(), the
// standard tables' values and orientation, name parsing and random ellipses.
#include <gtest/gtest.h>

#include <cmath>

#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

struct RayPoint {
    double x, y;
};
/// The point at arc length s on the ray {t (cos th, sin th) + s (-sin th, cos th)}.
RayPoint onRay(double theta, double t, double s) {
    return {t * std::cos(theta) - s * std::sin(theta), t * std::sin(theta) + s * std::cos(theta)};
}

/// Numerical line integral of a phantom made of ONE convex shape: scans value() along the ray
/// for the first and last inside samples, then bisects both boundary crossings to ~1e-13.
double bisectedIntegral(const Phantom& ph, double theta, double t, double z, double halfLength) {
    auto inside = [&](double s) {
        RayPoint p = onRay(theta, t, s);
        return ph.value(p.x, p.y, z) != 0.0;
    };
    const int n = 20000;
    const double step = 2.0 * halfLength / n;
    int first = -1, last = -1;
    for (int i = 0; i <= n; ++i)
        if (inside(-halfLength + i * step)) {
            if (first < 0) first = i;
            last = i;
        }
    if (first < 0) return 0.0;
    auto refine = [&](double out, double in) {  // boundary between an outside and inside point
        for (int it = 0; it < 80; ++it) {
            double mid = 0.5 * (out + in);
            (inside(mid) ? in : out) = mid;
        }
        return 0.5 * (out + in);
    };
    double s0 = refine(-halfLength + (first - 1) * step, -halfLength + first * step);
    double s1 = refine(-halfLength + (last + 1) * step, -halfLength + last * step);
    RayPoint mid = onRay(theta, t, 0.5 * (s0 + s1));
    return ph.value(mid.x, mid.y, z) * (s1 - s0);
}

/// Midpoint Riemann sum of value() along the ray over s in [-halfLength, halfLength].
double riemannIntegral(const Phantom& ph, double theta, double t, double z, double halfLength,
                       int cells) {
    const double h = 2.0 * halfLength / cells;
    double sum = 0.0;
    for (int i = 0; i < cells; ++i) {
        RayPoint p = onRay(theta, t, -halfLength + (i + 0.5) * h);
        sum += ph.value(p.x, p.y, z);
    }
    return sum * h;
}

TEST(PhantomLineIntegral, DiscChordIsTwoDensityTimesSqrtOfRadiusSquaredMinusOffset) {
    // Normalised radius 0.5, centre (0.1, -0.2), density 2; scale 3 -> world radius 1.5.
    Phantom disc = Phantom::single({2.0, 0.5, 0.5, 0.0, 0.1, -0.2, 0.0, 0.3}, true, 3.0);
    const double r = 1.5, cx = 0.3, cy = -0.6;
    for (double theta : {0.0, 0.4, 1.3, 2.5, 4.0}) {
        const double centreT = cx * std::cos(theta) + cy * std::sin(theta);
        for (double offset : {-1.4, -0.7, 0.0, 0.3, 1.49}) {
            const double expected = 2.0 * 2.0 * std::sqrt(r * r - offset * offset);
            EXPECT_NEAR(disc.lineIntegral(theta, centreT + offset), expected, 1e-12 * expected)
                << "theta " << theta << " offset " << offset;
        }
        EXPECT_EQ(disc.lineIntegral(theta, centreT + 1.51), 0.0);
        EXPECT_EQ(disc.lineIntegral(theta, centreT - 1.6), 0.0);
    }
}

TEST(PhantomLineIntegral, RotatedEllipseMatchesNumericalIntegrationAlongTheRay) {
    // Semi-axes 0.6 x 0.25 tilted by 0.4 rad, centre (0.1, 0.2), scale 2 (world 1.2 x 0.5).
    Phantom ellipse = Phantom::single({1.5, 0.6, 0.25, 0.0, 0.1, 0.2, 0.0, 0.4}, true, 2.0);
    for (double theta : {0.0, 0.3, 1.2, 2.0, 2.9, 5.5}) {
        const double centreT = 0.2 * std::cos(theta) + 0.4 * std::sin(theta);
        for (double offset : {-0.3, 0.0, 0.2, 0.45}) {
            const double t = centreT + offset;
            const double reference = bisectedIntegral(ellipse, theta, t, 0.0, 4.0);
            ASSERT_GT(reference, 0.0);
            EXPECT_NEAR(ellipse.lineIntegral(theta, t), reference, 1e-6 * reference)
                << "theta " << theta << " offset " << offset;
        }
    }
}

TEST(PhantomLineIntegral, EllipsoidPlaneCutsMatchNumericalIntegration) {
    // Ellipsoid 0.5 x 0.3 x 0.4 at (0.1, -0.05, 0.2), phi 0.7, scale 1.5: world cz 0.3, az 0.6.
    Phantom ellipsoid = Phantom::single({1.2, 0.5, 0.3, 0.4, 0.1, -0.05, 0.2, 0.7}, false, 1.5);
    for (double z : {0.0, 0.3, 0.55, 0.8}) {
        for (double theta : {0.2, 1.1, 2.4}) {
            const double centreT = 0.15 * std::cos(theta) - 0.075 * std::sin(theta);
            for (double offset : {-0.1, 0.0, 0.12}) {
                const double t = centreT + offset;
                const double reference = bisectedIntegral(ellipsoid, theta, t, z, 3.0);
                ASSERT_GT(reference, 0.0);
                EXPECT_NEAR(ellipsoid.lineIntegral(theta, t, z), reference, 1e-6 * reference)
                    << "z " << z << " theta " << theta << " offset " << offset;
            }
        }
    }
    EXPECT_EQ(ellipsoid.lineIntegral(0.0, 0.15, 0.91), 0.0);   // above the top (z = 0.9)
    EXPECT_EQ(ellipsoid.lineIntegral(0.0, 0.15, -0.31), 0.0);  // below the bottom (z = -0.3)
}

TEST(PhantomLineIntegral, SphereCutByAPlaneIsADiscOfReducedRadius) {
    // Sphere radius 0.8 at (0.1, 0.2, -0.3), density 0.7, scale 1: chord
    // 2 d sqrt(R^2 - (z - cz)^2 - t'^2).
    Phantom sphere = Phantom::single({0.7, 0.8, 0.8, 0.8, 0.1, 0.2, -0.3, 1.0}, false, 1.0);
    for (double z : {-0.3, 0.0, 0.4}) {
        for (double theta : {0.0, 0.9, 2.2}) {
            const double centreT = 0.1 * std::cos(theta) + 0.2 * std::sin(theta);
            for (double offset : {-0.3, 0.05, 0.25}) {
                const double r2 = 0.64 - (z + 0.3) * (z + 0.3) - offset * offset;
                const double expected = 2.0 * 0.7 * std::sqrt(r2);
                EXPECT_NEAR(sphere.lineIntegral(theta, centreT + offset, z), expected,
                            1e-12 * expected);
            }
        }
    }
}

TEST(PhantomLineIntegral, SheppLoganMatchesRiemannSumsOfItsValues) {
    // Midpoint sum error: at most h/2 * |density| per boundary crossing, two per shape.
    const int cells = 100000;
    const double halfLength = 1.0, h = 2.0 * halfLength / cells;
    const Phantom heads[] = {Phantom::sheppLogan2d(), Phantom::sheppLogan3d()};
    for (const Phantom& ph : heads) {
        double densitySum = 0.0;
        for (const Ellipsoid& e : ph.shapes())
            densitySum += std::abs(e.density);
        const double z = ph.is2d() ? 0.0 : -0.25;
        for (double theta : {0.0, 0.7, 1.9, 3.0}) {
            for (double t : {-0.5, -0.1, 0.0, 0.23, 0.6}) {
                const double reference = riemannIntegral(ph, theta, t, z, halfLength, cells);
                EXPECT_NEAR(ph.lineIntegral(theta, t, z), reference, h * densitySum)
                    << "theta " << theta << " t " << t;
            }
        }
    }
}

TEST(PhantomTables, SheppLoganValuesFollowTheTable) {
    Phantom sl = Phantom::sheppLogan2d();
    ASSERT_EQ(sl.shapes().size(), 10u);
    EXPECT_DOUBLE_EQ(sl.value(0.0, 0.0), 1.0 - 0.8);         // brain
    EXPECT_DOUBLE_EQ(sl.value(0.0, 0.35), 1.0 - 0.8 + 0.1);  // upper ellipse
    EXPECT_DOUBLE_EQ(sl.value(0.0, -0.1), 1.0 - 0.8 + 0.1);  // lower small disc
    EXPECT_DOUBLE_EQ(sl.value(0.0, -0.6), 1.0 - 0.8 + 0.1);  // middle "mouth" disc
    EXPECT_DOUBLE_EQ(sl.value(0.0, 0.9), 1.0);               // skull, top
    EXPECT_NEAR(sl.value(0.22, 0.0), 0.0, 1e-15);            // dark ellipses
    EXPECT_NEAR(sl.value(-0.22, 0.0), 0.0, 1e-15);
    EXPECT_EQ(sl.value(0.0, 0.95), 0.0);  // outside
    // Scale multiplies positions: the same points at scale 100.
    Phantom big = Phantom::sheppLogan2d(100.0);
    EXPECT_DOUBLE_EQ(big.value(0.0, 35.0), 1.0 - 0.8 + 0.1);
    EXPECT_DOUBLE_EQ(big.value(0.0, 90.0), 1.0);
}

TEST(PhantomTables, DarkEllipsesTiltWithTheirTopsOutwards) {
    // MATLAB's table: the right dark ellipse (x = 0.22, b = 0.31 along 72 degrees) leans to the
    // right going up, the left one (x = -0.22, b = 0.41 along 108 degrees) to the left.
    Phantom sl = Phantom::sheppLogan2d();
    const double c72 = std::cos(72.0 * kPi / 180.0), s72 = std::sin(72.0 * kPi / 180.0);
    EXPECT_NEAR(sl.value(0.22 + 0.25 * c72, 0.25 * s72), 0.0, 1e-15);
    EXPECT_GT(sl.value(0.22 - 0.25 * c72, 0.25 * s72), 0.15);  // mirror point: not dark
    EXPECT_NEAR(sl.value(-0.22 - 0.35 * c72, 0.35 * s72), 0.0, 1e-15);
    EXPECT_GT(sl.value(-0.22 + 0.35 * c72, 0.35 * s72), 0.15);
    // The 3-D head shows the same features in its slice z = -0.25, and two more at z = 0.625.
    Phantom head = Phantom::sheppLogan3d();
    ASSERT_EQ(head.shapes().size(), 10u);
    EXPECT_DOUBLE_EQ(head.value(0.0, 0.0, -0.25), 0.2);
    EXPECT_DOUBLE_EQ(head.value(0.0, 0.35, -0.25), 0.4);
    EXPECT_NEAR(head.value(0.22 + 0.25 * c72, 0.25 * s72, -0.25), 0.0, 1e-15);
    EXPECT_GT(head.value(0.22 - 0.25 * c72, 0.25 * s72, -0.25), 0.15);
    EXPECT_NEAR(head.value(0.0, 0.1, 0.625), 0.0, 1e-15);  // -0.2 ellipsoid
    EXPECT_DOUBLE_EQ(head.value(0.06, -0.105, 0.625), 0.4);
    EXPECT_DOUBLE_EQ(head.value(0.0, 0.0, 0.89), 1.0);  // skull cap
}

TEST(PhantomFactory, NamesParseAndBadNamesExplainTheChoices) {
    auto sl = Phantom::fromName("shepp-logan", 2.0);
    ASSERT_TRUE(sl.isOk());
    EXPECT_TRUE(sl->is2d());
    EXPECT_EQ(sl->scale(), 2.0);
    EXPECT_DOUBLE_EQ(sl->value(0.0, 0.7), 0.3);  // (0, 0.35) scaled by 2
    auto head = Phantom::fromName("shepp-logan-3d", 1.0);
    ASSERT_TRUE(head.isOk());
    EXPECT_FALSE(head->is2d());
    auto disc = Phantom::fromName("disc", 4.0);
    ASSERT_TRUE(disc.isOk());
    EXPECT_NEAR(disc->lineIntegral(0.3, 0.0), 2.0 * 0.5 * 4.0, 1e-12);
    auto ellipses = Phantom::fromName("ellipses:5:7", 1.0);
    ASSERT_TRUE(ellipses.isOk());
    ASSERT_EQ(ellipses->shapes().size(), 5u);
    EXPECT_EQ(ellipses->shapes()[3].cx, Phantom::randomEllipses(5, 7).shapes()[3].cx);
    EXPECT_EQ(Phantom::fromName("ellipses", 1.0)->shapes().size(), 10u);
    EXPECT_EQ(Phantom::fromName("ellipses:3", 1.0)->shapes().size(), 3u);

    for (const char* bad : {"shepp", "ellipses:", "ellipses:0", "ellipses:x", "ellipses:4:-1",
                            "ellipsesX", "disc:2"}) {
        auto r = Phantom::fromName(bad, 1.0);
        ASSERT_FALSE(r.isOk()) << bad;
        EXPECT_EQ(r.status().code(), ErrorCode::InvalidArgument);
        EXPECT_NE(r.status().message().find(bad), std::string::npos) << r.status().message();
    }
    EXPECT_NE(Phantom::fromName("nope", 1.0).status().message().find("shepp-logan-3d"),
              std::string::npos);
    EXPECT_FALSE(Phantom::fromName("disc", 0.0).isOk());
    EXPECT_FALSE(Phantom::fromName("disc", std::nan("")).isOk());
}

TEST(PhantomFactory, TheLowContrastDiscSetHasItsContrastsWhereTheTableSays) {
    auto discs = Phantom::fromName("discs", 100.0);
    ASSERT_TRUE(discs.isOk());
    EXPECT_TRUE(discs->is2d());
    EXPECT_EQ(discs->shapes().size(), 18u);
    EXPECT_DOUBLE_EQ(discs->value(0.0, 0.0), 0.96);   // the darker centre disc
    EXPECT_DOUBLE_EQ(discs->value(0.0, -20.0), 1.0);  // background between the rings
    EXPECT_DOUBLE_EQ(discs->value(58.0 * std::cos(kPi / 8), 58.0 * std::sin(kPi / 8)),
                     1.0);                            // between two outer discs
    EXPECT_DOUBLE_EQ(discs->value(58.0, 0.0), 1.04);  // the largest outer disc, +4%
    EXPECT_DOUBLE_EQ(discs->value(30.0 * std::cos(kPi / 8), 30.0 * std::sin(kPi / 8)),
                     1.01);                          // the largest inner disc, +1%
    EXPECT_DOUBLE_EQ(discs->value(0.0, 90.0), 0.0);  // outside the water disc
    // The smallest outer disc (radius 3 at scale 100): its edge is at 58 +- 3 along 315 deg.
    const double c = std::cos(7 * 2 * kPi / 8), s = std::sin(7 * 2 * kPi / 8);
    EXPECT_DOUBLE_EQ(discs->value(57.0 * c, 57.0 * s), 1.04);
    EXPECT_DOUBLE_EQ(discs->value(54.5 * c, 54.5 * s), 1.0);
}

TEST(PhantomFactory, RandomEllipsesStayInTheUnitDiscAndRepeatBySeed) {
    Phantom a = Phantom::randomEllipses(200, 42);
    Phantom b = Phantom::randomEllipses(200, 42);
    Phantom c = Phantom::randomEllipses(200, 43);
    ASSERT_EQ(a.shapes().size(), 200u);
    int differing = 0;
    for (std::size_t i = 0; i < a.shapes().size(); ++i) {
        const Ellipsoid& e = a.shapes()[i];
        EXPECT_GE(e.density, 0.1);
        EXPECT_LE(e.density, 1.0);
        // The farthest point of the ellipse from the origin is within |c| + max(a, b).
        EXPECT_LE(std::hypot(e.cx, e.cy) + std::max(e.ax, e.ay), 1.0 + 1e-12);
        EXPECT_EQ(e.cx, b.shapes()[i].cx);
        EXPECT_EQ(e.phi, b.shapes()[i].phi);
        differing += e.cx != c.shapes()[i].cx;
    }
    EXPECT_EQ(differing, 200);
    EXPECT_TRUE(Phantom::randomEllipses(0, 1).shapes().empty());
    // Nothing outside the unit disc (scaled): sample a ring at radius 1.001 * scale.
    Phantom scaled = Phantom::randomEllipses(50, 9, 10.0);
    for (int k = 0; k < 360; ++k)
        EXPECT_EQ(scaled.value(10.01 * std::cos(k * kPi / 180), 10.01 * std::sin(k * kPi / 180)),
                  0.0);
}

}  // namespace
}  // namespace tomo
