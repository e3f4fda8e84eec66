// CudaLauncher: dispatch to the family launchers, host packing, texture objects.
#include "gpu/cuda/internal/CudaLauncher.h"

#include <cstring>

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
    const int det = static_cast<int>(sino.dim(2));
    const int ch = launcher.channels();
    if (launcher.halfStorage()) {
        auto* out = static_cast<std::uint16_t*>(dst);
        for (int p = 0; p < na; ++p)
            for (int j = 0; j < det; ++j)
                for (int s = 0; s < 4; ++s)
                    out[(static_cast<std::size_t>(p) * det + j) * 4 + s] =
                        s < count ? floatToHalf(sino(static_cast<std::size_t>(s0 + s),
                                                     static_cast<std::size_t>(a0 + p),
                                                     static_cast<std::size_t>(j)))
                                  : 0;
        return;
    }
    auto* out = static_cast<float*>(dst);
    for (int p = 0; p < na; ++p) {
        float* row = out + static_cast<std::size_t>(p) * det * ch;
        if (ch == 1) {
            std::memcpy(row,
                        &sino(static_cast<std::size_t>(s0), static_cast<std::size_t>(a0 + p), 0),
                        sizeof(float) * static_cast<std::size_t>(det));
            continue;
        }
        for (int s = 0; s < ch; ++s) {
            if (s >= count) {
                for (int j = 0; j < det; ++j)
                    row[static_cast<std::size_t>(j) * ch + s] = 0.0f;
                continue;
            }
            const float* src =
                &sino(static_cast<std::size_t>(s0 + s), static_cast<std::size_t>(a0 + p), 0);
            for (int j = 0; j < det; ++j)
                row[static_cast<std::size_t>(j) * ch + s] = src[j];
        }
    }
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
