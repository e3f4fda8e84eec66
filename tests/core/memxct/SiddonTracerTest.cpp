// Siddon intersection lengths against an independent per-pixel line clipping and against
// analytic chords of the grid square.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/memxct/SiddonTracer.h"

namespace tomo {
namespace {

/// Length of the line x cos(th) + y sin(th) = t inside the box [x0,x1] x [y0,y1]
/// (Liang-Barsky clipping in double).
double chordInBox(double th, double t, double x0, double x1, double y0, double y1) {
    const double px = t * std::cos(th), py = t * std::sin(th);
    const double dx = -std::sin(th), dy = std::cos(th);
    double lo = -1e300, hi = 1e300;
    auto clip = [&](double p, double d, double a, double b) {
        if (std::abs(d) < 1e-15) {
            if (p < a || p > b) hi = -1e300;
            return;
        }
        lo = std::max(lo, std::min((a - p) / d, (b - p) / d));
        hi = std::min(hi, std::max((a - p) / d, (b - p) / d));
    };
    clip(px, dx, x0, x1);
    clip(py, dy, y0, y1);
    return std::max(0.0, hi - lo);
}

TEST(SiddonTracer, LengthsMatchPerPixelClipping) {
    VolumeGeometry vol;
    vol.nx = 9;
    vol.ny = 6;
    vol.voxelSize = 0.7;
    vol.offsetX = 0.31;
    vol.offsetY = -0.17;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> angle(0.0, 2 * kPi), offset(-4.0, 4.0);
    int hits = 0;
    for (int ray = 0; ray < 300; ++ray) {
        const double th = angle(rng), t = offset(rng);
        std::vector<double> row(static_cast<std::size_t>(vol.nx * vol.ny), 0.0);
        int prevX = -1, prevY = -1;
        traceSiddon(vol, th, t, [&](int ix, int iy, double len) {
            row[static_cast<std::size_t>(iy * vol.nx + ix)] += len;
            if (prevX >= 0) {
                EXPECT_EQ(std::abs(ix - prevX) + std::abs(iy - prevY), 1);
            }
            prevX = ix;
            prevY = iy;
        });
        for (int iy = 0; iy < vol.ny; ++iy)
            for (int ix = 0; ix < vol.nx; ++ix) {
                const double h = 0.5 * vol.voxelSize;
                const double ref =
                    chordInBox(th, t, vol.x(ix) - h, vol.x(ix) + h, vol.y(iy) - h, vol.y(iy) + h);
                hits += ref > 0 ? 1 : 0;
                EXPECT_NEAR(row[static_cast<std::size_t>(iy * vol.nx + ix)], ref, 1e-8)
                    << "ray " << ray << " pixel " << ix << "," << iy;
            }
    }
    EXPECT_GT(hits, 1000);  // the rays do cross the grid
}

TEST(SiddonTracer, RowSumIsTheChordOfTheGridSquare) {
    VolumeGeometry vol;
    vol.nx = vol.ny = 64;
    vol.voxelSize = 1.5;
    const double half = 32 * 1.5;
    for (int a = 0; a < 37; ++a) {
        const double th = a * kPi / 37 + 0.013;
        for (double t : {-60.0, -47.9, -20.3, 0.11, 13.7, 45.2, 67.0}) {
            double sum = 0;
            traceSiddon(vol, th, t, [&](int, int, double len) { sum += len; });
            // Chord of the square [-half, half]^2 by the line at distance t, normal angle th.
            const double ref = chordInBox(th, t, -half, half, -half, half);
            EXPECT_NEAR(sum, ref, 1e-9 * half) << "theta " << th << " t " << t;
        }
    }
}

TEST(SiddonTracer, AxisAlignedRayCrossesWholePixels) {
    VolumeGeometry vol;
    vol.nx = 5;
    vol.ny = 4;
    vol.voxelSize = 2.0;
    // theta = 0: the ray x = t travels along +y (bottom row first), one voxel per pixel of the
    // column containing t.
    std::vector<std::pair<int, int>> cells;
    traceSiddon(vol, 0.0, 0.4, [&](int ix, int iy, double len) {
        cells.emplace_back(ix, iy);
        EXPECT_NEAR(len, 2.0, 1e-12);
    });
    const std::vector<std::pair<int, int>> expected = {{2, 3}, {2, 2}, {2, 1}, {2, 0}};
    EXPECT_EQ(cells, expected);
    // A ray outside the grid emits nothing.
    EXPECT_EQ(traceSiddon(vol, 0.0, 5.5, [](int, int, double) {}), 0);
}

}  // namespace
}  // namespace tomo
