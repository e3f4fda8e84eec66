// The one table of GPU back-projector variants (GpuVariants.h).
#include "core/projectors/GpuVariants.h"

namespace tomo {
namespace {

constexpr Interpolation kLin = Interpolation::Linear, kNn = Interpolation::Nearest;

GpuVariant tex(const char* name, TextureKernel k, Interpolation i, int slices, bool half,
               const char* description) {
    GpuVariant v;
    v.name = name;
    v.texture = true;
    v.tex = GpuTextureConfig{k, i, slices, half};
    v.description = description;
    return v;
}

GpuAluConfig aluConfig(Interpolation i, int tile, int threads, int ppb, int slices) {
    GpuAluConfig c;
    c.interpolation = i;
    c.tile = tile;
    c.threads = threads;
    c.projectionsPerBatch = ppb;
    c.slices = slices;
    return c;
}

GpuVariant alu(const char* name, GpuAluConfig c, const char* description) {
    GpuVariant v;
    v.name = name;
    v.alu = c;
    v.description = description;
    return v;
}

GpuAluConfig with(GpuAluConfig c, bool acm, bool hx, bool fp, bool half = false) {
    c.acm = acm;
    c.hxCache = hx;
    c.fpRounding = fp;
    c.cacheHalf = half;
    return c;
}

/// The fully SFU-free rounding: floor and cache byte offset in FP (FPROUND 2, sec. 6.6).
GpuAluConfig fpFull(GpuAluConfig c) {
    c.fpRounding = true;
    c.fpOffset = true;
    return c;
}

GpuAluConfig occupancy(GpuAluConfig c, int minBlocksPerSm) {
    c.minBlocksPerSm = minBlocksPerSm;
    return c;
}

GpuAluConfig family(GpuAluConfig c, AluFamily f, int ratioAlu = 0, int ratioTex = 0,
                    bool sampler = false) {
    c.family = f;
    c.ratioAlu = ratioAlu;
    c.ratioTex = ratioTex;
    c.samplerFill = sampler;
    return c;
}

std::vector<GpuVariant> makeTable() {
    using TK = TextureKernel;
    return {
        tex("texture.lin.1s", TK::Standard, kLin, 1, false,
            "texture kernel (Alg. 1), linear filtering unit, 16x16 blocks"),
        tex("texture.nn.1s", TK::Standard, kNn, 1, false, "texture kernel, nearest filtering"),
        tex("texture.lin.2s", TK::Standard, kLin, 2, false,
            "texture kernel, 2-slice compound sinogram (2-channel texels, one fetch for both)"),
        tex("texture.nn.4s", TK::Standard, kNn, 4, false,
            "texture kernel, 4-slice compound sinogram (4-channel texels), nearest"),
        tex("texture.zorder.lin.1s", TK::ZOrder, kLin, 1, false,
            "texture kernel with Z-order 4x4 thread remapping (Alg. 2)"),
        tex("texture.zorder.lin.2s", TK::ZOrder, kLin, 2, false,
            "Z-order texture kernel, 2-slice compound sinogram"),
        tex("texture.cached.lin.1s", TK::Cached, kLin, 1, false,
            "cache-aware multi-projection kernel (Alg. 3): 4 px/thread, 4 projection phases"),
        tex("texture.cached.lin.1s.sconst", TK::CachedStagedConstants, kLin, 1, false,
            "Alg. 3 with projection constants staged in on-chip shared/local memory (Alg. 5)"),
        tex("texture.cached.lin.2s", TK::Cached, kLin, 2, false,
            "cache-aware multi-projection kernel, 2-slice compound sinogram"),
        tex("texture.half.nn.4s", TK::Standard, kNn, 4, true,
            "texture kernel, 4 slices stored as binary16, nearest: approximate"),
        alu("alu.lin.1s.32x32", aluConfig(kLin, 32, 256, 16, 1),
            "ALU kernel (Alg. 6): 32x32 tile, 256 threads x 4 px, 16 projections per batch"),
        alu("alu.nn.1s.32x32", aluConfig(kNn, 32, 256, 16, 1), "ALU kernel, nearest, 32x32"),
        alu("alu.lin.1s.32x32.8px", aluConfig(kLin, 32, 128, 16, 1),
            "ALU kernel, 32x32 tile with 128 threads x 8 px"),
        alu("alu.lin.1s.64x64", aluConfig(kLin, 64, 256, 8, 1),
            "ALU kernel, 64x64 tile, 256 threads x 16 px, 8 projections per batch"),
        alu("alu.lin.2s.32x32", aluConfig(kLin, 32, 256, 16, 2), "ALU kernel, 2 slices"),
        alu("alu.lin.2s.64x64", aluConfig(kLin, 64, 256, 8, 2), "ALU kernel, 2 slices, 64x64 tile"),
        alu("alu.lin.1s.32x32.occ1", occupancy(aluConfig(kLin, 32, 256, 16, 1), 1),
            "ALU kernel, 32x32, occupancy target 1 block per SM (every register to the compiler)"),
        alu("alu.lin.2s.64x64.occ1", occupancy(aluConfig(kLin, 64, 256, 8, 2), 1),
            "ALU kernel, 2 slices, 64x64, occupancy target 1 block per SM"),
        alu("alu.lin.4s.32x32", aluConfig(kLin, 32, 256, 8, 4), "ALU kernel, 4 slices"),
        alu("alu.nn.4s.64x64", aluConfig(kNn, 64, 256, 8, 4),
            "ALU kernel, nearest, 4 slices, 64x64 tile"),
        alu("alu.acm.lin.1s.32x32", with(aluConfig(kLin, 32, 256, 16, 1), true, false, false),
            "ALU kernel with Advanced Caching Mode (Alg. 9): (value, difference) pairs"),
        alu("alu.acm.lin.1s.64x64", with(aluConfig(kLin, 64, 256, 8, 1), true, false, false),
            "ALU kernel with Advanced Caching Mode, 64x64 tile"),
        alu("alu.acm.hx.lin.4s.64x64", with(aluConfig(kLin, 64, 256, 8, 4), true, true, false),
            "ALU + ACM + h_x cache, 4 slices, 64x64 (the paper's choice for CPUs)"),
        alu("alu.hx.lin.1s.32x32", with(aluConfig(kLin, 32, 256, 16, 1), false, true, false),
            "ALU kernel with the h_x cache"),
        alu("alu.fpround.lin.1s.32x32", with(aluConfig(kLin, 32, 256, 16, 1), false, false, true),
            "ALU kernel, floor by the 2^23 trick (tie-exact)"),
        alu("alu.fpround.nn.1s.64x64", with(aluConfig(kNn, 64, 256, 8, 1), false, false, true),
            "ALU kernel, nearest, rounding by the 2^23 trick"),
        alu("alu.fpround.full.lin.1s.32x32", fpFull(aluConfig(kLin, 32, 256, 16, 1)),
            "ALU kernel, floor and cache byte offset in FP (2^23 trick, no SFU op; sec. 6.6)"),
        alu("alu.fpround.full.nn.1s.64x64", fpFull(aluConfig(kNn, 64, 256, 8, 1)),
            "ALU kernel, nearest, rounding and cache byte offset in FP (no SFU op)"),
        alu("alu.half.lin.1s.64x64",
            with(aluConfig(kLin, 64, 256, 8, 1), false, false, false, true),
            "ALU kernel, 64x64, cache in binary16: approximate"),
        alu("alu.half.lin.4s.64x64",
            with(aluConfig(kLin, 64, 256, 8, 4), false, false, false, true),
            "ALU kernel, 4 slices, 64x64, cache in binary16: approximate"),
        alu("oversampling.nn.1s", family(aluConfig(kLin, 32, 256, 8, 1), AluFamily::Oversampling),
            "oversampling (sec. 7.2): 4 samples per cached bin, nearest lookup: approximate"),
        alu("oversampling.nn.2s", family(aluConfig(kLin, 64, 256, 4, 2), AluFamily::Oversampling),
            "oversampling, 2 slices, 64x64: approximate"),
        alu("oversampling.sampler.nn.1s",
            family(aluConfig(kLin, 32, 256, 8, 1), AluFamily::Oversampling, 0, 0, true),
            "oversampling, samples by the linear filtering unit at k/4: approximate"),
        alu("hybrid.lin.1s", family(aluConfig(kLin, 64, 256, 8, 1), AluFamily::Hybrid, 5, 3),
            "hybrid (sec. 7.1): 5 of 8 blocks ALU, 3 texture"),
        alu("hybrid.lin.2s", family(aluConfig(kLin, 64, 256, 8, 2), AluFamily::Hybrid, 1, 1),
            "hybrid, 2 slices, ALU:texture 1:1"),
    };
}

void textureInfo(const GpuTextureConfig& c, BackProjectorInfo& info) {
    info.family = "texture";
    info.interpolation = c.interpolation;
    info.slicesPerPass = c.slices;
    info.precision = c.half ? "half" : "float32";
    info.exact = !c.half;
    info.parameters = {
        {"workGroup", "16x16"},
        {"pixelsPerThread", c.cached() ? "4" : "1"},
        {"projectionPhases", c.cached() ? "4" : "1"},
        {"mapping", c.kernel == TextureKernel::Standard ? "linear" : "zorder"},
    };
}

void aluInfo(const GpuAluConfig& c, BackProjectorInfo& info) {
    info.family = c.family == AluFamily::Alu            ? "alu"
                  : c.family == AluFamily::Oversampling ? "oversampling"
                                                        : "hybrid";
    info.interpolation = c.interpolation;
    info.slicesPerPass = c.slices;
    info.exact = c.family != AluFamily::Oversampling && !c.cacheHalf;
    info.precision = c.cacheHalf ? "half" : "float32";
    info.parameters = {
        {"tile", std::to_string(c.tile) + "x" + std::to_string(c.tile)},
        {"workGroup", std::to_string(c.threads)},
        {"pixelsPerThread", std::to_string(c.pixelsPerThread())},
        {"projectionsPerBatch", std::to_string(c.projectionsPerBatch)},
        {"threadsPerRow", std::to_string(c.threads / c.projectionsPerBatch)},
        {"cachedBins", std::to_string(c.bins())},
        {"acm", c.acm ? "1" : "0"},
        {"hxCache", c.hxCache ? "1" : "0"},
        {"fpRounding", c.fpRounding ? "1" : "0"},
        {"rounding", !c.fpRounding ? "sfu"
                     : c.fpOffset  ? "fp-full"
                                   : "fp-balanced"},
    };
    if (c.minBlocksPerSm > 0) info.parameters["minBlocksPerSm"] = std::to_string(c.minBlocksPerSm);
    if (c.family == AluFamily::Oversampling) {
        info.parameters["samplesPerBin"] = "4";
        info.parameters["lookup"] = "nearest";
        if (c.samplerFill) info.parameters["fill"] = "linear filtering unit";
    }
    if (c.cacheHalf) info.parameters["cache"] = "binary16";
    if (c.family == AluFamily::Hybrid)
        info.parameters["ratio"] = std::to_string(c.ratioAlu) + ":" + std::to_string(c.ratioTex);
}

}  // namespace

const std::vector<GpuVariant>& gpuVariants() {
    static const std::vector<GpuVariant> table = makeTable();  // immutable data, no device state
    return table;
}

BackProjectorInfo gpuVariantInfo(const GpuVariant& v, const std::string& backend) {
    BackProjectorInfo info;
    info.id = backend + "." + v.name;
    info.backend = backend;
    info.description = v.description;
    if (v.texture)
        textureInfo(v.tex, info);
    else
        aluInfo(v.alu, info);
    return info;
}

}  // namespace tomo
