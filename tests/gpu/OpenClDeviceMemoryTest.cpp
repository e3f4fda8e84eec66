// The OpenCL budget read from the device (issue 27 item 6; ClDeviceContext::memoryInfo, core's
// policy in core/pipeline/DeviceMemory.h): CL_DEVICE_GLOBAL_MEM_SIZE and
// CL_DEVICE_MAX_MEM_ALLOC_SIZE as the device reports them, less the buffers this process holds
// outside the runs' scratch (a buffer lowers the budget while it lives, the scratch does not),
// and a buffer beyond the largest allocation refused with a message. Runs on PoCL here.
#include <gtest/gtest.h>

#include "OpenClTestSupport.h"
#include "core/pipeline/DeviceMemory.h"
#include "gpu/opencl/internal/ClDeviceContext.h"

namespace tomo {
namespace {

std::size_t deviceInfo(cl_device_id device, cl_device_info what) {
    cl_ulong value = 0;
    clGetDeviceInfo(device, what, sizeof value, &value, nullptr);
    return static_cast<std::size_t>(value);
}

TEST(OpenClDeviceMemory, TheBudgetComesFromTheDeviceLessWhatThisProcessHolds) {
    TOMO_SKIP_WITHOUT_OPENCL();
    opencl::ClDeviceContext& dev = *test::openClSetup().report.context;
    auto scratch = dev.lockScratch();
    const DeviceMemoryInfo before = dev.memoryInfo();
    EXPECT_EQ(before.total, deviceInfo(dev.device(), CL_DEVICE_GLOBAL_MEM_SIZE));
    EXPECT_EQ(before.maxAllocation, deviceInfo(dev.device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE));
    EXPECT_EQ(before.sharesHostMemory, dev.traits().isCpu);
    EXPECT_EQ(dev.memoryBudget(), deviceMemoryBudget(before));
    EXPECT_GT(dev.memoryBudget(), std::size_t(64) << 20) << describeDeviceMemory(before);

    const std::size_t bytes = std::size_t(64) << 20;
    {
        auto held = dev.createBuffer(CL_MEM_READ_WRITE, bytes, "test buffer");
        ASSERT_TRUE(held.isOk()) << held.status().toString();
        EXPECT_EQ(dev.memoryInfo().free, before.free - bytes);
        // Scratch is what runs reuse: it stays inside their budget.
        ASSERT_TRUE(dev.scratchBuffer("test.scratch", bytes).isOk());
        EXPECT_EQ(dev.memoryInfo().free, before.free - bytes);
    }
    dev.releaseScratch();
    clFinish(dev.queue(0));
    EXPECT_EQ(dev.memoryInfo().free, before.free);

    const auto tooLarge = dev.createBuffer(CL_MEM_READ_WRITE, before.maxAllocation + 1, "huge");
    ASSERT_FALSE(tooLarge.isOk());
    EXPECT_EQ(tooLarge.status().code(), ErrorCode::OutOfMemory);
    EXPECT_NE(tooLarge.status().message().find("largest allocation"), std::string::npos);
}

}  // namespace
}  // namespace tomo
