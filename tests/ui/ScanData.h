#pragma once
// A beamline scan as the workflow tests open it: the exact line integrals of a Shepp-Logan
// phantom with the rotation axis off the detector centre, as counts with flats and darks in a
// DXchange file, and with detector columns whose gain the flats do not capture (the stripes that
// become rings). The phantom rasterised on the grid a reconstruction at the true centre uses is
// the truth the tests compare with.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/dataset/ProjectionData.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/io/ImageIO.h"
#include "core/phantom/Phantom.h"
#include "tomo/config.h"
#if TOMO_WITH_HDF5
#include "core/hdf5io/Hdf5Writer.h"
#endif

namespace tomo::ui::test {

struct ScanSpec {
    int size = 96;              ///< the phantom spans a disc of this diameter (pixels)
    int detectors = 129;        ///< detector columns
    int angles = 180;           ///< over [0, 180) degrees
    int rows = 2;               ///< detector rows (slices)
    double axisOffset = 3.5;    ///< rotation axis minus the detector centre, pixels
    double attenuation = 0.01;  ///< line integral per phantom unit and pixel
    /// Gain errors: every stripeEvery-th column (from stripeFirst) reads (1 + stripeGain) times
    /// the flat-corrected signal, alternating in sign (0: no stripes).
    double stripeGain = 0.0;
    int stripeEvery = 11;
    int stripeFirst = 7;
};

struct Scan {
    double trueCenter = 0;  ///< the rotation axis, detector pixels from the centre of pixel 0
    Volume truth;  ///< [rows][detectors][detectors]: the grid the GUI reconstructs on, at the axis
    std::vector<double> angles;
};

/// Writes @p spec's scan to @p file (DXchange: counts, 2 flats of 1000, a dark of 10, theta).
inline Scan writeBeamlineScan(const std::filesystem::path& file, const ScanSpec& spec) {
    Scan scan;
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, spec.angles);
    params.detectorCount = spec.detectors;
    params.rows = spec.rows;
    scan.trueCenter = 0.5 * (spec.detectors - 1) + spec.axisOffset;
    params.centerOfRotation = scan.trueCenter;
    auto geometry = ParallelGeometry::create(params);
    EXPECT_TRUE(geometry.isOk());
    auto phantom = Phantom::fromName("shepp-logan", 0.5 * spec.size);
    EXPECT_TRUE(phantom.isOk());
    Sinograms sino;
    EXPECT_TRUE(phantom->project(*geometry, sino, 4, ExecContext{}).isOk());
    VolumeGeometry grid = VolumeGeometry::forDetector(*geometry, spec.detectors);
    grid.nz = spec.rows;
    EXPECT_TRUE(phantom->rasterize(grid, scan.truth, 4, ExecContext{}).isOk());
    for (std::size_t z = 0; z < scan.truth.dim(0); ++z)
        for (std::size_t y = 0; y < scan.truth.dim(1); ++y)
            for (float& v : scan.truth.row(z, y))
                v = static_cast<float>(v * spec.attenuation);

    ProjectionData acq;
    const auto angles = static_cast<std::size_t>(spec.angles);
    const auto rows = static_cast<std::size_t>(spec.rows);
    const auto cols = static_cast<std::size_t>(spec.detectors);
    acq.projections = Array3<float>(angles, rows, cols);
    acq.flats = Array3<float>(2, rows, cols);
    acq.darks = Array3<float>(1, rows, cols);
    acq.flats.fill(1000.0f);
    acq.darks.fill(10.0f);
    for (std::size_t c = 0; c < cols; ++c) {
        double gain = 1.0;
        const int k = static_cast<int>(c) - spec.stripeFirst;
        if (spec.stripeGain != 0 && k >= 0 && k % spec.stripeEvery == 0)
            gain = 1.0 + ((k / spec.stripeEvery) % 2 ? -spec.stripeGain : spec.stripeGain);
        for (std::size_t a = 0; a < angles; ++a)
            for (std::size_t r = 0; r < rows; ++r)
                acq.projections(a, r, c) = static_cast<float>(
                    10.0 + 990.0 * gain * std::exp(-spec.attenuation * sino(r, a, c)));
    }
    acq.angles = params.angles;
    scan.angles = params.angles;
#if TOMO_WITH_HDF5
    EXPECT_TRUE(writeDxchange(file, acq).isOk());
#else
    (void)file;
#endif
    return scan;
}

/// A tuner's sinogram: an @p n x @p n Shepp-Logan over [0, 180) degrees in @p views on
/// @p detectors columns, with Poisson noise (@p counts incident photons, attenuation 0.02,
/// @p seed), written as TIFF stacks `sino.tif` and `truth.tif` (the phantom rasterised on the
/// n x n grid) in @p dir; the truth is also returned.
struct TiffScan {
    std::filesystem::path sino, truthFile;
    Volume truth;
};

inline TiffScan writeTiffScan(const std::filesystem::path& dir, int n, int detectors, int views,
                              double counts, std::uint32_t seed) {
    TiffScan scan;
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, views);
    params.detectorCount = detectors;
    auto geometry = ParallelGeometry::create(params);
    EXPECT_TRUE(geometry.isOk());
    auto phantom = Phantom::fromName("shepp-logan", 0.5 * n);
    Sinograms sino;
    EXPECT_TRUE(phantom->project(*geometry, sino, 4, ExecContext{}).isOk());
    EXPECT_TRUE(addPoissonNoise(sino, counts, seed, 0.02).isOk());
    EXPECT_TRUE(
        phantom->rasterize(VolumeGeometry::forDetector(*geometry, n), scan.truth, 4, {}).isOk());
    scan.sino = dir / "sino.tif";
    scan.truthFile = dir / "truth.tif";
    EXPECT_TRUE(writeVolume(scan.sino, sino).isOk());
    EXPECT_TRUE(writeVolume(scan.truthFile, scan.truth).isOk());
    return scan;
}

/// Root-mean-square difference of @p a and @p b over the disc of radius @p radius pixels about
/// the image centre (the field of view of the comparison).
inline double discRmse(View2<const float> a, View2<const float> b, double radius) {
    double sum = 0;
    std::size_t n = 0;
    const double cy = 0.5 * (static_cast<double>(a.rows()) - 1);
    const double cx = 0.5 * (static_cast<double>(a.cols()) - 1);
    for (std::size_t y = 0; y < a.rows(); ++y)
        for (std::size_t x = 0; x < a.cols(); ++x)
            if (std::hypot(static_cast<double>(x) - cx, static_cast<double>(y) - cy) <= radius) {
                const double d = static_cast<double>(a(y, x)) - static_cast<double>(b(y, x));
                sum += d * d;
                ++n;
            }
    return n ? std::sqrt(sum / static_cast<double>(n)) : 0.0;
}

}  // namespace tomo::ui::test
