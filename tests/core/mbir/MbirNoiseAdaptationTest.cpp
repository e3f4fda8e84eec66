// MBIR's noise adaptation (MbirModel.h): sigma_x x rho^-0.5, rho the data's noise (estimated from
// the sinogram's consistency) over svmbir's sigma_y, where rho > 1; where rho < 1 at most one ray
// per pixel, sharper by min(1.5, -0.2 log2 rho). Checked against the
// true noise of the data (noisy minus noise-free sinogram), which the test knows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/mbir/MbirModel.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

constexpr int kSize = 128;

struct Setting {
    ParallelGeometry geom;
    VolumeGeometry vol;
};

Setting makeSetting(int views) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, views);
    p.detectorCount = (int(std::ceil(kSize * std::sqrt(2.0))) + 2) | 1;
    Setting s{*ParallelGeometry::create(p), {}};
    s.vol = VolumeGeometry::forDetector(s.geom, kSize);
    return s;
}

MbirSigmas sigmasOf(const Sinograms& y, const Setting& s, bool adapt, bool viewAdapt = true) {
    const MbirSliceGeometry g(s.geom, s.vol);
    MbirModelOptions options;
    options.noiseAdapt = adapt;
    options.viewAdapt = viewAdapt;
    auto sino = MbirSinograms::create(y, g, options);
    EXPECT_TRUE(sino.isOk());
    return sino->sigmas(options, g, s.vol.voxelSize, s.geom.detectorPitch(),
                        sinogramLayout(s.geom));
}

double rmsDifference(const Sinograms& a, const Sinograms& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.elementCount(); ++i) {
        const double d = double(a.data()[i]) - double(b.data()[i]);
        sum += d * d;
    }
    return std::sqrt(sum / double(a.elementCount()));
}

// At 500 counts the data are noisier than svmbir's 30 dB rule assumes: the prior is strengthened
// by (sigma_y / sigma)^0.5 (sigma the true noise; the estimate is within NoiseEstimateTest's
// margin, 0.85-1.20x, so the factor within 0.91-1.08x).
TEST(MbirNoiseAdaptation, StrengthensThePriorBySigmaYOverTheDataNoise) {
    for (const char* name : {"shepp-logan", "discs"}) {
        SCOPED_TRACE(name);
        const Setting s = makeSetting(90);
        Sinograms clean, noisy;
        const Phantom phantom = *Phantom::fromName(name, 0.5 * kSize);
        ASSERT_TRUE(phantom.project(s.geom, clean, 4).isOk());
        noisy = clean.clone();
        ASSERT_TRUE(addPoissonNoise(noisy, 500, 31, 0.02).isOk());
        const double sigma = rmsDifference(noisy, clean);
        const MbirSigmas off = sigmasOf(noisy, s, false), on = sigmasOf(noisy, s, true);
        const double expected = std::sqrt(off.sigmaY / sigma);  // rho^-0.5
        std::printf("[ note ] %s: true noise %.4f, sigma_y %.4f, factor %.4f (expected %.4f)\n",
                    name, sigma, off.sigmaY, on.sigmaX / off.sigmaX, expected);
        ASSERT_LT(expected, 0.85) << "the case must be noisier than snr_db assumes";
        EXPECT_EQ(on.sigmaY, off.sigmaY);
        EXPECT_NEAR(on.sigmaX / off.sigmaX, expected, 0.09 * expected);
        EXPECT_NE(on.sigmaXNote.find("noise adaptation"), std::string::npos) << on.sigmaXNote;
    }
}

// Cleaner data than snr_db assumes (here 1e5 counts on 40 ellipses, whose many edges the former
// row estimate counted as noise) at two rays per pixel (180 views on 128^2): svmbir's rule
// stands, never sharper (the sharpening ends at sqrt 2 rays per pixel).
TEST(MbirNoiseAdaptation, LeavesSvmbirsRuleOnCleanerData) {
    const Setting s = makeSetting(180);
    Sinograms y;
    const Phantom phantom = *Phantom::fromName("ellipses:40:3", 0.5 * kSize);
    ASSERT_TRUE(phantom.project(s.geom, y, 4).isOk());
    ASSERT_TRUE(addPoissonNoise(y, 1e5, 32, 0.02).isOk());
    const MbirSigmas off = sigmasOf(y, s, false), on = sigmasOf(y, s, true);
    EXPECT_EQ(on.sigmaX, off.sigmaX);
    EXPECT_EQ(on.sigmaXNote.find("noise adaptation"), std::string::npos) << on.sigmaXNote;
}

// The same data at 90 views, 0.99 rays per pixel: sharper by min(1.5, -0.2 log2 rho), sigma_x x
// rho^-0.2 (rho against the true noise; the estimate's margin 0.85-1.20x gives 0.96-1.04x).
TEST(MbirNoiseAdaptation, SharpensThePriorOnCleanerDataAtOneRayPerPixel) {
    const Setting s = makeSetting(90);
    Sinograms clean;
    const Phantom phantom = *Phantom::fromName("ellipses:40:3", 0.5 * kSize);
    ASSERT_TRUE(phantom.project(s.geom, clean, 4).isOk());
    Sinograms y = clean.clone();
    ASSERT_TRUE(addPoissonNoise(y, 1e5, 32, 0.02).isOk());
    const double sigma = rmsDifference(y, clean);
    const MbirSigmas off = sigmasOf(y, s, false), on = sigmasOf(y, s, true);
    const double rho = sigma / off.sigmaY;
    const double expected = std::pow(2.0, std::min(1.5, -0.2 * std::log2(rho)));
    std::printf("[ note ] rho %.4f, factor %.4f (expected %.4f)\n", rho, on.sigmaX / off.sigmaX,
                expected);
    ASSERT_LT(rho, 0.5) << "the case must be cleaner than snr_db assumes";
    EXPECT_EQ(on.sigmaY, off.sigmaY);
    EXPECT_NEAR(on.sigmaX / off.sigmaX, expected, 0.04 * expected);
    EXPECT_NE(on.sigmaXNote.find("SNR above snr_db"), std::string::npos) << on.sigmaXNote;
}

// The view adaptation: sigma_x x r^-0.1875 with r = views x image diagonal / pixels, the rays per
// pixel (128^2 of one detector pitch: r = views sqrt 2 / 128), only where r > 1.
TEST(MbirNoiseAdaptation, ViewAdaptationStrengthensThePriorBeyondOneRayPerPixel) {
    for (const int views : {90, 720}) {
        const Setting s = makeSetting(views);
        Sinograms y;
        const Phantom phantom = *Phantom::fromName("discs", 0.5 * kSize);
        ASSERT_TRUE(phantom.project(s.geom, y, 4).isOk());
        const MbirSigmas off = sigmasOf(y, s, false, false), on = sigmasOf(y, s, false, true);
        const double rays = views * std::sqrt(2.0) / kSize;
        const double expected = rays > 1 ? std::pow(rays, -0.1875) : 1.0;
        EXPECT_EQ(on.sigmaY, off.sigmaY);
        EXPECT_NEAR(on.sigmaX / off.sigmaX, expected, 1e-9) << views << " views";
        EXPECT_EQ(on.sigmaXNote.find("view adaptation") != std::string::npos, rays > 1)
            << on.sigmaXNote;
    }
}

}  // namespace
}  // namespace tomo
