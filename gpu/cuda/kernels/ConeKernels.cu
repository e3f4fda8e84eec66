// ConeKernels.cu - the cone-beam (FDK) back-projection kernels and their launchers (see
// ConeKernels.h; paper 003, Listing 1). Every float constant carries the f suffix; no double.
// Division is IEEE (no fast math), so 1 / h2 rounds as the CPU kernels' does.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "core/cone/ConeTileWalk.h"
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/ConeKernels.h"

namespace tomo::cuda {
namespace kernels {
namespace {

constexpr int kPadBefore = 1;     // core/cone/ConeKernelSupport.h
constexpr int kRowsPerBlock = 8;  // blocks of 32 x 8 threads
constexpr int kMaxGridZ = 65535;

/// The index matrices of the launch's views: row r of view p is cMats[p][r] (x, y, z, w) acting
/// on (i, j, k, 1).
__constant__ float4 cMats[kConeBatch][3];

__device__ __forceinline__ float clampf(float x, float lo, float hi) {
    return fminf(fmaxf(x, lo), hi);
}

__device__ __forceinline__ float texel(cudaTextureObject_t t, float x, float y, int layer) {
    return tex2DLayered<float>(t, x, y, layer);
}

/// Bilinear sample of the padded [v][u] image in layer @p layer at clamped (u, v): u first.
__device__ __forceinline__ float textureRows(cudaTextureObject_t t, int layer, float u, float v) {
    const float fu0 = floorf(u), fv0 = floorf(v);
    const float fu = u - fu0, fv = v - fv0;
    // Texel centres of padded column fu0 + 1 and row fv0 + 1 (point sampling).
    const float x = fu0 + (kPadBefore + 0.5f), y = fv0 + (kPadBefore + 0.5f);
    const float t00 = texel(t, x, y, layer), t01 = texel(t, x + 1.0f, y, layer);
    const float t10 = texel(t, x, y + 1.0f, layer), t11 = texel(t, x + 1.0f, y + 1.0f, layer);
    const float top = t00 + fu * (t01 - t00);
    const float bottom = t10 + fu * (t11 - t10);
    return top + fv * (bottom - top);
}

/// Bilinear sample of a transposed padded [u][v] image: columns fu0 + 1 and fu0 + 2 (padded),
/// fraction @p fu; v is clamped here. Ldg: @p col points at padded column fu0 + 1.
template <ConeFetch FETCH>
__device__ __forceinline__ float sampleColumn(const ConeLaunchArgs& a, const float* col, int layer,
                                              float fu0, float fu, float v) {
    v = clampf(v, -1.0f, a.maxV);
    const float fv0 = floorf(v);
    const float fv = v - fv0;
    float a0, a1, b0, b1;  // column u0 at rows v0, v0 + 1; column u0 + 1 at the same rows
    if constexpr (FETCH == ConeFetch::Ldg) {
        const int r = static_cast<int>(fv0) + kPadBefore;
        a0 = __ldg(col + r);
        a1 = __ldg(col + r + 1);
        b0 = __ldg(col + a.stride + r);
        b1 = __ldg(col + a.stride + r + 1);
    } else {
        const float x = fv0 + (kPadBefore + 0.5f), y = fu0 + (kPadBefore + 0.5f);
        a0 = texel(a.texture, x, y, layer);
        a1 = texel(a.texture, x + 1.0f, y, layer);
        b0 = texel(a.texture, x, y + 1.0f, layer);
        b1 = texel(a.texture, x + 1.0f, y + 1.0f, layer);
    }
    const float top = a0 + fu * (b0 - a0);
    const float bottom = a1 + fu * (b1 - a1);
    return top + fv * (bottom - top);
}

// Block (32, 8): threadIdx.x = lane = voxel (pair) j of the column, threadIdx.y selects the
// column i, so a warp is one column (i, k) and i is uniform across it. Grid
// (ceil(jcount / 32), ceil(nx / 8), planes of this launch).
template <bool MIRROR, ConeFetch FETCH>
__global__ void __launch_bounds__(256) shflKernel(ConeLaunchArgs a, int planeOffset) {
    const int lane = static_cast<int>(threadIdx.x);
    const int j = static_cast<int>(blockIdx.x) * 32 + lane;
    const int i = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (i >= a.nx) return;  // the whole warp: no lane is left out of a shuffle
    const int kk = static_cast<int>(blockIdx.z) + planeOffset;
    const int jcount = MIRROR ? (a.ny + 1) / 2 : a.ny;
    const bool active = j < jcount;
    const bool pair = MIRROR && a.ny - 1 - j > j;
    const float fi = static_cast<float>(i), fj = static_cast<float>(j);
    const float fk = static_cast<float>(kk + a.firstPlane);
    // Lane L: 1/h2 and clamped u of view L for this column (Theorems 2 and 3: no j terms).
    float laneU = 0.0f, laneF = 0.0f;
    if (lane < a.views) {
        const float4 r0 = cMats[lane][0], r2 = cMats[lane][2];
        laneF = 1.0f / (r2.x * fi + r2.z * fk + r2.w);
        laneU = clampf((r0.x * fi + r0.z * fk + r0.w) * laneF, -1.0f, a.maxU);
    }
    float sum = 0.0f, msum = 0.0f;
    for (int s = 0; s < a.views; ++s) {
        const float u = __shfl_sync(0xffffffffu, laneU, s);
        const float f = __shfl_sync(0xffffffffu, laneF, s);
        if (active) {  // every lane took part in both shuffles
            const float4 r1 = cMats[s][1];
            const float v = (r1.x * fi + r1.y * fj + r1.z * fk + r1.w) * f;
            const float fu0 = floorf(u), fu = u - fu0, w = f * f;
            const float* col = nullptr;
            if constexpr (FETCH == ConeFetch::Ldg)
                col = a.proj + static_cast<size_t>(s) * a.image +
                      static_cast<size_t>((static_cast<int>(fu0) + kPadBefore) * a.stride);
            sum += w * sampleColumn<FETCH>(a, col, s, fu0, fu, v);
            if (pair) msum += w * sampleColumn<FETCH>(a, col, s, fu0, fu, a.nv1 - v);
        }
    }
    if (!active) return;
    float* column = a.acc + (static_cast<size_t>(kk) * a.nx + i) * a.ny;
    column[j] += sum;
    if (pair) column[a.ny - 1 - j] += msum;
}

// The tile kernel (cuda.fdk.tile): shflKernel's column sharing carried further (paper 003,
// Algorithm 4 and Listing 1). A thread owns kTileVoxels voxels (pairs) of its column, 32 apart
// (so a warp's reads and writes stay coalesced), and lane L computes every column term of view
// L once per launch: 1/h2, the weight, the fraction of u and the offset of padded column
// floor(u) + 1, and v's column part v0 and slope dv (v = v0 + j dv: no dot product per voxel).
// The shuffled terms serve 2 kTileVoxels updates. A block is a patch of kTileCols x
// kTilePlanes columns (x, z), a warp per column: its columns' detector columns overlap more
// than those of 8 columns in a row, so more of its reads hit L1. Blocks are walked y chunks
// first, then strips of patches across x, patch row by patch row (tomoTileBlock), so the
// blocks resident at one time cover a compact region of the (x, z) plane whose projection
// footprint stays in L2 (the grid order x, then planes, streams whole projections through L2
// for every plane).
constexpr int kTileVoxels = TOMO_TILE_VOXELS;  // core/cone/ConeTileWalk.h
constexpr int kTileCols = TOMO_TILE_COLS, kTilePlanes = TOMO_TILE_PLANES;
static_assert(TOMO_TILE_ROWS == kRowsPerBlock);

/// Bilinear sample of a transposed padded image: @p col is padded column floor(u) + 1 (STAGED:
/// in a shared-memory patch whose columns are @p stride floats apart).
template <bool STAGED = false>
__device__ __forceinline__ float tileSample(const float* col, int stride, float fu, float v,
                                            float maxV) {
    v = clampf(v, -1.0f, maxV);
    const float fv0 = floorf(v);
    const float fv = v - fv0;
    const float* t = col + (static_cast<int>(fv0) + kPadBefore);
    float a0, a1, b0, b1;
    if constexpr (STAGED) {
        a0 = t[0], a1 = t[1], b0 = t[stride], b1 = t[stride + 1];
    } else {
        a0 = __ldg(t), a1 = __ldg(t + 1), b0 = __ldg(t + stride), b1 = __ldg(t + stride + 1);
    }
    const float top = a0 + fu * (b0 - a0);
    const float bottom = a1 + fu * (b1 - a1);
    return top + fv * (bottom - top);
}

/// The same from a column-pair image (ConeLaunchArgs::pairs): @p col holds float2 (column
/// floor(u) + 1, column floor(u) + 2) per row, so one 8-byte load fetches two taps. The same
/// taps and arithmetic as tileSample: the same bits.
__device__ __forceinline__ float tilePairSample(const float* col, float fu, float v, float maxV) {
    v = clampf(v, -1.0f, maxV);
    const float fv0 = floorf(v);
    const float fv = v - fv0;
    const float2* t = reinterpret_cast<const float2*>(col) + (static_cast<int>(fv0) + kPadBefore);
    const float2 p0 = __ldg(t), p1 = __ldg(t + 1);  // (a0, b0), (a1, b1)
    const float top = p0.x + fu * (p0.y - p0.x);
    const float bottom = p1.x + fu * (p1.y - p1.x);
    return top + fv * (bottom - top);
}

template <bool PAIRS>
__device__ __forceinline__ float tileTap(const float* col, int stride, float fu, float v,
                                         float maxV) {
    if constexpr (PAIRS) return tilePairSample(col, fu, v, maxV);
    return tileSample(col, stride, fu, v, maxV);
}

/// Adds a thread's sums to voxels (pairs) j0 + 32 t of column (i, kk).
template <bool MIRROR>
__device__ __forceinline__ void storeTile(const ConeLaunchArgs& a, int kk, int i, int j0,
                                          const float* sum, const float* msum) {
    const int jcount = MIRROR ? (a.ny + 1) / 2 : a.ny;
    float* column = a.acc + (static_cast<size_t>(kk) * a.nx + i) * a.ny;
#pragma unroll
    for (int t = 0; t < kTileVoxels; ++t) {
        const int j = j0 + 32 * t;
        if (j >= jcount) break;
        column[j] += sum[t];
        if (MIRROR && a.ny - 1 - j > j) column[a.ny - 1 - j] += msum[t];
    }
}

/// View @p s's terms of column (fi, fk): 1/h2 and u, clamped, whose floor and fraction it
/// returns in @p fu0 and @p fu.
__device__ __forceinline__ float tileColumnTerms(const ConeLaunchArgs& a, int s, float fi, float fk,
                                                 float& fu0, float& fu) {
    const float4 r0 = cMats[s][0], r2 = cMats[s][2];
    const float f = 1.0f / (r2.x * fi + r2.z * fk + r2.w);
    const float u = clampf((r0.x * fi + r0.z * fk + r0.w) * f, -1.0f, a.maxU);
    fu0 = floorf(u);
    fu = u - fu0;
    return f;
}

// Block (32, 8): lane = voxel (pair) j0 + lane + 32 t of column (i, kk), threadIdx.y picks
// the column of the patch. 1D grid of jBlocks x iBlocks x kBlocks blocks over the launch's
// planes, from plane planeOffset on.
template <bool MIRROR, bool PAIRS>
__global__ void __launch_bounds__(256, 4) tileKernel(ConeLaunchArgs a, int planeOffset, int planes,
                                                     int jBlocks, int iBlocks, int kBlocks) {
    const int3 blk = tomoTileBlock(static_cast<int>(blockIdx.x), jBlocks, iBlocks, kBlocks);
    const int lane = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
    const int i = blk.y * kTileCols + y % kTileCols, dk = blk.z * kTilePlanes + y / kTileCols;
    if (i >= a.nx || dk >= planes) return;  // the whole warp: no lane misses a shuffle
    const int kk = dk + planeOffset;
    const int j0 = blk.x * (32 * kTileVoxels) + lane;
    const float fi = static_cast<float>(i), fk = static_cast<float>(kk + a.firstPlane);
    int laneCol = 0;
    float laneFu = 0.0f, laneV0 = 0.0f, laneDv = 0.0f, laneW = 0.0f;
    if (lane < a.views) {
        const float4 r1 = cMats[lane][1];
        float fu0;
        const float f = tileColumnTerms(a, lane, fi, fk, fu0, laneFu);
        laneCol = (static_cast<int>(fu0) + kPadBefore) * a.stride * (PAIRS ? 2 : 1);
        laneV0 = (r1.x * fi + r1.z * fk + r1.w) * f;
        laneDv = r1.y * f;
        laneW = f * f;
    }
    float sum[kTileVoxels], msum[kTileVoxels];
#pragma unroll
    for (int t = 0; t < kTileVoxels; ++t)
        sum[t] = msum[t] = 0.0f;
    const float fj0 = static_cast<float>(j0);
    for (int s = 0; s < a.views; ++s) {
        const int colOffset = __shfl_sync(0xffffffffu, laneCol, s);
        const float fu = __shfl_sync(0xffffffffu, laneFu, s);
        const float v0 = __shfl_sync(0xffffffffu, laneV0, s);
        const float dv = __shfl_sync(0xffffffffu, laneDv, s);
        const float w = __shfl_sync(0xffffffffu, laneW, s);
        const float* col = a.proj + static_cast<size_t>(s) * a.image + colOffset;
#pragma unroll
        for (int t = 0; t < kTileVoxels; ++t) {  // voxels past the column read clamped rows
            const float v = v0 + (fj0 + 32.0f * static_cast<float>(t)) * dv;
            sum[t] += w * tileTap<PAIRS>(col, a.stride, fu, v, a.maxV);
            if constexpr (MIRROR)
                msum[t] += w * tileTap<PAIRS>(col, a.stride, fu, a.nv1 - v, a.maxV);
        }
    }
    storeTile<MIRROR>(a, kk, i, j0, sum, msum);
}

using TileKernel = void (*)(ConeLaunchArgs, int, int, int, int, int);

/// @p kernel over the slab in 1D grids of at most 2^31 - 1 blocks (tomoTileBlock's walk).
Status launchTileGrid(TileKernel kernel, bool mirror, const ConeLaunchArgs& a, cudaStream_t stream,
                      const char* what) {
    const int jcount = mirror ? (a.ny + 1) / 2 : a.ny;
    const int jBlocks = (jcount + 32 * kTileVoxels - 1) / (32 * kTileVoxels);
    const int iBlocks = (a.nx + kTileCols - 1) / kTileCols;
    const long long perRow = static_cast<long long>(jBlocks) * iBlocks;  // blocks per patch row
    const int chunk =
        static_cast<int>(std::min<long long>(a.planes, 0x7fffffffLL / perRow * kTilePlanes));
    for (int k0 = 0; k0 < a.planes; k0 += chunk) {
        const int planes = std::min(chunk, a.planes - k0);
        const int kBlocks = (planes + kTilePlanes - 1) / kTilePlanes;
        kernel<<<static_cast<unsigned>(perRow * kBlocks), dim3(32, kRowsPerBlock), 0, stream>>>(
            a, k0, planes, jBlocks, iBlocks, kBlocks);
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaGetLastError(), what));
    }
    return Status::ok();
}

template <bool MIRROR, bool PAIRS>
Status launchTile(const ConeLaunchArgs& a, cudaStream_t stream) {
    return launchTileGrid(tileKernel<MIRROR, PAIRS>, MIRROR, a, stream, "launch of cone tile");
}

#include "gpu/cuda/kernels/ConeTileStagedKernel.cuh"  // cuda.fdk.tile.shared

// Block (32, 8) over (i, j); grid z = planes of this launch.
__global__ void __launch_bounds__(256) standardKernel(ConeLaunchArgs a, int planeOffset) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int j = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (i >= a.nx || j >= a.ny) return;
    const int kk = static_cast<int>(blockIdx.z) + planeOffset;
    const float fi = static_cast<float>(i), fj = static_cast<float>(j);
    const float fk = static_cast<float>(kk + a.firstPlane);
    float sum = 0.0f;
    for (int s = 0; s < a.views; ++s) {
        const float4 r0 = cMats[s][0], r1 = cMats[s][1], r2 = cMats[s][2];
        const float f = 1.0f / (r2.x * fi + r2.y * fj + r2.z * fk + r2.w);
        const float u = clampf((r0.x * fi + r0.y * fj + r0.z * fk + r0.w) * f, -1.0f, a.maxU);
        const float v = clampf((r1.x * fi + r1.y * fj + r1.z * fk + r1.w) * f, -1.0f, a.maxV);
        sum += f * f * textureRows(a.texture, s, u, v);
    }
    a.acc[(static_cast<size_t>(kk) * a.ny + j) * a.nx + i] += sum;
}

// Block (32, 8), 32 x 32 tiles: read along y (columns contiguous), write along x.
__global__ void __launch_bounds__(256)
    transposeKernel(const float* columns, float* out, int nx, int ny, int kBegin) {
    __shared__ float tile[32][33];
    const int j0 = static_cast<int>(blockIdx.x) * 32, i0 = static_cast<int>(blockIdx.y) * 32;
    const size_t plane = static_cast<size_t>(nx) * ny;
    const float* src = columns + (static_cast<size_t>(kBegin) + blockIdx.z) * plane;
    const int c = static_cast<int>(threadIdx.x);
    for (int r = static_cast<int>(threadIdx.y); r < 32; r += kRowsPerBlock)
        if (i0 + r < nx && j0 + c < ny) tile[r][c] = src[static_cast<size_t>(i0 + r) * ny + j0 + c];
    __syncthreads();
    float* dst = out + static_cast<size_t>(blockIdx.z) * plane;
    for (int r = static_cast<int>(threadIdx.y); r < 32; r += kRowsPerBlock)
        if (j0 + r < ny && i0 + c < nx) dst[static_cast<size_t>(j0 + r) * nx + i0 + c] = tile[c][r];
}

template <typename Kernel>
Status launchPlanes(Kernel kernel, const ConeLaunchArgs& a, dim3 grid, cudaStream_t stream,
                    const char* name) {
    const dim3 block(32, kRowsPerBlock);
    for (int k0 = 0; k0 < a.planes; k0 += kMaxGridZ) {
        grid.z = static_cast<unsigned>(std::min(kMaxGridZ, a.planes - k0));
        kernel<<<grid, block, 0, stream>>>(a, k0);
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaGetLastError(), std::string("launch of ") + name));
    }
    return Status::ok();
}

unsigned blocks(int n, int per) {
    return static_cast<unsigned>((n + per - 1) / per);
}

}  // namespace
}  // namespace kernels

namespace kernels {
namespace {

/// core/cone/ConeKernelSupport.h's packViews on the device: view p's rows ([nv][pitch]) into a
/// padded image of (slow + 3) x stride floats, transposed (slow = u) or not (slow = v); with
/// @p pairs (transposed only) element e of that image becomes floats 2e, 2e + 1: its own value
/// and the next column's (the tile kernels' column-pair images).
__global__ void padKernel(const float* rows, size_t pitch, int nu, int nv, bool transposed,
                          bool pairs, float* out, int stride, size_t image) {
    const int p = blockIdx.y;
    const float* view = rows + static_cast<size_t>(p) * nv * pitch;
    float* dst = out + static_cast<size_t>(p) * image;
    const int slow = transposed ? nu : nv, fast = transposed ? nv : nu;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < image;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const size_t e = pairs ? i / 2 : i;
        const int s = static_cast<int>(e / stride) - 1 + (pairs ? static_cast<int>(i % 2) : 0);
        const int f = static_cast<int>(e % stride) - 1;
        float v = 0.0f;
        if (s >= 0 && s < slow && f >= 0 && f < fast)
            v = transposed ? view[static_cast<size_t>(f) * pitch + s]
                           : view[static_cast<size_t>(s) * pitch + f];
        dst[i] = v;
    }
}

}  // namespace
}  // namespace kernels

Status launchConePad(const ConePadArgs& a, cudaStream_t stream) {
    if (a.views < 1 || a.views > 65535)
        return invalidArgument("cone padding of " + std::to_string(a.views) + " views");
    const unsigned perImage =
        static_cast<unsigned>(std::min<std::size_t>((a.image + 255) / 256, 1024));
    kernels::padKernel<<<dim3(perImage, static_cast<unsigned>(a.views)), 256, 0, stream>>>(
        a.rows, a.pitch, a.nu, a.nv, a.transposed, a.pairs, a.out, a.stride, a.image);
    return cudaCheck(cudaGetLastError(), "launch of the cone padding");
}

Status launchConeBackProjection(const ConeLaunchArgs& a, const float* matrices,
                                cudaStream_t stream) {
    using namespace kernels;
    if (a.views < 1 || a.views > kConeBatch)
        return invalidArgument("cone launch of " + std::to_string(a.views) + " views (1 to " +
                               std::to_string(kConeBatch) + ")");
    if (a.kernel == ConeKernel::Standard && a.fetch != ConeFetch::Texture)
        return unsupported("the standard cone kernel reads a layered texture only");
    TOMO_RETURN_IF_ERROR(cudaCheck(
        cudaMemcpyToSymbolAsync(cMats, matrices, static_cast<size_t>(a.views) * 12 * sizeof(float),
                                0, cudaMemcpyHostToDevice, stream),
        "cudaMemcpyToSymbolAsync(cone matrices)"));
    if (a.kernel == ConeKernel::TileMirror || a.kernel == ConeKernel::TileColumn) {
        if (a.fetch != ConeFetch::Ldg)
            return unsupported("the cone tile kernel reads by __ldg only");
        if (a.staged && a.pairs) return unsupported("a staged cone tile from column-pair images");
        if (a.staged)
            return a.kernel == ConeKernel::TileMirror ? launchTileStaged<true>(a, stream)
                                                      : launchTileStaged<false>(a, stream);
        if (a.kernel == ConeKernel::TileMirror)
            return a.pairs ? launchTile<true, true>(a, stream) : launchTile<true, false>(a, stream);
        return a.pairs ? launchTile<false, true>(a, stream) : launchTile<false, false>(a, stream);
    }
    if (a.kernel == ConeKernel::Standard)
        return launchPlanes(standardKernel, a, dim3(blocks(a.nx, 32), blocks(a.ny, kRowsPerBlock)),
                            stream, "cone standard");
    const bool mirror = a.kernel == ConeKernel::ShflMirror;
    const dim3 grid(blocks(mirror ? (a.ny + 1) / 2 : a.ny, 32), blocks(a.nx, kRowsPerBlock));
    const bool ldg = a.fetch == ConeFetch::Ldg;
    if (mirror)
        return ldg ? launchPlanes(shflKernel<true, ConeFetch::Ldg>, a, grid, stream, "shfl.ldg")
                   : launchPlanes(shflKernel<true, ConeFetch::Texture>, a, grid, stream,
                                  "shfl.tex");
    return ldg ? launchPlanes(shflKernel<false, ConeFetch::Ldg>, a, grid, stream, "shfl.ldg col")
               : launchPlanes(shflKernel<false, ConeFetch::Texture>, a, grid, stream,
                              "shfl.tex col");
}

Status launchConeTranspose(const float* columns, float* out, int nx, int ny, int kBegin, int planes,
                           cudaStream_t stream) {
    using namespace kernels;
    if (planes < 1 || planes > kMaxGridZ)
        return invalidArgument("cone transpose of " + std::to_string(planes) + " planes");
    const dim3 grid(blocks(ny, 32), blocks(nx, 32), static_cast<unsigned>(planes));
    transposeKernel<<<grid, dim3(32, kRowsPerBlock), 0, stream>>>(columns, out, nx, ny, kBegin);
    return cudaCheck(cudaGetLastError(), "launch of the cone transpose");
}

}  // namespace tomo::cuda
