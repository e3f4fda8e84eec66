// The CUDA registration of core's one variant table (core/projectors/GpuVariants.h; see
// CudaBackProjectors.h): every entry whose kernel instantiation is compiled.
#include "gpu/cuda/CudaBackProjectors.h"

#include "gpu/cuda/internal/CudaBackProjector.h"

namespace tomo::cuda {
namespace {

/// Core's metadata of @p v (core/projectors/GpuVariants.h) and CUDA's own parameters.
BackProjectorInfo infoOf(const GpuVariant& v) {
    BackProjectorInfo info = gpuVariantInfo(v, "cuda");
    if (v.texture) {
        const TextureConfig& c = v.tex;
        info.parameters["constants"] = c.kernel == TextureKernel::CachedStagedConstants
                                           ? "shared (256 per chunk)"
                                           : "global (read-only cache)";
        info.parameters["storage"] =
            c.half ? "half4 texture, 4 x binary16"
                   : "pitch-linear texture float x" + std::to_string(c.slices);
        info.parameters["launchBounds"] = "256, 4";
        return info;
    }
    const AluConfig& c = v.alu;
    info.parameters["sharedBytes"] = std::to_string(aluSharedBytes(c));
    if (c.family == AluFamily::Alu && c.minBlocksPerSm == 0)
        info.parameters["minBlocksPerSm"] = "register budget";
    return info;
}

CudaLauncher launcherOf(const GpuVariant& v) {
    return v.texture ? CudaLauncher(v.tex) : CudaLauncher(v.alu);
}

}  // namespace

std::vector<BackProjectorInfo> compiledVariants() {
    std::vector<BackProjectorInfo> out;
    for (const GpuVariant& v : gpuVariants())
        if (launcherOf(v).support().empty()) out.push_back(infoOf(v));
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
    for (const GpuVariant& v : gpuVariants()) {
        const CudaLauncher launcher = launcherOf(v);
        BackProjectorInfo info = infoOf(v);
        if (std::string why = launcher.support(); !why.empty()) {
            report.skipped.emplace_back(info.id, why);
            continue;
        }
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
    for (const GpuVariant& v : gpuVariants()) {
        if (id != "cuda." + v.name) continue;
        const CudaLauncher launcher = launcherOf(v);
        if (launcher.support().empty()) return launcher;
    }
    return notFound("unknown CUDA back-projector variant '" + id +
                    "' (tomo devices --explain lists them)");
}

}  // namespace tomo::cuda
