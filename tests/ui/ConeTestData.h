#pragma once
// Cone-beam data of the GUI tests, made with core's analytic phantom (no projector of ours):
// a 48^3 grid of 1 mm, the 3-D Shepp-Logan of half-size 20 mm, sid 300 mm, sdd 450 mm, a
// detector of 1.2 mm pixels (0.8 mm at the isocentre) that sees the whole volume; and the
// files File > Open cone-beam dataset reads (MetaImage projections with spacing and origin,
// RTK XML geometry, MetaImage truth).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "app/data/DataFormats.h"
#include "app/jobs/ConeJob.h"
#include "core/cone/ConeGeometryIo.h"
#include "core/cone/ConePhantom.h"

namespace tomo::ui::test {

struct ConeData {
    ConeGeometry geometry;
    ConeVolumeGrid grid;
    Array3<float> projections;  ///< [view][v][u]
    Volume truth;               ///< [z][y][x] on grid
};

/// @p views views over @p arcDeg degrees; every view gets @p view's offsets and tilts.
inline ConeData coneData(int views, double arcDeg = 360, ConeView shape = {}, int n = 48,
                         int nu = 96, int nv = 80) {
    ConeGeometry g =
        ConeGeometry::circular(300, 450, views, 0, arcDeg, DetectorGrid::centred(nu, nv, 1.2, 1.2))
            .value();
    std::vector<ConeView> all = g.views();
    for (ConeView& v : all) {
        v.projOffsetX = shape.projOffsetX;
        v.projOffsetY = shape.projOffsetY;
        v.inPlaneAngle = shape.inPlaneAngle;
        v.outOfPlaneAngle = shape.outOfPlaneAngle;
    }
    g = g.withViews(all).value();
    ConePhantom phantom = ConePhantom::sheppLogan(20.0);
    ExecContext ctx;
    ctx.threads = 2;
    ConeVolumeGrid grid = ConeVolumeGrid::centred(n, n, n, 1.0);
    Array3<float> proj = phantom.project(g, 2, ctx).value();
    Volume truth = phantom.rasterize(grid, 2, ctx).value();
    return {std::move(g), grid, std::move(proj), std::move(truth)};
}

struct ConeFiles {
    std::filesystem::path projections, geometry, truth;
};

/// Writes @p d as proj.mha (the detector's pitch and origin as its spacing and origin), an RTK
/// geometry.xml and truth.mha into @p dir.
inline ConeFiles writeConeFiles(const ConeData& d, const std::filesystem::path& dir) {
    ConeFiles f{dir / "proj.mha", dir / "geometry.xml", dir / "truth.mha"};
    FormatRegistry formats = app::makeFormatRegistry().value();
    const DetectorGrid& det = d.geometry.detector();
    WriteOptions o;
    o.frame = VolumeFrame{{det.pitchU, det.pitchV, 1.0}, {det.originU, det.originV, 0.0}};
    EXPECT_TRUE(formats.writeVolume(f.projections, d.projections, o).isOk());
    EXPECT_TRUE(writeConeGeometryFile(f.geometry, d.geometry).isOk());
    WriteOptions t;
    t.frame = VolumeFrame{{1, 1, 1}, {d.grid.originX, d.grid.originY, d.grid.originZ}};
    EXPECT_TRUE(formats.writeVolume(f.truth, d.truth, t).isOk());
    return f;
}

/// |a - b| / |b| (root of sums of squares) of two images of one shape.
inline double relativeRmse(View2<const float> a, View2<const float> b) {
    double num = 0, den = 0;
    for (std::size_t r = 0; r < b.rows(); ++r)
        for (std::size_t c = 0; c < b.cols(); ++c) {
            const double d = double(a(r, c)) - b(r, c);
            num += d * d;
            den += double(b(r, c)) * b(r, c);
        }
    return std::sqrt(num / den);
}

/// RMSE of @p a against @p truth inside the disc of radius 0.45 of the image's width.
inline double discRmse(View2<const float> a, View2<const float> truth) {
    double sum = 0;
    int n = 0;
    const double c = 0.5 * (truth.cols() - 1.0), r = 0.45 * truth.cols();
    for (std::size_t y = 0; y < truth.rows(); ++y)
        for (std::size_t x = 0; x < truth.cols(); ++x)
            if (std::hypot(x - c, y - c) <= r) {
                const double d = double(a(y, x)) - truth(y, x);
                sum += d * d;
                ++n;
            }
    return std::sqrt(sum / n);
}

}  // namespace tomo::ui::test
