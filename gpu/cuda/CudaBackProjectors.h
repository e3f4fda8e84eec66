#pragma once
/// @file CudaBackProjectors.h
/// @brief Registration of the CUDA back-projector variants (no CUDA types in this header).
///
/// registerBackProjectors() opens one CUDA device (device 0 or the one named in the options),
/// and adds every entry of core's one variant table (core/projectors/GpuVariants.h) whose
/// kernel is compiled, as `cuda.<name>` with the table's metadata (the same as gpu/opencl's)
/// plus CUDA's storage and shared-memory parameters (docs/cuda.md). Kernels: paper 002 (S.
/// Chilingaryan et al., "Reviewing GPU architectures to build efficient back projection for
/// parallel geometries", J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w):
///  - texture (§5, texture object API): cuda.texture.{lin,nn}.1s, lin.2s (float2 texels),
///    nn.4s (float4 texels), zorder.lin.{1s,2s} (Alg. 2), cached.lin.{1s,2s} (Alg. 3 with
///    warp-shuffle reduction), cached.lin.1s.sconst (Alg. 5, constants in shared memory),
///    half.nn.4s (4 binary16 slices in a half4 texture, nearest, converted by the texture
///    unit; approximate);
///  - ALU (§6, shared-memory cache): cuda.alu.{lin,nn}.{1s,2s,4s}.{32x32,64x64}[.8px][.occ1]
///    (.occ1: occupancy target of one block per SM instead of the register budget, §6.9),
///    acm (Advanced Caching Mode, neighbours by shuffles), hx (h_x cache), fpround (2^23 floor),
///    half (binary16 shared cache; approximate);
///  - oversampling (§7.2; approximate): cuda.oversampling.nn.{1s,2s}, .sampler.nn.1s;
///  - hybrid (§7.1): cuda.hybrid.lin.1s (ALU:texture 5:3 per SM by %smid tickets),
///    cuda.hybrid.lin.2s (1:1).
/// Without a CUDA device nothing is added and the report says why; callers fall back to the
/// CPU or OpenCL. Threading: call once from one thread; each factory call makes an independent
/// BackProjector (one per job) sharing the device context.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/projectors/BackProjector.h"

namespace tomo::cuda {

class CudaDeviceContext;  // gpu/cuda/internal/CudaDeviceContext.h (no CUDA types here)

struct CudaRegistrationOptions {
    int device = -1;  ///< CUDA device index; -1 = device 0
};

/// What registerBackProjectors() did.
struct CudaRegistration {
    bool available = false;                                    ///< a device was opened
    std::string device;                                        ///< "<name> (sm_XY)"
    std::string message;                                       ///< why no device was opened
    std::vector<std::string> registered;                       ///< ids added
    std::vector<std::pair<std::string, std::string>> skipped;  ///< (id, reason)
    /// The device context the variants and the FBP filter share (null without a device): the
    /// owner passes it on to the operators of the same device (CudaLocalityOptions::context).
    std::shared_ptr<CudaDeviceContext> context;
};

/// The metadata of every CUDA variant this build compiles (id, family, interpolation, slices,
/// precision, exactness, parameters), without a device: for documentation, `tomo devices
/// --explain` on machines without a GPU and the selection tests against recorded traits.
std::vector<BackProjectorInfo> compiledVariants();

/// Adds every compiled variant to @p registry when a CUDA device can be opened. Never fails.
CudaRegistration registerBackProjectors(BackProjectorRegistry& registry,
                                        const CudaRegistrationOptions& options = {});

}  // namespace tomo::cuda
