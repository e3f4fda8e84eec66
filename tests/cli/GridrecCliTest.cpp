// `tomo recon --algo gridrec` as a user runs it: the phantom's values through the front door,
// slabs bit-identical to one call, the plan in the notes, parameters checked, fallbacks named.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "CliTestSupport.h"
#include "core/io/ImageIO.h"
#include "core/metrics/Metrics.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {
namespace fs = std::filesystem;

using test::CliRun;
using test::runTomo;

std::string bytesOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class GridrecCli : public test::CliTest {
  protected:
    /// 5 slices of 120 angles x 128 detectors: Shepp-Logan heads of growing contrast.
    void writeStack() {
        ParallelGeometry::Params p;
        p.angles = uniformAngles(0, kPi, 120);
        p.detectorCount = 128;
        Sinograms one;
        ASSERT_TRUE(Phantom::sheppLogan2d(44).project(*ParallelGeometry::create(p), one, 2).isOk());
        Sinograms stack(5, 120, 128);
        for (std::size_t s = 0; s < 5; ++s)
            for (std::size_t a = 0; a < 120; ++a)
                for (std::size_t j = 0; j < 128; ++j)
                    stack(s, a, j) = one(0, a, j) * (1.0f + 0.1f * float(s));
        ASSERT_TRUE(writeRawFloat32(path("stack.raw"), stack).isOk());
    }
    static constexpr const char* kStack = " --shape 120x128x5 --angles 0:180:120 --quiet";
};

TEST_F(GridrecCli, ReconstructsThePhantomThroughTheFrontDoor) {
    CliRun p = runTomo("phantom -o " + path("sino.raw") + " --truth " + path("truth.raw") +
                       " --size 128 --angles 0:180:200 --detectors 185 --quiet");
    ASSERT_EQ(p.code, 0) << p.output;
    const std::string common = " --shape 200x185 --angles 0:180:200 --size 128 --truth " +
                               path("truth.raw") + " --truth-shape 128x128 --quiet";
    CliRun r =
        runTomo("recon " + path("sino.raw") + common + " --algo gridrec -o " + path("gridrec.raw"));
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("with cpu.gridrec"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("note: gridrec: kernel width"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("RMSE"), std::string::npos);
    CliRun f = runTomo("recon " + path("sino.raw") + common + " -o " + path("fbp.raw"));
    ASSERT_EQ(f.code, 0) << f.output;
    auto gridrec = readRawFloat32(path("gridrec.raw"), {1, 128, 128});
    auto fbp = readRawFloat32(path("fbp.raw"), {1, 128, 128});
    auto truth = readRawFloat32(path("truth.raw"), {1, 128, 128});
    ASSERT_TRUE(gridrec.isOk() && fbp.isOk() && truth.isOk());
    EXPECT_LT(*rmse(gridrec->plane(0), truth->plane(0)),
              1.2 * *rmse(fbp->plane(0), truth->plane(0)));
}

TEST_F(GridrecCli, SlabsAreBitIdenticalToOneCall) {
    writeStack();
    CliRun whole =
        runTomo("recon " + path("stack.raw") + kStack + " --algo gridrec -o " + path("whole.raw"));
    ASSERT_EQ(whole.code, 0) << whole.output;
    for (const char* rows : {"1", "2", "3"}) {  // rounded up to whole pairs of slices
        const std::string out = path(std::string("slabs") + rows + ".raw");
        CliRun slabs = runTomo("recon " + path("stack.raw") + kStack +
                               " --algo gridrec --chunk-rows " + rows + " -o " + out);
        ASSERT_EQ(slabs.code, 0) << slabs.output;
        EXPECT_EQ(bytesOf(out), bytesOf(path("whole.raw"))) << "--chunk-rows " << rows;
    }
}

TEST_F(GridrecCli, ParametersAreCheckedAndFallbacksNamed) {
    writeStack();
    const std::string run = "recon " + path("stack.raw") + kStack + " --algo gridrec -o ";
    CliRun bad = runTomo(run + path("bad.raw") + " --param tolerance=2");
    EXPECT_EQ(bad.code, 2) << bad.output;
    EXPECT_NE(bad.output.find("tolerance"), std::string::npos) << bad.output;
    CliRun narrow = runTomo(run + path("bad.raw") + " --param oversampling=0.5");
    EXPECT_EQ(narrow.code, 2) << narrow.output;
    EXPECT_NE(narrow.output.find("oversampling"), std::string::npos) << narrow.output;
    EXPECT_FALSE(fs::exists(path("bad.raw")));
    CliRun half = runTomo(run + path("half.raw") + " --param precision=half,kernel-width=4 " +
                          "--backend opencl --filter hann");
    ASSERT_EQ(half.code, 0) << half.output;
    EXPECT_NE(half.output.find("no opencl implementation"), std::string::npos) << half.output;
    EXPECT_NE(half.output.find("computes and stores in float32"), std::string::npos) << half.output;
    EXPECT_NE(half.output.find("kernel width 4"), std::string::npos) << half.output;
}

// FBP's method auto: gridrec for a 1024^2 slice from 1024 views (predicted ~3x faster), direct
// FBP for 64^2 from 32 views (~5x), the reason noted; a tolerance gridrec cannot meet: direct.
TEST_F(GridrecCli, FbpMethodAutoChoosesByPredictedTime) {
    for (const char* size : {"1024", "64"}) {
        const std::string n = size, views = n == "64" ? "32" : n;
        CliRun p = runTomo("phantom -o " + path("p" + n + ".raw") + " --size " + n +
                           " --angles 0:180:" + views + " --detectors " + n + " --quiet");
        ASSERT_EQ(p.code, 0) << p.output;
    }
    const std::string big = "recon " + path("p1024.raw") +
                            " --shape 1024x1024 --angles 0:180:1024 --quiet -o " + path("a.raw");
    CliRun fourier = runTomo(big + " --param method=auto");
    ASSERT_EQ(fourier.code, 0) << fourier.output;
    EXPECT_NE(fourier.output.find("method auto: Fourier (gridrec)"), std::string::npos)
        << fourier.output;
    EXPECT_NE(fourier.output.find("with cpu.gridrec"), std::string::npos) << fourier.output;
    CliRun strict = runTomo(big + " --param method=auto,tolerance=1e-7");
    ASSERT_EQ(strict.code, 0) << strict.output;
    EXPECT_NE(strict.output.find("method auto: direct FBP"), std::string::npos) << strict.output;
    EXPECT_NE(strict.output.find("over tolerance"), std::string::npos) << strict.output;
    CliRun small =
        runTomo("recon " + path("p64.raw") +
                " --shape 32x64 --angles 0:180:32 --quiet --param method=auto -o " + path("b.raw"));
    ASSERT_EQ(small.code, 0) << small.output;
    EXPECT_NE(small.output.find("method auto: direct FBP"), std::string::npos) << small.output;
    EXPECT_EQ(small.output.find("with cpu.gridrec"), std::string::npos) << small.output;
}

TEST_F(GridrecCli, BenchSuiteComparesWithDirectFbp) {
    CliRun b = runTomo("bench --suite gridrec --quick --repeat 1 --json");
    ASSERT_EQ(b.code, 0) << b.output;
    for (const char* field :
         {"\"variant\": \"cpu.gridrec\"", "\"variant\": \"cpu.simd.lin\"",
          "\"speedup\": ", "\"rmse_over_direct\": ", "\"plan\": \"kernel width"})
        EXPECT_NE(b.output.find(field), std::string::npos) << field << " in " << b.output;
    CliRun bad = runTomo("bench --suite gridrec --quick --methods fdk");
    EXPECT_EQ(bad.code, 2) << bad.output;
}

}  // namespace
}  // namespace tomo
