// Issue 27 item 5 ("one timeline") and item 2 ("the bench prints H2D and D2H bandwidth beside
// the model"), as a user runs them: `tomo bench` prints for FBP, FDK and SIRT each stage's busy
// time and the overlap efficiency on the CPU and on an OpenCL device (PoCL here), and on a
// device the pinned host-device link beside the run's transfers; the CPU has no link. Gridrec
// (`bench --suite gridrec`) the same way.
#include <cstdlib>
#include <string>

#include "CliTestSupport.h"

namespace tomo::test {
namespace {

enum class Link { Absent, Present };

void expectHas(const CliRun& r, std::initializer_list<const char*> parts, Link link) {
    ASSERT_EQ(r.code, 0) << r.output;
    for (const char* part : parts)
        EXPECT_NE(r.output.find(part), std::string::npos) << part << "\n" << r.output;
    for (const char* part : {"link: H2D ", "transfers at the link's rate: upload "})
        EXPECT_EQ(r.output.find(part) != std::string::npos, link == Link::Present) << part << "\n"
                                                                                   << r.output;
}

/// The run on OpenCL, or a skip where the build or the machine has no OpenCL device.
bool openClMissing(const CliRun& r) {
    return r.code != 0 && (r.output.find("opencl") != std::string::npos ||
                           r.output.find("OpenCL") != std::string::npos);
}

TEST(BenchTimelineCli, FbpFdkAndSirtPrintEveryStageTheEfficiencyAndOnADeviceTheLink) {
    expectHas(runTomo("bench --quick --variants cpu.simd.lin"),
              {"timeline (busy seconds per stage", "| kernels ", "| efficiency "}, Link::Absent);
    expectHas(runTomo("bench --suite fdk --quick"), {"timeline: wall ", "| efficiency "},
              Link::Absent);
    expectHas(runTomo("bench --suite sirt --quick"), {"SIRT iteration "}, Link::Absent);
    const CliRun fbp = runTomo("bench --backend opencl --quick --variants opencl.alu.lin.1s.32x32");
    if (openClMissing(fbp)) GTEST_SKIP() << "no OpenCL device: " << fbp.output;
    expectHas(fbp, {"| upload ", "| kernels ", "| download ", "| efficiency "}, Link::Present);
    expectHas(runTomo("bench --suite fdk --backend opencl --quick"),
              {"timeline: wall ", "| upload ", "| download ", "| efficiency ",
               "opencl.fdk.standard 24^3: transfers at the link's rate"},
              Link::Present);
    expectHas(runTomo("bench --suite sirt --backend opencl --quick"),
              {"timeline of the timed projections: wall ", "| upload ", "| efficiency ",
               "64^2 x 32 angles: transfers at the link's rate"},
              Link::Present);
}

// Gridrec runs through the same pipeline driver (core/fourier/GridrecPipeline.h): `bench --suite
// gridrec` prints the timeline of both methods' runs (spectra as filter, gridding as kernels)
// and under each the steps inside them (parts: the CPU's host seconds, CUDA's device events);
// on CUDA the link beside them and the host's first-touch rate (skips without a CUDA device,
// fails so under TOMO_REQUIRE_DEVICE=1).
TEST(BenchTimelineCli, GridrecPrintsItsStagesAndOnCudaTheLink) {
    expectHas(
        runTomo("bench --suite gridrec --quick --repeat 1"),
        {"timeline (busy seconds per stage", "cpu.gridrec 64x64x64 x3: wall ", "| filter ",
         "| kernels ", "| efficiency ", "    parts: spectra ", " | spreading ", " | columns "},
        Link::Absent);
    const CliRun cuda = runTomo("bench --suite gridrec --quick --repeat 1 --backend cuda");
    if (cuda.output.find("cuda.gridrec") == std::string::npos) {
        const char* require = std::getenv("TOMO_REQUIRE_DEVICE");
        if (require && std::string(require) == "1") FAIL() << "no CUDA gridrec: " << cuda.output;
        GTEST_SKIP() << "no CUDA gridrec: " << cuda.output;
    }
    expectHas(cuda,
              {"cuda.gridrec 64x64x64 x3: wall ", "| upload ", "| download ", "    parts: pack ",
               " | gather ", " | grid FFT ", " | images ",
               "cuda.gridrec 64x64x64 x3: transfers at the link's rate",
               "host memory: first touch of fresh pages "},
              Link::Present);
}

}  // namespace
}  // namespace tomo::test
