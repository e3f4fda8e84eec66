// CUDA discovery: either sane devices or available=false with the runtime's reason; never a
// crash. The architecture table is checked as a pure function.
#include <gtest/gtest.h>

#include "GpuTestSupport.h"
#include "PrintDiscovery.h"
#include "gpu/cuda/CudaArchitecture.h"
#include "gpu/cuda/CudaDiscovery.h"

namespace tomo {
namespace {

TEST(CudaArchitecture, NamesFamiliesFromComputeCapability) {
    EXPECT_EQ(cuda::ccToArchitecture(3, 5), "Kepler");
    EXPECT_EQ(cuda::ccToArchitecture(5, 2), "Maxwell");
    EXPECT_EQ(cuda::ccToArchitecture(6, 1), "Pascal");
    EXPECT_EQ(cuda::ccToArchitecture(7, 0), "Volta");
    EXPECT_EQ(cuda::ccToArchitecture(7, 2), "Volta");
    EXPECT_EQ(cuda::ccToArchitecture(7, 5), "Turing");
    EXPECT_EQ(cuda::ccToArchitecture(8, 0), "Ampere");
    EXPECT_EQ(cuda::ccToArchitecture(8, 6), "Ampere");
    EXPECT_EQ(cuda::ccToArchitecture(8, 7), "Ampere");
    EXPECT_EQ(cuda::ccToArchitecture(8, 9), "Ada");
    EXPECT_EQ(cuda::ccToArchitecture(9, 0), "Hopper");
    EXPECT_EQ(cuda::ccToArchitecture(10, 0), "Blackwell");
    EXPECT_EQ(cuda::ccToArchitecture(10, 3), "Blackwell");
    EXPECT_EQ(cuda::ccToArchitecture(12, 0), "Blackwell");
    EXPECT_EQ(cuda::ccToArchitecture(8, 3), "unknown");
    EXPECT_EQ(cuda::ccToArchitecture(4, 0), "unknown");
    EXPECT_EQ(cuda::ccToArchitecture(0, 0), "unknown");
    EXPECT_EQ(cuda::architectureLabel(9, 0), "Hopper (sm_90)");
    EXPECT_EQ(cuda::architectureLabel(12, 1), "Blackwell (sm_121)");
}

std::string propertyOf(const DeviceInfo& d, const std::string& key) {
    for (const auto& [k, v] : d.properties)
        if (k == key) return v;
    return {};
}

TEST(CudaDiscovery, ReportsSaneDevicesOrAReason) {
    DeviceDiscovery d = cuda::discoverDevices();
    test::printDiscovery(d);
    EXPECT_EQ(d.backend, "cuda");
    if (!d.available) {
        EXPECT_TRUE(d.devices.empty());
        EXPECT_FALSE(d.message.empty());
        EXPECT_NE(d.message.find("no CUDA device"), std::string::npos) << d.message;
        // A second call gives the same answer (no sticky state left behind).
        EXPECT_EQ(cuda::discoverDevices().message, d.message);
        TOMO_DEVICE_SKIP(d.message);
    }
    ASSERT_FALSE(d.devices.empty());
    for (std::size_t i = 0; i < d.devices.size(); ++i) {
        const DeviceInfo& g = d.devices[i];
        EXPECT_EQ(g.note, "") << g.name;
        EXPECT_EQ(g.index, static_cast<int>(i));
        EXPECT_FALSE(g.name.empty());
        const std::string cc = propertyOf(g, "compute capability");
        ASSERT_FALSE(cc.empty());
        int major = std::stoi(cc);
        int minor = std::stoi(cc.substr(cc.find('.') + 1));
        EXPECT_GE(major, 5) << cc;
        EXPECT_EQ(g.architecture, cuda::architectureLabel(major, minor));
        EXPECT_GE(g.computeUnits, 1);
        EXPECT_GT(g.clockMHz, 100.0);
        EXPECT_GT(g.globalMemoryBytes, std::uint64_t{1} << 30);
        EXPECT_GE(g.localMemoryBytes, 48u * 1024u);  // every device since Kepler has 48 KiB
        EXPECT_EQ(propertyOf(g, "warp size"), "32");
    }
}

}  // namespace
}  // namespace tomo
