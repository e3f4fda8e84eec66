// CudaLauncher: dispatch to the family launchers, host packing, texture objects.
#include "gpu/cuda/internal/CudaLauncher.h"

#include <cstring>

#include "core/projectors/PassDriver.h"

namespace tomo::cuda {

bool CudaLauncher::linearFilter() const {
    if (m_isTexture) return !m_texture.half && m_texture.interpolation == Interpolation::Linear;
    return m_alu.family == AluFamily::Hybrid || m_alu.samplerFill;
}

std::string CudaLauncher::support() const {
    return m_isTexture ? textureSupport(m_texture) : aluSupport(m_alu);
}

Status CudaLauncher::launch(const LaunchArgs& args, cudaStream_t stream) const {
    if (m_isTexture) return launchTexture(m_texture, args, stream);
    switch (m_alu.family) {
        case AluFamily::Alu:
            return launchAlu(m_alu, args, stream);
        case AluFamily::Oversampling:
            return launchOversample(m_alu, args, stream);
        default:
            return launchHybrid(m_alu, args, stream);
    }
}

void packPass(const CudaLauncher& launcher, const Sinograms& sino, int s0, int count, int a0,
              int na, void* dst) {
    // Half storage: 4 binary16 values per texel (channels() counts its 2 floats).
    const bool half = launcher.halfStorage();
    packPassSlices(sino, s0, count, a0, na, half ? 4 : launcher.channels(), half, dst);
}

cudaChannelFormatDesc sinogramChannelDesc(const CudaLauncher& launcher) {
    if (launcher.halfStorage())
        return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
    const int ch = launcher.channels();
    return cudaCreateChannelDesc(32, ch >= 2 ? 32 : 0, ch >= 4 ? 32 : 0, ch >= 4 ? 32 : 0,
                                 cudaChannelFormatKindFloat);
}

Result<TextureObject> createSinogramTexture(const CudaLauncher& launcher, const void* data,
                                            std::size_t pitch, int detectors, int rows) {
    cudaResourceDesc res{};
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = const_cast<void*>(data);
    res.res.pitch2D.desc = sinogramChannelDesc(launcher);
    res.res.pitch2D.width = static_cast<std::size_t>(detectors);
    res.res.pitch2D.height = static_cast<std::size_t>(rows);
    res.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc tex{};
    tex.addressMode[0] = cudaAddressModeBorder;
    tex.addressMode[1] = cudaAddressModeBorder;
    tex.filterMode = launcher.linearFilter() ? cudaFilterModeLinear : cudaFilterModePoint;
    tex.readMode = cudaReadModeElementType;
    tex.normalizedCoords = 0;
    cudaTextureObject_t object = 0;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaCreateTextureObject(&object, &res, &tex, nullptr),
                                   "cudaCreateTextureObject(sinogram " + std::to_string(detectors) +
                                       " x " + std::to_string(rows) + ")"));
    return TextureObject(object);
}

}  // namespace tomo::cuda
