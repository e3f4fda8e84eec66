#pragma once
/// @file CudaKernels.h
/// @brief The launch interface of the CUDA kernel families (paper 002: S. Chilingaryan et al.,
/// J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w). Internal to
/// tomo_gpu_cuda: includes CUDA runtime types; compiled by both g++ (the runtime layer) and nvcc
/// (the kernel library tomo_gpu_cuda_kernels, one .cu per family with its launcher).
///
/// Conventions (the same as gpu/opencl, see gpu/opencl/README.md): pixel (ix, iy) of the band
/// reads u = (c.z + iy * c.y) + ix * c.x with c = consts[p] = {cx, cy, a, w} and adds
/// c.w * interp(row p, u); samples outside [0, detectors - 1] read 0. The sinogram of a pass
/// is a pitched buffer of `angles` rows, each `detectors` texels of `channels` floats (or, for
/// the half-storage texture kernel, 4 binary16 values = one 8-byte half4 texel); textures are
/// pitch-linear texture objects over that buffer (no copy, paper 002 §4: "binds the filtered
/// buffer"), unnormalised coordinates, border address mode (zero outside), sampled at
/// (u + 0.5, p + 0.5). Output: out[(slice * rows + (iy - rowBegin)) * nx + ix], added to when
/// accumulate. Projection constants live in global memory read through the read-only cache
/// (uniform per warp, so one broadcast transaction; kernel parameters and __constant__ symbols
/// would tie a module to one caller at a time).
///
/// Every launcher returns a Status naming the kernel when the configuration is not one of the
/// compiled instantiations (Unsupported) or the launch fails (DeviceError, via cudaCheck).

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "core/base/Status.h"
#include "core/projectors/BackProjector.h"

namespace tomo::cuda {

/// The device sinogram of one pass.
struct SinogramView {
    const void* data = nullptr;       ///< pitched rows, one per projection of the chunk
    std::size_t pitch = 0;            ///< bytes between rows
    cudaTextureObject_t texture = 0;  ///< over the same memory (texture-reading kernels)
    int detectors = 0;
};

/// One kernel launch over a band of rows and a range of projections.
struct LaunchArgs {
    SinogramView sino;
    const float* consts = nullptr;  ///< float4 {cx, cy, a, w} per projection of the chunk
    int projBegin = 0, projEnd = 0;
    float* out = nullptr;  ///< [slices][rows][nx]
    int nx = 0, rows = 0, rowBegin = 0;
    bool accumulate = false;
    unsigned* smCounters = nullptr;  ///< hybrid: kSmCounters zeroed counters
    unsigned* violations = nullptr;  ///< ALU debug builds: range violation counter (unused)
};

/// Per-SM ticket counters the hybrid needs (>= the SM count of any current GPU).
inline constexpr int kSmCounters = 1024;

enum class TextureKernel { Standard, ZOrder, Cached, CachedSharedConstants };

/// Texture family (kernels/TextureKernels.cu; paper 002 Alg. 1, 2, 3, 5).
struct TextureConfig {
    TextureKernel kernel = TextureKernel::Standard;
    Interpolation interpolation = Interpolation::Linear;
    int slices = 1;     ///< 1, 2 (float2 texels) or 4 (float4 texels, or 4 x binary16)
    bool half = false;  ///< 4 slices as binary16 in a half4 texture (converted by the hardware)
    /// Texel size in floats (half: 2, i.e. the 8 bytes of 4 binary16 values).
    int channels() const { return half ? 2 : slices; }
};
Status launchTexture(const TextureConfig& config, const LaunchArgs& args, cudaStream_t stream);

enum class AluFamily { Alu, Oversampling, Hybrid };

/// ALU, oversampling and hybrid families (kernels/AluKernels.cu, OversampleKernels.cu,
/// HybridKernels.cu; paper 002 sections 6 and 7). Mirrors gpu/opencl/internal/AluLauncher.h's AluConfig.
struct AluConfig {
    AluFamily family = AluFamily::Alu;
    Interpolation interpolation = Interpolation::Linear;
    int tile = 32;                 ///< 32 or 64
    int threads = 256;             ///< 256 or 128 (tile^2 / threads pixels each)
    int projectionsPerBatch = 16;  ///< divides threads
    int slices = 1;                ///< 1, 2 or 4
    bool acm = false;              ///< Advanced Caching Mode (neighbours by warp shuffles)
    bool hxCache = false;
    bool fpRounding = false;         ///< floor by the 2^23 trick, index from the bit pattern
    bool fpOffset = false;           ///< + shared byte offset in FP, no SFU op (FPROUND 2)
    bool cacheHalf = false;          ///< binary16 shared cache (approximate)
    bool samplerFill = false;        ///< oversampling: samples by the linear texture unit
    int ratioAlu = 5, ratioTex = 3;  ///< hybrid: per-SM ticket ratio
    /// ALU occupancy target: __launch_bounds__ minimum blocks per SM; 0 = the register-budget
    /// default of AluKernels.cu, 1 = no occupancy constraint (every register to the compiler).
    int minBlocksPerSm = 0;
    int pixelsPerThread() const { return tile * tile / threads; }
    int bins() const { return tile * 3 / 2; }
    /// The kernel reads a texture object (hybrid, sampler-filled oversampling).
    bool usesTexture() const { return family == AluFamily::Hybrid || samplerFill; }
};
/// Shared memory one block of @p config uses (bytes; static allocation, <= 48 KiB).
std::size_t aluSharedBytes(const AluConfig& config);
/// Why @p config is not one of the compiled instantiations (empty when it is).
std::string aluSupport(const AluConfig& config);
Status launchAlu(const AluConfig& config, const LaunchArgs& args, cudaStream_t stream);
Status launchOversample(const AluConfig& config, const LaunchArgs& args, cudaStream_t stream);
Status launchHybrid(const AluConfig& config, const LaunchArgs& args, cudaStream_t stream);
/// Why the texture config is not compiled (empty when it is).
std::string textureSupport(const TextureConfig& config);

/// FBP filtering stage (kernels/FilterKernels.cu): rows [count][angles][detectors] of raw
/// sinograms in @p raw are zero-padded to @p padded (>= 2 detectors) into @p work (real,
/// padded + 2 floats per row for the in-place R2C), so cuFFT can transform them in place.
Status launchPadRows(const float* raw, float* work, int rows, int detectors, int padded,
                     cudaStream_t stream);
/// Multiplies the spectra (complex, padded / 2 + 1 per row) by the real @p response.
Status launchMultiplySpectra(float* work, const float* response, int rows, int padded,
                             cudaStream_t stream);
/// Packs filtered rows (stride padded + 2) of @p count slices into the pitched sinogram of a
/// pass: texel (p, j) channel s = slice s of row (s, p), channels beyond count zero; binary16
/// when @p half.
Status launchPackPass(const float* work, int count, int angles, int detectors, int padded,
                      int channels, bool half, void* sino, std::size_t pitch, cudaStream_t stream);

}  // namespace tomo::cuda
