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

/// Row p of group q: a + i b of a pair's slices, or views 2p, 2p + 1 of a single slice
/// (gridrecRowSource).
template <bool kHalf>
__global__ void gridrecPack(GridrecChunk c, const void* sinograms, float2* rows) {
    const int q = static_cast<int>(blockIdx.z), p = static_cast<int>(blockIdx.y);
    long long a = -1, b = -1;
    gridrecRowSource(c, q, p, a, b);
    float2* row = rows + (static_cast<size_t>(q) * c.views + p) * c.rowLength;
    for (int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); j < c.rowLength;
         j += static_cast<int>(gridDim.x * blockDim.x)) {
        float2 v = make_float2(0.f, 0.f);
        if (j < c.detectors) {
            if (a >= 0) v.x = loadValue<kHalf>(sinograms, static_cast<size_t>(a) + j);
            if (b >= 0) v.y = loadValue<kHalf>(sinograms, static_cast<size_t>(b) + j);
        }
        row[j] = v;
    }
}

/// Samples of view p of group q: m_k w R[|k|] exp(i k phase) X[k] (gridrecSample).
__global__ void gridrecSamples(GridrecChunk c, GridrecConstants k, const float2* rows,
                               float2* samples) {
    const int q = static_cast<int>(blockIdx.z), p = static_cast<int>(blockIdx.y);
    int first = 0, count = 0;
    gridrecSampleRange(c, q, first, count);
    float2* out = samples + (static_cast<size_t>(q) * c.views + p) * c.sampleStride;
    const double phase = k.phaseOverPi[p];
    const float w = k.weights[p];
    for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < count;
         i += static_cast<int>(gridDim.x * blockDim.x)) {
        float2 v;
        gridrecSample(c, q, p, i, reinterpret_cast<const float*>(rows), k.response, w, phase, v.x,
                      v.y);
        out[i] = v;
    }
}

/// Segments staged per batch in shared memory (GatherLine: 64 bytes each).
constexpr int kGatherBatch = 128;

/// One thread per grid point of a tile: the sum over the tile's segments (GatherMath.h). The
/// block stages its segments in batches as GatherLines in shared memory (each prepared once,
/// read by every point as a broadcast), so no point waits on a segment's and then its view's
/// global loads; the points' k ranges are products with the views' reciprocals.
__global__ void __launch_bounds__(256)
    gridrecGather(GridrecChunk c, GridrecConstants k, const float2* samples, float2* grids) {
    extern __shared__ float coefficients[];
    __shared__ GatherLine lines[kGatherBatch];
    const int n = (k.degree + 1) * k.width;
    const int threads = static_cast<int>(blockDim.x * blockDim.y);
    const int thread = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    for (int i = thread; i < n; i += threads)
        coefficients[i] = k.coefficients[i];
    const int q = static_cast<int>(blockIdx.z);
    // A warp's 32 points are 8 x 4 of the tile, not two rows of 16: a line's k ranges differ
    // less within a squarer warp, so fewer lanes wait on the others' samples (a quarter fewer
    // warp iterations at 2048^2, docs/cuda.md). The tile's edge is a multiple of 8.
    const int lane = thread & 31, warp = thread >> 5, across = k.tile / 8;
    const int gx = static_cast<int>(blockIdx.x) * k.tile + (warp % across) * 8 + (lane & 7);
    const int gy = static_cast<int>(blockIdx.y) * k.tile + (warp / across) * 4 + (lane >> 3);
    const bool inside = gx < c.gridX && gy < c.gridY;  // every thread stages and syncs
    const bool single = gridrecSingle(c, q);
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
    const std::uint32_t first = k.tileStart[t], last = k.tileStart[t + 1];
    for (std::uint32_t base = first; base < last; base += kGatherBatch) {
        const int count = static_cast<int>(min(last - base, std::uint32_t(kGatherBatch)));
        __syncthreads();  // the previous batch read (and, first, the coefficients written)
        for (int i = thread; i < count; i += threads)
            lines[i] = gatherPrepare(g, k.views, k.segments[base + i]);
        __syncthreads();
        if (inside)
            for (int i = 0; i < count; ++i)
                gatherLine(g, lines[i], s, gx, gy, re, im);
    }
    if (inside) grids[(static_cast<size_t>(q) * c.gridY + gy) * c.gridX + gx] = make_float2(re, im);
}

/// Output pixel (ix, iy) of group q: the deapodised grid value, real part to slice 2q,
/// imaginary part to slice 2q + 1 (gridrecPixel).
template <bool kHalf>
__global__ void gridrecImages(GridrecChunk c, GridrecConstants k, const float2* grids,
                              void* images) {
    const int q = static_cast<int>(blockIdx.z);
    const int ix = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int iy = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (ix >= c.nx || iy >= c.ny) return;
    float a = 0.f, b = 0.f;
    long long at = 0, bt = 0;
    gridrecPixel(c, q, ix, iy, k.rowOf[iy], k.columnOf[ix], k.deapodY[iy] * k.deapodX[ix],
                 reinterpret_cast<const float*>(grids), a, b, at, bt);
    storeValue<kHalf>(images, static_cast<size_t>(at), a);
    if (bt >= 0) storeValue<kHalf>(images, static_cast<size_t>(bt), b);
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
