#pragma once
/// @file DeviceTraits.h
/// @brief The unit throughputs of a device that paper 002's performance model needs, each with
/// where the figure comes from.
///
/// Paper 002 (S. Chilingaryan et al., "Reviewing GPU architectures to build efficient back
/// projection for parallel geometries", J. Real-Time Image Proc. 17, 2020,
/// doi:10.1007/s11554-019-00883-w, section 6.5 and Table 16) predicts a back-projector's rate as
/// the minimum over the device's units of throughput(unit) / load(unit) per update. This header
/// holds the throughputs; VariantCost.h holds the loads and the prediction.
///
/// Units (all device-wide, all lanes of all compute units):
///  - fp32, conversion, integer, issue: 1e9 per-lane operations per second ("G lane-ops/s").
///    FMA counts as one operation, as in the paper's counts; peak GFLOP/s is 2 x fp32.
///    `conversion` is rounding and float<->int conversion (the paper's TC), `integer` bit shifts
///    and integer adds (BS), `issue` thread-instructions of any kind.
///  - shared, constant: GB/s delivered to lanes (shared/local memory; constant-cache broadcast).
///    On CPUs "shared" is the L1 load bandwidth and "constant" the same cache.
///  - texture32/64/128: 1e9 filtered texels per second for 4-, 8- and 16-byte texels. Zero when
///    the device has no texture unit usable by our kernels (plain CPUs).
/// CPUs: a vector instruction counts as simdLanes lane-operations; a kernel that runs scalar
/// code gets 1/simdLanes of these rates (VariantCost::vectorLanes).
///
/// Sources: Table (a per-unit figure from a published table, cited in Trait::note), Derived
/// (computed from clock x units x a per-unit rate, the per-unit rate cited), Measured
/// (micro-benchmarked on this device), Estimate (an assumption, explained in the note).
/// Threading: plain values; traitsFor() is pure and reentrant.

#include <string>
#include <vector>

#include "core/devices/DeviceInfo.h"

namespace tomo {

enum class TraitSource { Table, Derived, Measured, Estimate };
/// "table", "derived", "measured", "estimate".
const char* traitSourceName(TraitSource source);

/// One throughput figure and its provenance.
struct Trait {
    double value = 0.0;  ///< see the units above; 0 = unit absent or unknown
    TraitSource source = TraitSource::Estimate;
    std::string note;  ///< how it was obtained ("132 SM x 1980 MHz x 128/clk (CUDA guide, 9.0)")
};

/// Unit throughputs of one device (see the file comment for units).
struct DeviceTraits {
    std::string backend;  ///< "cpu", "cuda", "opencl"
    std::string device;   ///< DeviceInfo::name
    std::string family;   ///< "Hopper", "CPU AVX-512", "PoCL CPU", "generic GPU", ...
    int computeUnits = 0;
    double clockMHz = 0.0;
    int simdLanes = 1;  ///< CPU vector lanes per instruction (fp32); 1 on GPUs (rates are per lane)

    Trait fp32;
    Trait conversion;
    Trait integer;
    Trait issue;
    Trait shared;
    Trait constant;
    Trait texture32;
    Trait texture64;
    Trait texture128;
    bool filter64FullRate = false;   ///< 8-byte texels filter (linear) at the 4-byte rate
    bool filter128FullRate = false;  ///< 16-byte texels filter at the 4-byte rate
    /// False where conversions and bit operations share the FP ALUs with no overlap (AMD GCN;
    /// paper 002 Sect. 3.7): the model then adds FP, TC and BS into one ALU load.
    bool conversionOverlapsFp = true;

    /// The rate for a texel of @p bytes (4, 8 or 16; others round up).
    const Trait& textureRate(int bytes) const;
    /// (unit name, trait) for every unit, in display order.
    std::vector<std::pair<std::string, const Trait*>> units() const;
};

/// Builds the traits of a device:
///  - backend "cpu": threads x SIMD lanes x clock with per-thread rates documented in
///    docs/selection.md (lanes from the DeviceInfo "SIMD" property: AVX-512 16, AVX2 8, else 4);
///  - NVIDIA GPUs (backend "cuda", or "opencl" with an NVIDIA vendor/name): SM count x clock x
///    the per-SM figures of GpuTraitTable.h for the family (from the "compute capability"
///    property, else from the marketing name);
///  - other OpenCL GPUs: compute units x clock x generic per-CU figures (estimate);
///  - OpenCL CPU devices (PoCL): as a CPU; images are emulated in software, so the texture rate
///    is the scalar instruction rate divided by the instructions one emulated fetch costs
///    (estimate, see docs/selection.md).
/// Missing clock or unit counts give zero rates with a note saying so (never a failure).
DeviceTraits traitsFor(const DeviceInfo& device);

}  // namespace tomo
