// discoverCpu(): the host CPU as a DeviceInfo, from /proc/cpuinfo, sysfs and sysconf.
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "core/devices/CpuFeatures.h"
#include "core/devices/DeviceInfo.h"

namespace tomo {
namespace {

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string firstLine(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

const char* architectureName() {
#if defined(__x86_64__)
    return "x86-64";
#elif defined(__aarch64__)
    return "AArch64";
#elif defined(__i386__)
    return "x86";
#else
    return "unknown architecture";
#endif
}

/// "L1d cache" = "48 KiB" etc. for every cache level cpu0 reports in sysfs.
void addCaches(DeviceInfo& info) {
    const std::filesystem::path root = "/sys/devices/system/cpu/cpu0/cache";
    std::error_code ec;
    if (!std::filesystem::is_directory(root, ec)) return;
    for (int i = 0; i < 16; ++i) {
        auto dir = root / ("index" + std::to_string(i));
        if (!std::filesystem::is_directory(dir, ec)) break;
        std::string level = firstLine(dir / "level");
        std::string type = firstLine(dir / "type");
        auto size = parseSysfsSize(firstLine(dir / "size"));
        if (level.empty() || !size) continue;
        std::string suffix = type == "Data" ? "d" : type == "Instruction" ? "i" : "";
        info.properties.emplace_back("L" + level + suffix + " cache", formatBytes(*size));
    }
}

}  // namespace

DeviceDiscovery discoverCpu() {
    DeviceDiscovery result;
    result.backend = "cpu";
    result.available = true;

    DeviceInfo info;
    info.backend = "cpu";
    info.index = 0;
    const std::string cpuinfo = readText("/proc/cpuinfo");
    info.name = cpuInfoField(cpuinfo, "model name")
                    .value_or(cpuInfoField(cpuinfo, "Model").value_or("unknown CPU"));
    if (info.name.empty()) info.name = "unknown CPU";
    info.vendor = cpuInfoField(cpuinfo, "vendor_id")
                      .value_or(cpuInfoField(cpuinfo, "CPU implementer").value_or(""));

    const SimdLevel simd = detectSimdLevel();
    info.architecture = std::string(architectureName()) + " " + simdLevelName(simd);

    unsigned hw = std::thread::hardware_concurrency();
    info.computeUnits = hw == 0 ? 1 : static_cast<int>(hw);

    // Clock: the maximum frequency from cpufreq when exposed (kHz), else the current "cpu MHz".
    std::string maxKHz = firstLine("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    if (double khz = std::strtod(maxKHz.c_str(), nullptr); khz > 0)
        info.clockMHz = khz / 1000.0;
    else if (auto mhz = cpuInfoField(cpuinfo, "cpu MHz"))
        info.clockMHz = std::max(0.0, std::strtod(mhz->c_str(), nullptr));

    long pages = ::sysconf(_SC_PHYS_PAGES);
    long pageSize = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        info.globalMemoryBytes =
            static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);

    info.properties.emplace_back("SIMD", simdLevelName(simd));
    info.properties.emplace_back("hardware threads", std::to_string(info.computeUnits));
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0)
        info.properties.emplace_back("threads usable (affinity)", std::to_string(CPU_COUNT(&set)));
    long avail = ::sysconf(_SC_AVPHYS_PAGES);
    if (avail > 0 && pageSize > 0)
        info.properties.emplace_back(
            "memory available",
            formatBytes(static_cast<std::uint64_t>(avail) * static_cast<std::uint64_t>(pageSize)));
    addCaches(info);

    result.devices.push_back(std::move(info));
    return result;
}

}  // namespace tomo
