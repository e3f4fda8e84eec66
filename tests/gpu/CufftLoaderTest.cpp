// cuFFT loaded at run time (gpu/cuda/internal/CufftLoader.h): a missing library and a library
// that is not cuFFT are errors that say so; the toolkit's library loads, reports the major
// version of the header the build used, and the shim's entry points forward to it. No device
// is needed: cufftGetVersion does not touch the GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "GpuTestSupport.h"
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/internal/CufftLoader.h"

namespace tomo {
namespace {

using cuda::CufftLibrary;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(CufftLoader, MissingLibraryIsNotFoundNamingEveryAttempt) {
    const Result<CufftLibrary> lib =
        CufftLibrary::open({"/nonexistent/a/libcufft.so.12", "/nonexistent/b/libcufft.so"});
    ASSERT_FALSE(lib.isOk());
    EXPECT_EQ(lib.status().code(), ErrorCode::NotFound);
    const std::string m = lib.status().message();
    EXPECT_TRUE(contains(m, "cuFFT (" + CufftLibrary::expectedName() + ") not found")) << m;
    EXPECT_TRUE(contains(m, "/nonexistent/a/libcufft.so.12")) << m;
    EXPECT_TRUE(contains(m, "/nonexistent/b/libcufft.so")) << m;
    EXPECT_EQ(CufftLibrary::expectedName(), "libcufft.so." + std::to_string(CUFFT_VER_MAJOR));
}

TEST(CufftLoader, LibraryWithoutTheEntryPointsIsRejected) {
    // libm opens everywhere and has none of the cufft* symbols.
    const Result<CufftLibrary> lib = CufftLibrary::open({"/nonexistent/libcufft.so", "libm.so.6"});
    ASSERT_FALSE(lib.isOk());
    EXPECT_EQ(lib.status().code(), ErrorCode::Unsupported);
    EXPECT_TRUE(contains(lib.status().message(),
                         "libm.so.6 is not a usable cuFFT: it has no "
                         "cufftPlanMany"))
        << lib.status().message();
}

TEST(CufftLoader, EnvironmentVariableReplacesTheSearchList) {
    const char* old = std::getenv("TOMO_CUFFT_LIBRARY");
    const std::string saved = old ? old : "";
    ASSERT_EQ(setenv("TOMO_CUFFT_LIBRARY", "/opt/x/libcufft.so.12", 1), 0);
    const auto overridden = CufftLibrary::defaultCandidates();
    if (old)
        setenv("TOMO_CUFFT_LIBRARY", saved.c_str(), 1);
    else
        unsetenv("TOMO_CUFFT_LIBRARY");
    ASSERT_EQ(overridden.size(), 1u);
    EXPECT_EQ(overridden[0], "/opt/x/libcufft.so.12");
    if (old) return;
    const auto defaults = CufftLibrary::defaultCandidates();
    ASSERT_GE(defaults.size(), 3u);
    EXPECT_EQ(defaults.front(), CufftLibrary::expectedName());  // the loader path first
    EXPECT_EQ(defaults.back(), "libcufft.so");                  // unversioned last
}

TEST(CufftLoader, ToolkitLibraryLoadsAndShimForwardsToIt) {
    const Result<CufftLibrary> lib = CufftLibrary::open(CufftLibrary::defaultCandidates());
    if (!lib.isOk()) TOMO_DEVICE_SKIP("no cuFFT on this machine: " + lib.status().message());
    const CufftLibrary::Api& a = lib->api();
    ASSERT_NE(a.planMany, nullptr);
    ASSERT_NE(a.execR2C, nullptr);
    ASSERT_NE(a.execC2R, nullptr);
    ASSERT_NE(a.execC2C, nullptr);
    ASSERT_NE(a.setStream, nullptr);
    ASSERT_NE(a.destroy, nullptr);
    int version = 0;
    ASSERT_EQ(a.getVersion(&version), CUFFT_SUCCESS);
    EXPECT_EQ(version / 1000, CUFFT_VER_MAJOR) << "library " << lib->source() << " is " << version;

    // The process-wide library and the shim entry point of the same name agree with it.
    ASSERT_TRUE(cuda::processCufft().isOk()) << cuda::processCufft().status().message();
    int viaShim = 0;
    ASSERT_EQ(cufftGetVersion(&viaShim), CUFFT_SUCCESS);
    EXPECT_EQ(viaShim, version);
    // With a library loaded, CUFFT_SETUP_FAILED is a plain device error, not "not found".
    EXPECT_EQ(cuda::cufftCheck(CUFFT_SETUP_FAILED, "plan").code(), ErrorCode::DeviceError);
}

}  // namespace
}  // namespace tomo
