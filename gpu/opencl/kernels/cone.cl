// Cone-beam FDK back-projection (issue 14; paper 003: P. Chen et al., "iFDK", SC '19,
// doi:10.1145/3295500.3356163). The arithmetic is core/cone/ConeBackProjector.h's, per voxel
// (i, j, k) of the WHOLE grid (k = slab plane + firstPlane) and view p:
//   h = M_p (i, j, k, 1), u = h0 / h2, v = h1 / h2, vol += bilinear(q_p, u, v) / h2^2,
// bilinear over the projection extended by zeros, u and v clamped to [-1, n] first. The
// projections are core/cone/ConeKernelSupport.h's padded layouts (1 zero before, 2 after), so a
// clamped coordinate reads padded index floor + 1 and its neighbour without bounds checks. Both
// kernels interpolate along u first, then along v (as the CPU kernels do).
//
// Kernels:
//  - coneStandard: one work-item per voxel, the three rows per view (any geometry); projections
//    [v][u] (u contiguous), volume [plane][y][x].
//  - coneSymmetric (Algorithm 4): one work-group per voxel column (i, k) along y, one work-item
//    per voxel pair j, ny-1-j (mirror != 0; Theorem 1: v(ny-1-j) = nv-1 - v(j)) or per voxel j.
//    u and 1/h2 depend on (i, k) only (Theorems 2, 3): each is computed once per column and view
//    and shared across the work-group (SHARE). Projections transposed ([u][v], v contiguous),
//    volume y-contiguous [plane][x][y].
//  - coneTile: coneSymmetric with every column term of a view computed once per work-group
//    row (v = v0 + j dv: no dot product per voxel), TOMO_TILE_VOXELS voxels (pairs) per
//    work-item, groups walked in (x, z) patches (CUDA's cuda.fdk.tile, its twin here).
//  - coneTileStaged: coneTile with each view's detector patch staged in local memory
//    (CUDA's cuda.fdk.tile.shared, its twin).
//  - coneColumnsToVolume: [plane][x][y] -> [plane][y][x] through 16x16 local tiles.
//
// Build options (-D):
//   SHARE  0 = every work-item computes u and 1/h2 itself; 1 = local memory: work-item l
//          computes view c + l of a chunk of CHUNK views, one barrier pair per chunk (default);
//          2 = sub-group broadcasts (cl_khr_subgroups / cl_intel_subgroups): lane l computes view
//          c + l, every lane reads view p from lane p (CUDA's __shfl_sync of Listing 1)
//   CHUNK  views per local-memory chunk (SHARE 1; default 32)
//   LOOP_BARRIER  SHARE 1: 1 = a barrier after every view (default 0). For CPU devices: PoCL runs
//          a work-group as loops over its work-items between barriers, so the barrier puts the
//          work-item loop inside the view loop, where it vectorises (3-30% faster on PoCL 3.1 in
//          four noisy runs); on GPUs it would only cost a synchronisation per view
// Every float constant carries the f suffix; no double.

#ifndef SHARE
#define SHARE 1
#endif
#ifndef CHUNK
#define CHUNK 32
#endif
#ifndef LOOP_BARRIER
#define LOOP_BARRIER 0
#endif

#if SHARE == 2
#if defined(cl_intel_subgroups)
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#elif defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
#endif

#define PAD_BEFORE 1

/// Bilinear sample of a padded [v][u] image at clamped (u, v): u first, then v.
inline float sampleRows(__global const float* img, int stride, float u, float v) {
    const float fu0 = floor(u), fv0 = floor(v);
    const float fu = u - fu0, fv = v - fv0;
    __global const float* t = img + ((int)fv0 + PAD_BEFORE) * stride + (int)fu0 + PAD_BEFORE;
    const float top = t[0] + fu * (t[1] - t[0]);
    const float bottom = t[stride] + fu * (t[stride + 1] - t[stride]);
    return top + fv * (bottom - top);
}

__kernel void coneStandard(__global const float* proj, __constant float4* mats, int views,
                           int stride, int image, float maxU, float maxV, __global float* acc,
                           int nx, int ny, int planes, int firstPlane) {
    const int i = get_global_id(0), j = get_global_id(1), kk = get_global_id(2);
    if (i >= nx || j >= ny || kk >= planes) return;
    const float fi = (float)i, fj = (float)j, fk = (float)(kk + firstPlane);
    float sum = 0.0f;
    for (int p = 0; p < views; ++p) {
        const float4 r0 = mats[3 * p], r1 = mats[3 * p + 1], r2 = mats[3 * p + 2];
        const float f = 1.0f / (r2.x * fi + r2.y * fj + r2.z * fk + r2.w);
        const float u = clamp((r0.x * fi + r0.y * fj + r0.z * fk + r0.w) * f, -1.0f, maxU);
        const float v = clamp((r1.x * fi + r1.y * fj + r1.z * fk + r1.w) * f, -1.0f, maxV);
        sum += f * f * sampleRows(proj + (size_t)p * (size_t)image, stride, u, v);
    }
    acc[((size_t)kk * (size_t)ny + (size_t)j) * (size_t)nx + (size_t)i] += sum;
}

/// (u clamped, 1/h2) of voxel column (i, k) in the view whose rows start at @p m; the y terms
/// of rows 0 and 2 are zero for Column geometries (ConeGeometry::symmetry) and are left out.
inline float2 columnUF(__constant float4* m, float fi, float fk, float maxU) {
    const float f = 1.0f / (m[2].x * fi + m[2].z * fk + m[2].w);
    const float u = clamp((m[0].x * fi + m[0].z * fk + m[0].w) * f, -1.0f, maxU);
    return (float2)(u, f);
}

/// Bilinear sample of a transposed padded image: @p col is the padded u column floor(u) + 1
/// (the next one @p stride floats on), @p fu the fraction of u; v is clamped here.
inline float sampleColumn(__global const float* col, int stride, float fu, float v, float maxV) {
    v = clamp(v, -1.0f, maxV);
    const float fv0 = floor(v);
    const float fv = v - fv0;
    const int r = (int)fv0 + PAD_BEFORE;
    const float top = col[r] + fu * (col[stride + r] - col[r]);
    const float bottom = col[r + 1] + fu * (col[stride + r + 1] - col[r + 1]);
    return top + fv * (bottom - top);
}

/// Adds view p (u and 1/h2 in @p uf) to the voxel j and, for a pair, to its mirror.
inline void addView(__global const float* proj, __constant float4* mats, int p, float2 uf,
                    int stride, int image, float maxV, float nv1, float fi, float fj, float fk,
                    int pair, float* sum, float* msum) {
    const float4 r1 = mats[3 * p + 1];
    const float v = (r1.x * fi + r1.y * fj + r1.z * fk + r1.w) * uf.y;
    const float fu0 = floor(uf.x);
    __global const float* col =
        proj + (size_t)p * (size_t)image + (size_t)(((int)fu0 + PAD_BEFORE) * stride);
    const float fu = uf.x - fu0, w = uf.y * uf.y;
    *sum += w * sampleColumn(col, stride, fu, v, maxV);
    if (pair) *msum += w * sampleColumn(col, stride, fu, nv1 - v, maxV);
}

// Work-group (L, 1, 1): one column (i = group 1, plane kk = group 2), work-item j in dim 0;
// global (roundUp(jcount, L), nx, planes) with jcount = (ny + 1) / 2 (mirror) or ny. Work-items
// past jcount still compute and share their views' u and 1/h2 (they only depend on i, k).
__kernel void coneSymmetric(__global const float* proj, __constant float4* mats, int views,
                            int stride, int image, float maxU, float maxV, float nv1,
                            __global float* acc, int nx, int ny, int firstPlane, int mirror) {
    const int j = get_global_id(0), i = get_global_id(1), kk = get_global_id(2);
    const int jcount = mirror ? (ny + 1) / 2 : ny;
    const int active = j < jcount;
    const int pair = mirror && ny - 1 - j > j;
    const float fi = (float)i, fj = (float)j, fk = (float)(kk + firstPlane);
    float sum = 0.0f, msum = 0.0f;
#if SHARE == 0
    if (active)
        for (int p = 0; p < views; ++p)
            addView(proj, mats, p, columnUF(mats + 3 * p, fi, fk, maxU), stride, image, maxV, nv1,
                    fi, fj, fk, pair, &sum, &msum);
#elif SHARE == 1
    __local float2 uf[CHUNK];
    const int lj = (int)get_local_id(0), ly = (int)get_local_size(0);
    for (int c = 0; c < views; c += CHUNK) {
        const int n = min(CHUNK, views - c);
        barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's readers are done
        for (int p = lj; p < n; p += ly)
            uf[p] = columnUF(mats + 3 * (c + p), fi, fk, maxU);
        barrier(CLK_LOCAL_MEM_FENCE);
#if LOOP_BARRIER
        for (int p = 0; p < n; ++p) {
            if (active)
                addView(proj, mats, c + p, uf[p], stride, image, maxV, nv1, fi, fj, fk, pair, &sum,
                        &msum);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
#else
        if (active)
            for (int p = 0; p < n; ++p)
                addView(proj, mats, c + p, uf[p], stride, image, maxV, nv1, fi, fj, fk, pair, &sum,
                        &msum);
#endif
    }
#else
    // The whole work-group is one column, so every sub-group is too, whatever its size.
    const int lane = (int)get_sub_group_local_id(), width = (int)get_sub_group_size();
    for (int c = 0; c < views; c += width) {
        const int n = min(width, views - c);
        float2 mine = (float2)(0.0f, 1.0f);
        if (lane < n) mine = columnUF(mats + 3 * (c + lane), fi, fk, maxU);
        for (int p = 0; p < n; ++p) {
            const float2 t = (float2)(sub_group_broadcast(mine.x, (uint)p),
                                      sub_group_broadcast(mine.y, (uint)p));
            if (active)
                addView(proj, mats, c + p, t, stride, image, maxV, nv1, fi, fj, fk, pair, &sum,
                        &msum);
        }
    }
#endif
    if (!active) return;
    __global float* column = acc + ((size_t)kk * (size_t)nx + (size_t)i) * (size_t)ny;
    column[j] += sum;
    if (pair) column[ny - 1 - j] += msum;
}

// coneTile: CUDA's tile kernel (kernels/ConeKernels.cu, cuda.fdk.tile) with local memory in
// place of the shuffles; its shape and block walk are core/cone/ConeTileWalk.h's (TOMO_TILE_*,
// tomoTileBlock), whose text the program carries before this one. Work-group (32,
// TOMO_TILE_ROWS): a patch of TOMO_TILE_COLS x TOMO_TILE_PLANES columns (x, z), row r is column
// (r % TOMO_TILE_COLS, r / TOMO_TILE_COLS) of the patch; work-item (lane, r) owns voxels (pairs)
// j0 + lane + 32 t, t < TOMO_TILE_VOXELS, and computes the column terms of view c + lane of each
// chunk of 32 views: the offset of padded column floor(u) + 1, u's fraction, v0 and dv
// (v = v0 + j dv) and 1/h2^2.

/// v clamped as every tap clamps it: the padded row of its floor, returned, and its fraction.
inline int tileRow(float v, float maxV, float* fv) {
    v = clamp(v, -1.0f, maxV);
    const float fv0 = floor(v);
    *fv = v - fv0;
    return (int)fv0 + PAD_BEFORE;
}

/// Bilinear blend of rows (0, 1) of column floor(u) + 1 (a) and the next column (b), u first.
inline float tileBlend(float a0, float a1, float b0, float b1, float fu, float fv) {
    const float top = a0 + fu * (b0 - a0);
    const float bottom = a1 + fu * (b1 - a1);
    return top + fv * (bottom - top);
}

/// Bilinear sample of a transposed padded image: @p col is padded column floor(u) + 1.
inline float tileSample(__global const float* col, int stride, float fu, float v, float maxV) {
    float fv;
    __global const float* t = col + tileRow(v, maxV, &fv);
    return tileBlend(t[0], t[1], t[stride], t[stride + 1], fu, fv);
}

/// The same from a column-pair image (pairs != 0): @p col holds (column floor(u) + 1, column
/// floor(u) + 2) per row, two taps per 8-byte load; the same taps and arithmetic.
inline float tilePairSample(__global const float* col, float fu, float v, float maxV) {
    float fv;
    const int r = tileRow(v, maxV, &fv);
    const float2 p0 = vload2(r, col), p1 = vload2(r + 1, col);  // (a0, b0), (a1, b1)
    return tileBlend(p0.x, p1.x, p0.y, p1.y, fu, fv);
}

inline float tileTap(__global const float* col, int pairs, int stride, float fu, float v,
                     float maxV) {
    return pairs ? tilePairSample(col, fu, v, maxV) : tileSample(col, stride, fu, v, maxV);
}

/// Adds a work-item's sums to voxels (pairs) j0 + 32 t of @p column.
inline void tileStore(__global float* column, const float* sum, const float* msum, int j0, int ny,
                      int mirror) {
    const int jcount = mirror ? (ny + 1) / 2 : ny;
    for (int t = 0; t < TOMO_TILE_VOXELS; ++t) {
        const int j = j0 + 32 * t;
        if (j >= jcount) break;
        column[j] += sum[t];
        if (mirror && ny - 1 - j > j) column[ny - 1 - j] += msum[t];
    }
}

/// The terms of view @p m (its matrix) for column (fi, fk): 1/h2, returned, and u clamped,
/// whose floor and fraction go to @p fu0 and @p fu.
inline float tileColumnTerms(__constant float4* m, float fi, float fk, float maxU, float* fu0,
                             float* fu) {
    const float f = 1.0f / (m[2].x * fi + m[2].z * fk + m[2].w);
    const float u = clamp((m[0].x * fi + m[0].z * fk + m[0].w) * f, -1.0f, maxU);
    *fu0 = floor(u);
    *fu = u - *fu0;
    return f;
}

/// The arguments coneTile and coneTileStaged share, in the order the host sets them.
#define TOMO_TILE_KERNEL_ARGS                                                                   \
    __global const float *proj, __constant float4 *mats, int views, int stride, int image,      \
        float maxU, float maxV, float nv1, __global float *acc, int nx, int ny, int firstPlane, \
        int mirror, int pairs, int planes, int jBlocks, int iBlocks, int kBlocks

/// A work-item's place in the tile walk: its lane and row, the column (i, kk) its row owns (live
/// when inside the slab; the other rows still meet the barriers), the block's first voxel
/// (pair) jFirst and the work-item's first, j0 = jFirst + lane, and their coordinates as floats.
typedef struct {
    int lane, row, i, kk, live, jFirst, j0;
    float fi, fk, fj0;
} TilePlace;

inline TilePlace tilePlace(int nx, int planes, int firstPlane, int jBlocks, int iBlocks,
                           int kBlocks) {
    TilePlace place;
    place.lane = (int)get_local_id(0);
    place.row = (int)get_local_id(1);
    const int3 blk = tomoTileBlock((int)get_group_id(0), jBlocks, iBlocks, kBlocks);
    place.i = blk.y * TOMO_TILE_COLS + place.row % TOMO_TILE_COLS;
    place.kk = blk.z * TOMO_TILE_PLANES + place.row / TOMO_TILE_COLS;
    place.live = place.i < nx && place.kk < planes;
    place.jFirst = blk.x * (32 * TOMO_TILE_VOXELS);
    place.j0 = place.jFirst + place.lane;
    place.fi = (float)place.i;
    place.fk = (float)(place.kk + firstPlane);
    place.fj0 = (float)place.j0;
    return place;
}

/// Zeroes a work-item's sums (and the mirror's).
inline void tileZero(float* sum, float* msum) {
    for (int t = 0; t < TOMO_TILE_VOXELS; ++t)
        sum[t] = msum[t] = 0.0f;
}

/// The terms of view @p m for column (fi, fk) into slot @p lane of the row's tables: u's fraction,
/// v0 and dv (v = v0 + j dv) and 1/h2^2; returns the padded column floor(u) + 1.
inline int tileViewTerms(__constant float4* m, float fi, float fk, float maxU, int lane,
                         __local float* fuRow, __local float* v0Row, __local float* dvRow,
                         __local float* wRow) {
    float fu0, fu;
    const float f = tileColumnTerms(m, fi, fk, maxU, &fu0, &fu);
    fuRow[lane] = fu;
    v0Row[lane] = (m[1].x * fi + m[1].z * fk + m[1].w) * f;
    dvRow[lane] = m[1].y * f;
    wRow[lane] = f * f;
    return (int)fu0 + PAD_BEFORE;
}

__kernel __attribute__((reqd_work_group_size(32, TOMO_TILE_ROWS, 1))) void coneTile(
    TOMO_TILE_KERNEL_ARGS) {
    __local int tCol[TOMO_TILE_ROWS][32];
    __local float tFu[TOMO_TILE_ROWS][32], tV0[TOMO_TILE_ROWS][32], tDv[TOMO_TILE_ROWS][32],
        tW[TOMO_TILE_ROWS][32];
    const TilePlace place = tilePlace(nx, planes, firstPlane, jBlocks, iBlocks, kBlocks);
    const int lane = place.lane, row = place.row, i = place.i, kk = place.kk, live = place.live,
              j0 = place.j0;
    float sum[TOMO_TILE_VOXELS], msum[TOMO_TILE_VOXELS];
    tileZero(sum, msum);
    for (int c = 0; c < views; c += 32) {
        const int n = min(32, views - c);
        barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's readers are done
        if (lane < n)
            tCol[row][lane] = tileViewTerms(mats + 3 * (c + lane), place.fi, place.fk, maxU, lane,
                                            tFu[row], tV0[row], tDv[row], tW[row]) *
                              stride * (pairs ? 2 : 1);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (live)
            for (int p = 0; p < n; ++p) {
                __global const float* col =
                    proj + (size_t)(c + p) * (size_t)image + (size_t)tCol[row][p];
                const float fu = tFu[row][p], v0 = tV0[row][p], dv = tDv[row][p], w = tW[row][p];
                for (int t = 0; t < TOMO_TILE_VOXELS; ++t) {  // past the column: clamped rows
                    const float v = v0 + (place.fj0 + 32.0f * (float)t) * dv;
                    sum[t] += w * tileTap(col, pairs, stride, fu, v, maxV);
                    if (mirror) msum[t] += w * tileTap(col, pairs, stride, fu, nv1 - v, maxV);
                }
            }
    }
    if (live)
        tileStore(acc + ((size_t)kk * (size_t)nx + (size_t)i) * (size_t)ny, sum, msum, j0, ny,
                  mirror);
}

// coneTileStaged: coneTile with the taps read from local memory (CUDA's tileStagedKernel,
// cuda.fdk.tile.shared, its twin). Per view, the work-group's detector patch (the padded columns
// its 8 columns' taps read, by the rows their 4 x 32 voxels (pairs) read, one row window and one
// more for the mirror) is loaded column by column, a work-group row per column,
// TOMO_TILE_STAGE_VIEWS views per barrier pair; a view whose patch is larger than the stage is
// read from global memory as coneTile reads it. The same taps and arithmetic: the same bits.

/// Rows (x, y) of a padded column that taps of v between va and vb read (clamped as the taps
/// clamp v), one spare row each side against rounding.
inline int2 tapRows(float va, float vb, float maxV) {
    const float lo = clamp(fmin(va, vb), -1.0f, maxV), hi = clamp(fmax(va, vb), -1.0f, maxV);
    return (int2)((int)floor(lo) + PAD_BEFORE - 1, (int)floor(hi) + PAD_BEFORE + 2);
}

/// Bilinear sample of a staged patch: @p col is padded column floor(u) + 1, rows at their index.
inline float tileStagedSample(__local const float* col, float fu, float v, float maxV) {
    float fv;
    __local const float* t = col + tileRow(v, maxV, &fv);
    return tileBlend(t[0], t[1], t[TOMO_TILE_STAGE_ROWS], t[TOMO_TILE_STAGE_ROWS + 1], fu, fv);
}

__kernel __attribute__((reqd_work_group_size(32, TOMO_TILE_ROWS, 1))) void coneTileStaged(
    TOMO_TILE_KERNEL_ARGS) {
    __local float stage[TOMO_TILE_STAGE_VIEWS][2][TOMO_TILE_STAGE_COLS * TOMO_TILE_STAGE_ROWS];
    __local int tCol[TOMO_TILE_ROWS][32], pColLo[32], pCols[32], pRowLo[2][32], pRows[2][32];
    __local float tFu[TOMO_TILE_ROWS][32], tV0[TOMO_TILE_ROWS][32], tDv[TOMO_TILE_ROWS][32],
        tW[TOMO_TILE_ROWS][32];
    const TilePlace place = tilePlace(nx, planes, firstPlane, jBlocks, iBlocks, kBlocks);
    const int lane = place.lane, row = place.row, i = place.i, kk = place.kk, live = place.live;
    const int windows = mirror ? 2 : 1;
    const float jA = (float)place.jFirst, jB = jA + (32 * TOMO_TILE_VOXELS - 1);
    float sum[TOMO_TILE_VOXELS], msum[TOMO_TILE_VOXELS];
    tileZero(sum, msum);
    for (int c = 0; c < views; c += 32) {
        const int n = min(32, views - c);
        barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's readers are done
        tCol[row][lane] = -1;          // no view, or a row outside the slab: not in the patch
        if (lane < n && live)
            tCol[row][lane] = tileViewTerms(mats + 3 * (c + lane), place.fi, place.fk, maxU, lane,
                                            tFu[row], tV0[row], tDv[row], tW[row]);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (row == 0 && lane < n) {  // view c + lane's patch
            int cLo = 0x7fffffff, cHi = -1;
            int2 rows[2] = {(int2)(0x7fffffff, -1), (int2)(0x7fffffff, -1)};
            for (int r = 0; r < TOMO_TILE_ROWS; ++r) {
                if (tCol[r][lane] < 0) continue;
                cLo = min(cLo, tCol[r][lane]);
                cHi = max(cHi, tCol[r][lane]);
                const float va = tV0[r][lane] + jA * tDv[r][lane];
                const float vb = tV0[r][lane] + jB * tDv[r][lane];
                for (int w = 0; w < windows; ++w) {
                    const int2 t =
                        w == 0 ? tapRows(va, vb, maxV) : tapRows(nv1 - va, nv1 - vb, maxV);
                    rows[w] = (int2)(min(rows[w].x, t.x), max(rows[w].y, t.y));
                }
            }
            int cols = cHi - cLo + 2;  // the taps read columns c and c + 1
            for (int w = 0; w < windows; ++w) {
                pRowLo[w][lane] = max(rows[w].x, 0);
                pRows[w][lane] = min(rows[w].y, stride - 1) - pRowLo[w][lane] + 1;
                if (pRows[w][lane] > TOMO_TILE_STAGE_ROWS) cols = 0;
            }
            pColLo[lane] = cLo;
            pCols[lane] = cHi < 0 || cols > TOMO_TILE_STAGE_COLS ? 0 : cols;
        }
        for (int p0 = 0; p0 < n; p0 += TOMO_TILE_STAGE_VIEWS) {
            const int m = min(TOMO_TILE_STAGE_VIEWS, n - p0);
            barrier(CLK_LOCAL_MEM_FENCE);  // the patches are known; the last views' readers done
            for (int q = 0; q < m; ++q) {
                const int p = p0 + q;
                if (row >= pCols[p]) continue;  // a work-group row per column
                __global const float* src =
                    proj + (size_t)(c + p) * (size_t)image + (size_t)(pColLo[p] + row) * stride;
                for (int w = 0; w < windows; ++w)
                    for (int r = lane; r < pRows[w][p]; r += 32)
                        stage[q][w][row * TOMO_TILE_STAGE_ROWS + r] = src[pRowLo[w][p] + r];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (live)
                for (int q = 0; q < m; ++q) {
                    const int p = p0 + q, colIdx = tCol[row][p];
                    const float fu = tFu[row][p], v0 = tV0[row][p], dv = tDv[row][p],
                                w = tW[row][p];
                    const int at = (colIdx - pColLo[p]) * TOMO_TILE_STAGE_ROWS;
                    __global const float* col =
                        proj + (size_t)(c + p) * (size_t)image + (size_t)colIdx * stride;
                    for (int t = 0; t < TOMO_TILE_VOXELS; ++t) {  // past the column: clamped rows
                        const float v = v0 + (place.fj0 + 32.0f * (float)t) * dv;
                        if (pCols[p] == 0) {  // the patch does not fit: coneTile's global taps
                            sum[t] += w * tileSample(col, stride, fu, v, maxV);
                            if (mirror) msum[t] += w * tileSample(col, stride, fu, nv1 - v, maxV);
                            continue;
                        }
                        sum[t] +=
                            w * tileStagedSample(&stage[q][0][at] - pRowLo[0][p], fu, v, maxV);
                        if (mirror)
                            msum[t] += w * tileStagedSample(&stage[q][1][at] - pRowLo[1][p], fu,
                                                            nv1 - v, maxV);
                    }
                }
        }
    }
    if (live)
        tileStore(acc + ((size_t)kk * (size_t)nx + (size_t)i) * (size_t)ny, sum, msum, place.j0, ny,
                  mirror);
}

// Plane kBegin + kk of cols [plane][x][y] -> plane kk of out [plane][y][x]. Work-groups 16x16:
// dim 0 runs along y on reading, along x on writing (both coalesced).
__kernel void coneColumnsToVolume(__global const float* cols, __global float* out, int nx, int ny,
                                  int kBegin) {
    __local float tile[16][17];
    const int kk = get_global_id(2);
    const int j0 = get_group_id(0) * 16, i0 = get_group_id(1) * 16;
    const int a = get_local_id(0), b = get_local_id(1);
    const size_t plane = (size_t)nx * (size_t)ny;
    if (j0 + a < ny && i0 + b < nx)
        tile[b][a] = cols[(size_t)(kBegin + kk) * plane + (size_t)(i0 + b) * ny + (j0 + a)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i0 + a < nx && j0 + b < ny)
        out[(size_t)kk * plane + (size_t)(j0 + b) * nx + (i0 + a)] = tile[a][b];
}

// A batch of filtered views ([views][nv][pitch] floats, from `first`) padded into the images
// the kernels read (core/cone/ConeKernelSupport.h packViews: 1 zero row/column before, 2 after;
// transposed to [u][v] for coneSymmetric): image p has (slow + 3) rows of `stride` floats. With
// `pairs` (transposed only) element e becomes floats 2e, 2e + 1: its own value and the next
// column's (coneTile's column-pair images).
__kernel void conePad(__global const float* rows, int pitch, int first, int nu, int nv,
                      int transposed, int pairs, __global float* out, int stride, int image) {
    const int i = get_global_id(0), p = get_global_id(1);
    if (i >= image) return;
    const int slow = transposed ? nu : nv, fast = transposed ? nv : nu;
    const int e = pairs ? i / 2 : i;
    const int s = e / stride - 1 + (pairs ? i % 2 : 0), f = e % stride - 1;
    __global const float* view = rows + (size_t)(first + p) * nv * pitch;
    float v = 0.0f;
    if (s >= 0 && s < slow && f >= 0 && f < fast)
        v = transposed ? view[(size_t)f * pitch + s] : view[(size_t)s * pitch + f];
    out[(size_t)p * image + i] = v;
}
