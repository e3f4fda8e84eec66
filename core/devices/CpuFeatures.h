#pragma once
/// @file CpuFeatures.h
/// @brief Run-time detection of the host CPU's SIMD level and parsers for the Linux files that
/// describe the CPU (/proc/cpuinfo, /sys/devices/system/cpu/cpu0/cache). Used by discoverCpu()
/// and by code choosing a vectorised CPU kernel.
///
/// Detection uses the compiler's `__builtin_cpu_supports` (CPUID on x86-64, evaluated at run
/// time, so a binary built for baseline x86-64 still reports AVX-512 on a machine that has it).
/// Threading: all functions are reentrant.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tomo {

/// The widest vector instruction set usable on this CPU, in increasing order on x86-64.
enum class SimdLevel {
    Baseline,  ///< no extension detected beyond the architecture's baseline (SSE2 on x86-64)
    Sse42,     ///< SSE4.2
    Avx2Fma,   ///< AVX2 together with FMA3 (Haswell, Zen and later)
    Avx512,    ///< AVX-512 Foundation
    Neon,      ///< AArch64 Advanced SIMD (always present on AArch64)
};

/// Detects the level at run time.
SimdLevel detectSimdLevel();

/// Display name: "baseline", "SSE4.2", "AVX2+FMA", "AVX-512", "NEON".
const char* simdLevelName(SimdLevel level);

/// The value of the first "key : value" line of /proc/cpuinfo text whose key is @p key
/// (surrounding blanks trimmed), or nullopt. Example: cpuInfoField(text, "model name").
std::optional<std::string> cpuInfoField(std::string_view cpuinfo, std::string_view key);

/// Parses a sysfs cache size ("48K", "1024K", "32M", "512") into bytes; nullopt if malformed.
std::optional<std::uint64_t> parseSysfsSize(std::string_view text);

/// "48 KiB", "1 MiB", "32 MiB", "1.5 GiB": binary units, at most one decimal.
std::string formatBytes(std::uint64_t bytes);

}  // namespace tomo
