#pragma once
/// @file CudaLauncher.h
/// @brief What differs between the CUDA kernel families for the back-projector driver
/// (CudaBackProjector): the texel layout of a pass's sinogram,
/// whether and how a texture object reads it, and the launch. Internal (CUDA types).
///
/// Layout of a pass (kernels/CudaKernels.h): `angles` pitched rows of `detectors` texels, each
/// channels() floats (slice s in channel s, channels beyond the pass's slices zero), or for
/// half storage 4 binary16 values (8 bytes, one texel of a half4 texture).
/// Threading: a launcher is immutable after construction; launch() may be called from several
/// threads on different streams.

#include <memory>

#include "core/data/Half.h"
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/CudaKernels.h"

namespace tomo::cuda {

class CudaLauncher {
  public:
    explicit CudaLauncher(TextureConfig texture) : m_isTexture(true), m_texture(texture) {}
    explicit CudaLauncher(AluConfig alu) : m_isTexture(false), m_alu(alu) {}

    int slicesPerPass() const { return m_isTexture ? m_texture.slices : m_alu.slices; }
    /// Floats per texel (half storage: 2 floats = 4 binary16 values).
    int channels() const { return m_isTexture ? textureChannels(m_texture) : m_alu.slices; }
    bool halfStorage() const { return m_isTexture && m_texture.half; }
    std::size_t texelBytes() const { return 4u * static_cast<std::size_t>(channels()); }
    /// The kernel reads the sinogram through a texture object.
    bool usesTexture() const { return m_isTexture || m_alu.readsTexture(); }
    /// Filter mode of that texture: linear for linear texture kernels, the hybrid and sampled
    /// oversampling; nearest otherwise (the half variant is the nearest 4-slice kernel).
    bool linearFilter() const;
    bool needsSmCounters() const { return !m_isTexture && m_alu.family == AluFamily::Hybrid; }
    /// Why the configuration is not compiled (empty when it is).
    std::string support() const;
    Status launch(const LaunchArgs& args, cudaStream_t stream) const;

  private:
    bool m_isTexture;
    TextureConfig m_texture{};
    AluConfig m_alu{};
};

/// Packs slices [s0, s0 + count) and angles [a0, a0 + na) of @p sino into @p dst as the
/// launcher's texels, rows of detectors x texelBytes bytes (unpadded).
void packPass(const CudaLauncher& launcher, const Sinograms& sino, int s0, int count, int a0,
              int na, void* dst);

/// The texel format of the launcher's pass: 1, 2 or 4 32-bit float channels, or for half
/// storage 4 16-bit float channels (cudaCreateChannelDescHalf4(): the hardware converts).
cudaChannelFormatDesc sinogramChannelDesc(const CudaLauncher& launcher);

using tomo::floatToHalf;  // core/data/Half.h

/// A pitch-linear texture object over @p sino (rows x detectors texels of launcher's layout),
/// border addressing, unnormalised coordinates, the launcher's filter mode. Channel format
/// sinogramChannelDesc().
Result<TextureObject> createSinogramTexture(const CudaLauncher& launcher, const void* data,
                                            std::size_t pitch, int detectors, int rows);

}  // namespace tomo::cuda

namespace tomo::cuda {

/// The launcher of compiled variant @p id (CudaBackProjectors.cpp's list); NotFound listing
/// nothing else when the id is unknown or not compiled.
Result<CudaLauncher> launcherFor(const std::string& id);

}  // namespace tomo::cuda
