// traitsFor(): unit throughputs of CPUs, NVIDIA GPUs, other OpenCL GPUs and PoCL (see
// DeviceTraits.h and docs/selection.md for every figure and its source).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "core/selection/DeviceTraits.h"
#include "core/selection/GpuTraitTable.h"

namespace tomo {

const char* traitSourceName(TraitSource source) {
    switch (source) {
        case TraitSource::Table:
            return "table";
        case TraitSource::Derived:
            return "derived";
        case TraitSource::Measured:
            return "measured";
        case TraitSource::Estimate:
            return "estimate";
    }
    return "estimate";
}

const Trait& DeviceTraits::textureRate(int bytes) const {
    if (bytes <= 4) return texture32;
    if (bytes <= 8) return texture64;
    return texture128;
}

std::vector<std::pair<std::string, const Trait*>> DeviceTraits::units() const {
    return {{"fp32", &fp32},           {"conversion", &conversion}, {"integer", &integer},
            {"issue", &issue},         {"shared", &shared},         {"constant", &constant},
            {"texture32", &texture32}, {"texture64", &texture64},   {"texture128", &texture128}};
}

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string property(const DeviceInfo& d, const std::string& key) {
    for (const auto& [k, v] : d.properties)
        if (k == key) return v;
    return {};
}

std::string fmt(const char* format, double a, double b, double c) {
    char buf[160];
    std::snprintf(buf, sizeof buf, format, a, b, c);
    return buf;
}

/// units x GHz x per-unit rate, as a Derived trait with its provenance.
Trait derived(int units, double clockMHz, double perUnitPerClock, const std::string& unitName,
              const std::string& source, TraitSource kind = TraitSource::Derived) {
    Trait t;
    t.source = kind;
    if (units <= 0 || clockMHz <= 0) {
        t.note = "unknown: the device reports no " +
                 std::string(units <= 0 ? "compute unit count" : "clock");
        return t;
    }
    t.value = units * clockMHz * 1e-3 * perUnitPerClock;
    t.note = fmt("%.0f ", units, 0, 0) + unitName +
             fmt(" x %.0f MHz x %g/clock (", clockMHz, perUnitPerClock, 0) + source + ")";
    return t;
}

int cpuLanesFromText(const std::string& text) {
    const std::string t = lower(text);
    if (t.find("avx-512") != std::string::npos || t.find("avx512") != std::string::npos ||
        t.find("znver4") != std::string::npos || t.find("znver5") != std::string::npos ||
        t.find("sapphirerapids") != std::string::npos)
        return 16;
    if (t.find("avx2") != std::string::npos || t.find("haswell") != std::string::npos ||
        t.find("znver") != std::string::npos || t.find("skylake") != std::string::npos)
        return 8;
    return 0;
}

/// CPU rates per hardware thread and clock (estimates for 2-way SMT x86-64 cores, see
/// docs/selection.md): 1 vector FP, 1 vector conversion, 1 vector integer op, 4 instructions,
/// 2 vector loads.
void fillCpu(DeviceTraits& t, const DeviceInfo& d, int lanes, const std::string& lanesNote) {
    t.simdLanes = lanes;
    const int n = d.computeUnits;
    const std::string per = std::to_string(lanes) + " lanes (" + lanesNote + ")";
    t.fp32 = derived(n, d.clockMHz, lanes, "threads",
                     "1 vector FP instruction per thread-clock x " + per + "; estimate");
    t.conversion = derived(n, d.clockMHz, lanes, "threads",
                           "1 vector round/convert per thread-clock x " + per + "; estimate");
    t.integer = derived(n, d.clockMHz, lanes, "threads",
                        "1 vector integer/shuffle op per thread-clock x " + per + "; estimate");
    t.issue = derived(n, d.clockMHz, 4.0 * lanes, "threads",
                      "4 instructions per thread-clock x " + per + "; estimate");
    t.shared = derived(n, d.clockMHz, 2.0 * lanes * 4, "threads",
                       "L1: 2 vector loads per thread-clock x " + per + " x 4 B; estimate");
    t.constant = t.shared;
    t.constant.note = "same L1 cache as 'shared': " + t.shared.note;
}

void fillNvidia(DeviceTraits& t, const DeviceInfo& d, const GpuFamilyRates& r, bool ccKnown) {
    t.family = r.family;
    const std::string guide = std::string("CUDA C++ Programming Guide, arithmetic throughput ") +
                              "table, cc " + r.cc + (ccKnown ? "" : ", family from the name");
    const int sm = d.computeUnits;
    t.fp32 = derived(sm, d.clockMHz, r.fp32, "SM", guide);
    t.conversion = derived(sm, d.clockMHz, r.conversion, "SM", guide + ", type conversions");
    t.integer = derived(sm, d.clockMHz, r.shift, "SM", guide + ", 32-bit shifts");
    t.issue = derived(sm, d.clockMHz, r.issue, "SM", r.units);
    t.shared = derived(sm, d.clockMHz, r.sharedBytes, "SM", r.units);
    t.constant = derived(sm, d.clockMHz, r.constantBytes, "SM",
                         "one broadcast word per warp-clock; estimate", TraitSource::Estimate);
    t.texture32 = derived(sm, d.clockMHz, r.texels, "SM", r.units);
    t.texture64 = t.texture32;
    t.texture64.note += "; 8-byte texels at full rate (paper 002 Sect. 3.4)";
    t.texture128 = derived(sm, d.clockMHz, r.texels / 2.0, "SM",
                           "16-byte texels at half rate (paper 002 Sect. 3.4)");
    t.filter64FullRate = true;
    t.filter128FullRate = false;
}

/// Generic per-CU figures for non-NVIDIA OpenCL GPUs (AMD GCN-like: 64 lanes, conversions at
/// quarter rate without overlap, 128 B/clock LDS, 4 texture units): estimates.
void fillGenericGpu(DeviceTraits& t, const DeviceInfo& d) {
    t.family = "generic GPU";
    const int cu = d.computeUnits;
    const std::string e = "generic GCN-like per-CU figure; estimate";
    t.fp32 = derived(cu, d.clockMHz, 64, "CU", e, TraitSource::Estimate);
    t.conversion = derived(cu, d.clockMHz, 16, "CU", e, TraitSource::Estimate);
    t.integer = derived(cu, d.clockMHz, 64, "CU", e, TraitSource::Estimate);
    t.issue = derived(cu, d.clockMHz, 64, "CU", e, TraitSource::Estimate);
    t.shared = derived(cu, d.clockMHz, 128, "CU", e, TraitSource::Estimate);
    t.constant = derived(cu, d.clockMHz, 64, "CU", e, TraitSource::Estimate);
    t.texture32 = derived(cu, d.clockMHz, 4, "CU", e, TraitSource::Estimate);
    t.texture64 = derived(cu, d.clockMHz, 2, "CU", "8-byte linear at half rate; estimate",
                          TraitSource::Estimate);
    t.texture128 = derived(cu, d.clockMHz, 1, "CU", "16-byte linear at quarter rate; estimate",
                           TraitSource::Estimate);
    t.conversionOverlapsFp = false;
}

/// PoCL emulates image reads in software: one filtered fetch costs about 40 (4-byte texel),
/// 48 (8-byte) or 64 (16-byte) scalar instructions (coordinate clamp and floor, two texel
/// addresses and loads, weights, the lerp per channel); estimate.
void fillEmulatedTextures(DeviceTraits& t, const DeviceInfo& d) {
    const std::string e = "software image emulation, scalar instructions per fetch; estimate";
    t.texture32 =
        derived(d.computeUnits, d.clockMHz, 4.0 / 40, "threads", e, TraitSource::Estimate);
    t.texture64 =
        derived(d.computeUnits, d.clockMHz, 4.0 / 48, "threads", e, TraitSource::Estimate);
    t.texture128 =
        derived(d.computeUnits, d.clockMHz, 4.0 / 64, "threads", e, TraitSource::Estimate);
    t.filter64FullRate = false;
    t.filter128FullRate = false;
}

bool isNvidia(const DeviceInfo& d) {
    const std::string v = lower(d.vendor + " " + d.name);
    return v.find("nvidia") != std::string::npos || v.find("geforce") != std::string::npos ||
           v.find("tesla") != std::string::npos || v.find("quadro") != std::string::npos;
}

std::optional<int> ccFromProperty(const DeviceInfo& d) {
    const std::string cc = property(d, "compute capability");
    char* end = nullptr;
    const long major = std::strtol(cc.c_str(), &end, 10);
    if (end == cc.c_str() || *end != '.') return std::nullopt;
    const long minor = std::strtol(end + 1, nullptr, 10);
    return static_cast<int>(major * 10 + minor);
}

}  // namespace

DeviceTraits traitsFor(const DeviceInfo& d) {
    DeviceTraits t;
    t.backend = d.backend;
    t.device = d.name;
    t.computeUnits = d.computeUnits;
    t.clockMHz = d.clockMHz;
    const std::string type = lower(property(d, "type"));
    if (d.backend == "cpu") {
        int lanes = cpuLanesFromText(property(d, "SIMD") + " " + d.architecture);
        const std::string simd = property(d, "SIMD");
        t.family = "CPU " + (simd.empty() ? std::string("unknown SIMD") : simd);
        fillCpu(t, d, lanes ? lanes : 4, lanes ? "SIMD level of the CPU" : "SSE/NEON width");
        t.texture32.note = t.texture64.note = t.texture128.note = "no texture unit on a CPU";
        return t;
    }
    if (type == "cpu") {
        const int lanes = cpuLanesFromText(d.name + " " + d.architecture);
        t.family = "OpenCL CPU (" + d.architecture + ")";
        fillCpu(t, d, lanes ? lanes : 8,
                lanes ? "from the device name" : "assumed AVX2 work-item vectorisation");
        fillEmulatedTextures(t, d);
        return t;
    }
    if (isNvidia(d)) {
        std::optional<int> cc = ccFromProperty(d);
        const bool ccKnown = cc.has_value();
        if (!cc) cc = nvidiaCcFromName(d.name);
        if (cc)
            if (auto rates = nvidiaRatesForCc(*cc / 10, *cc % 10)) {
                fillNvidia(t, d, *rates, ccKnown);
                return t;
            }
    }
    fillGenericGpu(t, d);
    return t;
}

}  // namespace tomo
