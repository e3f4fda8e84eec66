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
#include "core/projectors/GpuVariants.h"

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

/// Texture family (kernels/TextureKernels.cu; paper 002 Alg. 1, 2, 3, 5): the configuration of
/// core's one variant table (core/projectors/GpuVariants.h). Texels: float x slices (1, 2, 4) or,
/// for half, 4 binary16 values in a half4 texture (converted by the hardware).
using TextureConfig = GpuTextureConfig;
/// Texel size in floats (half: 2, i.e. the 8 bytes of 4 binary16 values).
inline int textureChannels(const TextureConfig& c) {
    return c.half ? 2 : c.slices;
}
Status launchTexture(const TextureConfig& config, const LaunchArgs& args, cudaStream_t stream);

/// ALU, oversampling and hybrid families (kernels/AluKernels.cu, OversampleKernels.cu,
/// HybridKernels.cu; paper 002 sections 6 and 7): the configuration of core's one variant table
/// (core/projectors/GpuVariants.h), the same struct the OpenCL kernels are built from. ACM takes
/// neighbours by warp shuffles; minBlocksPerSm is the __launch_bounds__ occupancy target (0 =
/// the register-budget default of AluKernels.cu); the hybrid splits blocks per SM by tickets.
using AluConfig = GpuAluConfig;
/// Shared memory one block of @p config uses (bytes; static allocation, <= 48 KiB).
std::size_t aluSharedBytes(const AluConfig& config);
/// Why @p config is not one of the compiled instantiations (empty when it is).
std::string aluSupport(const AluConfig& config);
Status launchAlu(const AluConfig& config, const LaunchArgs& args, cudaStream_t stream);
Status launchOversample(const AluConfig& config, const LaunchArgs& args, cudaStream_t stream);
Status launchHybrid(const AluConfig& config, const LaunchArgs& args, cudaStream_t stream);
/// Why the texture config is not compiled (empty when it is).
std::string textureSupport(const TextureConfig& config);

/// A pass packed on the device (kernels/PackKernels.cu): the layout of core's packPassSlices.
struct PackArgs {
    const float* rows = nullptr;  ///< the chunk's rows [slices][angles][pitch]
    std::size_t pitch = 0;        ///< floats per row
    int angles = 0;               ///< rows per slice
    int s0 = 0, count = 0;        ///< the pass's slices in the chunk
    int a0 = 0, na = 0;           ///< its angle chunk
    int detectors = 0;
    int channels = 1;          ///< values per texel (half storage: 4 binary16)
    bool half = false;         ///< binary16 values (else float)
    void* out = nullptr;       ///< na pitched rows
    std::size_t outPitch = 0;  ///< bytes between them
};
Status launchPackPass(const PackArgs& args, cudaStream_t stream);

/// FBP's row filter (kernels/FilterKernels.cu): rows [rows][rowPitch floats] of sinograms in
/// @p raw are zero-padded to @p padded (>= 2 detectors) into @p work (real, padded + 2 floats
/// per row for the in-place R2C), so cuFFT can transform them in place.
Status launchPadRows(const float* raw, std::size_t rowPitch, float* work, int rows, int detectors,
                     int padded, cudaStream_t stream);
/// Multiplies the spectra (complex, padded / 2 + 1 per row) by the real @p response.
Status launchMultiplySpectra(float* work, const float* response, int rows, int padded,
                             cudaStream_t stream);
/// Copies the first @p detectors samples of each padded row of @p work (padded + 2 floats
/// apart) into @p rows ([rows][rowPitch floats]): the filtered rows.
Status launchUnpadRows(const float* work, float* rows, std::size_t rowPitch, int count,
                       int detectors, int padded, cudaStream_t stream);

}  // namespace tomo::cuda
