#pragma once
/// @file AluLauncher.h
/// @brief The local-memory-cache families of paper 002 on OpenCL (S. Chilingaryan et al.,
/// J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w): the ALU kernel
/// (section 6, kernels/alu.cl), oversampling (section 7.2, kernels/oversample.cl) and the
/// texture + ALU hybrid (section 7.1, kernels/hybrid.cl), all sharing kernels/alu_common.cl.
///
/// A work-group reconstructs an n x n tile (n = 32 or 64) with 256 or 128 work-items, i.e.
/// 4, 8 or 16 pixels per work-item. Per batch of `projectionsPerBatch` projections it caches
/// the 1.5 n sinogram bins the tile needs per projection in local memory (stage 1, origin
/// h_m = floor(h_b + c_m) - 1 from the tile corner with the lowest detector index), waits at a
/// barrier, and interpolates from the cache in ALUs (stage 2). Options: Advanced Caching Mode
/// (value/difference pairs: one fetch and one multiply-add per linear update), the h_x cache,
/// floor by the 2^23 trick (tie-exact: results equal the plain build's), 1/2/4 slices.
/// Half-precision cache (ALU family): bins stored as binary16 in local memory with
/// vstore_half/vload_half (approximate). Oversampling caches 4 linearly interpolated samples
/// per bin, by the ALUs from a buffer or (samplerFill) by a linear image sampler at offsets k/4,
/// and looks up the nearest one (approximate). The hybrid runs `ratioAlu` of every ratioAlu +
/// ratioTex work-groups on the ALU path and the rest on the texture path (OpenCL has no SM id; see
/// docs/opencl.md).
///
/// Geometry and results follow core/projectors/BackProjector.h (detector index
/// u = c_p + (x cos + y sin) / pitch; linear interpolation fading to zero beyond the edge
/// centres; nearest = floor(u + 0.5)); exact variants agree with cpu.reference.* to float
/// rounding. The cache covers grids with voxel size up to ~1.02 detector pitches; projections
/// whose tile span is wider are read from the sinogram directly (same results, slower).
///
/// Internal to tomo_gpu_opencl (includes OpenCL types); tests/gpu include it too. Threading: a
/// launcher belongs to one ClBackProjector (not thread-safe).

#include <span>
#include <string>

#include "core/projectors/GpuVariants.h"
#include "gpu/opencl/internal/ClFamilies.h"
#include "gpu/opencl/internal/ClKernelLauncher.h"

namespace tomo::opencl {

/// Parameters of one variant (the -D build options of the kernels): core's one variant table's
/// configuration (core/projectors/GpuVariants.h, the same struct the CUDA kernels use; threads
/// = work-items per work-group) and OpenCL's own choices.
struct AluConfig : GpuAluConfig {
    bool checkRange = false;  ///< debug: count h_m range violations (violationCount())
    /// Hybrid and samplerFill: channel order of the sinogram image (set by aluSupport()).
    cl_channel_order channelOrder = CL_R;

    /// The sinogram is an image2d (hybrid, sampler-filled oversampling), else a buffer.
    bool imageSinogram() const { return readsTexture(); }
};

/// Why @p traits cannot run @p config (empty when it can); picks the image format of the
/// image-based variants (float images with linear filtering for samplerFill).
std::string aluSupport(const ClDeviceTraits& traits, AluConfig& config);
/// The kernel source files (concatenated) and -D options of @p config.
std::string aluSourceFiles(const AluConfig& config);
std::string aluBuildOptions(const AluConfig& config);
/// Local memory one work-group of @p config needs, in bytes.
std::size_t aluLocalBytes(const AluConfig& config);

class AluLauncher final : public ClKernelLauncher {
  public:
    explicit AluLauncher(AluConfig config) : m_config(config) {}

    Status prepare(ClDeviceContext& dev) override;
    int slicesPerPass() const override { return m_config.slices; }
    bool usesImage() const override { return m_config.imageSinogram(); }
    std::size_t packedBytes(int angles, int detectors) const override;
    int channels() const override;
    bool halfStorage() const override { return false; }
    Result<ClMem> createSinogram(ClDeviceContext& dev, int angles, int detectors) override;
    Status enqueueKernel(cl_command_queue queue, const ClPassShape& shape, const ClLaunch& launch,
                         const std::vector<cl_event>& wait, ClEvent& done) override;

    /// checkRange builds: cache indices outside the h_m range counted since prepare() (waits for
    /// the device's kernel queue).
    Result<unsigned> violationCount(ClDeviceContext& dev) const;

  private:
    AluConfig m_config;
    ClKernel m_kernel;
    ClMem m_violations;
};

/// The h_m range of the kernels' caches, computed on the host with the kernels' float
/// arithmetic (alu_common.cl): for every tile of an nx x ny image, projection and tile pixel,
/// h = ((hb - hm) + lx cx) + ly cy is the pixel's position inside the cache. With
/// @p routeWide false, projections too wide for the cache are counted like the others.
struct AluCacheRange {
    float minPosition = 0.f;        ///< smallest h over the cached (non-wide) projections
    float maxPosition = 0.f;        ///< largest h
    long long outside = 0;          ///< positions outside [0, bins - 2]
    long long wideProjections = 0;  ///< (tile, projection) pairs read directly (span too wide)
};
AluCacheRange aluCacheRange(std::span<const ClProjectionConstants> constants, int nx, int ny,
                            int tile, int bins, bool routeWide = true);

/// Registers opencl.alu.* and opencl.hybrid.* (called by registerBackProjectors()), and with
/// @p withOversampling also opencl.oversampling.* (approximate in float32 storage; left out of
/// the application registry until the shared variant tests accept that kind of approximation).
void registerAluBackProjectors(BackProjectorRegistry& registry, OpenClRegistration& report,
                               const std::shared_ptr<ClDeviceContext>& device,
                               bool withOversampling = false);

}  // namespace tomo::opencl
