// TextureKernels.cu - the texture family (paper 002, S. Chilingaryan et al., J. Real-Time Image
// Proc. 17, 2020, doi:10.1007/s11554-019-00883-w, section 5) and its launcher:
//  - standard kernel (Alg. 1): 16x16 blocks, one pixel per thread, one fetch per projection;
//    1 slice (float texels), 2 slices (float2 texels, one 8-byte fetch gives both), 4 slices
//    (float4 texels), 4 slices as binary16 in a half4 texture (16-bit float channels), which
//    the texture unit converts to float4 on the fetch (§5.3; approximate);
//  - Z-order remapping (Alg. 2): the 16 threads of each 4x4 pixel square follow a Z curve, so
//    groups of 4 threads fetch neighbouring bins;
//  - cache-aware multi-projection kernel (Alg. 3, Alg. 5 with constants staged in shared
//    memory): 4 pixels per thread, 4 projection phases interleaved in the lowest 2 lane bits and
//    reduced by warp shuffles (__shfl_xor_sync), the tile staged in shared memory and stored row
//    by row (coalesced).
// Linear or nearest interpolation is the texture object's filter mode, so it needs no separate
// instantiation. Occupancy targets by __launch_bounds__ (256 threads, >= 4 blocks/SM: 1024 threads,
// the sm_75 maximum).
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/KernelCommon.cuh"

namespace tomo::cuda {
namespace kernels {
namespace {

constexpr int kTile = 16;

template <int S, bool HALF>
__device__ __forceinline__ Vec<S> texSample(cudaTextureObject_t tex, float u, int p) {
    if constexpr (HALF) {
        return fetchHalf4(tex, u + 0.5f, static_cast<float>(p) + 0.5f);
    } else {
        return fetch<S>(tex, u + 0.5f, static_cast<float>(p) + 0.5f);
    }
}

template <int S, bool HALF, bool ZORDER>
__global__ void __launch_bounds__(256, 4) textureKernel(LaunchArgs a) {
    int lx = threadIdx.x, ly = threadIdx.y;
    if constexpr (ZORDER) {
        const int t = ly * kTile + lx, q = t & 15, square = t >> 4;
        lx = (square & 3) * 4 + zorderX(q);
        ly = (square >> 2) * 4 + zorderY(q);
    }
    const int ix = blockIdx.x * kTile + lx;
    const int band = blockIdx.y * kTile + ly;
    if (ix >= a.nx || band >= a.rows) return;
    const float fx = static_cast<float>(ix), fy = static_cast<float>(a.rowBegin + band);
    Vec<S> sum = vzero<S>();
    for (int p = a.projBegin; p < a.projEnd; ++p) {
        const float4 c = loadConst(a.consts, p);
        const float u = (c.z + fy * c.y) + fx * c.x;
        vadd(sum, vscale(c.w, texSample<S, HALF>(a.sino.texture, u, p)));
    }
    const size_t plane = static_cast<size_t>(a.rows) * a.nx;
    storePixel<S>(a.out, static_cast<size_t>(band) * a.nx + ix, plane, sum, a.accumulate);
}

// Alg. 3: thread t of 256: bits 0-1 projection phase, bits 2-5 Z-order position q in a 4x4
// square, bits 6-7 one of 4 squares along x (a 16x4 strip). The thread sums pixels
// (x, y + 4i), i = 0..3, over projections phase, phase + 4, ...
template <int S, bool SHARED_CONSTS>
__global__ void __launch_bounds__(256, 4) cachedKernel(LaunchArgs a) {
    __shared__ Vec<S> staged[kTile][kTile];
    __shared__ float4 sharedConsts[SHARED_CONSTS ? 256 : 1];
    const int t = threadIdx.y * kTile + threadIdx.x;
    const int phase = t & 3, q = (t >> 2) & 15, square = t >> 6;
    const int lx = square * 4 + zorderX(q), ly = zorderY(q);
    const float fx = static_cast<float>(blockIdx.x * kTile + lx);
    const float fy = static_cast<float>(a.rowBegin + blockIdx.y * kTile + ly);
    Vec<S> s[4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
        s[i] = vzero<S>();
    auto update = [&](const float4& c, int p) {
        const float hx = fx * c.x;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float u = (c.z + (fy + 4.0f * i) * c.y) + hx;
            vadd(s[i], vscale(c.w, texSample<S, false>(a.sino.texture, u, p)));
        }
    };
    if constexpr (SHARED_CONSTS) {
        for (int chunk = a.projBegin; chunk < a.projEnd; chunk += 256) {
            const int n = min(256, a.projEnd - chunk);
            __syncthreads();
            if (t < n) sharedConsts[t] = loadConst(a.consts, chunk + t);
            __syncthreads();
#pragma unroll 4
            for (int k = phase; k < n; k += 4)
                update(sharedConsts[k], chunk + k);
        }
    } else {
#pragma unroll 4
        for (int p = a.projBegin + phase; p < a.projEnd; p += 4)
            update(loadConst(a.consts, p), p);
    }
    // Sum the 4 phases (lanes differing in bits 0-1) with shuffles.
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int c = 0; c < S; ++c) {
            float v = s[i].v[c];
            v += __shfl_xor_sync(0xffffffffu, v, 1);
            v += __shfl_xor_sync(0xffffffffu, v, 2);
            s[i].v[c] = v;
        }
        // Lane of phase k stores pixel i = k of its strip position.
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (i == phase) staged[ly + 4 * i][lx] = s[i];
    __syncthreads();
    const int ox = blockIdx.x * kTile + (t & 15);
    const int oy = blockIdx.y * kTile + (t >> 4);
    if (ox < a.nx && oy < a.rows)
        storePixel<S>(a.out, static_cast<size_t>(oy) * a.nx + ox,
                      static_cast<size_t>(a.rows) * a.nx, staged[t >> 4][t & 15], a.accumulate);
}

template <typename Kernel>
Status launch2d(Kernel kernel, const LaunchArgs& a, cudaStream_t stream, const char* name) {
    const dim3 block(kTile, kTile);
    const dim3 grid((a.nx + kTile - 1) / kTile, (a.rows + kTile - 1) / kTile);
    kernel<<<grid, block, 0, stream>>>(a);
    return cudaCheck(cudaGetLastError(), std::string("launch of ") + name);
}

}  // namespace
}  // namespace kernels

std::string textureSupport(const TextureConfig& c) {
    const bool cached =
        c.kernel == TextureKernel::Cached || c.kernel == TextureKernel::CachedStagedConstants;
    if (c.half && (c.slices != 4 || c.interpolation != Interpolation::Nearest ||
                   c.kernel != TextureKernel::Standard))
        return "half storage is compiled for the standard 4-slice nearest kernel only";
    if (c.slices != 1 && c.slices != 2 && c.slices != 4) return "slices must be 1, 2 or 4";
    if ((c.kernel == TextureKernel::ZOrder || cached) && c.slices == 4)
        return "Z-order and cached kernels are compiled for 1 and 2 slices";
    if (c.kernel == TextureKernel::CachedStagedConstants && c.slices != 1)
        return "shared-constant cached kernel is compiled for 1 slice";
    return {};
}

Status launchTexture(const TextureConfig& c, const LaunchArgs& a, cudaStream_t stream) {
    using namespace kernels;
    if (std::string why = textureSupport(c); !why.empty()) return unsupported("texture: " + why);
    switch (c.kernel) {
        case TextureKernel::Standard:
            if (c.half) return launch2d(textureKernel<4, true, false>, a, stream, "texture.half");
            if (c.slices == 1)
                return launch2d(textureKernel<1, false, false>, a, stream, "texture");
            if (c.slices == 2)
                return launch2d(textureKernel<2, false, false>, a, stream, "texture");
            return launch2d(textureKernel<4, false, false>, a, stream, "texture");
        case TextureKernel::ZOrder:
            if (c.slices == 1)
                return launch2d(textureKernel<1, false, true>, a, stream, "texture.zorder");
            return launch2d(textureKernel<2, false, true>, a, stream, "texture.zorder");
        case TextureKernel::Cached:
            if (c.slices == 1) return launch2d(cachedKernel<1, false>, a, stream, "texture.cached");
            return launch2d(cachedKernel<2, false>, a, stream, "texture.cached");
        default:
            return launch2d(cachedKernel<1, true>, a, stream, "texture.cached.sconst");
    }
}

}  // namespace tomo::cuda
