#pragma once
/// @file GpuVariants.h
/// @brief The one table of GPU back-projector variants (paper 002: S. Chilingaryan et al.,
/// J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w), for every GPU backend
/// (issue 12): each entry names a kernel family and its configuration once; CUDA and OpenCL
/// register "<backend>.<name>" for the entries their kernels compile and their device runs,
/// with the same metadata (gpuVariantInfo), so core/selection's cost model reads both alike.
///
/// Families: texture (Alg. 1 standard, Alg. 2 Z-order, Alg. 3 cache-aware multi-projection,
/// Alg. 5 its constants staged on chip; 1/2/4-slice compound sinograms, a binary16 4-slice
/// variant), ALU with a shared (CUDA) / local (OpenCL) memory cache (sec. 6: Alg. 6, ACM
/// Alg. 9, h_x cache, rounding by the 2^23 trick, binary16 cache), oversampling (sec. 7.2) and
/// the texture + ALU hybrid (sec. 7.1).

#include <string>
#include <vector>

#include "core/projectors/BackProjector.h"

namespace tomo {

enum class TextureKernel { Standard, ZOrder, Cached, CachedStagedConstants };

/// A texture-family configuration.
struct GpuTextureConfig {
    TextureKernel kernel = TextureKernel::Standard;
    Interpolation interpolation = Interpolation::Linear;
    int slices = 1;     ///< 1, 2 or 4 (compound sinogram channels)
    bool half = false;  ///< 4 slices stored as binary16 (approximate)
    /// Alg. 3/5: 4 pixels per thread, 4 projection phases.
    bool cached() const {
        return kernel == TextureKernel::Cached || kernel == TextureKernel::CachedStagedConstants;
    }
};

enum class AluFamily { Alu, Oversampling, Hybrid };

/// An ALU-family configuration (the kernels' compile-time parameters on both backends).
struct GpuAluConfig {
    AluFamily family = AluFamily::Alu;
    Interpolation interpolation = Interpolation::Linear;  ///< Oversampling: Linear (approximated)
    int tile = 32;                                        ///< tile edge n: 32 or 64
    int threads = 256;               ///< threads (work-items) per block: 256 or 128
    int projectionsPerBatch = 16;    ///< cached projections per batch; divides threads
    int slices = 1;                  ///< 1, 2 or 4
    bool acm = false;                ///< Advanced Caching Mode (linear only)
    bool hxCache = false;            ///< h_x cache
    bool fpRounding = false;         ///< floor by the 2^23 trick (tie-exact)
    bool fpOffset = false;           ///< + cache byte offset in FP, no SFU op (FPROUND 2)
    bool cacheHalf = false;          ///< binary16 cache entries (approximate)
    bool samplerFill = false;        ///< oversampling: samples by the linear filtering unit
    int ratioAlu = 5, ratioTex = 3;  ///< hybrid: ALU and texture blocks per ratioAlu + ratioTex
    /// CUDA occupancy target (__launch_bounds__ minimum blocks per SM): 0 = the kernel's
    /// default, 1 = every register to the compiler. Other backends run only 0.
    int minBlocksPerSm = 0;
    int pixelsPerThread() const { return tile * tile / threads; }
    /// Bins cached per projection: 1.5 n.
    int bins() const { return tile * 3 / 2; }
    /// The kernel reads the sinogram through the texture unit (hybrid, sampler-filled
    /// oversampling).
    bool readsTexture() const { return family == AluFamily::Hybrid || samplerFill; }
};

/// One variant: a name after the backend ("alu.lin.1s.32x32") and its family configuration.
struct GpuVariant {
    std::string name;
    bool texture = false;  ///< tex applies, else alu
    GpuTextureConfig tex;
    GpuAluConfig alu;
    std::string description;
};

/// Every GPU variant, in registration order.
const std::vector<GpuVariant>& gpuVariants();

/// The metadata every backend reports for @p v: id "<backend>.<name>", family, interpolation,
/// slices per pass, precision, exactness, description and the cost model's parameters
/// (core/selection/VariantCost.h); backends add their storage and device parameters.
BackProjectorInfo gpuVariantInfo(const GpuVariant& v, const std::string& backend);

}  // namespace tomo
