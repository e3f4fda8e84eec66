// MBIR through the iterative front door on an undersampled (45 views), noisy Shepp-Logan made
// by the analytic phantom: it beats FBP, TV with its defaults and even the best iterate of CGLS
// (chosen with the truth, an upper bound on any stopping rule, the L-curve corner included).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/iterative/IterativeReconstruction.h"
#include "core/metrics/Metrics.h"
#include "core/phantom/Phantom.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo {
namespace {

constexpr int kSize = 64;

double rmseOf(const Volume& image, const Volume& truth) {
    return *rmse(image.plane(0), truth.plane(0));
}

/// The Shepp-Logan at 64^2, 45 views, 92 detectors, Poisson noise of 1000 counts at an
/// attenuation of 0.05 per density-pixel, seed 17 (scripts/compare/svmbir_reference.py makes the
/// same data with `tomo phantom`).
struct Case {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms sino;
    Volume truth;
};

Case makeCase() {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, 45);
    p.detectorCount = 92;
    Case c{*ParallelGeometry::create(p), {kSize, kSize, 1, 1.0}, {}, {}};
    const Phantom phantom = Phantom::sheppLogan2d(0.5 * kSize);
    EXPECT_TRUE(phantom.project(c.geom, c.sino, 4).isOk());
    EXPECT_TRUE(phantom.rasterize(c.vol, c.truth, 4).isOk());
    EXPECT_TRUE(addPoissonNoise(c.sino, 1000, 17, 0.05).isOk());
    return c;
}

/// Noise-free discs on 64^2 from @p views over a half turn on @p detectors of one pixel.
Case makeDiscsCase(int views, int detectors) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, views);
    p.detectorCount = detectors;
    Case c{*ParallelGeometry::create(p), {kSize, kSize, 1, 1.0}, {}, {}};
    const Phantom phantom = *Phantom::fromName("discs", 0.5 * kSize);
    EXPECT_TRUE(phantom.project(c.geom, c.sino, 4).isOk());
    EXPECT_TRUE(phantom.rasterize(c.vol, c.truth, 4).isOk());
    return c;
}

TEST(MbirFrontDoor, BeatsFbpTvAndTheBestCglsIterateOnUndersampledNoisyData) {
    const Case c = makeCase();
    const ParallelGeometry& geom = c.geom;
    const VolumeGeometry& vol = c.vol;
    const Sinograms& sino = c.sino;
    const Volume& truth = c.truth;

    auto bp = makeCpuReferenceBackProjector(Interpolation::Linear);
    Volume fbp;
    ASSERT_TRUE(reconstructFbp(sino, geom, vol, *bp, {}, fbp, {}).isOk());
    auto solve = [&](const std::string& algo, std::map<std::string, std::string> given,
                     SolverSummary& summary) {
        IterativeRequest r;
        r.algorithm = algo;
        r.parameters = *ParameterValues::resolve(*findAlgorithm(algo), given);
        r.reference = &truth;
        Volume out;
        EXPECT_TRUE(reconstructIterative(sino, geom, vol, r, {}, out, summary, {}).isOk());
        return out;
    };
    SolverSummary cgls, tv, mbir;
    solve("cgls", {{"iterations", "30"}, {"stop", "none"}}, cgls);
    double bestCgls = 1e30;
    for (const IterationInfo& info : cgls.history)
        bestCgls = std::min(bestCgls, *info.error);
    const double tvError = rmseOf(solve("tv", {}, tv), truth);
    const double mbirError = rmseOf(solve("mbir", {}, mbir), truth);
    const double fbpError = rmseOf(fbp, truth);
    std::printf(
        "[ note ] RMSE: FBP %.4f, TV %.4f, best CGLS iterate %.4f, MBIR %.4f (%d "
        "iterations, %s)\n",
        fbpError, tvError, bestCgls, mbirError, mbir.iterations,
        terminationReasonName(mbir.reason));
    EXPECT_LT(mbirError, 0.8 * fbpError);
    EXPECT_LT(mbirError, tvError);
    EXPECT_LT(mbirError, bestCgls);
    EXPECT_EQ(mbir.reason, TerminationReason::Converged);

    // The default multi-resolution start and the FBP start converge to the same minimum (the
    // cost is convex in x).
    SolverSummary fromFbp;
    const double fbpStartError = rmseOf(solve("mbir", {{"init", "fbp"}}, fromFbp), truth);
    std::printf("[ note ] FBP start: RMSE %.4f, %d iterations (multires default: %d)\n",
                fbpStartError, fromFbp.iterations, mbir.iterations);
    EXPECT_NEAR(fbpStartError, mbirError, 0.03 * mbirError);
}

/// MBIR's error on @p c with @p given parameters (the others at their defaults).
double mbirError(const Case& c, const std::map<std::string, std::string>& given) {
    IterativeRequest r;
    r.algorithm = "mbir";
    r.parameters = *ParameterValues::resolve(*findAlgorithm("mbir"), given);
    Volume out;
    SolverSummary summary;
    EXPECT_TRUE(reconstructIterative(c.sino, c.geom, c.vol, r, {}, out, summary, {}).isOk());
    return rmseOf(out, c.truth);
}

/// The svmbir image stored by scripts/compare/svmbir_reference.py for the case @p name
/// (tests/data/mbir/svmbir-<name>.json: its call, version and orientation), or empty.
std::vector<float> storedSvmbirImage(const std::string& name = "sl64-45v") {
    std::ifstream in(std::string(TOMO_SOURCE_DIR) + "/tests/data/mbir/svmbir-" + name + ".raw",
                     std::ios::binary);
    std::vector<float> image(std::size_t(kSize) * kSize);
    in.read(reinterpret_cast<char*>(image.data()), std::streamsize(image.size() * 4));
    return in ? image : std::vector<float>{};
}

// Issue 29: MBIR's defaults at svmbir's error or below. svmbir 0.5.0 at its defaults on the same
// data (made by `tomo phantom` with the same calls as this test) reached 0.050399; ours with
// svmbir's rules alone (noise_adapt=off, view_adapt=off) 0.0542, 8% above, its prior being 1.29
// times weaker (docs/mbir.md); the noise adaptation strengthens it on data noisier than snr_db
// assumes.
TEST(MbirFrontDoor, DefaultsWithinFivePercentOfSvmbirsStoredResult) {
    const Case c = makeCase();
    const Volume& truth = c.truth;

    const std::vector<float> svmbir = storedSvmbirImage();
    ASSERT_EQ(svmbir.size(), std::size_t(kSize) * kSize) << "tests/data/mbir/svmbir-sl64-45v.raw";
    const View2<const float> stored(svmbir.data(), kSize, kSize, kSize);
    const double svmbirError = *rmse(stored, truth.plane(0));
    // The stored image still matches this test's truth (its provenance's RMSE).
    EXPECT_NEAR(svmbirError, 0.050399, 2e-6);

    const double ours = mbirError(c, {});
    const double svmbirRules = mbirError(c, {{"noise_adapt", "off"}, {"view_adapt", "off"}});
    std::printf(
        "[ note ] RMSE: svmbir (stored) %.5f, MBIR default %.5f (%.3f x), with svmbir's "
        "rules alone %.5f\n",
        svmbirError, ours, ours / svmbirError, svmbirRules);
    EXPECT_LT(ours, 1.05 * svmbirError);
    EXPECT_LT(ours, svmbirRules);  // the adaptation is what brings it there
}

// Issue 29: with many views svmbir's rules leave the prior too weak for our cost (its potential
// and neighbour weights make its prior 1.29 times ours): on the defaults study's 720-view cases
// ours was 1.03-1.09 x svmbir. The view adaptation strengthens it by the rays per pixel (here
// 720 views on 64^2: 16, sigma_x x 0.59). svmbir 0.5.0 at its defaults reached 0.026801 on these
// data (tests/data/mbir/svmbir-discs64-720v.json); svmbir's rules alone 1.15 x that.
TEST(MbirFrontDoor, ViewAdaptationBringsManyViewsBelowSvmbirsStoredResult) {
    Case c = makeDiscsCase(720, 93);
    ASSERT_TRUE(addPoissonNoise(c.sino, 1e4, 5, 0.02).isOk());

    const std::vector<float> svmbir = storedSvmbirImage("discs64-720v");
    ASSERT_EQ(svmbir.size(), std::size_t(kSize) * kSize) << "svmbir-discs64-720v.raw";
    const View2<const float> stored(svmbir.data(), kSize, kSize, kSize);
    const double svmbirError = *rmse(stored, c.truth.plane(0));
    EXPECT_NEAR(svmbirError, 0.026801, 2e-6);  // the stored image matches this truth

    const double ours = mbirError(c, {});
    const double svmbirRules = mbirError(c, {{"view_adapt", "off"}});
    std::printf(
        "[ note ] RMSE: svmbir (stored) %.5f, MBIR default %.5f (%.3f x), view_adapt=off "
        "%.5f (%.3f x)\n",
        svmbirError, ours, ours / svmbirError, svmbirRules, svmbirRules / svmbirError);
    EXPECT_LT(ours, 0.95 * svmbirError);
    EXPECT_GT(svmbirRules, 1.05 * svmbirError);  // the case needs the adaptation
}

// Issue 29: on clean data at most one ray per pixel, svmbir's rules leave the prior too strong:
// on the defaults study's discs at 180 views (256^2, noise-free and 1e6 counts) MBIR's default
// lost to FBP until the data's noise below snr_db's (rho < 1) sharpened it (docs/accuracy.md,
// MBIR, "Sixth round, sharpening"). Here noise-free discs on 64^2 from 45 views (0.99 rays per
// pixel): FBP 0.0263, MBIR default 0.0154, noise_adapt=off 0.0166.
TEST(MbirFrontDoor, CleanUndersampledDataSharpenThePriorBelowFbp) {
    const Case c = makeDiscsCase(45, 92);

    auto bp = makeCpuReferenceBackProjector(Interpolation::Linear);
    Volume fbp;
    ASSERT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *bp, {}, fbp, {}).isOk());
    const double fbpError = rmseOf(fbp, c.truth);
    const double ours = mbirError(c, {});
    const double svmbirRules = mbirError(c, {{"noise_adapt", "off"}});
    std::printf("[ note ] RMSE: FBP %.5f, MBIR default %.5f, noise_adapt=off %.5f\n", fbpError,
                ours, svmbirRules);
    EXPECT_LT(ours, fbpError);
    EXPECT_LT(ours, 0.95 * svmbirRules);  // the sharpening: 0.926 x (noise_adapt=off: 1 x)
}

}  // namespace
}  // namespace tomo
