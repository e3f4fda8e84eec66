// NVIDIA per-SM throughputs (sources in GpuTraitTable.h) and family detection.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "core/selection/GpuTraitTable.h"

namespace tomo {
namespace {

// family, cc column, fp32, conversion, shift, issue, shared B, constant B, texels (per SM-clock),
// source of the issue, shared-memory and texture figures.
constexpr std::array<GpuFamilyRates, 11> kFamilies{{
    {"Kepler", "3.5", 192, 16, 64, 256, 256, 128, 16,
     "GK110 whitepaper: 4 schedulers x 2 dispatch units, 16 texture units per SMX; CUDA guide "
     "cc 3.x: 32 banks x 8 B"},
    {"Maxwell", "5.2", 128, 32, 64, 128, 128, 128, 8,
     "GM204 whitepaper: 4 schedulers, 128 texture units / 16 SMM; CUDA guide: 32 banks x 4 B"},
    {"Pascal (GP100)", "6.0", 64, 16, 64, 128, 128, 128, 4,
     "GP100 whitepaper: 4 schedulers (2 per 32-lane block), 240 texture units / 60 SM; 32 banks "
     "x 4 B"},
    {"Pascal", "6.1", 128, 32, 64, 128, 128, 128, 8,
     "GP104 whitepaper: 4 schedulers, 160 texture units / 20 SM; 32 banks x 4 B"},
    {"Volta", "7.0", 64, 16, 64, 128, 128, 128, 4,
     "GV100 whitepaper: 4 processing blocks, 320 texture units / 80 SM; 32 banks x 4 B"},
    {"Turing", "7.5", 64, 16, 64, 128, 128, 128, 4,
     "TU102 whitepaper: 4 processing blocks, 288 texture units / 72 SM; 32 banks x 4 B"},
    {"Ampere (GA100)", "8.0", 64, 16, 64, 128, 128, 128, 4,
     "GA100 whitepaper: 4 processing blocks, 432 texture units / 108 SM; 32 banks x 4 B"},
    {"Ampere", "8.6", 128, 16, 64, 128, 128, 128, 4,
     "GA102 whitepaper: 4 processing blocks, 336 texture units / 84 SM; 32 banks x 4 B"},
    {"Ada", "8.9", 128, 16, 64, 128, 128, 128, 4,
     "AD102 whitepaper: 4 processing blocks, 576 texture units / 144 SM; 32 banks x 4 B"},
    {"Hopper", "9.0", 128, 16, 64, 128, 128, 128, 4,
     "GH100 whitepaper: 4 processing blocks, 528 texture units / 132 SM; 32 banks x 4 B"},
    {"Blackwell", "10.0/12.0", 128, 16, 64, 128, 128, 128, 4,
     "GB202 whitepaper: 4 processing blocks, 768 texture units / 192 SM; 32 banks x 4 B"},
}};

bool contains(const std::string& haystack, std::string_view needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

std::optional<GpuFamilyRates> nvidiaRatesForCc(int major, int minor) {
    const int cc = major * 10 + minor;
    if (cc == 35 || cc == 37) return kFamilies[0];
    if (major == 5) return kFamilies[1];
    if (cc == 60) return kFamilies[2];
    if (cc == 61 || cc == 62) return kFamilies[3];
    if (cc == 70 || cc == 72) return kFamilies[4];
    if (cc == 75) return kFamilies[5];
    if (cc == 80) return kFamilies[6];
    if (cc == 86 || cc == 87) return kFamilies[7];
    if (cc == 89) return kFamilies[8];
    if (major == 9) return kFamilies[9];
    if (major == 10 || major == 11 || major == 12) return kFamilies[10];
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
    if (contains(n, "v100") || contains(n, "titan v")) return 70;
    if (contains(n, "p100")) return 60;
    if (contains(n, "gtx 10") || contains(n, "titan xp") || contains(n, "titan x (pascal)") ||
        contains(n, "tesla p40") || contains(n, "tesla p4"))
        return 61;
    if (contains(n, "gtx 9") || contains(n, "gtx titan x") || contains(n, "tesla m40") ||
        contains(n, "tesla m60"))
        return 52;
    if (contains(n, "gtx titan") || contains(n, "gtx 780") || contains(n, "tesla k20") ||
        contains(n, "tesla k40") || contains(n, "tesla k80"))
        return 35;
    return std::nullopt;
}

}  // namespace tomo
