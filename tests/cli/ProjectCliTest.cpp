// `tomo project` as a user runs it: Joseph's projection of the phantom's ground truth against
// the phantom's analytic line integrals (tomo phantom), a wrong centre or pixel size caught,
// the round trip through tomo recon, and one-line errors for what cannot be projected.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "CliTestSupport.h"
#include "core/io/ImageIO.h"
#include "core/metrics/Metrics.h"

namespace tomo {
namespace {

using test::CliRun;
using test::runTomo;

class ProjectCli : public test::CliTest {
  protected:
    /// tomo phantom's exact sinogram (90 angles x 185 detectors) and its 128^2 ground truth.
    void SetUp() override {
        test::CliTest::SetUp();
        CliRun p = runTomo("phantom -o " + path("exact.raw") + " --truth " + path("truth.raw") +
                           " --size 128 --angles 0:180:90 --detectors 185 --quiet");
        ASSERT_EQ(p.code, 0) << p.output;
    }
    /// RMS difference of `tomo project truth.raw EXTRA` from the exact sinogram, over its peak.
    double errorAgainstExact(const std::string& extra) {
        CliRun r = runTomo("project " + path("truth.raw") +
                           " --shape 128x128 --angles 0:180:90 --detectors 185 -o " +
                           path("projected.raw") + " --quiet" + extra);
        EXPECT_EQ(r.code, 0) << r.output;
        auto exact = readRawFloat32(path("exact.raw"), {1, 90, 185});
        auto projected = readRawFloat32(path("projected.raw"), {1, 90, 185});
        if (!exact.isOk() || !projected.isOk()) return 1e9;
        float peak = 0;
        for (float v : exact->rows().row(0))
            peak = std::max(peak, v);
        for (std::size_t a = 1; a < 90; ++a)
            for (float v : exact->rows().row(a))
                peak = std::max(peak, v);
        return *rmse(projected->plane(0), exact->plane(0)) / peak;
    }
};

TEST_F(ProjectCli, TheTruthProjectsToThePhantomsLineIntegrals) {
    // Pixelation of the truth's edges only: 0.65 % of the peak measured.
    EXPECT_LT(errorAgainstExact(""), 0.010);
    // A centre 0.3 px off (1.9 %) or pixels 1 % too large (3.0 %) are not the phantom's.
    EXPECT_GT(errorAgainstExact(" --center 92.3"), 0.015);
    EXPECT_GT(errorAgainstExact(" --pixel-size 1.01"), 0.020);
}

TEST_F(ProjectCli, ReconOfTheProjectionGivesTheTruthBack) {
    CliRun p = runTomo("project " + path("truth.raw") + " --shape 128x128 --angles 0:180:180 -o " +
                       path("sino.raw"));
    ASSERT_EQ(p.code, 0) << p.output;
    EXPECT_NE(p.output.find("180 angles x 128 detectors"), std::string::npos) << p.output;
    CliRun r = runTomo("recon " + path("sino.raw") + " --shape 180x128 --angles 0:180:180 -o " +
                       path("back.raw") + " --truth " + path("truth.raw") +
                       " --truth-shape 128x128 --quiet");
    ASSERT_EQ(r.code, 0) << r.output;
    auto back = readRawFloat32(path("back.raw"), {1, 128, 128});
    auto truth = readRawFloat32(path("truth.raw"), {1, 128, 128});
    ASSERT_TRUE(back.isOk() && truth.isOk());
    EXPECT_LT(*rmse(back->plane(0), truth->plane(0)), 0.06);
}

TEST_F(ProjectCli, FbpWithJosephsTransposeRunsOnTheCpu) {
    // FBP's projector joseph (cpu.joseph, ASTRA's CPU FBP with its linear projector) on the
    // phantom: as close to the truth as the pixel-driven default (RMSE 0.0332 and 0.0315
    // measured), on the CPU whatever backend was named, and one line for a pixel-driven variant.
    const std::string common =
        "recon " + path("exact.raw") + " --shape 90x185 --angles 0:180:90 --size 128 -o " +
        path("back.raw") + " --truth " + path("truth.raw") + " --truth-shape 128x128";
    CliRun r = runTomo(common + " --param projector=joseph --backend cuda");
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("with cpu.joseph"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("projector joseph runs on the CPU"), std::string::npos) << r.output;
    auto back = readRawFloat32(path("back.raw"), {1, 128, 128});
    auto truth = readRawFloat32(path("truth.raw"), {1, 128, 128});
    ASSERT_TRUE(back.isOk() && truth.isOk());
    EXPECT_LT(*rmse(back->plane(0), truth->plane(0)), 0.036);
    expectOneLineError(runTomo(common + " --param projector=joseph --variant cpu.simd.lin"),
                       "projector joseph");
    expectOneLineError(runTomo(common + " --param projector=strip"), "projector");
}

TEST_F(ProjectCli, WhatCannotBeProjectedIsOneLine) {
    expectOneLineError(runTomo("project " + path("truth.raw") +
                               " --shape 64x256 --angles 0:180:10 -o " + path("x.raw")),
                       "square");
    expectOneLineError(
        runTomo("project " + path("truth.raw") + " --shape 128x128 -o " + path("x.raw")),
        "--angles");
    expectOneLineError(
        runTomo("project " + path("truth.raw") +
                " --shape 128x128 --angles 0:180:10 --detectors 0 -o " + path("x.raw")),
        "--detectors");
    expectOneLineError(
        runTomo("project " + path("truth.raw") +
                " --shape 128x128 --angles 0:180:10 --roi-center 1 -o " + path("x.raw")),
        "--roi-center");
    expectOnly({"exact.raw", "truth.raw"});
}

}  // namespace
}  // namespace tomo
