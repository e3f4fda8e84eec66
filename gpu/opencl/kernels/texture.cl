// Texture-family back-projection kernels (paper 002, section 5: Algorithms 1 to 3 and 5;
// S. Chilingaryan et al., J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w).
//
// Build options (-D), all required unless a default is given:
//   SLICES          1, 2 or 4 slices per pass (float, float2, float4 accumulators)
//   INTERP_LINEAR   1 = linear, 0 = nearest
//   STORAGE_HALF    0 = image2d_t read through a sampler (default); 1 = binary16 buffer
//                   [angle][detector][SLICES] read with vload_half (no cl_khr_fp16 needed)
//                   (the image may have more channels than SLICES: 2-slice sinograms use RGBA
//                   images where the device lacks CL_RG float; the extra channels are unused)
//   ZORDER          1 = threads of a 16x16 group remapped to 4x4 Z-order squares (Alg. 2)
//   CONST_IN_LOCAL  cached kernel only: 1 = projection constants staged in local memory in
//                   chunks of 256 (Alg. 5), 0 = read from __constant memory (default)
//
// Geometry (ClKernelLauncher.h): pixel (ix, iy) reads u = (c.z + iy * c.y) + ix * c.x and adds
// c.w * interp(row p, u); image samples are taken at (u + 0.5, p + 0.5) with unnormalised
// coordinates and CLK_ADDRESS_CLAMP, so reads outside the detector are 0.
// Output: out[(slice * rows + (iy - rowBegin)) * nx + ix], added to when accumulate != 0.

#ifndef STORAGE_HALF
#define STORAGE_HALF 0
#endif
#ifndef ZORDER
#define ZORDER 0
#endif
#ifndef CONST_IN_LOCAL
#define CONST_IN_LOCAL 0
#endif

#define TILE 16

#if SLICES == 1
typedef float acc_t;
#define FROM4(v) (v).x
#elif SLICES == 2
typedef float2 acc_t;
#define FROM4(v) (v).xy
#else
typedef float4 acc_t;
#define FROM4(v) (v)
#endif

#if STORAGE_HALF
#define SINO_ARG __global const half* sino
#if SLICES == 1
#define LOAD_HALF(i) vload_half((i), sino)
#elif SLICES == 2
#define LOAD_HALF(i) vload_half2((i), sino)
#else
#define LOAD_HALF(i) vload_half4((i), sino)
#endif
inline acc_t fetchHalf(__global const half* sino, int detectors, float u, int p) {
#if INTERP_LINEAR
    const float fl = floor(u);
    const int i = (int)fl;
    const float f = u - fl;
    const acc_t a = (i >= 0 && i < detectors) ? LOAD_HALF(p * detectors + i) : (acc_t)(0.0f);
    const acc_t b =
        (i + 1 >= 0 && i + 1 < detectors) ? LOAD_HALF(p * detectors + i + 1) : (acc_t)(0.0f);
    return a + f * (b - a);
#else
    const int i = (int)floor(u + 0.5f);
    return (i >= 0 && i < detectors) ? LOAD_HALF(p * detectors + i) : (acc_t)(0.0f);
#endif
}
#define FETCH(u, p) fetchHalf(sino, detectors, (u), (p))
#else
#define SINO_ARG __read_only image2d_t sino
#if INTERP_LINEAR
__constant sampler_t kSampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
#else
__constant sampler_t kSampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
#endif
#define FETCH(u, p) FROM4(read_imagef(sino, kSampler, (float2)((u) + 0.5f, (float)(p) + 0.5f)))
#endif

// Writes (or adds) the SLICES values of one pixel; planes are @p plane floats apart.
inline void storePixel(__global float* out, int index, int plane, acc_t value, int accumulate) {
#if SLICES == 1
    out[index] = accumulate ? out[index] + value : value;
#else
    const float* v = (const float*)&value;
    for (int s = 0; s < SLICES; ++s) {
        const int j = index + s * plane;
        out[j] = accumulate ? out[j] + v[s] : v[s];
    }
#endif
}

// Z-order position of thread q (0..15) inside a 4x4 square: bits 0 and 2 give x, 1 and 3 y.
inline int zorderX(int q) {
    return (q & 1) | ((q >> 1) & 2);
}
inline int zorderY(int q) {
    return ((q >> 1) & 1) | ((q >> 2) & 2);
}

// Algorithm 1 (ZORDER 0) and 2 (ZORDER 1): one pixel per thread, 16x16 work-groups.
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void backprojectTextureKernel(
    SINO_ARG, __constant float4* consts, int projBegin, int projEnd, int detectors,
    __global float* out, int nx, int rows, int rowBegin, int accumulate) {
    int lx = get_local_id(0), ly = get_local_id(1);
#if ZORDER
    const int t = ly * TILE + lx, q = t & 15, square = t >> 4;
    lx = (square & 3) * 4 + zorderX(q);
    ly = (square >> 2) * 4 + zorderY(q);
#endif
    const int ix = get_group_id(0) * TILE + lx;
    const int band = get_group_id(1) * TILE + ly;
    if (ix >= nx || band >= rows) return;
    const float fx = (float)ix, fy = (float)(rowBegin + band);
    acc_t sum = (acc_t)(0.0f);
    for (int p = projBegin; p < projEnd; ++p) {
        const float4 c = consts[p];
        const float u = (c.z + fy * c.y) + fx * c.x;
        sum += c.w * FETCH(u, p);
    }
    storePixel(out, band * nx + ix, rows * nx, sum, accumulate);
}

// Algorithm 3 (+ Alg. 5 with CONST_IN_LOCAL): 256 threads per 16x16 tile; bits 0-3 of the
// thread id pick a Z-order position in a 4x4 square, bits 4-5 one of 4 squares along x (a 16x4
// strip), bits 6-7 the projection phase. A thread sums 4 pixels (x, y + 4i) over projections
// phase, phase + 4, ...; the 4 phase sums of each pixel are reduced in local memory and the
// tile is staged and stored row by row (coalesced).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void backprojectCachedKernel(
    SINO_ARG, __constant float4* consts, int projBegin, int projEnd, int detectors,
    __global float* out, int nx, int rows, int rowBegin, int accumulate) {
    __local acc_t partial[4][4][64];  // [pixel i][phase][strip position]
    __local acc_t staged[TILE][TILE];
    const int t = get_local_id(1) * TILE + get_local_id(0);
    const int j = t & 63, phase = t >> 6, q = j & 15;
    const int lx = (j >> 4) * 4 + zorderX(q), ly = zorderY(q);
    const float fx = (float)(get_group_id(0) * TILE + lx);
    const float fy = (float)(rowBegin + get_group_id(1) * TILE + ly);
    acc_t s0 = (acc_t)(0.0f), s1 = s0, s2 = s0, s3 = s0;
#if CONST_IN_LOCAL
    __local float4 localConsts[256];
    for (int chunk = projBegin; chunk < projEnd; chunk += 256) {
        const int n = min(256, projEnd - chunk);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t < n) localConsts[t] = consts[chunk + t];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = phase; k < n; k += 4) {
            const float4 c = localConsts[k];
            const int p = chunk + k;
#else
    {
        for (int p = projBegin + phase; p < projEnd; p += 4) {
            const float4 c = consts[p];
#endif
            const float hx = fx * c.x;
            s0 += c.w * FETCH((c.z + fy * c.y) + hx, p);
            s1 += c.w * FETCH((c.z + (fy + 4.0f) * c.y) + hx, p);
            s2 += c.w * FETCH((c.z + (fy + 8.0f) * c.y) + hx, p);
            s3 += c.w * FETCH((c.z + (fy + 12.0f) * c.y) + hx, p);
        }
    }
    partial[0][phase][j] = s0;
    partial[1][phase][j] = s1;
    partial[2][phase][j] = s2;
    partial[3][phase][j] = s3;
    barrier(CLK_LOCAL_MEM_FENCE);
    // Thread (phase, j) now owns pixel i = phase of strip position j.
    const acc_t v = (partial[phase][0][j] + partial[phase][1][j]) +
                    (partial[phase][2][j] + partial[phase][3][j]);
    staged[ly + 4 * phase][lx] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int ox = get_group_id(0) * TILE + (t & 15);
    const int oy = get_group_id(1) * TILE + (t >> 4);
    if (ox < nx && oy < rows) storePixel(out, oy * nx + ox, rows * nx, staged[t >> 4][t & 15], accumulate);
}
