// OpenCL discovery. Here PoCL provides a CPU device; where no platform is installed (the GPU
// machine may have none) the device checks skip.
#include <gtest/gtest.h>

#include "GpuTestSupport.h"
#include "PrintDiscovery.h"
#include "gpu/opencl/OpenClDiscovery.h"
#include "gpu/opencl/OpenClErrors.h"

namespace tomo {
namespace {

std::string propertyOf(const DeviceInfo& d, const std::string& key) {
    for (const auto& [k, v] : d.properties)
        if (k == key) return v;
    return {};
}

TEST(OpenClErrors, NamesCodesFromTheSpecification) {
    // Values from the OpenCL 3.0 specification, appendix "Error codes" / cl.h.
    EXPECT_STREQ(opencl::clErrorName(0), "CL_SUCCESS");
    EXPECT_STREQ(opencl::clErrorName(-1), "CL_DEVICE_NOT_FOUND");
    EXPECT_STREQ(opencl::clErrorName(-5), "CL_OUT_OF_RESOURCES");
    EXPECT_STREQ(opencl::clErrorName(-11), "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_STREQ(opencl::clErrorName(-30), "CL_INVALID_VALUE");
    EXPECT_STREQ(opencl::clErrorName(-54), "CL_INVALID_WORK_GROUP_SIZE");
    EXPECT_STREQ(opencl::clErrorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    EXPECT_STREQ(opencl::clErrorName(-25), "unknown OpenCL error");
    EXPECT_EQ(opencl::clErrorMessage("clCreateContext", -6),
              "clCreateContext failed: CL_OUT_OF_HOST_MEMORY (-6)");
}

TEST(OpenClDiscovery, FindsDevicesWithFloatImages) {
    DeviceDiscovery d = opencl::discoverDevices();
    test::printDiscovery(d);
    EXPECT_EQ(d.backend, "opencl");
    if (!d.available && d.message.rfind("no OpenCL platform", 0) == 0) TOMO_DEVICE_SKIP(d.message);
    ASSERT_TRUE(d.available) << d.message;
    ASSERT_GE(d.devices.size(), 1u);
    for (std::size_t i = 0; i < d.devices.size(); ++i) {
        const DeviceInfo& dev = d.devices[i];
        EXPECT_EQ(dev.note, "") << dev.name;
        EXPECT_EQ(dev.index, static_cast<int>(i));
        EXPECT_FALSE(dev.name.empty());
        EXPECT_GE(dev.computeUnits, 1);
        EXPECT_GT(dev.globalMemoryBytes, 0u);
        EXPECT_GT(dev.localMemoryBytes, 0u);
        EXPECT_EQ(propertyOf(dev, "OpenCL C version").rfind("OpenCL C ", 0), 0u)
            << propertyOf(dev, "OpenCL C version");
        if (propertyOf(dev, "image support") == "yes") {
            // CL_RGBA/CL_FLOAT is in the OpenCL 1.2 minimum list; CL_R/CL_FLOAT (required from
            // 2.0 on, the format the back-projector uses) is provided by PoCL and GPU drivers.
            const std::string formats = propertyOf(dev, "float image formats");
            EXPECT_TRUE(formats == "R" || formats.rfind("R, ", 0) == 0) << formats;
            EXPECT_NE(formats.find("RGBA"), std::string::npos) << formats;
        }
    }
}

}  // namespace
}  // namespace tomo
