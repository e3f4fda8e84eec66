// KernelCommon.cuh - device helpers shared by the CUDA kernel families (paper 002,
// doi:10.1007/s11554-019-00883-w): S-slice vectors, bin loads from the pitched sinogram,
// texture fetches, the Fig. 13 Z-order accumulation mapping and the output store.
// Every float constant carries the f suffix (no double in kernels).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "gpu/cuda/kernels/CudaKernels.h"

namespace tomo::cuda::kernels {

/// S floats (S = 1, 2, 4, 8), aligned so that shared/global accesses are 4-32 byte vectors.
template <int S>
struct alignas(S >= 4 ? 16 : 4 * S) Vec {
    float v[S];
};

template <int S>
__device__ __forceinline__ Vec<S> vzero() {
    Vec<S> r;
#pragma unroll
    for (int s = 0; s < S; ++s)
        r.v[s] = 0.0f;
    return r;
}
template <int S>
__device__ __forceinline__ void vadd(Vec<S>& a, const Vec<S>& b) {
#pragma unroll
    for (int s = 0; s < S; ++s)
        a.v[s] += b.v[s];
}
template <int S>
__device__ __forceinline__ Vec<S> vscale(float w, const Vec<S>& a) {
    Vec<S> r;
#pragma unroll
    for (int s = 0; s < S; ++s)
        r.v[s] = w * a.v[s];
    return r;
}
/// a + f (b - a), element-wise.
template <int S>
__device__ __forceinline__ Vec<S> vlerp(const Vec<S>& a, const Vec<S>& b, float f) {
    Vec<S> r;
#pragma unroll
    for (int s = 0; s < S; ++s)
        r.v[s] = a.v[s] + f * (b.v[s] - a.v[s]);
    return r;
}

/// w times detector pixel j of row p of the pitched sinogram; zero outside the detector.
template <int S>
__device__ __forceinline__ Vec<S> loadBin(const SinogramView& sino, int p, int j, float w) {
    if (j < 0 || j >= sino.detectors) return vzero<S>();
    const Vec<S>* row = reinterpret_cast<const Vec<S>*>(static_cast<const char*>(sino.data) +
                                                        static_cast<size_t>(p) * sino.pitch);
    Vec<S> v;
#pragma unroll
    for (int s = 0; s < S; ++s)
        v.v[s] = __ldg(&row[j].v[s]);
    return vscale(w, v);
}

/// The texture sample at (x, y) as S floats (texels of 1, 2 or 4 floats).
template <int S>
__device__ __forceinline__ Vec<S> fetch(cudaTextureObject_t tex, float x, float y) {
    Vec<S> r;
    if constexpr (S == 1) {
        r.v[0] = tex2D<float>(tex, x, y);
    } else if constexpr (S == 2) {
        const float2 t = tex2D<float2>(tex, x, y);
        r.v[0] = t.x;
        r.v[1] = t.y;
    } else {
        const float4 t = tex2D<float4>(tex, x, y);
        r.v[0] = t.x;
        r.v[1] = t.y;
        r.v[2] = t.z;
        r.v[3] = t.w;
    }
    return r;
}

/// 4 binary16 slices in one texel of a half4 texture (16-bit float channels,
/// cudaChannelFormatKindFloat; paper 002 §5.3): the texture unit converts the genuine half
/// texels to float on the fetch, so no half bits ever pass through a float register (where a
/// denormal flush could lose a slice).
__device__ __forceinline__ Vec<4> fetchHalf4(cudaTextureObject_t tex, float x, float y) {
    return fetch<4>(tex, x, y);
}

/// Projection constants {cx, cy, a, w} through the read-only data cache.
__device__ __forceinline__ float4 loadConst(const float* consts, int p) {
    return __ldg(reinterpret_cast<const float4*>(consts) + p);
}

/// Z-order position of q (0..15) inside a 4x4 square: bits 0 and 2 give x, bits 1 and 3 y.
__device__ __forceinline__ int zorderX(int q) {
    return (q & 1) | ((q >> 1) & 2);
}
__device__ __forceinline__ int zorderY(int q) {
    return ((q >> 1) & 1) | ((q >> 2) & 2);
}

/// Writes (or adds) S values of one pixel; slice planes are @p plane floats apart.
template <int S>
__device__ __forceinline__ void storePixel(float* out, size_t index, size_t plane, const Vec<S>& v,
                                           bool accumulate) {
#pragma unroll
    for (int s = 0; s < S; ++s) {
        float* o = out + index + s * plane;
        *o = accumulate ? *o + v.v[s] : v.v[s];
    }
}

}  // namespace tomo::cuda::kernels
