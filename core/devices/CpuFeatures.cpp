#include "core/devices/CpuFeatures.h"

#include <cctype>
#include <cstdio>

namespace tomo {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

}  // namespace

SimdLevel detectSimdLevel() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return SimdLevel::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return SimdLevel::Avx2Fma;
    if (__builtin_cpu_supports("sse4.2")) return SimdLevel::Sse42;
    return SimdLevel::Baseline;
#elif defined(__aarch64__)
    return SimdLevel::Neon;
#else
    return SimdLevel::Baseline;
#endif
}

const char* simdLevelName(SimdLevel level) {
    switch (level) {
        case SimdLevel::Baseline:
            return "baseline";
        case SimdLevel::Sse42:
            return "SSE4.2";
        case SimdLevel::Avx2Fma:
            return "AVX2+FMA";
        case SimdLevel::Avx512:
            return "AVX-512";
        case SimdLevel::Neon:
            return "NEON";
    }
    return "unknown";
}

std::optional<std::string> cpuInfoField(std::string_view cpuinfo, std::string_view key) {
    while (!cpuinfo.empty()) {
        std::size_t eol = cpuinfo.find('\n');
        std::string_view line = cpuinfo.substr(0, eol);
        cpuinfo = eol == std::string_view::npos ? std::string_view{} : cpuinfo.substr(eol + 1);
        std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        if (trim(line.substr(0, colon)) == key) return std::string(trim(line.substr(colon + 1)));
    }
    return std::nullopt;
}

std::optional<std::uint64_t> parseSysfsSize(std::string_view text) {
    text = trim(text);
    if (text.empty()) return std::nullopt;
    std::uint64_t value = 0;
    std::size_t i = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
        if (value > (UINT64_MAX - 9) / 10) return std::nullopt;
        value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
    }
    if (i == 0) return std::nullopt;
    std::string_view unit = text.substr(i);
    int shift = 0;
    if (unit == "K")
        shift = 10;
    else if (unit == "M")
        shift = 20;
    else if (unit == "G")
        shift = 30;
    else if (!unit.empty())
        return std::nullopt;
    if (shift > 0 && value > (UINT64_MAX >> shift)) return std::nullopt;
    return value << shift;
}

std::string formatBytes(std::uint64_t bytes) {
    static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    char text[32];
    if (u == 0 || v == static_cast<double>(static_cast<std::uint64_t>(v)))
        std::snprintf(text, sizeof text, "%.0f %s", v, kUnits[u]);
    else
        std::snprintf(text, sizeof text, "%.1f %s", v, kUnits[u]);
    return text;
}

}  // namespace tomo
