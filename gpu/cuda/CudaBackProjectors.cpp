// The CUDA variant list and its registration (see CudaBackProjectors.h). The parameters mirror
// gpu/opencl's so that core/selection's cost model reads both the same way.
#include "gpu/cuda/CudaBackProjectors.h"

#include "gpu/cuda/internal/CudaBackProjector.h"

namespace tomo::cuda {
namespace {

constexpr Interpolation kLin = Interpolation::Linear, kNn = Interpolation::Nearest;

struct Spec {
    const char* id;
    bool texture;
    TextureConfig tex;
    AluConfig alu;
    const char* description;
};

Spec tex(const char* id, TextureKernel k, Interpolation i, int slices, bool half,
         const char* description) {
    return {id, true, TextureConfig{k, i, slices, half}, {}, description};
}

AluConfig aluConfig(Interpolation i, int tile, int threads, int ppb, int slices) {
    AluConfig c;
    c.interpolation = i;
    c.tile = tile;
    c.threads = threads;
    c.projectionsPerBatch = ppb;
    c.slices = slices;
    return c;
}

Spec alu(const char* id, AluConfig c, const char* description) {
    return {id, false, {}, c, description};
}

AluConfig with(AluConfig c, bool acm, bool hx, bool fp, bool half = false) {
    c.acm = acm;
    c.hxCache = hx;
    c.fpRounding = fp;
    c.cacheHalf = half;
    return c;
}

/// The fully SFU-free rounding: floor and shared byte offset in FP (FPROUND 2, Sect. 6.6).
AluConfig fpFull(AluConfig c) {
    c.fpRounding = true;
    c.fpOffset = true;
    return c;
}

AluConfig occupancy(AluConfig c, int minBlocksPerSm) {
    c.minBlocksPerSm = minBlocksPerSm;
    return c;
}

AluConfig family(AluConfig c, AluFamily f, int ratioAlu = 0, int ratioTex = 0,
                 bool sampler = false) {
    c.family = f;
    c.ratioAlu = ratioAlu;
    c.ratioTex = ratioTex;
    c.samplerFill = sampler;
    return c;
}

std::vector<Spec> specs() {
    using TK = TextureKernel;
    return {
        tex("cuda.texture.lin.1s", TK::Standard, kLin, 1, false,
            "texture kernel (Alg. 1), texture object, 16x16 blocks"),
        tex("cuda.texture.nn.1s", TK::Standard, kNn, 1, false, "texture kernel, nearest filtering"),
        tex("cuda.texture.lin.2s", TK::Standard, kLin, 2, false,
            "texture kernel, 2-slice compound sinogram (float2 texels, one fetch for both)"),
        tex("cuda.texture.nn.4s", TK::Standard, kNn, 4, false,
            "texture kernel, 4-slice compound sinogram (float4 texels), nearest"),
        tex("cuda.texture.zorder.lin.1s", TK::ZOrder, kLin, 1, false,
            "texture kernel with Z-order 4x4 thread remapping (Alg. 2)"),
        tex("cuda.texture.zorder.lin.2s", TK::ZOrder, kLin, 2, false,
            "Z-order texture kernel, 2-slice compound sinogram"),
        tex("cuda.texture.cached.lin.1s", TK::Cached, kLin, 1, false,
            "cache-aware multi-projection kernel (Alg. 3): 4 px/thread, 4 phases, shuffle sum"),
        tex("cuda.texture.cached.lin.1s.sconst", TK::CachedSharedConstants, kLin, 1, false,
            "Alg. 3 with projection constants staged in shared memory (Alg. 5)"),
        tex("cuda.texture.cached.lin.2s", TK::Cached, kLin, 2, false,
            "cache-aware multi-projection kernel, 2-slice compound sinogram"),
        tex("cuda.texture.half.nn.4s", TK::Standard, kNn, 4, true,
            "texture kernel, 4 binary16 slices in a half4 texture (nearest, converted to float by "
            "the texture unit): approximate"),
        alu("cuda.alu.lin.1s.32x32", aluConfig(kLin, 32, 256, 16, 1),
            "ALU kernel (Alg. 6): 32x32 tile, 256 threads x 4 px, 16 projections per batch"),
        alu("cuda.alu.nn.1s.32x32", aluConfig(kNn, 32, 256, 16, 1), "ALU kernel, nearest, 32x32"),
        alu("cuda.alu.lin.1s.32x32.8px", aluConfig(kLin, 32, 128, 16, 1),
            "ALU kernel, 32x32 tile with 128 threads x 8 px"),
        alu("cuda.alu.lin.1s.64x64", aluConfig(kLin, 64, 256, 8, 1),
            "ALU kernel, 64x64 tile, 256 threads x 16 px, 8 projections per batch"),
        alu("cuda.alu.lin.2s.32x32", aluConfig(kLin, 32, 256, 16, 2), "ALU kernel, 2 slices"),
        alu("cuda.alu.lin.2s.64x64", aluConfig(kLin, 64, 256, 8, 2),
            "ALU kernel, 2 slices, 64x64 tile"),
        alu("cuda.alu.lin.1s.32x32.occ1", occupancy(aluConfig(kLin, 32, 256, 16, 1), 1),
            "ALU kernel, 32x32, occupancy target 1 block per SM (every register to the compiler)"),
        alu("cuda.alu.lin.2s.64x64.occ1", occupancy(aluConfig(kLin, 64, 256, 8, 2), 1),
            "ALU kernel, 2 slices, 64x64, occupancy target 1 block per SM"),
        alu("cuda.alu.lin.4s.32x32", aluConfig(kLin, 32, 256, 8, 4), "ALU kernel, 4 slices"),
        alu("cuda.alu.nn.4s.64x64", aluConfig(kNn, 64, 256, 8, 4),
            "ALU kernel, nearest, 4 slices, 64x64 tile"),
        alu("cuda.alu.acm.lin.1s.32x32", with(aluConfig(kLin, 32, 256, 16, 1), true, false, false),
            "ALU kernel with Advanced Caching Mode (Alg. 9), neighbours by warp shuffles"),
        alu("cuda.alu.acm.lin.1s.64x64", with(aluConfig(kLin, 64, 256, 8, 1), true, false, false),
            "ALU kernel with Advanced Caching Mode, 64x64 tile"),
        alu("cuda.alu.acm.hx.lin.4s.64x64", with(aluConfig(kLin, 64, 256, 8, 4), true, true, false),
            "ALU + ACM + h_x cache, 4 slices, 64x64"),
        alu("cuda.alu.hx.lin.1s.32x32", with(aluConfig(kLin, 32, 256, 16, 1), false, true, false),
            "ALU kernel with the h_x cache"),
        alu("cuda.alu.fpround.lin.1s.32x32",
            with(aluConfig(kLin, 32, 256, 16, 1), false, false, true),
            "ALU kernel, floor by the 2^23 trick (tie-exact)"),
        alu("cuda.alu.fpround.nn.1s.64x64", with(aluConfig(kNn, 64, 256, 8, 1), false, false, true),
            "ALU kernel, nearest, rounding by the 2^23 trick"),
        alu("cuda.alu.fpround.full.lin.1s.32x32", fpFull(aluConfig(kLin, 32, 256, 16, 1)),
            "ALU kernel, floor and shared byte offset in FP (2^23 trick, no SFU op; sec. 6.6)"),
        alu("cuda.alu.fpround.full.nn.1s.64x64", fpFull(aluConfig(kNn, 64, 256, 8, 1)),
            "ALU kernel, nearest, rounding and shared byte offset in FP (no SFU op)"),
        alu("cuda.alu.half.lin.1s.64x64",
            with(aluConfig(kLin, 64, 256, 8, 1), false, false, false, true),
            "ALU kernel, 64x64, shared cache in binary16: approximate"),
        alu("cuda.alu.half.lin.4s.64x64",
            with(aluConfig(kLin, 64, 256, 8, 4), false, false, false, true),
            "ALU kernel, 4 slices, 64x64, shared cache in binary16: approximate"),
        alu("cuda.oversampling.nn.1s",
            family(aluConfig(kLin, 32, 256, 8, 1), AluFamily::Oversampling),
            "oversampling (sec. 7.2): 4 samples per cached bin, nearest lookup: approximate"),
        alu("cuda.oversampling.nn.2s",
            family(aluConfig(kLin, 64, 256, 4, 2), AluFamily::Oversampling),
            "oversampling, 2 slices, 64x64: approximate"),
        alu("cuda.oversampling.sampler.nn.1s",
            family(aluConfig(kLin, 32, 256, 8, 1), AluFamily::Oversampling, 0, 0, true),
            "oversampling, samples by the linear texture filter at k/4: approximate"),
        alu("cuda.hybrid.lin.1s", family(aluConfig(kLin, 64, 256, 8, 1), AluFamily::Hybrid, 5, 3),
            "hybrid (sec. 7.1): per SM 5 of 8 blocks ALU, 3 texture (%smid tickets)"),
        alu("cuda.hybrid.lin.2s", family(aluConfig(kLin, 64, 256, 8, 2), AluFamily::Hybrid, 1, 1),
            "hybrid, 2 slices, ALU:texture 1:1 per SM"),
    };
}

BackProjectorInfo infoOf(const Spec& s) {
    BackProjectorInfo info;
    info.id = s.id;
    info.backend = "cuda";
    info.description = s.description;
    if (s.texture) {
        const TextureConfig& c = s.tex;
        const bool cached =
            c.kernel == TextureKernel::Cached || c.kernel == TextureKernel::CachedSharedConstants;
        info.family = "texture";
        info.interpolation = c.interpolation;
        info.slicesPerPass = c.slices;
        info.precision = c.half ? "half" : "float32";
        info.exact = !c.half;
        info.parameters = {
            {"workGroup", "16x16"},
            {"pixelsPerThread", cached ? "4" : "1"},
            {"projectionPhases", cached ? "4" : "1"},
            {"mapping", c.kernel == TextureKernel::Standard ? "linear" : "zorder"},
            {"constants", c.kernel == TextureKernel::CachedSharedConstants
                              ? "shared (256 per chunk)"
                              : "global (read-only cache)"},
            {"storage", c.half ? "half4 texture, 4 x binary16"
                               : "pitch-linear texture float x" + std::to_string(c.slices)},
            {"launchBounds", "256, 4"},
        };
        return info;
    }
    const AluConfig& c = s.alu;
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
        {"sharedBytes", std::to_string(aluSharedBytes(c))},
    };
    if (c.family == AluFamily::Alu)
        info.parameters["minBlocksPerSm"] =
            c.minBlocksPerSm > 0 ? std::to_string(c.minBlocksPerSm) : "register budget";
    if (c.family == AluFamily::Oversampling) {
        info.parameters["samplesPerBin"] = "4";
        info.parameters["lookup"] = "nearest";
        if (c.samplerFill) info.parameters["fill"] = "linear texture";
    }
    if (c.cacheHalf) info.parameters["cache"] = "binary16";
    if (c.family == AluFamily::Hybrid)
        info.parameters["ratio"] = std::to_string(c.ratioAlu) + ":" + std::to_string(c.ratioTex);
    return info;
}

CudaLauncher launcherOf(const Spec& s) {
    return s.texture ? CudaLauncher(s.tex) : CudaLauncher(s.alu);
}

}  // namespace

std::vector<BackProjectorInfo> compiledVariants() {
    std::vector<BackProjectorInfo> out;
    for (const Spec& s : specs())
        if (launcherOf(s).support().empty()) out.push_back(infoOf(s));
    return out;
}

CudaRegistration registerBackProjectors(BackProjectorRegistry& registry,
                                        const CudaRegistrationOptions& options) {
    CudaRegistration report;
    auto device = CudaDeviceContext::open(options.device);
    if (!device.isOk()) {
        report.message = device.status().message();
        return report;
    }
    report.available = true;
    std::shared_ptr<CudaDeviceContext> ctx = std::move(device).value();
    report.device = ctx->traits().label();
    report.context = ctx;
    for (const Spec& s : specs()) {
        const CudaLauncher launcher = launcherOf(s);
        if (std::string why = launcher.support(); !why.empty()) {
            report.skipped.emplace_back(s.id, why);
            continue;
        }
        BackProjectorInfo info = infoOf(s);
        info.parameters["device"] = report.device;
        report.registered.push_back(info.id);
        registry.add(info, [info, ctx, launcher] {
            return std::make_unique<CudaBackProjector>(info, ctx, launcher);
        });
    }
    return report;
}

}  // namespace tomo::cuda

namespace tomo::cuda {

Result<CudaLauncher> launcherFor(const std::string& id) {
    for (const Spec& s : specs())
        if (id == s.id && launcherOf(s).support().empty()) return launcherOf(s);
    return notFound("unknown CUDA back-projector variant '" + id +
                    "' (tomo devices --explain lists them)");
}

}  // namespace tomo::cuda
