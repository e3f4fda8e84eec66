// Every iterative algorithm with its defaults (nothing given) against FBP and against its own
// best iterate, on five independent undersampled or noisy cases made by the analytic phantoms
// (issue 29): the defaults study (docs/accuracy.md, "Defaults study") chose the stopping rules;
// this test holds them to the study's margins on cases small enough for CI. The best iterate is
// the lowest error of a run without stopping rule (chosen with the truth: what a perfect rule
// would return), MBIR's and TV's along their run to convergence.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "core/iterative/IterativeReconstruction.h"
#include "core/metrics/Metrics.h"
#include "core/phantom/Phantom.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo {
namespace {

struct Case {
    const char* phantom;
    int views;
    double counts;
    std::uint32_t seed;
    /// CGLS and MemXCT are not held to this case: their best iterates are FBP's error (CGLS
    /// 0.1% below it) or above it (MemXCT), so no stopping rule can beat FBP there.
    bool krylovAtFbpLevel = false;
};

// Three phantoms, four view counts, four noise levels, five noise seeds; 128^2 with
// `tomo phantom`'s detector (ceil(N sqrt 2) + 2, odd) and attenuation scale (0.02). The fourth
// case is where the row estimate of the noise took the curvature of many edges for noise (0.47
// against 0.21) and SIRT, OS-SIRT, CGLS and MemXCT stopped early, above FBP (docs/accuracy.md,
// "Defaults study", also for the cases where the defaults still do not hold).
constexpr int kSize = 128;
constexpr Case kCases[] = {
    {"shepp-logan", 60, 1e4, 101},
    {"ellipses:5:7", 90, 2e4, 102},
    {"discs", 45, 3e3, 103},
    {"ellipses:12:7", 90, 1e5, 104, true},
    // Many views at low counts (five data values per pixel): the residual is flat near the
    // noise level, and OS-SIRT at the old tau 1.05 stopped at 11 iterations, 1.14x its best
    // (the defaults study's discs-256-720v-1e4: 1.27x).
    {"discs", 360, 1e4, 105},
};

struct Data {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms sino;
    Volume truth;
    double fbpError = 0;
};

Data makeCase(const Case& c, int size = kSize) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, c.views);
    p.detectorCount = (int(std::ceil(size * std::sqrt(2.0))) + 2) | 1;
    Data d{*ParallelGeometry::create(p), {}, {}, {}, 0};
    d.vol = VolumeGeometry::forDetector(d.geom, size);
    const Phantom phantom = *Phantom::fromName(c.phantom, 0.5 * size);
    EXPECT_TRUE(phantom.project(d.geom, d.sino, 4).isOk());
    EXPECT_TRUE(phantom.rasterize(d.vol, d.truth, 4).isOk());
    if (c.counts > 0) {
        EXPECT_TRUE(addPoissonNoise(d.sino, c.counts, c.seed, 0.02).isOk());
    }
    auto bp = makeCpuReferenceBackProjector(Interpolation::Linear);
    Volume fbp;
    EXPECT_TRUE(reconstructFbp(d.sino, d.geom, d.vol, *bp, {}, fbp, {}).isOk());
    d.fbpError = *rmse(fbp.plane(0), d.truth.plane(0));
    return d;
}

/// The error of @p algo with @p given parameters, and the lowest error along the run.
std::pair<double, double> solve(const Data& d, const std::string& algo,
                                const std::map<std::string, std::string>& given,
                                SolverSummary& summary) {
    IterativeRequest r;
    r.algorithm = algo;
    r.parameters = *ParameterValues::resolve(*findAlgorithm(algo), given);
    r.reference = &d.truth;
    Volume out;
    EXPECT_TRUE(reconstructIterative(d.sino, d.geom, d.vol, r, {}, out, summary, {}).isOk());
    double best = 1e30;
    for (const IterationInfo& info : summary.history)
        if (info.error) best = std::min(best, *info.error);
    return {*rmse(out.plane(0), d.truth.plane(0)), best};
}

/// A run without stopping rule long enough to pass each method's best iterate.
std::map<std::string, std::string> bestRun(const std::string& algo) {
    static const std::map<std::string, std::string> iterations = {
        {"sirt", "600"},  {"os-sirt", "150"}, {"sart", "40"}, {"cgls", "40"},
        {"memxct", "40"}, {"tv", "600"},      {"mbir", "100"}};
    const bool mbir = algo == "mbir";  // MBIR's own rule: its relative update
    return {{"iterations", iterations.at(algo)},
            {mbir ? "stop_threshold" : "stop", mbir ? "0" : "none"}};
}

/// Runs @p algo's default and a run without stopping rule on @p d, prints both, and holds the
/// default below FBP and within 10% of the best iterate. Returns the default's summary.
SolverSummary expectDefaultNearBest(const Data& d, const std::string& algo,
                                    const std::string& label) {
    SolverSummary byDefault, longRun;
    const double error = solve(d, algo, {}, byDefault).first;
    const double best = solve(d, algo, bestRun(algo), longRun).second;
    std::printf(
        "[ note ] %s %s: default %.5f (%d iterations), best %.5f (ratio %.3f), FBP %.5f "
        "(ratio %.3f); %s\n",
        algo.c_str(), label.c_str(), error, byDefault.iterations, best, error / best, d.fbpError,
        error / d.fbpError, byDefault.stopNote.c_str());
    EXPECT_LT(error, d.fbpError);
    EXPECT_LT(error, 1.10 * best);
    return byDefault;
}

class Defaults : public ::testing::TestWithParam<std::string> {};

TEST_P(Defaults, BeatFbpAndComeWithinTenPercentOfTheBestIterate) {
    const std::string algo = GetParam();
    for (const Case& c : kCases) {
        SCOPED_TRACE(std::string(c.phantom) + ", " + std::to_string(c.views) + " views");
        const Data d = makeCase(c);
        const bool krylov = algo == "cgls" || algo == "memxct";
        if (krylov && c.krylovAtFbpLevel) {
            std::printf("[ note ] %s %s: not held (best iterate at FBP's error)\n", algo.c_str(),
                        c.phantom);
            continue;
        }
        char label[64];
        std::snprintf(label, sizeof(label), "%s %d views %.0e", c.phantom, c.views, c.counts);
        expectDefaultNearBest(d, algo, label);
    }
}

// SIRT, OS-SIRT and SART approach the same weighted least-squares solutions; on photon-starved
// data a default whose steps are too long stops on a noisier iterate than the others'. The
// discs at 45 views and 3e3 counts (kCases[2]): SIRT at relaxation 1.9 gave 0.0901 and SART at
// min(0.5, 20 / angles) 0.1037 against OS-SIRT's 0.0756 (issue 29's fourth round: now 0.0772 and
// 0.0753).
TEST(DefaultsAcrossMethods, SirtAndSartComeWithinFivePercentOfOsSirtOnPhotonStarvedData) {
    const Data d = makeCase(kCases[2]);
    SolverSummary summary;
    const double osSirt = solve(d, "os-sirt", {}, summary).first;
    for (const char* algo : {"sirt", "sart"}) {
        const double error = solve(d, algo, {}, summary).first;
        std::printf("[ note ] %s %.5f, os-sirt %.5f (ratio %.3f)\n", algo, error, osSirt,
                    error / osSirt);
        EXPECT_LT(error, 1.05 * osSirt) << algo;
    }
}

// TV's automatic lambda (IterativeReconstruction.cpp, automaticTvSettings) grows like sqrt(n)
// with the image side n, and its noise level is floored at 1/250 of the data's 99th percentile.
// With sigma sqrt(angles), calibrated at 128^2, lambda was too small at 256^2: on low-noise data
// the error fell to its lowest near iteration 30 and then rose toward the minimum of a cost that
// fits the noise (the 256^2 discs at 1e6 counts: 1.17x that lowest error at iteration 300; the
// defaults study's analytic Shepp-Logan at 180 views: 1.17x). Without the floor a noise-free
// scan got lambda near 0 and converged to a fit of the model error (the 128^2 discs: 1.25x;
// at 256^2 3.6x). The lowest error along the default's own run is the reference: a run that
// ends far above it converged to the wrong image.
TEST(TvDefaults, EndWithinTenPercentOfTheLowestErrorAlongTheirRun) {
    for (const auto& [c, size] :
         {std::pair{Case{"discs", 90, 1e6, 201}, 256}, std::pair{Case{"discs", 90, 0, 0}, 128}}) {
        const Data d = makeCase(c, size);
        SolverSummary summary;
        const auto [error, best] = solve(d, "tv", {}, summary);
        std::printf(
            "[ note ] tv discs %d^2 90 views %.0e: default %.5f (%d iterations), lowest "
            "%.5f (ratio %.3f), FBP %.5f (ratio %.3f); %s\n",
            size, c.counts, error, summary.iterations, best, error / best, d.fbpError,
            error / d.fbpError, summary.stopNote.c_str());
        EXPECT_LT(error, d.fbpError);
        EXPECT_LT(error, 1.10 * best);
    }
}

// The discrepancy stop's noise level is floored at q99 / 1000 (StoppingRule.h,
// kDiscrepancySnrCap): on noise-free data the consistency estimate sees no noise, only the model
// error of the analytic projections remains, and without the floor CGLS and OS-SIRT ran to their
// iteration caps and overfitted it (the defaults study's discs-256-180v-clean: CGLS 1.48x its
// best iterate and above FBP, OS-SIRT 1.66x). The note names the floor.
TEST(DiscrepancyDefaults, StopNearTheBestIterateOnNoiseFreeData) {
    const Data d = makeCase({"discs", 180, 0, 0});
    for (const char* algo : {"cgls", "os-sirt"}) {
        SCOPED_TRACE(algo);
        const SolverSummary byDefault =
            expectDefaultNearBest(d, algo, "discs 128^2 180 views noise-free");
        EXPECT_NE(byDefault.stopNote.find("model-error floor"), std::string::npos);
    }
}

INSTANTIATE_TEST_SUITE_P(EveryIterativeAlgorithm, Defaults,
                         ::testing::Values("sirt", "os-sirt", "sart", "cgls", "memxct", "tv",
                                           "mbir"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                             std::string name = param.param;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

}  // namespace
}  // namespace tomo
