#pragma once
/// @file VariantCost.h
/// @brief Operation counts per update of each back-projector family and the rate prediction of
/// paper 002's performance model.
///
/// Paper 002 (Chilingaryan et al., J. Real-Time Image Proc. 17, 2020,
/// doi:10.1007/s11554-019-00883-w), section 6.5: the ALU kernel's work is split into five stages
/// (h_m computation, caching, projection setup, offset/weight, interpolation), each with its
/// operation counts and the number of updates it is amortised over. For the evaluated
/// configuration (1 slice, Advanced Caching Mode, 256 threads, 32x32 tile, 16 threads per cache
/// row, unrolled) this gives per update 4.6 FP, 2.0 TC, 1.3 BS, 8.7 B shared, 2.3 B constant and
/// 8.2 instructions; aluCost() reproduces these numbers (tested). The texture kernel's estimate is
/// filter rate x slices per texel x efficiency (0.9 single slice, 0.85 multi-slice; halved for
/// 8/16-byte texels without the Z-order mapping, after the paper's micro-benchmark, Sect. 3.4).
/// The hybrid mixes the two loads by its ALU:texture tile ratio (both kinds of block share every
/// unit). CPU families count the instructions of core/projectors' kernels (docs/selection.md).
///
/// predict(): limit(unit) = throughput(unit) / load(unit) per update; the prediction is the
/// minimum over units, named as the bottleneck, times the fraction of lanes a workload with
/// fewer slices than slicesPerPass leaves busy. All rates in GU/s (1e9 updates per second).
/// Recognised BackProjectorInfo::parameters (all optional): "tile" ("32x32", "64x64"),
/// "pixelsPerThread", "threadsPerRow", "acm", "hxCache", "fpRounding", "rounding" ("sfu",
/// "fp-balanced" = fpRounding, "fp-full" = fpRounding + fpOffset), "zorder" (or "mapping" =
/// "zorder"; booleans as
/// 1/0, true/false, on/off, yes/no), "ratio" (hybrid ALU:texture, "5:3" or an ALU fraction),
/// "pixelGroup" (CPU), "isa" (CPU: generic, avx2, avx512).
/// Threading: pure functions.

#include <string>
#include <utility>
#include <vector>

#include "core/base/Status.h"
#include "core/projectors/BackProjector.h"
#include "core/selection/DeviceTraits.h"

namespace tomo {

/// Loads per update (per pixel, projection and slice) of one variant.
struct VariantCost {
    std::string model;        ///< "alu", "texture", "hybrid", "oversampling", "cpu-multislice", ...
    double fp = 0;            ///< FP32 operations (FMA = 1)
    double conversion = 0;    ///< rounding / type conversions (TC)
    double integer = 0;       ///< bit shifts and integer ops (BS)
    double instructions = 0;  ///< issued instructions
    double sharedBytes = 0;   ///< shared/local memory (CPU: L1 load slots x 4 B per lane)
    double constantBytes = 0;   ///< constant-cache bytes
    double textureFetches = 0;  ///< filtered fetches
    int texelBytes = 4;         ///< size of one fetched texel
    bool textureNearest = false;
    double textureEfficiency = 1.0;  ///< fraction of the filter rate reached
    int vectorLanes = 0;    ///< lanes a CPU kernel's instructions use (0 = all; 1 = scalar code)
    int slicesPerPass = 1;  ///< slices one pass computes (a partial pass costs a full one)
};

/// Shape of the ALU kernel (paper 002 Sect. 6.2/6.5 notation in brackets).
struct AluShape {
    int tile = 32;            ///< tile edge n (pixels)
    int pixelsPerThread = 4;  ///< n_q
    int slices = 1;           ///< n_v
    int threadsPerRow = 16;   ///< s_t, threads caching one projection row
    bool linear = true;
    bool acm = true;            ///< Advanced Caching Mode: (value, difference) pairs
    bool halfCache = false;     ///< half-precision shared cache (Sect. 6.7)
    bool hxCache = false;       ///< h_x cache (Sect. 6.8)
    bool fpRounding = false;    ///< 2^23 rounding, index kept on the SFU (Sect. 6.6)
    bool fpOffset = false;      ///< + byte offset in FP: fully SFU-free (3 SFU -> 5 FP ops)
    bool oversampling = false;  ///< 4 linear samples per bin, nearest lookup (Sect. 7.2)
    int threads() const { return tile * tile / pixelsPerThread; }  ///< n_t
};

/// Shape of the texture kernel (Sect. 5).
struct TextureShape {
    int slices = 1;
    bool half = false;  ///< half-precision texels (approximate)
    bool linear = true;
    int pixelsPerThread = 1;  ///< 4 for the cache-aware multi-projection kernel
    bool zorder = false;      ///< Z-order 4x4 thread mapping (Sect. 5.5)
};

/// The paper's five-stage ALU count.
VariantCost aluCost(const AluShape& shape);
/// The texture kernel's fetches and arithmetic.
VariantCost textureCost(const TextureShape& shape);
/// r x a + (1 - r) x b for every load (texture loads folded with their efficiencies).
VariantCost mixCosts(const VariantCost& a, const VariantCost& b, double fractionA);

/// The cost of a registered variant from its family, interpolation, slices, precision and
/// parameters. Unsupported for the "reference" family and for families without a model (the
/// selector still measures those, ranked last).
Result<VariantCost> costFor(const BackProjectorInfo& info);
/// The cost of the kernel @p info runs for a job of @p workloadSlices slices: a variant with a
/// "singleSliceBelow" parameter (cpu.simd.*) runs its single-slice kernel (cpu.simd1.<isa>)
/// below that many slices, so its cost is that kernel's; otherwise costFor(info).
Result<VariantCost> costFor(const BackProjectorInfo& info, int workloadSlices);

/// Predicted rate and its limiting unit.
struct Prediction {
    double gups = 0;         ///< predicted GU/s; 0 when a needed unit is absent or unknown
    std::string bottleneck;  ///< unit name ("shared", "fp32", "texture64", ...) or why 0
    std::vector<std::pair<std::string, double>> limits;  ///< GU/s limit per loaded unit
};

/// Paper 002's model: min over units of traits rate x lane fraction / load. @p workloadSlices
/// (0 = a multiple of cost.slicesPerPass) scales by slices / (passes x slicesPerPass).
Prediction predict(const DeviceTraits& traits, const VariantCost& cost, int workloadSlices = 0);

}  // namespace tomo
