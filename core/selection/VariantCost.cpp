// Operation counts per family (paper 002 Sect. 6.5 for the ALU kernel; docs/selection.md for
// the texture, hybrid, oversampling and CPU counts) and the min-over-units prediction.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/selection/VariantCost.h"

namespace tomo {

VariantCost aluCost(const AluShape& s) {
    VariantCost c;
    c.model = s.oversampling ? "oversampling" : "alu";
    const double nt = s.threads(), nq = s.pixelsPerThread, nv = s.slices, st = s.threadsPerRow;
    const double block = nt * nq * nv;             // updates per block and projection
    const double bins = 1.5 * std::sqrt(nt * nq);  // (3/2) n bins cached per projection
    const double samples = s.oversampling ? 4.0 : 1.0;
    // Stage 1: h_m, per block-projection (s_t threads; 128-bit constant load each).
    double constBytes = 16 * st, constInstr = st, sharedBytes = 4 * st;
    double fp = 4 * st, tc = st, bs = 2 * st;
    // Stage 2: caching (one texture fetch and one shared store per cached value).
    const double valueBytes = (s.halfCache ? 2.0 : 4.0) * nv * (s.acm && s.linear ? 2.0 : 1.0);
    sharedBytes += bins * samples * valueBytes;
    fp += (s.acm ? 4 : 3) * st;
    tc += st;
    bs += 2 * st;
    c.textureFetches = bins * samples / block;
    c.texelBytes = 4 * s.slices;
    c.textureNearest = !s.oversampling;  // the ALU cache fill copies bins; oversampling filters
    // Stage 3: per thread and projection, amortised over n_q n_v updates (unrolled: no TC).
    // Shared: the paper's 1 B (a quarter of a 32-bit offset: four projections' offsets come
    // in one 128-bit broadcast load); the h_x cache adds a 64-bit h_x pair.
    const double perThread = nq * nv;
    const double fp3 = s.hxCache ? 1 : 2, const3 = s.hxCache ? 4 : 8, shared3 = s.hxCache ? 9 : 1;
    // Stage 4: per pixel and projection, amortised over n_v updates.
    double fp4 = s.linear && !s.oversampling ? 2 : 1, tc4 = s.linear && !s.oversampling ? 2 : 1;
    // The index shift (BS) per pixel and projection, amortised over n_v updates.
    double bs4 = 1;
    if (s.fpRounding) {  // floor + F2I replaced by 3 FP operations; the shift-add stays
        fp4 += 3;
        tc4 = 0;
        if (s.fpOffset) {  // fully SFU-free: + FMA of the byte offset and the floor select
            fp4 += 2;      // (the pattern subtract and pointer add are integer adds: ALU)
            bs4 = 0;
        }
    }
    // Stage 5: per update.
    const bool lerp = s.linear && !s.oversampling;
    const double fp5 = lerp ? (s.acm ? 2 : 3) : 1;
    const double shared5 = lerp ? 8 : 4;
    const double convert5 = s.halfCache ? (lerp ? 1.0 : 0.5) : 0.0;  // half2 -> float2

    c.constantBytes = constBytes / block + const3 / perThread;
    const double constInstrTotal = constInstr / block + 1.0 / perThread;
    c.sharedBytes = sharedBytes / block + shared3 / perThread + shared5 * (s.halfCache ? 0.5 : 1);
    c.fp = fp / block + fp3 / perThread + fp4 / nv + fp5;
    c.conversion = tc / block + tc4 / nv + convert5;
    c.integer = bs / block + 1.0 / perThread + bs4 / nv;
    // The paper's 8.2 instructions = FP + TC + BS + constant loads (shared loads issue to the
    // LD/ST units and are limited by the shared unit).
    c.instructions = c.fp + c.conversion + c.integer + constInstrTotal;
    c.slicesPerPass = s.slices;
    return c;
}

VariantCost textureCost(const TextureShape& s) {
    VariantCost c;
    c.model = "texture";
    const double nv = s.slices, ppt = s.pixelsPerThread;
    c.texelBytes = (s.half ? 2 : 4) * s.slices;
    c.textureNearest = !s.linear;
    c.textureFetches = 1.0 / nv;
    c.textureEfficiency = s.slices == 1 ? 0.9 : 0.85;
    if (c.texelBytes >= 8 && !s.zorder) c.textureEfficiency *= 0.5;
    // h = ca + fx cs (per thread and projection) - fy sn (per pixel), then one add per slice.
    c.fp = 1.0 + (1.0 / ppt + 1.0) / nv;
    c.conversion = s.half ? 0.5 : 0.0;
    c.constantBytes = 16.0 / (ppt * nv);
    c.instructions = c.fp + c.conversion + 1.0 / nv + 1.0 / (ppt * nv);
    c.slicesPerPass = s.slices;
    return c;
}

VariantCost mixCosts(const VariantCost& a, const VariantCost& b, double r) {
    VariantCost c;
    c.model = "hybrid";
    auto mix = [r](double x, double y) { return r * x + (1 - r) * y; };
    c.fp = mix(a.fp, b.fp);
    c.conversion = mix(a.conversion, b.conversion);
    c.integer = mix(a.integer, b.integer);
    c.instructions = mix(a.instructions, b.instructions);
    c.sharedBytes = mix(a.sharedBytes, b.sharedBytes);
    c.constantBytes = mix(a.constantBytes, b.constantBytes);
    c.textureFetches =
        mix(a.textureFetches / a.textureEfficiency, b.textureFetches / b.textureEfficiency);
    c.textureEfficiency = 1.0;
    c.texelBytes = std::max(a.texelBytes, b.texelBytes);
    c.textureNearest = a.textureNearest && b.textureNearest;
    c.slicesPerPass = std::max(a.slicesPerPass, b.slicesPerPass);
    return c;
}

namespace {

std::string param(const BackProjectorInfo& info, const std::string& key) {
    auto it = info.parameters.find(key);
    return it == info.parameters.end() ? std::string() : it->second;
}

bool flag(const BackProjectorInfo& info, const std::string& key) {
    const std::string v = param(info, key);
    return v == "1" || v == "true" || v == "on" || v == "yes";
}

int intParam(const BackProjectorInfo& info, const std::string& key, int fallback) {
    const std::string v = param(info, key);
    const int x = std::atoi(v.c_str());
    return x > 0 ? x : fallback;
}

/// ALU fraction of a hybrid: "5:3" -> 0.625, "0.5" -> 0.5; default 5:3 (1 slice) or 1:1.
double hybridRatio(const BackProjectorInfo& info) {
    const std::string v = param(info, "ratio");
    if (auto colon = v.find(':'); colon != std::string::npos) {
        const double a = std::atof(v.substr(0, colon).c_str());
        const double b = std::atof(v.substr(colon + 1).c_str());
        if (a >= 0 && b >= 0 && a + b > 0) return a / (a + b);
    } else if (!v.empty()) {
        const double f = std::atof(v.c_str());
        if (f >= 0 && f <= 1) return f;
    }
    return info.slicesPerPass == 1 ? 5.0 / 8.0 : 0.5;
}

AluShape aluShape(const BackProjectorInfo& info) {
    AluShape s;
    s.tile = std::atoi(param(info, "tile").c_str()) >= 64 ? 64 : 32;
    s.pixelsPerThread = intParam(info, "pixelsPerThread", s.tile == 64 ? 16 : 4);
    s.threadsPerRow = intParam(info, "threadsPerRow", s.tile == 64 ? 32 : 16);
    s.slices = std::max(1, info.slicesPerPass);
    s.linear = info.interpolation == Interpolation::Linear;
    s.acm = flag(info, "acm");
    s.halfCache = info.precision == "half";
    s.hxCache = flag(info, "hxCache");
    const std::string rounding = param(info, "rounding");
    s.fpRounding = flag(info, "fpRounding") || rounding == "fp-balanced" || rounding == "fp-full";
    s.fpOffset = s.fpRounding && rounding == "fp-full";
    return s;
}

/// CPU kernels of core/projectors, per update in lane-operations (docs/selection.md).
VariantCost cpuCost(const BackProjectorInfo& info) {
    VariantCost c;
    const bool linear = info.interpolation == Interpolation::Linear;
    const std::string isa = param(info, "isa");
    c.slicesPerPass = std::max(1, info.slicesPerPass);
    if (info.id.rfind("cpu.scalar.", 0) == 0) {
        c.model = "cpu-scalar";
        c.vectorLanes = 1;
        c.fp = linear ? 8 : 6;
        c.conversion = 2;
        c.integer = 2;
        c.sharedBytes = linear ? 12 : 8;
        c.instructions = linear ? 18 : 15;
        return c;
    }
    const double g = intParam(info, "pixelGroup", isa == "avx512" ? 16 : 8);
    if (info.id.rfind("cpu.simd1.", 0) == 0) {  // single slice, SIMD across pixels
        c.model = "cpu-single-slice";
        c.fp = linear ? 9 : 7;
        c.conversion = 2;
        c.integer = (linear ? 5 : 4) + (isa == "avx2" ? 2 : 0);
        c.sharedBytes = linear ? 16 : 8;
        c.instructions = (linear ? 24 : 19) + (isa == "avx2" ? 4 : 0);
        return c;
    }
    c.model = "cpu-multislice";               // S slices per vector, groups of g pixels
    if (isa == "generic") c.vectorLanes = 4;  // baseline SSE2 code over 8-slice arrays
    c.fp = linear ? 3 + 6 / g : 1 + 5 / g;
    c.conversion = 2 / g;
    c.integer = 2 / g;
    c.sharedBytes = linear ? 16 : 8;
    c.instructions = linear ? 8 + 12 / g : 4 + 10 / g;
    return c;
}

}  // namespace

Result<VariantCost> costFor(const BackProjectorInfo& info) {
    const bool linear = info.interpolation == Interpolation::Linear;
    const bool half = info.precision == "half";
    if (info.family == "reference")
        return unsupported(info.id + ": reference variants are not selection candidates");
    if (info.family == "cpu" || info.backend == "cpu") return cpuCost(info);
    if (info.family == "alu") return aluCost(aluShape(info));
    if (info.family == "oversampling") {
        AluShape s = aluShape(info);
        s.oversampling = true;
        s.linear = false;
        s.halfCache = false;
        return aluCost(s);
    }
    TextureShape t;
    t.slices = std::max(1, info.slicesPerPass);
    t.half = half;
    t.linear = linear;
    t.pixelsPerThread = intParam(info, "pixelsPerThread", 1);
    t.zorder = flag(info, "zorder") || param(info, "mapping") == "zorder" || t.pixelsPerThread > 1;
    if (info.family == "texture") return textureCost(t);
    if (info.family == "hybrid") {
        AluShape s = aluShape(info);
        t.zorder = true;  // the hybrid's texture path walks 16x16 steps in Z-order
        t.pixelsPerThread = s.pixelsPerThread;
        return mixCosts(aluCost(s), textureCost(t), hybridRatio(info));
    }
    return unsupported(info.id + ": no cost model for family '" + info.family + "'");
}

Result<VariantCost> costFor(const BackProjectorInfo& info, int workloadSlices) {
    const int below = intParam(info, "singleSliceBelow", 0);
    if (workloadSlices <= 0 || workloadSlices >= below) return costFor(info);
    BackProjectorInfo single = info;
    single.id = "cpu.simd1." + param(info, "isa") +
                (info.interpolation == Interpolation::Linear ? ".lin" : ".nn");
    single.slicesPerPass = 1;
    single.parameters.erase("singleSliceBelow");
    return costFor(single);
}

Prediction predict(const DeviceTraits& traits, const VariantCost& cost, int workloadSlices) {
    Prediction p;
    const double lanes = cost.vectorLanes <= 0 ? 1.0
                                               : std::min(cost.vectorLanes, traits.simdLanes) /
                                                     double(std::max(1, traits.simdLanes));
    double best = std::numeric_limits<double>::infinity();
    auto limit = [&](const std::string& unit, double rate, double load) {
        if (load <= 0) return;
        const double gups = rate / load;
        p.limits.emplace_back(unit, gups);
        if (gups < best) {
            best = gups;
            p.bottleneck = rate > 0 ? unit : unit + " (absent or unknown)";
        }
    };
    if (traits.conversionOverlapsFp) {
        limit("fp32", traits.fp32.value * lanes, cost.fp);
        limit("conversion", traits.conversion.value * lanes, cost.conversion);
        limit("integer", traits.integer.value * lanes, cost.integer);
    } else {
        limit("alu", traits.fp32.value * lanes, cost.fp + cost.conversion + cost.integer);
    }
    limit("issue", traits.issue.value * lanes, cost.instructions);
    limit("shared", traits.shared.value * lanes, cost.sharedBytes);
    limit("constant", traits.constant.value * lanes, cost.constantBytes);
    if (cost.textureFetches > 0) {
        const bool nearestFull =
            cost.textureNearest && cost.texelBytes > 8 && traits.filter128FullRate;
        const Trait& rate = nearestFull ? traits.texture32 : traits.textureRate(cost.texelBytes);
        limit("texture" + std::to_string(std::max(32, 8 * cost.texelBytes)),
              rate.value * cost.textureEfficiency, cost.textureFetches);
    }
    if (!std::isfinite(best)) {
        p.bottleneck = "no load";
        return p;
    }
    const int per = std::max(1, cost.slicesPerPass);
    double fill = 1.0;
    if (workloadSlices > 0) {
        const int passes = (workloadSlices + per - 1) / per;
        fill = double(workloadSlices) / (double(passes) * per);
    }
    p.gups = best * fill;
    return p;
}

}  // namespace tomo
