// The texture family's launcher and its variants (see ClTextureLauncher.h).
#include "gpu/opencl/internal/ClTextureLauncher.h"

#include "core/projectors/PassDriver.h"
#include "gpu/opencl/internal/ClFamilies.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {
namespace {

constexpr std::size_t kTile = 16;

const char* channelName(cl_channel_order order) {
    switch (order) {
        case CL_R:
            return "CL_R";
        case CL_RG:
            return "CL_RG";
        default:
            return "CL_RGBA";
    }
}

/// Local memory of the cached kernel: partial sums, the staged tile, local constants.
std::size_t cachedLocalBytes(const TextureConfig& c) {
    const std::size_t acc = sizeof(float) * static_cast<std::size_t>(c.slices);
    return 16 * 64 * acc + kTile * kTile * acc +
           (c.kernel == TextureKernel::CachedStagedConstants ? 256 * 16 : 0);
}

}  // namespace

std::string textureSupport(const ClDeviceTraits& traits, TextureConfig& config) {
    if (config.cached()) {
        if (traits.maxWorkGroupSize < kTile * kTile)
            return "work-groups of 256 threads needed, device allows " +
                   std::to_string(traits.maxWorkGroupSize);
        if (traits.localMemBytes < cachedLocalBytes(config))
            return std::to_string(cachedLocalBytes(config)) + " bytes of local memory needed, " +
                   "device has " + std::to_string(traits.localMemBytes);
    } else if (traits.maxWorkGroupSize < kTile * kTile) {
        return "work-groups of 256 threads needed, device allows " +
               std::to_string(traits.maxWorkGroupSize);
    }
    if (config.half) return {};  // vload_half on a buffer: core OpenCL 1.2
    if (!traits.imageSupport) return "the device has no image support";
    if (config.slices == 1 && traits.supportsImageFormat(CL_R, CL_FLOAT)) {
        config.channelOrder = CL_R;
        return {};
    }
    if (config.slices == 2 && traits.supportsImageFormat(CL_RG, CL_FLOAT)) {
        config.channelOrder = CL_RG;
        return {};
    }
    if (traits.supportsImageFormat(CL_RGBA, CL_FLOAT)) {
        config.channelOrder = CL_RGBA;
        return {};
    }
    return "no " + std::string(config.slices == 1 ? "CL_R or CL_RGBA" : "CL_RGBA") +
           " CL_FLOAT image format";
}

std::string textureBuildOptions(const TextureConfig& c) {
    return "-DSLICES=" + std::to_string(c.slices) +
           " -DINTERP_LINEAR=" + (c.interpolation == Interpolation::Linear ? "1" : "0") +
           " -DSTORAGE_HALF=" + (c.half ? "1" : "0") +
           " -DZORDER=" + (c.kernel == TextureKernel::ZOrder ? "1" : "0") +
           " -DCONST_IN_LOCAL=" + (c.kernel == TextureKernel::CachedStagedConstants ? "1" : "0");
}

int ClTextureLauncher::channels() const {
    if (m_config.half) return m_config.slices;
    return m_config.channelOrder == CL_R ? 1 : m_config.channelOrder == CL_RG ? 2 : 4;
}

Status ClTextureLauncher::prepare(ClDeviceContext& dev) {
    if (m_kernel) return Status::ok();
    TOMO_ASSIGN_OR_RETURN(ClProgram program, dev.program("texture.cl", kernelSource("texture.cl"),
                                                         textureBuildOptions(m_config)));
    TOMO_ASSIGN_OR_RETURN(m_kernel,
                          dev.kernel(program, m_config.cached() ? "backprojectCachedKernel"
                                                                : "backprojectTextureKernel"));
    return Status::ok();
}

std::size_t ClTextureLauncher::packedBytes(int angles, int detectors) const {
    return static_cast<std::size_t>(angles) * static_cast<std::size_t>(detectors) *
           static_cast<std::size_t>(channels()) * (m_config.half ? 2 : 4);
}

Result<ClMem> ClTextureLauncher::createSinogram(ClDeviceContext& dev, int angles, int detectors) {
    if (m_config.half)
        return dev.createBuffer(CL_MEM_READ_ONLY, packedBytes(angles, detectors), "half sinogram");
    return dev.createImage2d(m_config.channelOrder, CL_FLOAT, static_cast<std::size_t>(detectors),
                             static_cast<std::size_t>(angles),
                             std::string("sinogram image ") + channelName(m_config.channelOrder));
}

Status ClTextureLauncher::enqueueKernel(cl_command_queue queue, const ClPassShape& shape,
                                        const ClLaunch& launch, const std::vector<cl_event>& wait,
                                        ClEvent& done) {
    TOMO_RETURN_IF_ERROR(setBackProjectionArgs(m_kernel, shape, launch));
    return enqueueKernel2d(queue, m_kernel, roundUp(static_cast<std::size_t>(shape.nx), kTile),
                           roundUp(static_cast<std::size_t>(shape.rows), kTile), kTile, kTile, wait,
                           done, "texture back-projection");
}

void registerTextureFamily(BackProjectorRegistry& registry, OpenClRegistration& report,
                           const std::shared_ptr<ClDeviceContext>& device) {
    for (const GpuVariant& v : gpuVariants()) {  // core/projectors/GpuVariants.h
        if (!v.texture) continue;
        TextureConfig config;
        static_cast<GpuTextureConfig&>(config) = v.tex;
        const std::string reason = textureSupport(device->traits(), config);
        BackProjectorInfo info = gpuVariantInfo(v, "opencl");
        info.parameters["constants"] = config.kernel == TextureKernel::CachedStagedConstants
                                           ? "local (256 per chunk)"
                                           : "constant";
        info.parameters["storage"] =
            config.half ? "buffer binary16 x" + std::to_string(config.slices)
                        : std::string("image ") + channelName(config.channelOrder) + " float";
        addVariant(registry, report, device, std::move(info), reason,
                   [config] { return std::make_unique<ClTextureLauncher>(config); });
    }
}

}  // namespace tomo::opencl
