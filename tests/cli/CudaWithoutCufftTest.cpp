// `tomo` on a machine without the CUDA toolkit's cuFFT, simulated with TOMO_CUFFT_LIBRARY
// pointing at a file that does not exist (gpu/cuda/internal/CufftLoader.h): with a CUDA device the
// demo still reconstructs with a CUDA back-projector (FBP filters on the CPU) to the same error as
// with cuFFT. It skips without a device, and fails then under TOMO_REQUIRE_DEVICE=1. (What
// `tomo devices` says without cuFFT is checked by tests/installer.)
#include <cstdlib>
#include <regex>

#include "CliTestSupport.h"

namespace tomo::test {
namespace {

/// Sets TOMO_CUFFT_LIBRARY for the commands run while it lives (they inherit the environment).
class WithoutCufft {
  public:
    WithoutCufft() { ::setenv("TOMO_CUFFT_LIBRARY", "/nonexistent/libcufft.so.12", 1); }
    ~WithoutCufft() { ::unsetenv("TOMO_CUFFT_LIBRARY"); }
    WithoutCufft(const WithoutCufft&) = delete;
    WithoutCufft& operator=(const WithoutCufft&) = delete;
};

std::string cudaLine(const std::string& devices) {
    std::smatch m;
    return std::regex_search(devices, m, std::regex("(^|\n)(cuda: [^\n]*)")) ? m[2].str() : "";
}

double rmseOf(const CliRun& r) {
    std::smatch m;
    return std::regex_search(r.output, m, std::regex("against the phantom: RMSE ([0-9.]+)"))
               ? std::stod(m[1])
               : -1.0;
}

class CudaWithoutCufft : public CliTest {};

TEST_F(CudaWithoutCufft, TheDemoReconstructsWithACudaBackProjectorAndTheCpuFilter) {
    const std::string line = cudaLine(runTomo("devices").output);
    if (line.empty()) GTEST_SKIP() << "this build has no CUDA backend";
    if (line.find("unavailable") != std::string::npos) {
        const char* require = std::getenv("TOMO_REQUIRE_DEVICE");
        if (require && std::string(require) == "1") FAIL() << "no CUDA device: " << line;
        GTEST_SKIP() << "no CUDA device: " << line;
    }
    const std::string args = "demo --quiet --variant cuda.texture.lin.1s --out ";
    const CliRun withFft = runTomo(args + path("with"));
    ASSERT_EQ(withFft.code, 0) << withFft.output;
    WithoutCufft env;
    const CliRun withoutFft = runTomo(args + path("without"));
    ASSERT_EQ(withoutFft.code, 0) << withoutFft.output;
    EXPECT_NE(withoutFft.output.find("cuda.texture.lin.1s"), std::string::npos)
        << withoutFft.output;
    // The same filter definitions on the CPU and in cuFFT: the errors agree to float rounding.
    ASSERT_GT(rmseOf(withFft), 0.0) << withFft.output;
    EXPECT_NEAR(rmseOf(withoutFft), rmseOf(withFft), 1e-4) << withoutFft.output;
}

}  // namespace
}  // namespace tomo::test
