// The reconstruction service's cone-beam door (app/recon/ConeRecon.cpp): the same bits as core's
// FDK, the automatic variant follows the geometry, fallbacks and refusals are said.

#include <gtest/gtest.h>

#include "app/Engine.h"
#include "app/recon/ReconService.h"
#include "core/cone/ConePhantom.h"

namespace tomo {
namespace {

struct Case {
    ConeGeometry geometry;
    ConeVolumeGrid grid;
    std::shared_ptr<const Array3<float>> projections;
};

Case makeCase(double outOfPlane = 0) {
    auto views = ConeGeometry::circular(600, 900, 48, 0, 360, DetectorGrid::centred(48, 40, 1, 1))
                     .value()
                     .views();
    for (ConeView& v : views)
        v.outOfPlaneAngle = outOfPlane;
    ConeGeometry g = ConeGeometry::create(views, DetectorGrid::centred(48, 40, 1, 1)).value();
    auto p = ConePhantom::fromName("ellipsoids:5:2", 12.0).value().project(g, 1).value();
    return {std::move(g), ConeVolumeGrid::centred(24, 20, 24, 1.0),
            std::make_shared<const Array3<float>>(std::move(p))};
}

TEST(ConeService, TheSameBitsAsCoresFdkWithTheVariantTheGeometryAllows) {
    const app::Engine engine;
    const app::ReconService service(engine);
    for (double tilt : {0.0, 0.05}) {
        Case c = makeCase(tilt);
        app::ConeReconRequest request(app::memoryProjections(c.projections), c.geometry, c.grid);
        request.backend = "cpu";
        auto report = service.run(request, {}, {});
        ASSERT_TRUE(report.isOk()) << report.status().message();
        EXPECT_EQ(report->variant, tilt == 0 ? "cpu.fdk.symmetric" : "cpu.fdk.standard");
        EXPECT_EQ(report->algorithm, "fdk");
        ASSERT_TRUE(report->fdk.has_value());
        EXPECT_NE(report->provenance.at("geometry").find("cone beam"), std::string::npos);
        // Core's pipeline directly, the same variant.
        auto bp = engine.coneRegistry().create(report->variant).value();
        Volume direct = Volume::create(24, 20, 24).value();
        auto read = [&](int first, int, View2<float> v) -> Status {
            return copyHeldViews(*c.projections, std::size_t(first), v, 1);
        };
        auto sink = [&](int, Volume&& slab) {
            direct = std::move(slab);
            return Status::ok();
        };
        ASSERT_TRUE(runFdk(c.geometry, c.grid, request.fdk, *bp, read, sink, {}).isOk());
        for (std::size_t r = 0; r < 24 * 20; ++r)
            for (std::size_t i = 0; i < 24; ++i)
                ASSERT_EQ(report->image.rows().row(r)[i], direct.rows().row(r)[i]);
    }
}

TEST(ConeService, ShapeMismatchAndAnUnfitVariantAreRefused) {
    const app::Engine engine;
    const app::ReconService service(engine);
    Case c = makeCase(0.05);
    app::ConeReconRequest request(app::memoryProjections(c.projections), c.geometry, c.grid);
    request.variant = "cpu.fdk.symmetric";  // a tilted geometry needs the general kernel
    auto r = service.run(request, {}, {});
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(r.status().message().find("cpu.fdk.standard"), std::string::npos);
    Case d = makeCase();
    auto fewer = ConeGeometry::circular(600, 900, 47, 0, 360, d.geometry.detector()).value();
    app::ConeReconRequest bad(app::memoryProjections(d.projections), fewer, d.grid);
    auto b = service.run(bad, {}, {});
    ASSERT_FALSE(b.isOk());
    EXPECT_NE(b.status().message().find("48 views"), std::string::npos) << b.status().message();
}

}  // namespace
}  // namespace tomo
