// GridrecKernels.cu - gridrec on CUDA (GridrecKernels.h): packing rows, the samples of
// FourierPlan.h from the transformed rows, the gather of GatherMath.h (one thread per grid
// point over its tile's segments, no atomics), and the deapodised images.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "gpu/cuda/fourier/GridrecKernels.h"
#include "gpu/cuda/internal/CudaHandles.h"

namespace tomo::cuda {
namespace kernels {
namespace {

template <bool kHalf>
__device__ __forceinline__ float loadValue(const void* data, size_t i) {
    if constexpr (kHalf)
        return __half2float(static_cast<const __half*>(data)[i]);
    else
        return static_cast<const float*>(data)[i];
}

template <bool kHalf>
__device__ __forceinline__ void storeValue(void* data, size_t i, float v) {
    if constexpr (kHalf)
        static_cast<__half*>(data)[i] = __float2half_rn(v);
    else
        static_cast<float*>(data)[i] = v;
}

__device__ __forceinline__ bool singleGroup(const GridrecChunk& c, int q) {
    return c.lastSingle && q == c.groups - 1;
}

/// Row p of group q: a + i b of a pair's slices, or views 2p, 2p + 1 of a single slice.
template <bool kHalf>
__global__ void gridrecPack(GridrecChunk c, const void* sinograms, float2* rows) {
    const int q = static_cast<int>(blockIdx.z), p = static_cast<int>(blockIdx.y);
    const bool single = singleGroup(c, q);
    const size_t plane = static_cast<size_t>(c.views) * c.detectors;
    const int sliceA = 2 * q, sliceB = single ? 2 * q : 2 * q + 1;
    const int viewA = single ? 2 * p : p, viewB = single ? 2 * p + 1 : p;
    const bool hasA = viewA < c.views, hasB = viewB < c.views;
    const size_t a = sliceA * plane + static_cast<size_t>(viewA) * c.detectors;
    const size_t b = sliceB * plane + static_cast<size_t>(viewB) * c.detectors;
    float2* row = rows + (static_cast<size_t>(q) * c.views + p) * c.rowLength;
    for (int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); j < c.rowLength;
         j += static_cast<int>(gridDim.x * blockDim.x)) {
        float2 v = make_float2(0.f, 0.f);
        if (j < c.detectors) {
            if (hasA) v.x = loadValue<kHalf>(sinograms, a + j);
            if (hasB) v.y = loadValue<kHalf>(sinograms, b + j);
        }
        row[j] = v;
    }
}

/// Samples of view p of group q: m_k w_p R[|k|] exp(i k phase_p) X[k] (FourierPlan.h).
__global__ void gridrecSamples(GridrecChunk c, GridrecConstants k, const float2* rows,
                               float2* samples) {
    const int q = static_cast<int>(blockIdx.z), p = static_cast<int>(blockIdx.y);
    const bool single = singleGroup(c, q);
    const int l = c.rowLength, half = l / 2;
    const int kFirst = single ? 0 : -half, count = single ? half + 1 : l + 1;
    const float2* z = rows + (static_cast<size_t>(q) * c.views + (single ? p / 2 : p)) * l;
    float2* out = samples + (static_cast<size_t>(q) * c.views + p) * c.sampleStride;
    const double phase = k.phaseOverPi[p];
    const float w = k.weights[p];
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < count;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        const int kk = kFirst + i, a = kk < 0 ? -kk : kk;
        float m = w * k.response[a];
        if (a == half)
            m *= single ? 1.f : 0.5f;
        else if (single && kk != 0)
            m *= 2.f;
        float2 x;
        if (!single) {
            x = z[(kk + l) % l];
        } else {  // two real rows in one transform: A = (Z + conj Z-) / 2, B = (Z - conj Z-) / 2i
            const float2 zk = z[kk], zm = z[(l - kk) % l];
            x = (p & 1) ? make_float2(0.5f * (zk.y + zm.y), -0.5f * (zk.x - zm.x))
                        : make_float2(0.5f * (zk.x + zm.x), 0.5f * (zk.y - zm.y));
        }
        double t = kk * phase;  // exp(i k phase) = exp(i pi t), t reduced to [-1, 1] in double
        t -= 2.0 * rint(0.5 * t);
        float s, co;
        sincospif(static_cast<float>(t), &s, &co);
        out[i] = make_float2(m * (x.x * co - x.y * s), m * (x.x * s + x.y * co));
    }
}

/// One thread per grid point of a tile: the sum over the tile's segments (GatherMath.h).
__global__ void __launch_bounds__(256)
    gridrecGather(GridrecChunk c, GridrecConstants k, const float2* samples, float2* grids) {
    extern __shared__ float coefficients[];
    const int n = (k.degree + 1) * k.width;
    const int thread = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    for (int i = thread; i < n; i += static_cast<int>(blockDim.x * blockDim.y))
        coefficients[i] = k.coefficients[i];
    __syncthreads();
    const int q = static_cast<int>(blockIdx.z);
    const int gx = static_cast<int>(blockIdx.x) * k.tile + static_cast<int>(threadIdx.x);
    const int gy = static_cast<int>(blockIdx.y) * k.tile + static_cast<int>(threadIdx.y);
    if (gx >= c.gridX || gy >= c.gridY) return;
    const bool single = singleGroup(c, q);
    GatherGeometry g;
    g.gridX = c.gridX;
    g.gridY = c.gridY;
    g.width = k.width;
    g.degree = k.degree;
    g.kMin = single ? 0 : -c.rowLength / 2;
    g.kFirst = g.kMin;
    g.stride = c.sampleStride;
    g.coefficients = coefficients;
    const size_t t = static_cast<size_t>(blockIdx.y) * k.tilesX + blockIdx.x;
    const float* s = reinterpret_cast<const float*>(samples) +
                     2 * static_cast<size_t>(q) * c.views * c.sampleStride;
    float re = 0.f, im = 0.f;
    for (std::uint32_t i = k.tileStart[t]; i < k.tileStart[t + 1]; ++i)
        gatherSegment(g, k.views, s, k.segments[i], gx, gy, re, im);
    grids[(static_cast<size_t>(q) * c.gridY + gy) * c.gridX + gx] = make_float2(re, im);
}

/// Output pixel (ix, iy) of group q: the deapodised grid value, real part to slice 2q,
/// imaginary part to slice 2q + 1.
template <bool kHalf>
__global__ void gridrecImages(GridrecChunk c, GridrecConstants k, const float2* grids,
                              void* images) {
    const int q = static_cast<int>(blockIdx.z);
    const int ix = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int iy = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (ix >= c.nx || iy >= c.ny) return;
    const float2 v =
        grids[(static_cast<size_t>(q) * c.gridY + k.rowOf[iy]) * c.gridX + k.columnOf[ix]];
    const float d = k.deapodY[iy] * k.deapodX[ix];
    const size_t plane = static_cast<size_t>(c.nx) * c.ny;
    const size_t at = static_cast<size_t>(iy) * c.nx + ix;
    storeValue<kHalf>(images, 2 * q * plane + at, v.x * d);
    if (!singleGroup(c, q)) storeValue<kHalf>(images, (2 * q + 1) * plane + at, v.y * d);
}

dim3 rowsGrid(int perRow, int rows, int groups) {
    const int x = (perRow + 255) / 256;
    return dim3(static_cast<unsigned>(x > 16 ? 16 : x), static_cast<unsigned>(rows),
                static_cast<unsigned>(groups));
}

}  // namespace
}  // namespace kernels

Status launchGridrecPack(const GridrecChunk& c, const void* sinograms, float2* rows,
                         cudaStream_t stream) {
    const dim3 grid = kernels::rowsGrid(c.rowLength, c.views, c.groups);
    if (c.half)
        kernels::gridrecPack<true><<<grid, 256, 0, stream>>>(c, sinograms, rows);
    else
        kernels::gridrecPack<false><<<grid, 256, 0, stream>>>(c, sinograms, rows);
    return cudaCheck(cudaGetLastError(), "launch of gridrecPack");
}

Status launchGridrecSamples(const GridrecChunk& c, const GridrecConstants& k, const float2* rows,
                            float2* samples, cudaStream_t stream) {
    const dim3 grid = kernels::rowsGrid(c.rowLength + 1, c.views, c.groups);
    kernels::gridrecSamples<<<grid, 256, 0, stream>>>(c, k, rows, samples);
    return cudaCheck(cudaGetLastError(), "launch of gridrecSamples");
}

Status launchGridrecGather(const GridrecChunk& c, const GridrecConstants& k, const float2* samples,
                           float2* grids, cudaStream_t stream) {
    const dim3 grid(static_cast<unsigned>(k.tilesX), static_cast<unsigned>(k.tilesY),
                    static_cast<unsigned>(c.groups));
    const dim3 block(static_cast<unsigned>(k.tile), static_cast<unsigned>(k.tile));
    const size_t shared = sizeof(float) * static_cast<size_t>((k.degree + 1) * k.width);
    kernels::gridrecGather<<<grid, block, shared, stream>>>(c, k, samples, grids);
    return cudaCheck(cudaGetLastError(), "launch of gridrecGather");
}

Status launchGridrecImages(const GridrecChunk& c, const GridrecConstants& k, const float2* grids,
                           void* images, cudaStream_t stream) {
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>((c.nx + 31) / 32), static_cast<unsigned>((c.ny + 7) / 8),
                    static_cast<unsigned>(c.groups));
    if (c.half)
        kernels::gridrecImages<true><<<grid, block, 0, stream>>>(c, k, grids, images);
    else
        kernels::gridrecImages<false><<<grid, block, 0, stream>>>(c, k, grids, images);
    return cudaCheck(cudaGetLastError(), "launch of gridrecImages");
}

}  // namespace tomo::cuda
