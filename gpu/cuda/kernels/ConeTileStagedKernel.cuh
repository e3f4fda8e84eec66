#pragma once
// ConeTileStagedKernel.cuh - the staged tile kernel (cuda.fdk.tile.shared) and its launcher, a
// part of kernels/ConeKernels.cu: included there inside its kernels namespace, after the tile
// kernel, whose helpers (tileSample, tileColumnTerms, storeTile, launchTileGrid) and __constant__
// matrices (cMats) it uses. Not a header of its own: it includes nothing.

// The staged tile kernel (cuda.fdk.tile.shared): tileKernel with the taps read from shared
// memory. Per view, the block's detector patch (the padded columns its 8 columns' taps read, by
// the rows their 4 x 32 voxels (pairs) read, in one row window and one more for the mirror) is
// loaded column by column with coalesced __ldg, a warp per column, TOMO_TILE_STAGE_VIEWS views
// per barrier pair; a view whose patch is larger than the stage reads from global memory as
// tileKernel does. The same taps and arithmetic as tileKernel: the same bits.
constexpr int kStageCols = TOMO_TILE_STAGE_COLS, kStageRows = TOMO_TILE_STAGE_ROWS;
constexpr int kStageViews = TOMO_TILE_STAGE_VIEWS;
static_assert(kStageCols == kRowsPerBlock, "a warp stages one column");

/// A view's staged patch: padded columns colLo .. colLo + cols - 1 by rows rowLo[w] ..
/// rowLo[w] + rows[w] - 1 of window w (0: v, 1: the mirror's nv - 1 - v); cols 0: not staged.
struct TilePatch {
    int colLo, cols, rowLo[2], rows[2];
};

/// Rows [x, y] of a padded column that taps of v between @p va and @p vb read (clamped as the
/// taps clamp v), one spare row each side against rounding.
__device__ __forceinline__ int2 tapRows(float va, float vb, float maxV) {
    const float lo = clampf(fminf(va, vb), -1.0f, maxV), hi = clampf(fmaxf(va, vb), -1.0f, maxV);
    return make_int2(static_cast<int>(floorf(lo)) + kPadBefore - 1,
                     static_cast<int>(floorf(hi)) + kPadBefore + 2);
}

/// View @p s's patch from the block's column terms (column -1: a warp past the volume).
template <bool MIRROR>
__device__ TilePatch tilePatch(const ConeLaunchArgs& a, const int (*col)[kConeBatch],
                               const float (*v0)[kConeBatch], const float (*dv)[kConeBatch], int s,
                               float jA, float jB) {
    int cLo = 0x7fffffff, cHi = -1;
    int2 rows[2] = {make_int2(0x7fffffff, -1), make_int2(0x7fffffff, -1)};
    for (int r = 0; r < kRowsPerBlock; ++r) {
        if (col[r][s] < 0) continue;
        cLo = min(cLo, col[r][s]);
        cHi = max(cHi, col[r][s]);
        const float va = v0[r][s] + jA * dv[r][s], vb = v0[r][s] + jB * dv[r][s];
        for (int w = 0; w < (MIRROR ? 2 : 1); ++w) {
            const int2 t =
                w == 0 ? tapRows(va, vb, a.maxV) : tapRows(a.nv1 - va, a.nv1 - vb, a.maxV);
            rows[w] = make_int2(min(rows[w].x, t.x), max(rows[w].y, t.y));
        }
    }
    TilePatch p{cLo, cHi - cLo + 2, {0, 0}, {0, 0}};  // the taps read columns c and c + 1
    for (int w = 0; w < (MIRROR ? 2 : 1); ++w) {
        p.rowLo[w] = max(rows[w].x, 0);
        p.rows[w] = min(rows[w].y, a.stride - 1) - p.rowLo[w] + 1;
        if (p.rows[w] > kStageRows) p.cols = 0;
    }
    if (cHi < 0 || p.cols > kStageCols) p.cols = 0;
    return p;
}

template <bool MIRROR>
__global__ void __launch_bounds__(256, 3)
    tileStagedKernel(ConeLaunchArgs a, int planeOffset, int planes, int jBlocks, int iBlocks,
                     int kBlocks) {
    __shared__ float sStage[kStageViews][MIRROR ? 2 : 1][kStageCols * kStageRows];
    __shared__ TilePatch sPatch[kConeBatch];
    __shared__ int sCol[kRowsPerBlock][kConeBatch];
    __shared__ float sV0[kRowsPerBlock][kConeBatch], sDv[kRowsPerBlock][kConeBatch];
    const int3 blk = tomoTileBlock(static_cast<int>(blockIdx.x), jBlocks, iBlocks, kBlocks);
    const int lane = static_cast<int>(threadIdx.x), y = static_cast<int>(threadIdx.y);
    const int i = blk.y * kTileCols + y % kTileCols, dk = blk.z * kTilePlanes + y / kTileCols;
    const bool live = i < a.nx && dk < planes;  // the other warps still stage and sync
    const int kk = dk + planeOffset;
    const int j0 = blk.x * (32 * kTileVoxels) + lane;
    const float fi = static_cast<float>(i), fk = static_cast<float>(kk + a.firstPlane);
    int laneCol = -1;  // padded column floor(u) + 1
    float laneFu = 0.0f, laneV0 = 0.0f, laneDv = 0.0f, laneW = 0.0f;
    if (lane < a.views && live) {
        const float4 r1 = cMats[lane][1];
        float fu0;
        const float f = tileColumnTerms(a, lane, fi, fk, fu0, laneFu);
        laneCol = static_cast<int>(fu0) + kPadBefore;
        laneV0 = (r1.x * fi + r1.z * fk + r1.w) * f;
        laneDv = r1.y * f;
        laneW = f * f;
    }
    sCol[y][lane] = laneCol;
    sV0[y][lane] = laneV0;
    sDv[y][lane] = laneDv;
    __syncthreads();
    const float jA = static_cast<float>(blk.x * (32 * kTileVoxels));
    if (y == 0 && lane < a.views)
        sPatch[lane] = tilePatch<MIRROR>(a, sCol, sV0, sDv, lane, jA, jA + (32 * kTileVoxels - 1));
    float sum[kTileVoxels], msum[kTileVoxels];
#pragma unroll
    for (int t = 0; t < kTileVoxels; ++t)
        sum[t] = msum[t] = 0.0f;
    const float fj0 = static_cast<float>(j0);
    for (int c = 0; c < a.views; c += kStageViews) {
        const int n = min(kStageViews, a.views - c);
        __syncthreads();  // the patches are written; the previous views' readers are done
        for (int q = 0; q < n; ++q) {
            const TilePatch p = sPatch[c + q];
            if (y >= p.cols) continue;  // a warp per column
            const float* src = a.proj + static_cast<size_t>(c + q) * a.image +
                               static_cast<size_t>(p.colLo + y) * a.stride;
            for (int w = 0; w < (MIRROR ? 2 : 1); ++w)
                for (int r = lane; r < p.rows[w]; r += 32)
                    sStage[q][w][y * kStageRows + r] = __ldg(src + p.rowLo[w] + r);
        }
        __syncthreads();
        for (int q = 0; q < n; ++q) {
            const int s = c + q;
            const int colIdx = __shfl_sync(0xffffffffu, laneCol, s);
            const float fu = __shfl_sync(0xffffffffu, laneFu, s);
            const float v0 = __shfl_sync(0xffffffffu, laneV0, s);
            const float dv = __shfl_sync(0xffffffffu, laneDv, s);
            const float w = __shfl_sync(0xffffffffu, laneW, s);
            if (!live) continue;
            const TilePatch p = sPatch[s];
            if (p.cols == 0) {  // the patch does not fit: tileKernel's global taps
                const float* col = a.proj + static_cast<size_t>(s) * a.image +
                                   static_cast<size_t>(colIdx) * a.stride;
#pragma unroll
                for (int t = 0; t < kTileVoxels; ++t) {
                    const float v = v0 + (fj0 + 32.0f * static_cast<float>(t)) * dv;
                    sum[t] += w * tileSample(col, a.stride, fu, v, a.maxV);
                    if constexpr (MIRROR)
                        msum[t] += w * tileSample(col, a.stride, fu, a.nv1 - v, a.maxV);
                }
                continue;
            }
            const int at = (colIdx - p.colLo) * kStageRows;
            const float* direct = &sStage[q][0][at] - p.rowLo[0];
            const float* mirror = &sStage[q][MIRROR ? 1 : 0][at] - p.rowLo[MIRROR ? 1 : 0];
#pragma unroll
            for (int t = 0; t < kTileVoxels; ++t) {
                const float v = v0 + (fj0 + 32.0f * static_cast<float>(t)) * dv;
                sum[t] += w * tileSample<true>(direct, kStageRows, fu, v, a.maxV);
                if constexpr (MIRROR)
                    msum[t] += w * tileSample<true>(mirror, kStageRows, fu, a.nv1 - v, a.maxV);
            }
        }
    }
    if (!live) return;
    storeTile<MIRROR>(a, kk, i, j0, sum, msum);
}

template <bool MIRROR>
Status launchTileStaged(const ConeLaunchArgs& a, cudaStream_t stream) {
    return launchTileGrid(tileStagedKernel<MIRROR>, MIRROR, a, stream,
                          "launch of cone tile.shared");
}
