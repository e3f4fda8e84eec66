// MBIR through the iterative front door on an undersampled (45 views), noisy Shepp-Logan made
// by the analytic phantom: it beats FBP, TV with its defaults and even the best iterate of CGLS
// (chosen with the truth, an upper bound on any stopping rule, the L-curve corner included).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

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

TEST(MbirFrontDoor, BeatsFbpTvAndTheBestCglsIterateOnUndersampledNoisyData) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, 45);
    p.detectorCount = 92;
    const ParallelGeometry geom = *ParallelGeometry::create(p);
    const VolumeGeometry vol{kSize, kSize, 1, 1.0};
    const Phantom phantom = Phantom::sheppLogan2d(0.5 * kSize);
    Sinograms sino;
    Volume truth;
    ASSERT_TRUE(phantom.project(geom, sino, 4).isOk());
    ASSERT_TRUE(phantom.rasterize(vol, truth, 4).isOk());
    ASSERT_TRUE(addPoissonNoise(sino, 1000, 17, 0.05).isOk());

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

    // The multi-resolution start converges to the same minimum (the cost is convex in x).
    SolverSummary multires;
    const Volume fromCoarse = solve("mbir", {{"init", "multires"}}, multires);
    const double multiresError = rmseOf(fromCoarse, truth);
    std::printf("[ note ] multires start: RMSE %.4f, %d iterations (from FBP: %d)\n", multiresError,
                multires.iterations, mbir.iterations);
    EXPECT_NEAR(multiresError, mbirError, 0.03 * mbirError);
}

}  // namespace
}  // namespace tomo
