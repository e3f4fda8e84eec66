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
///    (NVIDIA Turing, Ampere GA102, Ada, Hopper architecture whitepapers: four processing blocks
///    per SM, one warp instruction per clock each).
///  - shared memory: 32 banks x 4 bytes per clock (CUDA guide, "Shared Memory" for compute
///    capability 5.x and later: 32 banks, each 32 bits per clock).
///  - constant cache: one broadcast 4-byte word per warp per clock = 128 bytes per clock to the
///    lanes of a warp reading one address (estimate; the guide states only that distinct
///    addresses serialise).
///  - texture: 4 texture units per SM (whitepapers: TU102 288 TMU / 72 SM, GA100 432 / 108,
///    GA102 336 / 84, AD102 576 / 144, GH100 528 / 132, GB202 768 / 192), each filtering one
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
};

/// The rates for a compute capability (7.5 Turing, 8.0 GA100, 8.6/8.7 Ampere, 8.9 Ada, 9.x
/// Hopper, 10.x/11.x/12.x Blackwell); nullopt for other (older or unknown) capabilities.
std::optional<GpuFamilyRates> nvidiaRatesForCc(int major, int minor);

/// Family from a marketing name ("NVIDIA H100 80GB HBM3" -> 9.0, "GeForce RTX 4090" -> 8.9,
/// "A100" -> 8.0, "RTX 3080" -> 8.6, "Tesla T4"/"RTX 2080" -> 7.5, "B200"/"RTX 5090" -> 10.0 /
/// 12.0): the compute capability as major*10+minor, or nullopt when no pattern matches.
std::optional<int> nvidiaCcFromName(std::string_view name);

}  // namespace tomo
