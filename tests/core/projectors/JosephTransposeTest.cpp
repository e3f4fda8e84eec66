// cpu.joseph (core/projectors/JosephTranspose.h) is the exact transpose of forwardProjectJoseph:
// with weights voxelSize^2 / pitch, <A x, y> = <x, A^T y> to float rounding for signed random
// x and y (a transposed weight pair, a pixel off or a dropped edge ray is 1e-3 or more), on
// awkward geometries (random angles over 360 degrees, per-projection centres, pitch != voxel,
// an offset non-square grid, angles on both sides of 45 degrees), with bits independent of the
// thread count.
#include <gtest/gtest.h>

#include <cmath>

#include "ProjectorTestUtil.h"
#include "core/projectors/ForwardProjector.h"
#include "core/projectors/JosephTranspose.h"

namespace tomo {
namespace {

using test::unwrap;

struct Sides {
    double ax_y = 0, x_aty = 0, scale = 0;
};

Sides adjointSides(const ParallelGeometry& geom, const VolumeGeometry& vol, std::uint32_t seed,
                   int threads = 0) {
    Volume x(std::size_t(vol.nz), std::size_t(vol.ny), std::size_t(vol.nx));
    Sinograms y(std::size_t(vol.nz), std::size_t(geom.angleCount()),
                std::size_t(geom.detectorCount()));
    test::fillRandom(x, seed, -1.f, 1.f);
    test::fillRandom(y, seed + 1, -1.f, 1.f);
    ExecContext ctx;
    ctx.threads = threads;
    Sinograms ax;
    EXPECT_TRUE(forwardProjectJoseph(x, vol, geom, ax, ctx).isOk());
    const std::vector<float> w(std::size_t(geom.angleCount()),
                               float(vol.voxelSize * vol.voxelSize / geom.detectorPitch()));
    Volume aty;
    auto bp = makeJosephTransposeBackProjector();
    EXPECT_TRUE(bp->backProject(y, geom, vol, w, aty, ctx).isOk());
    // The scale of the terms: |<A x, y>| <= ||A x|| ||y||.
    return {test::dot(ax, y), test::dot(x, aty),
            std::sqrt(test::dot(ax, ax)) * std::sqrt(test::dot(y, y))};
}

ParallelGeometry uniform(int angles, double spanDeg, int detectors, double pitch, double center) {
    ParallelGeometry::Params p;
    for (int i = 0; i < angles; ++i)
        p.angles.push_back(spanDeg * kPi / 180.0 * i / angles);
    p.detectorCount = detectors;
    p.detectorPitch = pitch;
    p.centerOfRotation = center;
    return unwrap(ParallelGeometry::create(p));
}

TEST(JosephTranspose, AdjointOfForwardProjectionOnAwkwardGeometry) {
    const ParallelGeometry geom = test::awkwardGeometry(23, 61, 7);
    const VolumeGeometry vol = test::awkwardGrid(37, 29, 2);
    const Sides s = adjointSides(geom, vol, 11);
    RecordProperty("relative", std::to_string((s.ax_y - s.x_aty) / s.scale));
    EXPECT_NEAR(s.ax_y, s.x_aty, 1e-6 * s.scale) << s.ax_y << " vs " << s.x_aty;
}

TEST(JosephTranspose, AdjointOnUniformScansBothOrientations) {
    // 180 degrees in 1-degree steps (45 and 135 exactly: the row/column switch), a finer
    // detector than the pixels and a coarser one, the axis off the middle.
    VolumeGeometry vol;
    vol.nx = vol.ny = 32;
    vol.voxelSize = 0.8;
    vol.offsetX = 3.0;
    vol.offsetY = -2.0;
    for (double pitch : {0.5, 1.0, 1.7}) {
        const ParallelGeometry geom = uniform(180, 180.0, 70, pitch, 36.2);
        const Sides s = adjointSides(geom, vol, 3);
        EXPECT_NEAR(s.ax_y, s.x_aty, 1e-6 * s.scale) << "pitch " << pitch;
    }
}

TEST(JosephTranspose, EachPixelReceivesItsForwardWeights) {
    // One projection, one ray at a time: A^T e_j is row j of A, read back by projecting each
    // pixel's indicator (the entry-wise transpose, on a small grid).
    VolumeGeometry vol;
    vol.nx = 6;
    vol.ny = 5;
    vol.voxelSize = 1.1;
    vol.offsetX = 0.4;
    for (double deg : {0.0, 30.0, 45.0, 60.0, 100.0, 200.0, 300.0}) {
        const ParallelGeometry geom = uniform(1, 0.0, 9, 0.9, 3.7).withCenter(3.7);
        ParallelGeometry::Params p = geom.params();
        p.angles = {deg * kPi / 180.0};
        const ParallelGeometry g = unwrap(ParallelGeometry::create(p));
        auto bp = makeJosephTransposeBackProjector();
        const std::vector<float> w{float(vol.voxelSize * vol.voxelSize / g.detectorPitch())};
        for (int j = 0; j < g.detectorCount(); ++j) {
            Sinograms e(1, 1, std::size_t(g.detectorCount()));
            e.row(0, 0)[std::size_t(j)] = 1.f;
            Volume row;
            ASSERT_TRUE(bp->backProject(e, g, vol, w, row, {}).isOk());
            for (int iy = 0; iy < vol.ny; ++iy)
                for (int ix = 0; ix < vol.nx; ++ix) {
                    Volume pixel(1, std::size_t(vol.ny), std::size_t(vol.nx));
                    pixel.row(0, std::size_t(iy))[std::size_t(ix)] = 1.f;
                    Sinograms column;
                    ASSERT_TRUE(forwardProjectJoseph(pixel, vol, g, column, {}).isOk());
                    EXPECT_NEAR(row.row(0, std::size_t(iy))[std::size_t(ix)],
                                column.row(0, 0)[std::size_t(j)], 1e-6)
                        << deg << " deg, ray " << j << ", pixel " << ix << "," << iy;
                }
        }
    }
}

TEST(JosephTranspose, BitsDoNotDependOnThreads) {
    const ParallelGeometry geom = test::awkwardGeometry(17, 45, 9);
    const VolumeGeometry vol = test::awkwardGrid(31, 33, 3);
    Sinograms y(3, 17, 45);
    test::fillRandom(y, 5, -1.f, 1.f);
    const std::vector<float> w = test::randomWeights(17, 4);
    auto bp = makeJosephTransposeBackProjector();
    Volume one, many;
    ExecContext ctx;
    ctx.threads = 1;
    ASSERT_TRUE(bp->backProject(y, geom, vol, w, one, ctx).isOk());
    ctx.threads = 3;
    ASSERT_TRUE(bp->backProject(y, geom, vol, w, many, ctx).isOk());
    EXPECT_TRUE(test::bitIdentical(one, many));
}

TEST(JosephTranspose, RefusesMismatchedShapes) {
    const ParallelGeometry geom = test::awkwardGeometry(5, 20, 1);
    const VolumeGeometry vol = test::awkwardGrid(8, 8, 1);
    Sinograms y(1, 4, 20);  // one projection short
    Volume out;
    const std::vector<float> w(4, 1.f);
    EXPECT_FALSE(makeJosephTransposeBackProjector()->backProject(y, geom, vol, w, out, {}).isOk());
}

}  // namespace
}  // namespace tomo
