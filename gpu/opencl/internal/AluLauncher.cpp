// The ALU, oversampling and hybrid families' launcher and registration (see AluLauncher.h).
#include "gpu/opencl/internal/AluLauncher.h"

#include <algorithm>
#include <cmath>

#include "core/projectors/PassDriver.h"
#include "gpu/opencl/internal/ClTextureLauncher.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {
namespace {

std::string flag(const char* name, int value) {
    return std::string(" -D") + name + "=" + std::to_string(value);
}

const char* kernelName(AluFamily f) {
    switch (f) {
        case AluFamily::Alu:
            return "aluBackProject";
        case AluFamily::Oversampling:
            return "oversampleBackProject";
        default:
            return "hybridBackProject";
    }
}

const char* familyName(AluFamily f) {
    switch (f) {
        case AluFamily::Alu:
            return "alu";
        case AluFamily::Oversampling:
            return "oversampling";
        default:
            return "hybrid";
    }
}

/// Checks the shape parameters (tile, work-group, batch) the kernels rely on.
std::string shapeError(const AluConfig& c) {
    if (c.tile != 32 && c.tile != 64) return "tile must be 32 or 64";
    if (c.threads != 128 && c.threads != 256) return "work-group must be 128 or 256";
    if ((c.threads / 16) % (c.tile / 4) != 0) return "work-group too small for the tile";
    if (c.projectionsPerBatch < 1 || c.threads % c.projectionsPerBatch != 0)
        return "projections per batch must divide the work-group";
    if (c.slices != 1 && c.slices != 2 && c.slices != 4) return "slices must be 1, 2 or 4";
    if (c.acm && c.interpolation != Interpolation::Linear) return "ACM needs linear";
    if (c.cacheHalf && c.family != AluFamily::Alu) return "half cache is for the ALU family";
    if (c.fpOffset && (!c.fpRounding || c.family != AluFamily::Alu))
        return "the float byte offset needs FP rounding and the ALU family";
    if (c.samplerFill && c.family != AluFamily::Oversampling)
        return "sampler fill is for the oversampling family";
    if (c.family == AluFamily::Hybrid &&
        (c.ratioAlu < 0 || c.ratioTex < 0 || c.ratioAlu + c.ratioTex < 1))
        return "hybrid ratio must be non-negative with a positive sum";
    if (c.minBlocksPerSm != 0)
        return "an occupancy target is a CUDA launch bound (__launch_bounds__); OpenCL has none";
    return {};
}

}  // namespace

AluCacheRange aluCacheRange(std::span<const ClProjectionConstants> constants, int nx, int ny,
                            int tile, int bins, bool routeWide) {
    AluCacheRange r;
    r.minPosition = 1e30f;
    r.maxPosition = -1e30f;
    const float n1 = static_cast<float>(tile - 1);
    for (int ty = 0; ty * tile < ny; ++ty)
        for (int tx = 0; tx * tile < nx; ++tx) {
            const float x0 = static_cast<float>(tx * tile), y0 = static_cast<float>(ty * tile);
            for (const ClProjectionConstants& c : constants) {
                // projectionSlot() of alu_common.cl.
                const float cm = n1 * (std::min(0.f, c.cx) + std::min(0.f, c.cy));
                const float hb = (c.a + y0 * c.cy) + x0 * c.cx;
                const float hm = std::floor(hb + cm) - 1.f;
                const float off = hb - hm;
                if (routeWide &&
                    n1 * (std::abs(c.cx) + std::abs(c.cy)) > static_cast<float>(bins - 4)) {
                    ++r.wideProjections;
                    continue;
                }
                for (int ly = 0; ly < tile; ++ly)
                    for (int lx = 0; lx < tile; ++lx) {
                        const float h =
                            (off + static_cast<float>(lx) * c.cx) + static_cast<float>(ly) * c.cy;
                        r.minPosition = std::min(r.minPosition, h);
                        r.maxPosition = std::max(r.maxPosition, h);
                        if (h < 0.f || h > static_cast<float>(bins - 2)) ++r.outside;
                    }
            }
        }
    return r;
}

std::size_t aluLocalBytes(const AluConfig& c) {
    const std::size_t vec =
        (c.cacheHalf ? sizeof(cl_half) : sizeof(float)) * static_cast<std::size_t>(c.slices);
    const std::size_t entry = c.family == AluFamily::Oversampling ? 4 * vec : c.acm ? 2 * vec : vec;
    const std::size_t slots = 24;  // ProjSlot: 4 floats, 2 ints
    const std::size_t hx = c.hxCache ? sizeof(float) * static_cast<std::size_t>(c.tile) : 0;
    return static_cast<std::size_t>(c.projectionsPerBatch) *
           (static_cast<std::size_t>(c.bins()) * entry + slots + hx);
}

std::string aluSupport(const ClDeviceTraits& traits, AluConfig& config) {
    if (std::string e = shapeError(config); !e.empty()) return e;
    if (traits.maxWorkGroupSize < static_cast<std::size_t>(config.threads))
        return "work-groups of " + std::to_string(config.threads) +
               " work-items needed, device allows " + std::to_string(traits.maxWorkGroupSize);
    if (traits.localMemBytes < aluLocalBytes(config))
        return std::to_string(aluLocalBytes(config)) +
               " bytes of local memory needed, device has " + std::to_string(traits.localMemBytes);
    if (!config.imageSinogram()) return {};
    // One float image: the texture family's format choice (linear: the sampler-filled cache).
    TextureConfig texture;
    texture.slices = config.slices;
    texture.interpolation = config.samplerFill ? Interpolation::Linear : config.interpolation;
    std::string reason = textureSupport(traits, texture);
    config.channelOrder = texture.channelOrder;
    return reason;
}

std::string aluSourceFiles(const AluConfig& c) {
    switch (c.family) {
        case AluFamily::Alu:
            return "alu_common.cl alu.cl";
        case AluFamily::Oversampling:
            return "alu_common.cl oversample.cl";
        default:
            return "alu_common.cl alu.cl hybrid.cl";
    }
}

std::string aluBuildOptions(const AluConfig& c) {
    const bool hybrid = c.family == AluFamily::Hybrid;
    const bool image = c.imageSinogram();
    const int channels = !image                    ? c.slices
                         : c.channelOrder == CL_R  ? 1
                         : c.channelOrder == CL_RG ? 2
                                                   : 4;
    std::string o =
        flag("TILE", c.tile).substr(1) + flag("WG", c.threads) +
        flag("PPB", c.projectionsPerBatch) + flag("SLICES", c.slices) + flag("BINS", c.bins()) +
        flag("CHANNELS", channels) + flag("FILL_IMAGE", image) + flag("CHECK_RANGE", c.checkRange) +
        flag("LINEAR", c.interpolation == Interpolation::Linear) + flag("ACM", c.acm) +
        flag("HX", c.hxCache) + flag("FPROUND", c.fpRounding ? (c.fpOffset ? 2 : 1) : 0) +
        flag("CACHE_HALF", c.cacheHalf) + flag("SAMPLER_FILL", c.samplerFill);
    if (hybrid)
        o += " -DALU_NO_ENTRY" + flag("RATIO_ALU", c.ratioAlu) + flag("RATIO_TEX", c.ratioTex);
    return o;
}

int AluLauncher::channels() const {
    if (!m_config.imageSinogram()) return m_config.slices;
    return m_config.channelOrder == CL_R ? 1 : m_config.channelOrder == CL_RG ? 2 : 4;
}

Status AluLauncher::prepare(ClDeviceContext& dev) {
    if (m_kernel) return Status::ok();
    if (std::string e = shapeError(m_config); !e.empty())
        return invalidArgument("ALU kernel configuration: " + e);
    std::string source;
    const std::string files = aluSourceFiles(m_config);
    for (std::size_t at = 0; at < files.size();) {
        std::size_t end = files.find(' ', at);
        if (end == std::string::npos) end = files.size();
        const std::string name = files.substr(at, end - at);
        const std::string_view text = kernelSource(name);
        if (text.empty()) return notFound("embedded OpenCL source " + name + " missing");
        source.append(text);
        source += '\n';
        at = end + 1;
    }
    TOMO_ASSIGN_OR_RETURN(ClProgram program, dev.program(files, source, aluBuildOptions(m_config)));
    TOMO_ASSIGN_OR_RETURN(m_kernel, dev.kernel(program, kernelName(m_config.family)));
    if (m_config.checkRange) {
        TOMO_ASSIGN_OR_RETURN(
            m_violations, dev.createBuffer(CL_MEM_READ_WRITE, sizeof(cl_uint), "range counter"));
        const cl_uint zero = 0;
        TOMO_RETURN_IF_ERROR(
            clCheck(clEnqueueWriteBuffer(dev.queue(1), m_violations.get(), CL_TRUE, 0, sizeof zero,
                                         &zero, 0, nullptr, nullptr),
                    "clEnqueueWriteBuffer(range counter)"));
    }
    return Status::ok();
}

Result<unsigned> AluLauncher::violationCount(ClDeviceContext& dev) const {
    if (!m_violations) return invalidArgument("not a checkRange build, or not prepared");
    cl_uint count = 0;
    TOMO_RETURN_IF_ERROR(clCheck(clEnqueueReadBuffer(dev.queue(1), m_violations.get(), CL_TRUE, 0,
                                                     sizeof count, &count, 0, nullptr, nullptr),
                                 "clEnqueueReadBuffer(range counter)"));
    return static_cast<unsigned>(count);
}

std::size_t AluLauncher::packedBytes(int angles, int detectors) const {
    return static_cast<std::size_t>(angles) * static_cast<std::size_t>(detectors) *
           static_cast<std::size_t>(channels()) * sizeof(float);
}

Result<ClMem> AluLauncher::createSinogram(ClDeviceContext& dev, int angles, int detectors) {
    if (m_config.imageSinogram())
        return dev.createImage2d(m_config.channelOrder, CL_FLOAT,
                                 static_cast<std::size_t>(detectors),
                                 static_cast<std::size_t>(angles), "ALU-family sinogram image");
    return dev.createBuffer(CL_MEM_READ_ONLY, packedBytes(angles, detectors), "sinogram");
}

Status AluLauncher::enqueueKernel(cl_command_queue queue, const ClPassShape& shape,
                                  const ClLaunch& launch, const std::vector<cl_event>& wait,
                                  ClEvent& done) {
    TOMO_RETURN_IF_ERROR(setBackProjectionArgs(m_kernel, shape, launch));
    if (m_config.checkRange) TOMO_RETURN_IF_ERROR(setKernelArg(m_kernel, 10, m_violations.get()));
    const auto tile = static_cast<std::size_t>(m_config.tile);
    const std::size_t tilesX = roundUp(static_cast<std::size_t>(shape.nx), tile) / tile;
    const std::size_t tilesY = roundUp(static_cast<std::size_t>(shape.rows), tile) / tile;
    const auto wg = static_cast<std::size_t>(m_config.threads);
    return enqueueKernel2d(queue, m_kernel, tilesX * wg, tilesY, wg, 1, wait, done,
                           familyName(m_config.family));
}

void registerAluBackProjectors(BackProjectorRegistry& registry, OpenClRegistration& report,
                               const std::shared_ptr<ClDeviceContext>& device,
                               bool withOversampling) {
    for (const GpuVariant& v : gpuVariants()) {  // core/projectors/GpuVariants.h
        if (v.texture || (v.alu.family == AluFamily::Oversampling && !withOversampling)) continue;
        AluConfig config;
        static_cast<GpuAluConfig&>(config) = v.alu;
        const std::string reason = aluSupport(device->traits(), config);
        BackProjectorInfo info = gpuVariantInfo(v, "opencl");
        info.parameters["storage"] = config.imageSinogram() ? "image float" : "buffer float";
        addVariant(registry, report, device, std::move(info), reason,
                   [config] { return std::make_unique<AluLauncher>(config); });
    }
}

}  // namespace tomo::opencl
