// `tomo preprocess --sinograms` and `tomo recon` with preprocessing options on a sinogram stack
// (core/preprocess/SinogramPreprocess.h): the steps that act on line integrals run through the
// library's one path (same bits as preprocessSinograms), a planted stripe is removed, and the
// steps that need an acquisition are refused with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "CliTestSupport.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/io/ImageIO.h"
#include "core/phantom/Phantom.h"
#include "core/preprocess/SinogramPreprocess.h"

namespace tomo {
namespace {

using test::CliRun;
using test::runTomo;

constexpr std::size_t kSlices = 2, kAngles = 90, kDetectors = 64;
const std::string kShape = " --shape 90x64x2";  // ANGLESxDETECTORSxSLICES

class SinogramPreprocessCli : public test::CliTest {
  protected:
    void SetUp() override {
        test::CliTest::SetUp();
        ParallelGeometry::Params p{uniformAngles(0, kPi, static_cast<int>(kAngles)),
                                   static_cast<int>(kDetectors)};
        p.rows = static_cast<int>(kSlices);
        auto geom = ParallelGeometry::create(p);
        ASSERT_TRUE(geom.isOk());
        ASSERT_TRUE(Phantom::sheppLogan2d(0.8).project(*geom, clean, 2).isOk());
        striped = clean.clone();
        for (std::size_t z = 0; z < kSlices; ++z)
            for (std::size_t a = 0; a < kAngles; ++a)
                striped(z, a, 40) += 0.5f;
        ASSERT_TRUE(writeRawFloat32(path("striped.raw"), striped).isOk());
    }
    /// Max over slices of |mean over angles of (s - clean)| on column 40.
    double stripe(const Sinograms& s) const {
        double worst = 0;
        for (std::size_t z = 0; z < kSlices; ++z) {
            double sum = 0;
            for (std::size_t a = 0; a < kAngles; ++a)
                sum += double(s(z, a, 40)) - clean(z, a, 40);
            worst = std::max(worst, std::fabs(sum / kAngles));
        }
        return worst;
    }
    Sinograms clean, striped;
};

TEST_F(SinogramPreprocessCli, PreprocessRemovesAStripeWithTheLibrarysBits) {
    CliRun r =
        runTomo("preprocess " + path("striped.raw") + kShape +
                " --sinograms --rings vo --ring-size 5 --zinger 1 --quiet -o " + path("clean.raw"));
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("line-integral, dark"), std::string::npos) << r.output;
    auto out = readRawFloat32(path("clean.raw"), {kSlices, kAngles, kDetectors});
    ASSERT_TRUE(out.isOk()) << out.status().message();
    EXPECT_NEAR(stripe(striped), 0.5, 1e-5);
    EXPECT_LT(stripe(*out), 0.05);  // 0.5 planted
    PreprocessOptions o;
    o.rings = RingMethod::Sorting;
    o.sorting.size = 5;
    o.zingers = sinogramZingers(1.0, 3);
    Sinograms expected = striped.clone();
    std::vector<double> angles;
    ASSERT_TRUE(preprocessSinograms(expected, angles, o, {}).isOk());
    for (std::size_t z = 0; z < kSlices; ++z)
        for (std::size_t a = 0; a < kAngles; ++a)
            for (std::size_t c = 0; c < kDetectors; ++c)
                ASSERT_EQ((*out)(z, a, c), expected(z, a, c)) << z << " " << a << " " << c;
}

TEST_F(SinogramPreprocessCli, ReconOfAStackWithRingsEqualsReconOfThePreprocessedStack) {
    const std::string pre = " --rings vo --ring-size 5";
    const std::string common = kShape + " --angles 0:180:90 --center 31.5 --quiet -o ";
    ASSERT_EQ(runTomo("preprocess " + path("striped.raw") + kShape + " --sinograms" + pre +
                      " --quiet -o " + path("p.raw"))
                  .code,
              0);
    CliRun a = runTomo("recon " + path("striped.raw") + pre + common + path("a.raw"));
    ASSERT_EQ(a.code, 0) << a.output;
    EXPECT_NE(a.output.find("preprocessing a sinogram stack"), std::string::npos) << a.output;
    ASSERT_EQ(runTomo("recon " + path("p.raw") + common + path("b.raw")).code, 0);
    auto va = readRawFloat32(path("a.raw"), {kSlices, kDetectors, kDetectors});
    auto vb = readRawFloat32(path("b.raw"), {kSlices, kDetectors, kDetectors});
    ASSERT_TRUE(va.isOk() && vb.isOk());
    for (std::size_t z = 0; z < kSlices; ++z)
        for (std::size_t y = 0; y < kDetectors; ++y)
            for (std::size_t x = 0; x < kDetectors; ++x)
                ASSERT_EQ((*va)(z, y, x), (*vb)(z, y, x)) << z << " " << y << " " << x;
}

// Angle selection on a stack keeps the subset of the stated angles, as on an acquisition: every
// 2nd of 90 angles over 180 degrees reconstructs to the bits of a stack made of those 45
// projections only (the angles are the same doubles: 2k*pi/90 == k*pi/45 in floating point).
TEST_F(SinogramPreprocessCli, EverySecondAngleOfAStackGivesTheBitsOfAStackOfThoseAngles) {
    Sinograms half = Sinograms::create(kSlices, kAngles / 2, kDetectors).value();
    for (std::size_t z = 0; z < kSlices; ++z)
        for (std::size_t a = 0; a < kAngles / 2; ++a)
            for (std::size_t c = 0; c < kDetectors; ++c)
                half(z, a, c) = striped(z, 2 * a, c);
    ASSERT_TRUE(writeRawFloat32(path("half.raw"), half).isOk());
    const std::string common = " --center 31.5 --quiet -o ";
    CliRun a = runTomo("recon " + path("striped.raw") + kShape +
                       " --angles 0:180:90 --angle-range 0:90:2" + common + path("a.raw"));
    ASSERT_EQ(a.code, 0) << a.output;
    CliRun b = runTomo("recon " + path("half.raw") + " --shape 45x64x2 --angles 0:180:45" + common +
                       path("b.raw"));
    ASSERT_EQ(b.code, 0) << b.output;
    auto va = readRawFloat32(path("a.raw"), {kSlices, kDetectors, kDetectors});
    auto vb = readRawFloat32(path("b.raw"), {kSlices, kDetectors, kDetectors});
    ASSERT_TRUE(va.isOk() && vb.isOk());
    std::size_t differing = 0;
    for (std::size_t z = 0; z < kSlices; ++z)
        for (std::size_t y = 0; y < kDetectors; ++y)
            for (std::size_t x = 0; x < kDetectors; ++x)
                differing += (*va)(z, y, x) != (*vb)(z, y, x) ? 1 : 0;
    EXPECT_EQ(differing, 0u);
    // A range too: projections 10..69 of the 90, i.e. 20..138 degrees.
    CliRun c = runTomo("recon " + path("striped.raw") + kShape +
                       " --angles 0:180:90 --angle-range 10:70" + common + path("c.raw"));
    EXPECT_EQ(c.code, 0) << c.output;
}

TEST_F(SinogramPreprocessCli, StepsOfAnAcquisitionAreRefusedSayingWhy) {
    const std::string recon =
        "recon " + path("striped.raw") + kShape + " --angles 0:180:90 --quiet -o " + path("x.raw");
    expectOneLineError(runTomo(recon + " --flat-dark"), "line integrals");
    expectOneLineError(runTomo(recon + " --paganin 20,100,1,100"), "line integrals");
    expectOneLineError(runTomo("recon " + path("striped.raw") + kShape + " --angle-range 0:45 " +
                               "--quiet -o " + path("x.raw")),
                       "needs the angles of all its projections");
    expectOneLineError(runTomo("preprocess " + path("striped.raw") + kShape +
                               " --sinograms --flat-dark --quiet -o " + path("y.raw")),
                       "flat/dark");
}

}  // namespace
}  // namespace tomo
