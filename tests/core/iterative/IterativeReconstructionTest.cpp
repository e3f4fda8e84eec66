// The iterative front door on a noisy, undersampled Shepp-Logan: CGLS stopped early and TV beat
// FBP in RMSE against the phantom; the L-curve corner of the CGLS run is located.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/iterative/IterativeReconstruction.h"
#include "core/metrics/Metrics.h"
#include "core/phantom/Phantom.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo {
namespace {

constexpr int kSize = 64;
constexpr int kAngles = 45;

struct NoisyPhantom {
    ParallelGeometry geom;
    VolumeGeometry vol{kSize, kSize, 1, 1.0};
    Sinograms sino;
    Volume truth;
};

NoisyPhantom makeNoisyPhantom() {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, kAngles);
    p.detectorCount = 92;
    auto geom = ParallelGeometry::create(p);
    NoisyPhantom n{*geom, {kSize, kSize, 1, 1.0}, {}, {}};
    const Phantom phantom = Phantom::sheppLogan2d(0.5 * kSize);
    EXPECT_TRUE(phantom.project(n.geom, n.sino, 4).isOk());
    EXPECT_TRUE(phantom.rasterize(n.vol, n.truth, 4).isOk());
    // 1000 incident photons; line integrals up to ~25 density-pixels, scaled by 0.05.
    EXPECT_TRUE(addPoissonNoise(n.sino, 1000, 17, 0.05).isOk());
    return n;
}

double rmseOf(const Volume& image, const Volume& truth) {
    return *rmse(image.plane(0), truth.plane(0));
}

IterativeRequest request(const std::string& algo, std::map<std::string, std::string> given,
                         const Volume* reference) {
    IterativeRequest r;
    r.algorithm = algo;
    // These tests count iterations: no stopping rule unless asked for (cgls and memxct
    // stop by the discrepancy principle by default).
    given.emplace("stop", "none");
    r.parameters = *ParameterValues::resolve(*findAlgorithm(algo), given);
    r.reference = reference;
    return r;
}

TEST(IterativeReconstruction, CglsWithEarlyStoppingAndTvBeatFbp) {
    NoisyPhantom n = makeNoisyPhantom();
    auto bp = makeCpuReferenceBackProjector(Interpolation::Linear);
    Volume fbp;
    ASSERT_TRUE(reconstructFbp(n.sino, n.geom, n.vol, *bp, {}, fbp, {}).isOk());
    const double fbpError = rmseOf(fbp, n.truth);

    // CGLS, 40 iterations: its error has a minimum (semi-convergence); the L-curve corner
    // picks an iteration close to it without knowing the truth.
    Volume cgls;
    SolverSummary summary;
    ASSERT_TRUE(reconstructIterative(n.sino, n.geom, n.vol,
                                     request("cgls", {{"iterations", "40"}}, &n.truth), {}, cgls,
                                     summary, {})
                    .isOk());
    ASSERT_EQ(summary.history.size(), 40u);
    std::size_t best = 0;
    for (std::size_t k = 0; k < summary.history.size(); ++k)
        if (*summary.history[k].error < *summary.history[best].error) best = k;
    const auto points = lcurveFromHistory(summary.history);
    auto corner = lcurveCorner(points);
    ASSERT_TRUE(corner.isOk());
    // Early stopping at the best iteration beats FBP. (On these 45 angles the L-curve corner
    // lies past the error minimum - iteration 12 against 5, docs/algorithms.md; the corner's
    // accuracy is asserted on moderately sampled data in LCurveCornerTest.cpp.)
    EXPECT_LT(*summary.history[best].error, fbpError);
    EXPECT_GE(*corner, best);
    EXPECT_GT(best, 1u);  // a genuine minimum, not the start
    EXPECT_GT(*summary.history.back().error, *summary.history[best].error);  // semi-convergence
    // The summary's last error is that of the returned image.
    EXPECT_NEAR(rmseOf(cgls, n.truth), *summary.history.back().error, 1e-6);

    Volume tv;
    ASSERT_TRUE(
        reconstructIterative(n.sino, n.geom, n.vol,
                             request("tv", {{"iterations", "100"}, {"lambda", "0.5"}}, &n.truth),
                             {}, tv, summary, {})
            .isOk());
    const double tvError = rmseOf(tv, n.truth);
    EXPECT_LT(tvError, fbpError);
    EXPECT_LT(tvError, *summary.history.front().error);
}

TEST(IterativeReconstruction, SirtFamilyOnBothProjectorPairs) {
    NoisyPhantom n = makeNoisyPhantom();
    for (const char* projector : {"locality", "matched"})
        for (const char* algo : {"sirt", "os-sirt", "sart"}) {
            Volume out;
            SolverSummary summary;
            ASSERT_TRUE(
                reconstructIterative(
                    n.sino, n.geom, n.vol,
                    request(algo, {{"iterations", "4"}, {"projector", projector}}, &n.truth), {},
                    out, summary, {})
                    .isOk())
                << algo << " " << projector;
            EXPECT_EQ(summary.iterations, 4);
            // SART semi-converges within a few passes on this noise, so the test compares
            // against the zero start (error = RMS of the phantom) for all three.
            Volume zero(1, kSize, kSize);
            EXPECT_LT(*summary.history.back().error, 0.75 * rmseOf(zero, n.truth))
                << algo << " " << projector;
            EXPECT_LT(summary.history.back().residualNorm, summary.history.front().residualNorm);
        }
}

TEST(IterativeReconstruction, TikhonovSweepTradesResidualForNorm) {
    NoisyPhantom n = makeNoisyPhantom();
    const std::vector<double> lambdas = {0.5, 2, 8, 32};
    auto points = sweepRegularization(
        n.sino, n.geom, n.vol, request("cgls", {{"iterations", "30"}}, &n.truth), lambdas, {});
    ASSERT_TRUE(points.isOk()) << points.status().toString();
    ASSERT_EQ(points->size(), 4u);
    // Tikhonov: larger lambda, larger residual and smaller solution norm.
    for (std::size_t i = 1; i < points->size(); ++i) {
        EXPECT_GT((*points)[i].residualNorm, (*points)[i - 1].residualNorm);
        EXPECT_LT((*points)[i].solutionNorm, (*points)[i - 1].solutionNorm);
        EXPECT_EQ((*points)[i].parameter, lambdas[i]);
    }
    EXPECT_EQ(sweepRegularization(n.sino, n.geom, n.vol, request("sirt", {}, nullptr), lambdas, {})
                  .status()
                  .code(),
              ErrorCode::InvalidArgument);
}

TEST(IterativeReconstruction, MemxctMatchesCglsOnTheJosephPair) {
    // Two slices: the MemXCT matrix is built once for the slice geometry and applied to both.
    NoisyPhantom n = makeNoisyPhantom();
    ParallelGeometry::Params p = n.geom.params();
    p.rows = 2;
    auto geom2 = ParallelGeometry::create(p);
    ASSERT_TRUE(geom2.isOk());
    const VolumeGeometry vol2{kSize, kSize, 2, 1.0};
    Sinograms sino(2, kAngles, std::size_t(p.detectorCount));
    Volume truth(2, kSize, kSize);
    for (std::size_t z = 0; z < 2; ++z) {
        for (std::size_t a = 0; a < std::size_t(kAngles); ++a)
            for (std::size_t d = 0; d < sino.dim(2); ++d)
                sino(z, a, d) = n.sino(0, a, d);
        for (std::size_t yy = 0; yy < std::size_t(kSize); ++yy)
            for (std::size_t xx = 0; xx < std::size_t(kSize); ++xx)
                truth(z, yy, xx) = n.truth(0, yy, xx);
    }
    std::map<std::string, double> errors;
    for (const char* algo : {"cgls", "memxct"}) {
        Volume out;
        SolverSummary summary;
        ASSERT_TRUE(reconstructIterative(sino, *geom2, vol2,
                                         request(algo, {{"iterations", "8"}}, &truth), {}, out,
                                         summary, {})
                        .isOk())
            << algo;
        EXPECT_EQ(summary.algorithm, algo);
        ASSERT_EQ(summary.history.size(), 8u);
        errors[algo] = *summary.history.back().error;
        // Identical data in both slices: identical slices out (the one matrix serves both).
        double diff = 0;
        for (std::size_t yy = 0; yy < std::size_t(kSize); ++yy)
            for (std::size_t xx = 0; xx < std::size_t(kSize); ++xx)
                diff = std::max(diff, double(std::abs(out(0, yy, xx) - out(1, yy, xx))));
        EXPECT_LT(diff, 1e-4) << algo;
    }
    // Siddon (MemXCT) and Joseph are different discretisations of the same line integrals:
    // the same number of CGLS iterations gives errors within 15% of each other.
    const Volume zero(1, kSize, kSize);
    EXPECT_LT(errors["memxct"], 0.5 * rmseOf(zero, n.truth));
    EXPECT_NEAR(errors["memxct"] / errors["cgls"], 1.0, 0.15)
        << "memxct " << errors["memxct"] << ", cgls " << errors["cgls"];
}

TEST(IterativeReconstruction, RejectsMismatchesAndFbp) {
    NoisyPhantom n = makeNoisyPhantom();
    Volume out;
    SolverSummary summary;
    IterativeRequest fbp;
    fbp.algorithm = "fbp";
    EXPECT_EQ(reconstructIterative(n.sino, n.geom, n.vol, fbp, {}, out, summary, {}).code(),
              ErrorCode::InvalidArgument);
    IterativeRequest unknown;
    unknown.algorithm = "magic";
    EXPECT_EQ(reconstructIterative(n.sino, n.geom, n.vol, unknown, {}, out, summary, {}).code(),
              ErrorCode::NotFound);
    Volume small(1, 8, 8);
    auto r = request("sirt", {}, &small);
    EXPECT_EQ(reconstructIterative(n.sino, n.geom, n.vol, r, {}, out, summary, {}).code(),
              ErrorCode::InvalidArgument);
}

TEST(AlgorithmSchema, SpecsAndValidation) {
    const auto specs = algorithmSpecs();
    ASSERT_GE(specs.size(), 6u);
    EXPECT_EQ(specs.front().id, "fbp");
    EXPECT_FALSE(specs.front().iterative);
    for (const AlgorithmSpec& s : specs) {
        EXPECT_FALSE(s.reference.empty()) << s.id;
        for (const ParameterSpec& p : s.parameters) {
            // Every default passes its own validation.
            auto v = ParameterValues::resolve(s, {{p.name, p.defaultValue}});
            EXPECT_TRUE(v.isOk()) << s.id << "." << p.name;
        }
    }
    auto sirt = *findAlgorithm("sirt");
    auto v = ParameterValues::resolve(sirt, {{"iterations", "12"}, {"nonnegative", "1"}});
    ASSERT_TRUE(v.isOk());
    EXPECT_EQ(v->integer("iterations"), 12);
    EXPECT_TRUE(v->boolean("nonnegative"));
    EXPECT_DOUBLE_EQ(v->real("relaxation"), 1.0);  // SIRT's default (docs/algorithms.md)
    EXPECT_EQ(v->text("ordering"), "segments");
    EXPECT_EQ(ParameterValues::resolve(sirt, {{"iterations", "0"}}).status().code(),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(ParameterValues::resolve(sirt, {{"iterations", "2.5"}}).status().code(),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(ParameterValues::resolve(sirt, {{"relaxation", "abc"}}).status().code(),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(ParameterValues::resolve(sirt, {{"ordering", "zigzag"}}).status().code(),
              ErrorCode::InvalidArgument);
    auto unknown = ParameterValues::resolve(sirt, {{"lambda", "1"}});
    ASSERT_FALSE(unknown.isOk());
    EXPECT_NE(unknown.status().message().find("relaxation"), std::string::npos);
    EXPECT_EQ(findAlgorithm("nope").status().code(), ErrorCode::NotFound);
    // A bound is printed as the user would write it, not as std::to_string's 0.000000.
    auto small = ParameterValues::resolve(*findAlgorithm("gridrec"), {{"tolerance", "0.5"}});
    ASSERT_FALSE(small.isOk());
    EXPECT_NE(small.status().message().find("outside [1e-07, 0.1]"), std::string::npos)
        << small.status().message();
}

}  // namespace
}  // namespace tomo
