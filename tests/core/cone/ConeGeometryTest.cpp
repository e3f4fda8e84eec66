// Cone-beam geometry: paper 003's checklist (8.1 item 1) in RTK's frame, matrices against
// hand-computed ones and against matrices RTK itself wrote, and the geometry files.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/cone/ConeGeometry.h"
#include "core/cone/ConeGeometryIo.h"
#include "core/cone/ConePhantom.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {
namespace {

ConeGeometry circular(int views = 36, double arc = 360) {
    return ConeGeometry::circular(1000, 1500, views, 0, arc,
                                  DetectorGrid::centred(64, 48, 0.8, 0.8))
        .value();
}

std::array<double, 3> apply(const Matrix34& m, double i, double j, double k) {
    std::array<double, 3> h{};
    for (int r = 0; r < 3; ++r)
        h[static_cast<std::size_t>(r)] = m[r][0] * i + m[r][1] * j + m[r][2] * k + m[r][3];
    return h;
}

// The paper's P[0][2] = P[2][2] = 0 with its k the rotation axis: here the axis is y (index j).
TEST(ConeGeometry, ChecklistUAndDepthIndependentOfTheAxialIndexAndMirrorSymmetry) {
    const ConeGeometry g = circular();
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(20, 16, 18, 1.5);
    for (int k = 0; k < g.viewCount(); ++k) {
        const Matrix34 m = g.indexMatrix(k, grid);
        EXPECT_EQ(m[0][1], 0.0);
        EXPECT_EQ(m[2][1], 0.0);
        for (int i : {0, 7, 19})
            for (int kk : {0, 9, 17}) {
                const auto a = apply(m, i, 0, kk), b = apply(m, i, 15, kk);
                EXPECT_NEAR(a[0] / a[2], b[0] / b[2], 1e-9);  // u constant along the column
                EXPECT_NEAR(a[2], b[2], 1e-12);               // depth constant
                for (int j = 0; j < 16; ++j) {
                    const auto p = apply(m, i, j, kk), q = apply(m, i, 15 - j, kk);
                    EXPECT_NEAR(p[1] / p[2] + q[1] / q[2], 47.0, 1e-9);  // v + v' = nv - 1
                }
            }
    }
    EXPECT_EQ(g.symmetry(grid), ConeSymmetry::Mirror);
}

TEST(ConeGeometry, MatrixAtNinetyDegreesEqualsTheHandComputedOne) {
    // Gantry 90 degrees: the source at (sid, 0, 0) (RTK: rotation about y), the detector plane
    // x = sid - sdd. A point (x, y, z) maps to u = sdd * (-z) / (sid - x), v = sdd * y / (sid - x).
    ConeView v;
    v.sid = 1000;
    v.sdd = 1500;
    v.gantryAngle = kPi / 2;
    const ConeGeometry g = ConeGeometry::create({v}, DetectorGrid::centred(8, 8, 1, 1)).value();
    const Matrix34 m = g.matrix(0);
    for (auto p : {std::array<double, 3>{10, 20, 30}, {-40, 5, -7}}) {
        const auto h = apply(m, p[0], p[1], p[2]);
        EXPECT_NEAR(h[0] / h[2], 1500 * -p[2] / (1000 - p[0]), 1e-9);
        EXPECT_NEAR(h[1] / h[2], 1500 * p[1] / (1000 - p[0]), 1e-9);
    }
    const auto s = g.sourcePosition(0);
    EXPECT_NEAR(s[0], 1000, 1e-9);
    EXPECT_NEAR(s[2], 0, 1e-9);
}

TEST(ConeGeometry, TheRayThroughTheIsocentreHitsThePrincipalPoint) {
    ConeView v;
    v.gantryAngle = 0.7;
    v.projOffsetX = 12;
    v.projOffsetY = -3;
    v.sourceOffsetX = 2;
    const ConeGeometry g = ConeGeometry::create({v}, DetectorGrid::centred(8, 8, 1, 1)).value();
    const Matrix34 m = g.matrix(0);
    // Any point on the line source -> detector point maps to that detector point.
    const auto src = g.sourcePosition(0);
    const auto det = detectorPoint(g, 0, 5.5, -2.25);
    for (double t : {0.25, 0.5, 0.9}) {
        const auto h = apply(m, src[0] + t * (det[0] - src[0]), src[1] + t * (det[1] - src[1]),
                             src[2] + t * (det[2] - src[2]));
        EXPECT_NEAR(h[0] / h[2], 5.5, 1e-9);
        EXPECT_NEAR(h[1] / h[2], -2.25, 1e-9);
    }
}

TEST(ConeGeometry, SymmetryIsDetectedAndBrokenByOffsetsAndTilts) {
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(16, 16, 16, 1.0);
    std::vector<ConeView> views = circular(8).views();
    const DetectorGrid det = DetectorGrid::centred(64, 48, 0.8, 0.8);
    auto with = [&](auto change) {
        std::vector<ConeView> v = views;
        for (ConeView& x : v)
            change(x);
        return ConeGeometry::create(v, det).value().symmetry(grid);
    };
    EXPECT_EQ(with([](ConeView&) {}), ConeSymmetry::Mirror);
    EXPECT_EQ(with([](ConeView& x) { x.projOffsetX = 5; }), ConeSymmetry::Mirror);
    EXPECT_EQ(with([](ConeView& x) { x.projOffsetY = 2; }), ConeSymmetry::Column);
    EXPECT_EQ(with([](ConeView& x) { x.outOfPlaneAngle = 0.05; }), ConeSymmetry::General);
    EXPECT_EQ(with([](ConeView& x) { x.inPlaneAngle = 0.05; }), ConeSymmetry::General);
    ConeVolumeGrid shifted = grid;
    shifted.originY += 3;
    EXPECT_EQ(circular(8).symmetry(shifted), ConeSymmetry::Column);
}

TEST(ConeGeometry, AnyMatrixDecomposesIntoTheParametersThatMakeIt) {
    ConeView v;
    v.sid = 812;
    v.sdd = 1234;
    v.gantryAngle = 2.2;
    v.projOffsetX = 7.5;
    v.projOffsetY = -3.25;
    v.outOfPlaneAngle = 0.07;
    v.inPlaneAngle = -0.03;
    v.sourceOffsetX = 1.5;
    v.sourceOffsetY = 2.5;
    const ConeGeometry g = ConeGeometry::create({v}, DetectorGrid::centred(8, 8, 1, 1)).value();
    Matrix34 m = g.matrix(0);
    for (auto& row : m)
        for (double& x : row)
            x *= -3.5;  // any homogeneous scale, sign included
    auto back = coneViewFromMatrix(m);
    ASSERT_TRUE(back.isOk()) << back.status().message();
    const ConeGeometry g2 = ConeGeometry::create({*back}, g.detector()).value();
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            EXPECT_NEAR(g2.matrix(0)[r][c], g.matrix(0)[r][c], 1e-9 * 1234);
    EXPECT_NEAR(back->sid, 812, 1e-9);
    EXPECT_NEAR(back->sourceOffsetY, 2.5, 1e-9);
    EXPECT_NEAR(std::remainder(back->gantryAngle - 2.2, 2 * kPi), 0, 1e-12);
    Matrix34 skew = g.matrix(0);
    skew[0][0] *= 1.01;  // non-square pixels
    EXPECT_FALSE(coneViewFromMatrix(skew).isOk());
    std::string numbers;
    for (const auto& row : g.matrix(0))
        for (double x : row) {
            char text[32];
            std::snprintf(text, sizeof text, "%s%.17g", numbers.empty() ? "" : ",", x);
            numbers += text;
        }
    auto json = parseConeGeometryJson(
        std::string(R"({"type": "tomostation-cone-geometry", "sid": 1, "sdd": 2, "views": [)") +
        "{\"matrix\": [" + numbers + "]}]}");
    ASSERT_TRUE(json.isOk()) << json.status().message();
    EXPECT_NEAR(json->views[0].projOffsetX, 7.5, 1e-9);
}

TEST(ConeGeometryFile, RtkXmlRoundTripsAndRtksOwnMatricesAgree) {
    std::vector<ConeView> views = circular(5).views();
    views[2].projOffsetX = 3.5;
    views[3].outOfPlaneAngle = 0.1;
    views[4].sourceOffsetY = -2;
    const ConeGeometry g = ConeGeometry::create(views, DetectorGrid::centred(8, 8, 1, 1)).value();
    const std::string xml = rtkGeometryXml(g);
    auto back = parseRtkGeometryXml(xml);
    ASSERT_TRUE(back.isOk()) << back.status().message();
    ASSERT_EQ(back->views.size(), 5u);
    const ConeGeometry g2 = ConeGeometry::create(back->views, g.detector()).value();
    for (int k = 0; k < 5; ++k)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                EXPECT_NEAR(g2.matrix(k)[r][c], g.matrix(k)[r][c], 1e-9);
}

// A file written by RTK itself (itk-rtk 2.x from PyPI: four views at 0, 90, 180, 270 degrees,
// AddProjection(1000, 1536, angle, 10, -5, 2, 1, 3, 4) and its XML writer): every parameter is
// set, and its <Matrix> entries are RTK's own computation. Ours must equal them to 1e-12 relative.
TEST(ConeGeometryFile, ReadsAGeometryWrittenByRtk) {
    auto file =
        readConeGeometryFile(std::string(TOMO_SOURCE_DIR) + "/tests/data/cone/rtk-geometry.xml");
    ASSERT_TRUE(file.isOk()) << file.status().message();
    ASSERT_EQ(file->views.size(), 4u);
    EXPECT_NEAR(file->views[1].gantryAngle, kPi / 2, 1e-12);
    EXPECT_EQ(file->views[0].sdd, 1536);
    EXPECT_NEAR(file->views[0].projOffsetX, 10, 1e-12);
    EXPECT_NEAR(file->views[0].outOfPlaneAngle, 2 * kPi / 180, 1e-12);
    const ConeGeometry g =
        ConeGeometry::create(file->views, DetectorGrid::centred(8, 8, 1, 1)).value();
    std::ifstream in(std::string(TOMO_SOURCE_DIR) + "/tests/data/cone/rtk-geometry.xml");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t at = 0;
    for (int k = 0; k < 4; ++k) {
        at = text.find("<Matrix>", at) + 8;
        std::istringstream numbers(text.substr(at));
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) {
                double rtk = 0;
                numbers >> rtk;
                EXPECT_NEAR(g.matrix(k)[r][c], rtk, 1e-12 * 1536) << k << " " << r << " " << c;
            }
    }
}

TEST(ConeGeometryFile, InconsistentMatrixAndUnknownElementsAreErrors) {
    std::string xml = rtkGeometryXml(circular(2));
    std::string bad = xml;
    bad.replace(bad.find("<Matrix>") + 8, 0, " 7 ");  // shifts every entry
    EXPECT_FALSE(parseRtkGeometryXml(bad).isOk());
    std::string unknown = xml;
    unknown.replace(unknown.find("<Projection>"), 0, "<Sdd>3</Sdd>");
    auto r = parseRtkGeometryXml(unknown);
    ASSERT_FALSE(r.isOk());
    EXPECT_NE(r.status().message().find("Sdd"), std::string::npos);
    EXPECT_FALSE(parseRtkGeometryXml("<Foo/>").isOk());
    EXPECT_FALSE(parseRtkGeometryXml("").isOk());
}

TEST(ConeGeometryFile, JsonWithAnglesDetectorAndVolume) {
    auto r = parseConeGeometryJson(R"({"type": "tomostation-cone-geometry", "sid": 800,
        "sdd": 1200, "projOffsetX": 4, "angles": {"first": 10, "arc": 200, "count": 100},
        "detector": {"size": [128, 96], "pitch": 0.5},
        "volume": {"size": [64, 64, 32], "spacing": 0.25}})");
    ASSERT_TRUE(r.isOk()) << r.status().message();
    ASSERT_EQ(r->views.size(), 100u);
    EXPECT_NEAR(r->views[1].gantryAngle, 12.0 * kPi / 180, 1e-12);
    EXPECT_EQ(r->views[7].projOffsetX, 4);
    ASSERT_TRUE(r->detector && r->volume);
    EXPECT_EQ(r->detector->nv, 96);
    EXPECT_DOUBLE_EQ(r->detector->originU, -0.5 * 127 * 0.5);
    EXPECT_DOUBLE_EQ(r->volume->originZ, -0.5 * 31 * 0.25);
    // Round trip through the writer.
    const ConeGeometry g = ConeGeometry::create(r->views, *r->detector).value();
    auto back = parseConeGeometryJson(coneGeometryJson(g, &*r->volume));
    ASSERT_TRUE(back.isOk()) << back.status().message();
    EXPECT_NEAR(back->views[99].gantryAngle, r->views[99].gantryAngle, 1e-12);
    EXPECT_EQ(back->volume->nz, 32);
    auto typo = parseConeGeometryJson(
        R"({"type": "tomostation-cone-geometry", "sid": 1, "SDD": 2, "angles": {"count": 3}})");
    ASSERT_FALSE(typo.isOk());
    EXPECT_NE(typo.status().message().find("SDD"), std::string::npos);
}

}  // namespace
}  // namespace tomo
