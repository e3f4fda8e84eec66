#pragma once
/// @file ClTextureLauncher.h
/// @brief The texture family (kernels/texture.cl): paper 002's Algorithm 1 (standard, 16x16
/// work-groups, one pixel per thread), Algorithm 2 (Z-order remapping of 4x4 squares),
/// Algorithm 3 (cache-aware multi-projection kernel: 4 pixels per thread, 4 projection phases,
/// local-memory reduction, staged coalesced stores) and Algorithm 5 (its constants staged in
/// local memory), over 1-, 2- or 4-slice compound sinograms in float images or binary16
/// buffers (S. Chilingaryan et al., J. Real-Time Image Proc. 17, 2020,
/// doi:10.1007/s11554-019-00883-w).
///
/// Storage per pass of S slices: an image of detectors x angles texels, CL_R (S = 1), CL_RG or,
/// where the device lacks CL_RG float (PoCL), CL_RGBA with two channels used (S = 2), CL_RGBA
/// (S = 4), all CL_FLOAT; or, for half storage, a buffer of [angle][detector][S] binary16 values
/// read with vload_half (core OpenCL 1.2, no cl_khr_fp16 needed), which the kernel interpolates
/// itself. Half storage rounds the filtered sinogram to 11 significant bits: approximate.

#include <string>

#include "core/projectors/GpuVariants.h"
#include "gpu/opencl/internal/ClKernelLauncher.h"

namespace tomo::opencl {

/// A texture-family variant: core's one variant table's configuration
/// (core/projectors/GpuVariants.h; CachedStagedConstants stages the constants in local memory)
/// and the image channel order OpenCL picks for it.
struct TextureConfig : GpuTextureConfig {
    /// Image channel order (CL_R, CL_RG, CL_RGBA); chosen by textureSupport().
    cl_channel_order channelOrder = CL_R;
};

/// Checks that @p traits can run @p config and picks its image channel order; returns the
/// reason when it cannot ("no image support", "no CL_RGBA/CL_FLOAT image format", ...).
std::string textureSupport(const ClDeviceTraits& traits, TextureConfig& config);

/// The -D options of texture.cl for @p config.
std::string textureBuildOptions(const TextureConfig& config);

class ClTextureLauncher final : public ClKernelLauncher {
  public:
    explicit ClTextureLauncher(TextureConfig config) : m_config(config) {}

    Status prepare(ClDeviceContext& dev) override;
    int slicesPerPass() const override { return m_config.slices; }
    bool usesImage() const override { return !m_config.half; }
    std::size_t packedBytes(int angles, int detectors) const override;
    int channels() const override;
    bool halfStorage() const override { return m_config.half; }
    Result<ClMem> createSinogram(ClDeviceContext& dev, int angles, int detectors) override;
    Status enqueueKernel(cl_command_queue queue, const ClPassShape& shape, const ClLaunch& launch,
                         const std::vector<cl_event>& wait, ClEvent& done) override;

  private:
    TextureConfig m_config;
    ClKernel m_kernel;
};

}  // namespace tomo::opencl
