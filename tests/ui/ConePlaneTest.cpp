// The central-plane preview (app/jobs/ConePlane.h) is the same plane of the full FDK volume:
// cropping the projections to the rows the plane reaches, with the detector origin moved by the
// rows dropped, changes nothing but float rounding (1e-5 relative), for a centred full scan, a
// detector shifted in u and v with an in-plane tilt (the general kernel), a short scan, an odd
// grid off the isocentre and a tuned geometry; and it reads a small fraction of the rows.
// TOMO_CONE_PREVIEW_BENCH=1 also times a 512^2 plane from 720 views of 768 x 768.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "app/Engine.h"
#include "app/jobs/ConePlane.h"
#include "tests/ui/ConeTestData.h"

namespace tomo::ui {
namespace {

std::shared_ptr<const app::ConeDataset> datasetOf(test::ConeData d) {
    auto projections = std::make_shared<const Array3<float>>(std::move(d.projections));
    return std::make_shared<const app::ConeDataset>(
        app::ConeDataset{projections, d.geometry, d.grid, {}, d.grid, {}, {}});
}

/// The preview of @p spec against the same plane of the full run; the rows the preview read.
int expectPlaneOfFullRun(const app::ConeDataset& data, const app::ConeJobSpec& spec,
                         const std::shared_ptr<const app::ConeDataset>& shared) {
    const app::Engine engine;
    const app::ReconService service(engine);
    ExecContext ctx;
    ctx.threads = 2;
    auto plane = app::reconstructCentralPlane(service, data, spec, ctx);
    EXPECT_TRUE(plane.isOk()) << plane.status().toString();
    auto full = app::runConeJob(service, shared, spec, ctx);
    EXPECT_TRUE(full.isOk()) << full.status().toString();
    if (!plane.isOk() || !full.isOk()) return 0;
    EXPECT_EQ(plane->plane, full->centralPlane);
    View2<const float> expected = full->recon.image.plane(std::size_t(full->centralPlane));
    EXPECT_EQ(plane->image.rows, expected.rows());
    EXPECT_EQ(plane->image.cols, expected.cols());
    const double rel = test::relativeRmse(plane->image.view(), expected);
    EXPECT_LT(rel, 1e-5) << "rows " << plane->firstRow << " + " << plane->rows;
    std::printf("[ plane ] %s against %s: rows %d..%d of %d, relative difference %.2e\n",
                plane->variant.c_str(), full->recon.variant.c_str(), plane->firstRow,
                plane->firstRow + plane->rows - 1, data.geometry.detector().nv, rel);
    return plane->rows;
}

TEST(ConePlane, ThePreviewIsTheCentralPlaneOfTheFullRun) {
    auto data = datasetOf(test::coneData(72));
    app::ConeJobSpec spec;
    spec.grid = data->grid;
    const int rows = expectPlaneOfFullRun(*data, spec, data);
    EXPECT_LE(rows, 8);  // of 80
}

TEST(ConePlane, ShiftedAndTiltedDetectorsCropTheRightRows) {
    ConeView shape;
    shape.projOffsetX = 3.0;
    shape.projOffsetY = -7.5;
    shape.inPlaneAngle = 2.0 * kPi / 180.0;
    auto data = datasetOf(test::coneData(72, 360, shape));
    app::ConeJobSpec spec;
    spec.grid = data->grid;
    ASSERT_EQ(data->geometry.symmetry(app::planeGrid(spec.grid, 24)), ConeSymmetry::General);
    EXPECT_LT(expectPlaneOfFullRun(*data, spec, data), 20);
}

TEST(ConePlane, AShortScanAndAnOddGridOffTheIsocentre) {
    auto data = datasetOf(test::coneData(60, 220));
    app::ConeJobSpec spec;
    spec.grid = ConeVolumeGrid::centred(41, 33, 37, 1.1);
    spec.grid.originY += 2.2;  // the central plane is the one nearest y = 0: j = 14
    ASSERT_EQ(app::centralPlane(spec.grid), 14);
    expectPlaneOfFullRun(*data, spec, data);
}

TEST(ConePlane, ATunedGeometryIsPreviewedAsItIsReconstructed) {
    auto data = datasetOf(test::coneData(72));
    app::ConeJobSpec spec;
    spec.grid = data->grid;
    app::ConeTuning t = app::tuningOf(data->geometry);
    EXPECT_EQ(t.sid, 300.0);
    t.sid = 310;
    t.sdd = 440;
    t.offsetV = 4;
    t.inPlaneDeg = -1.5;
    spec.tuning = t;
    auto tuned = app::tunedGeometry(data->geometry, t);
    ASSERT_TRUE(tuned.isOk());
    EXPECT_EQ(tuned->view(5).sid, 310.0);
    EXPECT_NEAR(tuned->view(5).inPlaneAngle, -1.5 * kPi / 180.0, 1e-15);
    expectPlaneOfFullRun(*data, spec, data);
    t.sid = -1;
    spec.tuning = t;
    EXPECT_FALSE(app::tunedGeometry(data->geometry, t).isOk());
}

TEST(ConePlane, PreviewTimeOfA512Plane) {
    if (!std::getenv("TOMO_CONE_PREVIEW_BENCH")) GTEST_SKIP() << "TOMO_CONE_PREVIEW_BENCH=1";
    const int np = 720, nu = 768, nv = 768;
    auto g =
        ConeGeometry::circular(1000, 1500, np, 0, 360, DetectorGrid::centred(nu, nv, 1.0, 1.0));
    ASSERT_TRUE(g.isOk());
    auto views = std::make_shared<Array3<float>>(
        Array3<float>::create(std::size_t(np), std::size_t(nv), std::size_t(nu)).value());
    for (std::size_t p = 0; p < views->dim(0); ++p)
        for (std::size_t r = 0; r < views->dim(1); ++r)
            for (std::size_t c = 0; c < views->dim(2); ++c)
                (*views)(p, r, c) = float((p + 3 * r + 7 * c) % 101) * 0.01f;
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(512, 512, 512, 1.0);
    app::ConeDataset data{views, *g, grid, {}, grid, {}, {}};
    const app::Engine engine;
    const app::ReconService service(engine);
    ExecContext ctx;
    ctx.threads = 2;
    for (const char* variant : {"", "cpu.fdk.symmetric", "cpu.fdk.standard", "cpu.fdk.rows"}) {
        app::ConeJobSpec spec;
        spec.grid = grid;
        spec.variant = variant;
        double best = 1e9, filter = 0, bp = 0, cpu = 0;
        int rows = 0;
        for (int run = 0; run < 5; ++run) {
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            auto plane = app::reconstructCentralPlane(service, data, spec, ctx);
            const double s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            ASSERT_TRUE(plane.isOk()) << plane.status().toString();
            if (s < best) {
                cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
                filter = plane->timings.filtering;
                bp = plane->timings.backProjection;
            }
            best = std::min(best, s);
            rows = plane->rows;
        }
        std::printf(
            "[ bench ] 512^2 plane, %d views of %d x %d, variant '%s': %d rows, "
            "best of 5 %.3f s (filter %.3f s, back-projection %.3f s; CPU time %.3f s)\n",
            np, nu, nv, variant, rows, best, filter, bp, cpu);
    }
}

}  // namespace
}  // namespace tomo::ui
