#pragma once
// The OpenCL side of the GPU test harness: one registry per test process (CPU + OpenCL variants,
// program binaries cached under the build tree so that PoCL compiles each kernel once). The
// problems and error measures shared with CUDA are in GpuTestSupport.h.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "GpuTestSupport.h"
#include "core/projectors/BackProjector.h"
#include "gpu/opencl/OpenClBackProjectors.h"

namespace tomo::test {

struct OpenClTestSetup {
    BackProjectorRegistry registry;
    opencl::OpenClRegistration report;
    std::string cacheDirectory;
};

/// The program cache of the test build tree (TOMO_TEST_BINARY_DIR/opencl-test-cache), shared by
/// the registry and the locality operator so that PoCL compiles each program once.
std::string openClTestCacheDirectory();

/// Built on first use: registerCpuBackProjectors + opencl::registerBackProjectors.
const OpenClTestSetup& openClSetup();

/// The ids of the registered OpenCL variants.
std::vector<BackProjectorInfo> openClVariants();

}  // namespace tomo::test

/// Skips the test when no OpenCL device could be opened (no platform on this machine).
#define TOMO_SKIP_WITHOUT_OPENCL()                                                                \
    do {                                                                                          \
        if (!::tomo::test::openClSetup().report.available)                                        \
            TOMO_DEVICE_SKIP("no OpenCL device: " << ::tomo::test::openClSetup().report.message); \
    } while (false)
