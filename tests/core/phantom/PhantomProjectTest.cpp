// Phantom::project and Phantom::rasterize: conservation of mass, bin averaging, the detector and
// image conventions of docs/geometry.md, threading, progress and cancellation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <mutex>
#include <stop_token>

#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

ParallelGeometry makeGeometry(int angles, int detectors, int rows, double pitch,
                              double centre = std::nan(""), std::vector<double> correction = {}) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.0, kPi, angles);
    p.detectorCount = detectors;
    p.rows = rows;
    p.detectorPitch = pitch;
    p.centerOfRotation = centre;
    p.centerCorrection = std::move(correction);
    auto g = ParallelGeometry::create(std::move(p));
    EXPECT_TRUE(g.isOk()) << g.status().toString();
    return std::move(g).value();
}

/// Area integral of the phantom's cross-section at world height z: sum of d * pi * a * b with
/// the semi-axes of the slice (Kak & Slaney's table, independent of the chord formula).
double sliceMass(const Phantom& ph, double z) {
    double mass = 0.0;
    const double s = ph.scale();
    for (const Ellipsoid& e : ph.shapes()) {
        double f2 = 1.0;
        if (!ph.is2d()) {
            double w = (z / s - e.cz) / e.az;
            f2 = 1.0 - w * w;
            if (f2 <= 0) continue;
        }
        mass += e.density * kPi * e.ax * e.ay * f2 * s * s;
    }
    return mass;
}

TEST(PhantomProject, EveryProjectionIntegratesToTheMassOfItsSlice) {
    // 11 rows at pitch 0.05: slices z = -0.25 .. 0.25, detector covering [-1.2, 1.2].
    const ParallelGeometry geom = makeGeometry(10, 48, 11, 0.05);
    for (const Phantom& ph : {Phantom::sheppLogan2d(), Phantom::sheppLogan3d()}) {
        Sinograms sino;
        ASSERT_TRUE(ph.project(geom, sino, 16).isOk());
        ASSERT_EQ(sino.dims(), (std::array<std::size_t, 3>{11, 10, 48}));
        for (std::size_t r = 0; r < 11; ++r) {
            const double z = (static_cast<double>(r) - 5.0) * 0.05;
            const double mass = sliceMass(ph, z);
            ASSERT_GT(mass, 0.1);
            for (std::size_t p = 0; p < 10; ++p) {
                double integral = 0.0;
                for (float v : sino.row(r, p))
                    integral += v * 0.05;
                EXPECT_NEAR(integral, mass, 1e-3 * mass) << "row " << r << " angle " << p;
            }
        }
    }
}

TEST(PhantomProject, BinsAverageTheirRaysAtTheDocumentedDetectorPositions) {
    // Off-centre axis with per-projection corrections: t = (j - c_p) * pitch + sub-ray offset.
    const std::vector<double> correction = {0.1, -0.2, 0.0, 0.3, 0.05};
    const ParallelGeometry geom = makeGeometry(5, 20, 2, 0.1, 9.3, correction);
    const Phantom ph = Phantom::sheppLogan3d(0.9);
    for (int rays : {1, 3}) {
        Sinograms sino;
        ASSERT_TRUE(ph.project(geom, sino, rays).isOk());
        for (std::size_t r = 0; r < 2; ++r) {
            const double z = (static_cast<double>(r) - 0.5) * 0.1;
            for (int p = 0; p < 5; ++p) {
                const double c = 9.3 + correction[static_cast<std::size_t>(p)];
                for (int j = 0; j < 20; ++j) {
                    double mean = 0.0;
                    for (int k = 0; k < rays; ++k) {
                        const double t = (j - c) * 0.1 + ((k + 0.5) / rays - 0.5) * 0.1;
                        mean += ph.lineIntegral(geom.angle(p), t, z) / rays;
                    }
                    EXPECT_NEAR(sino(r, static_cast<std::size_t>(p), static_cast<std::size_t>(j)),
                                mean, 1e-6 * (1.0 + std::abs(mean)));
                }
            }
        }
    }
    Sinograms sino;
    EXPECT_EQ(ph.project(geom, sino, 0).code(), ErrorCode::InvalidArgument);
}

TEST(PhantomProject, ThetaZeroIntegratesAlongYSoDetectorCoordinateIsX) {
    // A small disc at x = +0.5: at theta = 0 its shadow is on bins with t = x > 0, at
    // theta = 90 degrees (t = y) it is centred on the axis.
    const Phantom disc = Phantom::single({1.0, 0.1, 0.1, 0.0, 0.5, 0.0, 0.0, 0.0}, true);
    ParallelGeometry::Params p;
    p.angles = {0.0, kPi / 2};
    p.detectorCount = 21;
    p.detectorPitch = 0.1;
    const ParallelGeometry geom = ParallelGeometry::create(p).value();
    Sinograms sino;
    ASSERT_TRUE(disc.project(geom, sino).isOk());
    EXPECT_NEAR(sino(0, 0, 15), 0.2, 1e-6);  // t = 0.5: through the centre, chord 2r
    EXPECT_EQ(sino(0, 0, 5), 0.0f);          // t = -0.5
    EXPECT_NEAR(sino(0, 1, 10), 0.2, 1e-6);  // t = 0 at 90 degrees
}

struct RecordingSink : ProgressSink {
    std::mutex mutex;
    double last = 0.0;
    int calls = 0;
    void onProgress(double fraction, std::string_view) override {
        std::lock_guard lock(mutex);
        last = fraction;
        ++calls;
    }
};

TEST(PhantomProject, ThreadCountDoesNotChangeBitsAndProgressCompletes) {
    const ParallelGeometry geom = makeGeometry(17, 33, 3, 0.07);
    const Phantom ph = Phantom::randomEllipses(12, 5);
    Sinograms one, two;
    ExecContext single;
    single.threads = 1;
    ASSERT_TRUE(ph.project(geom, one, 2, single).isOk());
    RecordingSink sink;
    Progress progress(&sink);
    ExecContext multi;
    multi.threads = 2;
    multi.progress = &progress;
    ASSERT_TRUE(ph.project(geom, two, 2, multi).isOk());
    EXPECT_EQ(std::memcmp(one.data(), two.data(), 3 * 17 * one.pitch() * sizeof(float)), 0);
    EXPECT_DOUBLE_EQ(progress.fraction(), 1.0);
    EXPECT_DOUBLE_EQ(sink.last, 1.0);
    EXPECT_GT(sink.calls, 1);
}

TEST(PhantomProject, StopTokenCancelsProjectionAndRasterisation) {
    std::stop_source source;
    source.request_stop();
    ExecContext ctx;
    ctx.stop = source.get_token();
    const Phantom ph = Phantom::sheppLogan2d();
    Sinograms sino;
    EXPECT_EQ(ph.project(makeGeometry(8, 16, 1, 0.1), sino, 1, ctx).code(), ErrorCode::Cancelled);
    Volume vol;
    EXPECT_EQ(ph.rasterize({16, 16, 1, 0.1}, vol, 2, ctx).code(), ErrorCode::Cancelled);
}

TEST(PhantomRasterize, DiscMeanEqualsItsAreaFraction) {
    const Phantom disc = Phantom::single({1.0, 0.7, 0.7, 0.0, 0.0, 0.0, 0.0, 0.0}, true, 1.0);
    const VolumeGeometry grid{96, 96, 1, 2.0 / 96};
    Volume img;
    ASSERT_TRUE(disc.rasterize(grid, img, 8).isOk());
    double sum = 0.0;
    for (std::size_t r = 0; r < 96; ++r)
        for (float v : img.row(0, r))
            sum += v;
    const double expected = kPi * 0.49 / 4.0;
    EXPECT_NEAR(sum / (96.0 * 96.0), expected, 1e-3 * expected);
}

TEST(PhantomRasterize, SphereSlicesHaveTheAreaOfTheirCircles) {
    const Phantom sphere = Phantom::single({1.0, 0.8, 0.8, 0.8, 0.0, 0.0, 0.0, 0.0}, false);
    const double voxel = 2.0 / 64;
    Volume vol;
    ASSERT_TRUE(sphere.rasterize({64, 64, 8, voxel}, vol, 6).isOk());
    for (std::size_t iz = 0; iz < 8; ++iz) {
        const double z = (static_cast<double>(iz) - 3.5) * voxel;
        double sum = 0.0;
        for (std::size_t r = 0; r < 64; ++r)
            for (float v : vol.row(iz, r))
                sum += v;
        const double expected = kPi * (0.64 - z * z) / 4.0;
        EXPECT_NEAR(sum / (64.0 * 64.0), expected, 1e-3 * expected) << "slice " << iz;
    }
}

TEST(PhantomRasterize, RowZeroIsTheTopOfTheSheppLoganHead) {
    // 201 x 201 pixels of 0.01: pixel (ix, iy) is centred at x = (ix - 100) / 100,
    // y = (100 - iy) / 100. The bright ellipse at y = +0.35 is at row 65, i.e. near the top.
    const Phantom sl = Phantom::sheppLogan2d();
    Volume img;
    ASSERT_TRUE(sl.rasterize({201, 201, 1, 0.01}, img, 2).isOk());
    EXPECT_NEAR(img(0, 65, 100), 0.3, 1e-6);   // (0, 0.35): upper ellipse
    EXPECT_NEAR(img(0, 135, 100), 0.2, 1e-6);  // (0, -0.35): plain brain
    EXPECT_NEAR(img(0, 160, 100), 0.3, 1e-6);  // (0, -0.6): the middle small disc
    EXPECT_NEAR(img(0, 10, 100), 1.0, 1e-6);   // (0, 0.9): skull at the top
    EXPECT_NEAR(img(0, 100, 100), 0.2, 1e-6);
    EXPECT_NEAR(img(0, 100, 122), 0.0, 1e-6);  // (0.22, 0): right dark ellipse
    EXPECT_NEAR(img(0, 100, 78), 0.0, 1e-6);
    EXPECT_EQ(img(0, 0, 100), 0.0f);  // (0, 1): outside
}

TEST(PhantomRasterize, SingleSampleEqualsValueAtPixelCentres) {
    // Offsets and non-square grids go through VolumeGeometry::x / y.
    const Phantom ph = Phantom::randomEllipses(20, 3, 5.0);
    VolumeGeometry grid{40, 30, 1, 0.27, 0.8, -0.6};
    Volume img;
    ASSERT_TRUE(ph.rasterize(grid, img, 1).isOk());
    ASSERT_EQ(img.dims(), (std::array<std::size_t, 3>{1, 30, 40}));
    int nonzero = 0;
    for (int iy = 0; iy < 30; ++iy)
        for (int ix = 0; ix < 40; ++ix) {
            const float expected = static_cast<float>(ph.value(grid.x(ix), grid.y(iy)));
            EXPECT_EQ(img(0, static_cast<std::size_t>(iy), static_cast<std::size_t>(ix)), expected);
            nonzero += expected != 0.0f;
        }
    EXPECT_GT(nonzero, 100);
    EXPECT_EQ(ph.rasterize(grid, img, 0).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(ph.rasterize({0, 4, 1, 1.0}, img, 1).code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
