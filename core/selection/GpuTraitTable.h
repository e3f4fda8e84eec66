#pragma once
/// @file GpuTraitTable.h
/// @brief Per-SM unit throughputs of NVIDIA GPU families, with the source of each figure, and
/// family detection from a compute capability or a marketing name.
///
/// Figures are per streaming multiprocessor per clock:
///  - FP32, conversion ("all other type conversions", which include rounding and float<->int),
///    32-bit integer shift: NVIDIA CUDA C++ Programming Guide (12.x), section "Arithmetic
///    Instructions", table "Throughput of Native Arithmetic Instructions (operations per clock
///    cycle per multiprocessor)", column of the family's compute capability.
///  - issue: 4 warp schedulers x 1 warp-instruction (32 lanes) per clock = 128 lanes per clock
///    (NVIDIA Maxwell to Blackwell architecture whitepapers: four processing blocks per SM, one
///    warp instruction per clock each); Kepler 256 (GK110 whitepaper: 4 schedulers with two
///    dispatch units each, dual issue feeding 192 lanes; paper 002 §3.7).
///  - shared memory: 32 banks x 4 bytes per clock (CUDA guide, "Shared Memory" for compute
///    capability 5.x and later: 32 banks, each 32 bits per clock); Kepler 32 banks x 8 bytes
///    (guide, compute capability 3.x; paper 002 §3.4, 64-bit bank mode).
///  - older families (paper 002's Kepler, Maxwell, Pascal): FP32, conversion and shift from the
///    guide's cc 3.5, 5.2, 6.0, 6.1 and 7.0 columns (CUDA C++ Programming Guide 11.x; 12.x
///    dropped the Kepler column); Kepler's conversion rate is paper 002's measured FP/12
///    (§6.5, GTX Titan: "Kepler TC = FP/12"), 16 per clock.
///  - constant cache: one broadcast 4-byte word per warp per clock = 128 bytes per clock to the
///    lanes of a warp reading one address (estimate; the guide states only that distinct
///    addresses serialise).
///  - texture: 4 texture units per SM (whitepapers: GP100 240 TMU / 60 SM, GV100 320 / 80,
///    TU102 288 / 72, GA100 432 / 108, GA102 336 / 84, AD102 576 / 144, GH100 528 / 132, GB202
///    768 / 192); 8 on Maxwell and consumer Pascal (GM204 128 / 16, GP104 160 / 20), 16 on
///    Kepler (GK110 whitepaper), each filtering one
///    texel per clock for 4- and 8-byte texels; 16-byte texels at half rate (paper 002 §3.4:
///    NVIDIA filters 64-bit texels at full rate, texels are capped at 8 bytes for full rate).
/// Threading: constant data; all functions are pure.

#include <optional>
#include <string>
#include <string_view>

namespace tomo {

/// Per-SM-per-clock throughputs of one NVIDIA family.
struct GpuFamilyRates {
    const char* family;  ///< "Turing", "Ampere (GA100)", "Ampere", "Ada", "Hopper", "Blackwell"
    const char* cc;      ///< compute capability whose column the figures come from ("8.6")
    int fp32;            ///< FP32 add/mul/FMA lanes per clock
    int conversion;      ///< type conversions per clock
    int shift;           ///< 32-bit integer shifts per clock
    int issue;           ///< thread-instructions issued per clock
    int sharedBytes;     ///< shared-memory bytes per clock
    int constantBytes;   ///< constant-cache bytes per clock (broadcast)
    int texels;          ///< filtered 4/8-byte texels per clock
    const char* units;   ///< source of the issue, shared-memory and texture figures
};

/// The rates for a compute capability (3.5/3.7 Kepler, 5.x Maxwell, 6.0 GP100, 6.1/6.2 Pascal,
/// 7.0/7.2 Volta, 7.5 Turing, 8.0 GA100, 8.6/8.7 Ampere, 8.9 Ada, 9.x Hopper, 10.x/11.x/12.x
/// Blackwell); nullopt for other capabilities (Fermi, cc 3.0 Kepler, unknown).
std::optional<GpuFamilyRates> nvidiaRatesForCc(int major, int minor);

/// Family from a marketing name ("NVIDIA H100 80GB HBM3" -> 9.0, "GeForce RTX 4090" -> 8.9,
/// "A100" -> 8.0, "RTX 3080" -> 8.6, "Tesla T4"/"RTX 2080" -> 7.5, "B200"/"RTX 5090" -> 10.0 /
/// 12.0, "V100" -> 7.0, "P100" -> 6.0, "GTX 1080" -> 6.1, "GTX 980"/"GTX TITAN X" -> 5.2,
/// "GTX TITAN"/"K40" -> 3.5): the compute capability as major*10+minor, or nullopt when no
/// pattern matches.
std::optional<int> nvidiaCcFromName(std::string_view name);

}  // namespace tomo
