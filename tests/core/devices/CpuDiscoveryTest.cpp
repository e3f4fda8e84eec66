// CPU discovery and the parsers behind it. The SIMD level is checked against the "flags" line of
// /proc/cpuinfo, an independent source (the kernel's CPUID decoding).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "core/devices/CpuFeatures.h"
#include "core/devices/DeviceInfo.h"

namespace tomo {
namespace {

std::string propertyOf(const DeviceInfo& d, const std::string& key) {
    for (const auto& [k, v] : d.properties)
        if (k == key) return v;
    return {};
}

TEST(CpuFeatures, ParsesCpuInfoFieldsAndSysfsSizes) {
    const std::string text =
        "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6338 "
        "CPU @ 2.00GHz \ncpu MHz\t\t: 2000.000\n\nprocessor\t: 1\nmodel name\t: other\n";
    EXPECT_EQ(cpuInfoField(text, "model name").value_or(""),
              "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz");
    EXPECT_EQ(cpuInfoField(text, "vendor_id").value_or(""), "GenuineIntel");
    EXPECT_EQ(cpuInfoField(text, "cpu MHz").value_or(""), "2000.000");
    EXPECT_FALSE(cpuInfoField(text, "model").has_value());
    EXPECT_FALSE(cpuInfoField("", "model name").has_value());

    EXPECT_EQ(parseSysfsSize("48K\n").value_or(0), 48u * 1024u);
    EXPECT_EQ(parseSysfsSize("1024K").value_or(0), 1024u * 1024u);
    EXPECT_EQ(parseSysfsSize("32M").value_or(0), 32u << 20);
    EXPECT_EQ(parseSysfsSize("512").value_or(0), 512u);
    EXPECT_FALSE(parseSysfsSize("K").has_value());
    EXPECT_FALSE(parseSysfsSize("12Q").has_value());
    EXPECT_FALSE(parseSysfsSize("").has_value());

    EXPECT_EQ(formatBytes(512), "512 B");
    EXPECT_EQ(formatBytes(48 * 1024), "48 KiB");
    EXPECT_EQ(formatBytes(1536 * 1024), "1.5 MiB");
    EXPECT_EQ(formatBytes(std::uint64_t{32} << 30), "32 GiB");
}

TEST(CpuDiscovery, ReportsOneConsistentCpu) {
    DeviceDiscovery d = discoverCpu();
    EXPECT_EQ(d.backend, "cpu");
    EXPECT_TRUE(d.available);
    ASSERT_EQ(d.devices.size(), 1u);
    const DeviceInfo& cpu = d.devices[0];
    std::cout << "CPU: " << cpu.name << " | " << cpu.vendor << " | " << cpu.architecture << " | "
              << cpu.computeUnits << " threads | " << cpu.clockMHz << " MHz | "
              << cpu.globalMemoryBytes << " B\n";
    for (const auto& [k, v] : cpu.properties)
        std::cout << "  " << k << ": " << v << "\n";

    EXPECT_EQ(cpu.backend, "cpu");
    EXPECT_FALSE(cpu.name.empty());
    EXPECT_GE(cpu.computeUnits, 1);
    unsigned hw = std::thread::hardware_concurrency();
    if (hw > 0) {
        EXPECT_EQ(cpu.computeUnits, static_cast<int>(hw));
    }
    EXPECT_GT(cpu.globalMemoryBytes, 0u);
    EXPECT_EQ(cpu.globalMemoryBytes,
              static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE));
    const std::string simd = propertyOf(cpu, "SIMD");
    EXPECT_FALSE(simd.empty());
    EXPECT_EQ(simd, simdLevelName(detectSimdLevel()));
    EXPECT_NE(cpu.architecture.find(simd), std::string::npos);

    std::ifstream in("/proc/cpuinfo");
    std::stringstream text;
    text << in.rdbuf();
    if (auto model = cpuInfoField(text.str(), "model name")) {
        EXPECT_EQ(cpu.name, *model);
    }
    if (auto flags = cpuInfoField(text.str(), "flags")) {
        auto has = [&](const std::string& f) {
            return (" " + *flags + " ").find(" " + f + " ") != std::string::npos;
        };
        const char* expected = has("avx512f")              ? "AVX-512"
                               : has("avx2") && has("fma") ? "AVX2+FMA"
                               : has("sse4_2")             ? "SSE4.2"
                                                           : "baseline";
        EXPECT_EQ(simd, expected) << "flags: " << *flags;
    }
    // Every cache index of cpu0 shows up with its size (sysfs read here independently).
    for (int i = 0;; ++i) {
        std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        std::ifstream level(dir + "level"), type(dir + "type"), size(dir + "size");
        std::string l, t, s;
        if (!std::getline(level, l) || !std::getline(type, t) || !std::getline(size, s)) break;
        std::string key = "L" + l + (t == "Data" ? "d" : t == "Instruction" ? "i" : "") + " cache";
        auto bytes = parseSysfsSize(s);
        ASSERT_TRUE(bytes.has_value()) << s;
        EXPECT_EQ(propertyOf(cpu, key), formatBytes(*bytes)) << key;
    }
}

}  // namespace
}  // namespace tomo
