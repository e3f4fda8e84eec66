// `--backend auto`'s MBIR model (core/mbir/IcdBackendModel.h): on issue 27's H200 machine (16
// threads) paper 004's case goes to GPU-ICD as measured there (0.23-0.31 s against 2.17 s per
// slice); a small slice, or a host with many more threads, stays on PSV-ICD; slices scale both.
#include <gtest/gtest.h>

#include "core/mbir/IcdBackendModel.h"

namespace tomo {
namespace {

TEST(IcdBackendModel, PaperCaseOnTheH200MachineGoesToGpuIcd) {
    const IcdBackendChoice c = chooseIcdBackend(512, 512, 720, 1, 16);
    EXPECT_TRUE(c.gpu);
    EXPECT_NEAR(c.cpuSeconds, 2.17, 0.05);  // the measured PSV-ICD time per slice
    EXPECT_NEAR(c.gpuSeconds, 0.3 + 0.27, 0.03);
    EXPECT_EQ(c.describe(), "model: GPU-ICD 0.57 s, PSV-ICD on 16 threads 2.2 s");
    const IcdBackendChoice stack = chooseIcdBackend(512, 512, 720, 16, 16);
    EXPECT_NEAR(stack.cpuSeconds, 16 * c.cpuSeconds, 1e-9);
    EXPECT_NEAR(stack.gpuSeconds, 0.3 + 16 * (c.gpuSeconds - 0.3), 1e-9);  // one fixed cost
}

TEST(IcdBackendModel, SmallSlicesAndManyThreadsStayOnTheCpu) {
    EXPECT_FALSE(chooseIcdBackend(64, 64, 60, 1, 16).gpu);      // the fixed cost dominates
    EXPECT_FALSE(chooseIcdBackend(512, 512, 720, 1, 256).gpu);  // 256 threads out-run it
    EXPECT_EQ(chooseIcdBackend(64, 64, 60, 1, 0).threads, 1);
}

}  // namespace
}  // namespace tomo
