// NVIDIA per-SM throughputs (sources in GpuTraitTable.h) and family detection.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "core/selection/GpuTraitTable.h"

namespace tomo {
namespace {

// family, cc column, fp32, conversion, shift, issue, shared B, constant B, texels (per SM-clock).
constexpr std::array<GpuFamilyRates, 6> kFamilies{{
    {"Turing", "7.5", 64, 16, 64, 128, 128, 128, 4},
    {"Ampere (GA100)", "8.0", 64, 16, 64, 128, 128, 128, 4},
    {"Ampere", "8.6", 128, 16, 64, 128, 128, 128, 4},
    {"Ada", "8.9", 128, 16, 64, 128, 128, 128, 4},
    {"Hopper", "9.0", 128, 16, 64, 128, 128, 128, 4},
    {"Blackwell", "10.0/12.0", 128, 16, 64, 128, 128, 128, 4},
}};

bool contains(const std::string& haystack, std::string_view needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

std::optional<GpuFamilyRates> nvidiaRatesForCc(int major, int minor) {
    const int cc = major * 10 + minor;
    if (cc == 75) return kFamilies[0];
    if (cc == 80) return kFamilies[1];
    if (cc == 86 || cc == 87) return kFamilies[2];
    if (cc == 89) return kFamilies[3];
    if (major == 9) return kFamilies[4];
    if (major == 10 || major == 11 || major == 12) return kFamilies[5];
    return std::nullopt;
}

std::optional<int> nvidiaCcFromName(std::string_view name) {
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    // Most specific patterns first ("rtx 6000 ada" before "rtx a6000", "rtx 50" before "a50").
    if (contains(n, "blackwell") || contains(n, "rtx 50")) return 120;
    if (contains(n, "b100") || contains(n, "b200") || contains(n, "b300")) return 100;
    if (contains(n, "h100") || contains(n, "h200") || contains(n, "h800") || contains(n, "gh200"))
        return 90;
    if (contains(n, " ada") || contains(n, "rtx 40") || contains(n, "l40") || contains(n, " l4 ") ||
        n.ends_with(" l4"))
        return 89;
    if (contains(n, "a100") || contains(n, "a800") || contains(n, "a30")) return 80;
    if (contains(n, "rtx 30") || contains(n, "rtx a") || contains(n, " a10") ||
        contains(n, " a40") || contains(n, " a16") || contains(n, " a2 ") || n.ends_with(" a2"))
        return 86;
    if (contains(n, "t4") || contains(n, "rtx 20") || contains(n, "gtx 16") ||
        contains(n, "quadro rtx") || contains(n, "titan rtx"))
        return 75;
    return std::nullopt;
}

}  // namespace tomo
