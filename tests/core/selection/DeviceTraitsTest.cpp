// Device traits from recorded DeviceInfo values (no device needed): NVIDIA families, CPUs and
// PoCL, each rate against units x clock x per-unit figure computed by hand.
#include <gtest/gtest.h>

#include "core/selection/DeviceTraits.h"
#include "core/selection/GpuTraitTable.h"

namespace tomo {
namespace {

DeviceInfo h100Cuda() {
    DeviceInfo d;
    d.backend = "cuda";
    d.name = "NVIDIA H100 80GB HBM3";
    d.vendor = "NVIDIA";
    d.computeUnits = 132;
    d.clockMHz = 1980;
    d.properties = {{"compute capability", "9.0"}};
    return d;
}

TEST(DeviceTraits, HopperFromComputeCapability) {
    const DeviceTraits t = traitsFor(h100Cuda());
    EXPECT_EQ(t.family, "Hopper");
    EXPECT_NEAR(t.fp32.value, 132 * 1.98 * 128, 1e-9);  // 33454 G lane-ops/s
    EXPECT_NEAR(t.conversion.value, 132 * 1.98 * 16, 1e-9);
    EXPECT_NEAR(t.integer.value, 132 * 1.98 * 64, 1e-9);
    EXPECT_NEAR(t.shared.value, 132 * 1.98 * 128, 1e-9);   // GB/s
    EXPECT_NEAR(t.texture32.value, 132 * 1.98 * 4, 1e-9);  // 1045 Gtexel/s
    EXPECT_NEAR(t.texture128.value, 132 * 1.98 * 2, 1e-9);
    EXPECT_TRUE(t.filter64FullRate);
    EXPECT_FALSE(t.filter128FullRate);
    EXPECT_EQ(t.fp32.source, TraitSource::Derived);
    EXPECT_NE(t.fp32.note.find("CUDA C++ Programming Guide"), std::string::npos);
    EXPECT_NE(t.fp32.note.find("cc 9.0"), std::string::npos);
    EXPECT_EQ(t.constant.source, TraitSource::Estimate);
}

TEST(DeviceTraits, TuringHasHalfTheFp32RateOfAda) {
    DeviceInfo d = h100Cuda();
    d.properties = {{"compute capability", "7.5"}};
    const double turing = traitsFor(d).fp32.value;
    d.properties = {{"compute capability", "8.9"}};
    EXPECT_DOUBLE_EQ(traitsFor(d).fp32.value, 2 * turing);
    EXPECT_EQ(traitsFor(d).family, "Ada");
}

TEST(DeviceTraits, NvidiaOpenClDeviceUsesTheFamilyFromItsName) {
    DeviceInfo d;
    d.backend = "opencl";
    d.name = "NVIDIA GeForce RTX 4090";
    d.vendor = "NVIDIA Corporation";
    d.computeUnits = 128;
    d.clockMHz = 2520;
    d.properties = {{"type", "GPU"}};
    const DeviceTraits t = traitsFor(d);
    EXPECT_EQ(t.family, "Ada");
    EXPECT_NEAR(t.fp32.value, 128 * 2.52 * 128, 1e-9);
    EXPECT_NE(t.fp32.note.find("family from the name"), std::string::npos);
}

TEST(DeviceTraits, NvidiaNamesMapToComputeCapabilities) {
    EXPECT_EQ(nvidiaCcFromName("NVIDIA H100 80GB HBM3"), 90);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA H200"), 90);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA A100-SXM4-40GB"), 80);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA GeForce RTX 3080"), 86);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA RTX A6000"), 86);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA RTX 6000 Ada Generation"), 89);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA L40S"), 89);
    EXPECT_EQ(nvidiaCcFromName("Tesla T4"), 75);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA GeForce RTX 5090"), 120);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA B200"), 100);
    EXPECT_FALSE(nvidiaCcFromName("AMD Radeon RX 7900 XTX").has_value());
    EXPECT_EQ(nvidiaCcFromName("Tesla V100-SXM2-16GB"), 70);
    EXPECT_EQ(nvidiaCcFromName("NVIDIA TITAN X (Pascal)"), 61);
    EXPECT_EQ(nvidiaCcFromName("GeForce GTX 1080 Ti"), 61);
    EXPECT_EQ(nvidiaCcFromName("GeForce GTX TITAN X"), 52);  // Maxwell, not Kepler's TITAN
    EXPECT_EQ(nvidiaCcFromName("GeForce GTX TITAN"), 35);
    EXPECT_FALSE(nvidiaRatesForCc(3, 0).has_value());  // GK104: other rates, not in the table
    EXPECT_FALSE(nvidiaRatesForCc(2, 0).has_value());  // Fermi
    EXPECT_TRUE(nvidiaRatesForCc(12, 0).has_value());
}

TEST(DeviceTraits, OlderFamiliesOfPaper002FromRecordedDevices) {
    // GTX Titan (Kepler, paper 002's worked example): 14 SMX at 876 MHz.
    DeviceInfo d = h100Cuda();
    d.name = "GeForce GTX TITAN";
    d.computeUnits = 14;
    d.clockMHz = 876;
    d.properties = {{"compute capability", "3.5"}};
    DeviceTraits t = traitsFor(d);
    EXPECT_EQ(t.family, "Kepler");
    EXPECT_NEAR(t.fp32.value, 14 * 0.876 * 192, 1e-9);
    EXPECT_NEAR(t.conversion.value, t.fp32.value / 12, 1e-9);  // paper: TC = FP/12
    EXPECT_NEAR(t.issue.value, 14 * 0.876 * 256, 1e-9);        // dual issue
    EXPECT_NEAR(t.shared.value, 14 * 0.876 * 256, 1e-9);       // 64-bit banks
    EXPECT_NEAR(t.texture32.value, 14 * 0.876 * 16, 1e-9);
    EXPECT_NE(t.texture32.note.find("GK110"), std::string::npos);
    // Titan X (Pascal): 28 SMs at 1531 MHz; consumer Pascal has 8 texture units per SM.
    d.name = "NVIDIA TITAN X (Pascal)";
    d.computeUnits = 28;
    d.clockMHz = 1531;
    d.properties = {{"compute capability", "6.1"}};
    t = traitsFor(d);
    EXPECT_EQ(t.family, "Pascal");
    EXPECT_NEAR(t.fp32.value, 28 * 1.531 * 128, 1e-9);
    EXPECT_NEAR(t.conversion.value, 28 * 1.531 * 32, 1e-9);
    EXPECT_NEAR(t.shared.value, 28 * 1.531 * 128, 1e-9);
    EXPECT_NEAR(t.texture32.value, 28 * 1.531 * 8, 1e-9);
    // Maxwell and Volta by capability; Volta/GP100 have Turing's FP32 rate per SM.
    d.properties = {{"compute capability", "5.2"}};
    EXPECT_EQ(traitsFor(d).family, "Maxwell");
    d.properties = {{"compute capability", "7.0"}};
    EXPECT_EQ(traitsFor(d).family, "Volta");
    EXPECT_NEAR(traitsFor(d).fp32.value, 28 * 1.531 * 64, 1e-9);
    d.properties = {{"compute capability", "6.0"}};
    EXPECT_EQ(traitsFor(d).family, "Pascal (GP100)");
    EXPECT_NEAR(traitsFor(d).conversion.value, 28 * 1.531 * 16, 1e-9);
}

TEST(DeviceTraits, CpuIsThreadsTimesLanesTimesClock) {
    DeviceInfo d;
    d.backend = "cpu";
    d.name = "AMD EPYC";
    d.architecture = "x86-64 AVX-512";
    d.computeUnits = 2;
    d.clockMHz = 2600;
    d.properties = {{"SIMD", "AVX-512"}};
    const DeviceTraits t = traitsFor(d);
    EXPECT_EQ(t.simdLanes, 16);
    EXPECT_NEAR(t.fp32.value, 2 * 2.6 * 16, 1e-9);  // 83.2 G lane-ops/s (166 GFLOP/s)
    EXPECT_NEAR(t.issue.value, 2 * 2.6 * 16 * 4, 1e-9);
    EXPECT_NEAR(t.shared.value, 2 * 2.6 * 2 * 16 * 4, 1e-9);  // 2 x 64-byte loads/clock
    EXPECT_EQ(t.texture32.value, 0);
    d.properties = {{"SIMD", "AVX2+FMA"}};
    d.architecture = "x86-64 AVX2+FMA";
    EXPECT_EQ(traitsFor(d).simdLanes, 8);
}

TEST(DeviceTraits, PoclTexturesAreSoftwareEstimates) {
    DeviceInfo d;
    d.backend = "opencl";
    d.name = "cpu-haswell-AMD EPYC";
    d.architecture = "CPU (Portable Computing Language)";
    d.computeUnits = 4;
    d.clockMHz = 3000;
    d.properties = {{"type", "CPU"}};
    const DeviceTraits t = traitsFor(d);
    EXPECT_EQ(t.simdLanes, 8);
    EXPECT_NEAR(t.texture32.value, 4 * 3.0 * 4 / 40, 1e-12);
    EXPECT_NEAR(t.texture128.value, 4 * 3.0 * 4 / 64, 1e-12);
    EXPECT_EQ(t.texture32.source, TraitSource::Estimate);
    EXPECT_FALSE(t.filter64FullRate);
}

TEST(DeviceTraits, MissingClockGivesZeroRatesWithAReason) {
    DeviceInfo d = h100Cuda();
    d.clockMHz = 0;
    const DeviceTraits t = traitsFor(d);
    EXPECT_EQ(t.fp32.value, 0);
    EXPECT_NE(t.fp32.note.find("clock"), std::string::npos);
}

TEST(DeviceTraits, UnknownGpuGetsGenericEstimatesWithoutOverlap) {
    DeviceInfo d;
    d.backend = "opencl";
    d.name = "gfx1100";
    d.vendor = "Advanced Micro Devices, Inc.";
    d.computeUnits = 48;
    d.clockMHz = 2500;
    d.properties = {{"type", "GPU"}};
    const DeviceTraits t = traitsFor(d);
    EXPECT_EQ(t.family, "generic GPU");
    EXPECT_NEAR(t.fp32.value, 48 * 2.5 * 64, 1e-9);
    EXPECT_FALSE(t.conversionOverlapsFp);
    EXPECT_EQ(t.fp32.source, TraitSource::Estimate);
}

}  // namespace
}  // namespace tomo
