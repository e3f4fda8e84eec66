// alu_common.cl - shared definitions of the local-memory-cache back-projectors of paper 002
// (S. Chilingaryan et al., J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w,
// sections 6 and 7): the ALU kernel (alu.cl), oversampling (oversample.cl) and the hybrid
// (hybrid.cl). Prepended to each of them; every parameter is a -D build option:
//   TILE      tile edge n in pixels (32 or 64); a work-group reconstructs one n x n tile
//   WG        work-items per work-group (256 or 128); WG / 16 must be a multiple of TILE / 4
//   PPB       projections cached per batch (divides WG)
//   SLICES    slices per pass (1, 2 or 4): accumulators and cache entries are float/float2/float4
//   BINS      sinogram bins cached per projection (1.5 n)
//   CHANNELS  floats per texel of the sinogram (SLICES, or 4 for 2 slices in an RGBA image)
//   FILL_IMAGE  1: the sinogram is an image2d read with a nearest sampler while caching (the
//             paper's texture fill; the hybrid); 0: a buffer [angle][detector][SLICES]
//   CHECK_RANGE  1: count cache indices outside the h_m range in a global counter (debug)
//
// Interface (the same as texture.cl; ClKernelLauncher.h): constants float4 (cx, cy, a, w) per
// projection of the chunk, u(ix, iy) = (a + iy cy) + ix cx, projections [projBegin, projEnd),
// output band out[(slice * rows + (iy - rowBegin)) * nx + ix], added to when accumulate != 0.
//
// Cache origin: for the tile with top-left pixel (X0, Y0) and cm = (n - 1)(min(0, cx) +
// min(0, cy)) (the offset of the corner with the lowest u),
//   hb = (a + Y0 cy) + X0 cx,  hm = floor(hb + cm) - 1   (lowest cached detector pixel)
//   h  = ((hb - hm) + lx cx) + ly cy                     (position inside the cache)
// so 1 <= h < 2 + (n - 1)(|cx| + |cy|) <= BINS - 2 for every pixel of the tile whenever
// (n - 1)(|cx| + |cy|) <= BINS - 4, i.e. voxel size <= 1.02 (n = 32) or 1.04 (n = 64) detector
// pitches (the h_m range invariant; the extra bin below hm absorbs float rounding). Cached bin b
// holds w * s[hm + b], zero outside [0, detectors), so linear interpolation fades to zero over
// the half pixel beyond the detector edge exactly like the CPU reference. Projections whose
// span is wider ("wide": coarse grids) are read from the sinogram directly, with the same
// positions and arithmetic.

#define Q (TILE * TILE / WG)  // pixels per work-item
#define RPS (WG / TILE)       // pixel rows covered by one step of the work-group
#define RT (WG / PPB)         // work-items caching one projection row
#define SQX (TILE / 4)        // 4x4 squares per tile row

#if SLICES == 1
typedef float vec;
typedef float2 pair;
#define VZERO 0.0f
#define FROM4(v) (v).x
#elif SLICES == 2
typedef float2 vec;
typedef float4 pair;
#define VZERO ((float2)(0.0f))
#define FROM4(v) (v).xy
#elif SLICES == 4
typedef float4 vec;
typedef float8 pair;
#define VZERO ((float4)(0.0f))
#define FROM4(v) (v)
#else
#error "SLICES must be 1, 2 or 4"
#endif

#if FILL_IMAGE
#define SINO_ARG __read_only image2d_t sino
__constant sampler_t kFillSampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
#else
#define SINO_ARG __global const vec* sino
#endif

// The accumulation mapping of the paper's Fig. 13: 16 consecutive work-items cover a 4x4
// square in Z-order, the squares lie linearly along x, and a work-item's Q pixels are RPS rows
// apart. Returns the tile pixel (lx, ly) of pixel 0 of work-item t.
inline int2 tilePixel(int t) {
    const int q = t & 15;
    const int sq = t >> 4;
    const int lx = (q & 1) | ((q >> 1) & 2);
    const int ly = ((q >> 1) & 1) | ((q >> 2) & 2);
    return (int2)((sq % SQX) * 4 + lx, (sq / SQX) * 4 + ly);
}

// w times detector pixel j of projection p (all slices); zero outside the detector.
#if FILL_IMAGE
inline vec loadBin(__read_only image2d_t sino, int nd, int p, int j, float w) {
    // CLK_ADDRESS_CLAMP returns the zero border outside the image.
    return w * FROM4(read_imagef(sino, kFillSampler, (int2)(j, p)));
}
#else
inline vec loadBin(__global const vec* sino, int nd, int p, int j, float w) {
    return (j >= 0 && j < nd) ? w * sino[(size_t)p * (size_t)nd + (size_t)j] : VZERO;
}
#endif

// Per-projection values the caching stage leaves in local memory for the accumulation.
typedef struct {
    float off;  // hb - hm: position of the tile's top-left pixel inside the cache
    float cx, cy, w;
    int jm;    // hm: detector pixel of cache bin 0
    int wide;  // 1: the tile spans more than BINS - 4 bins; read the sinogram directly
} ProjSlot;

// Computes the slot of projection p (c its constants) for the tile at (x0f, y0f).
inline ProjSlot projectionSlot(float4 c, float x0f, float y0f, int valid) {
    ProjSlot s;
    if (!valid) {  // past the launch's last projection: contributes zero
        s.off = 1.0f;
        s.cx = s.cy = s.w = 0.0f;
        s.jm = 0;
        s.wide = 0;
        return s;
    }
    const float cm = (float)(TILE - 1) * (fmin(0.0f, c.x) + fmin(0.0f, c.y));
    const float hb = (c.z + y0f * c.y) + x0f * c.x;
    const float hm = floor(hb + cm) - 1.0f;
    s.off = hb - hm;
    s.cx = c.x;
    s.cy = c.y;
    s.w = c.w;
    s.jm = (int)hm;
    s.wide = (float)(TILE - 1) * (fabs(c.x) + fabs(c.y)) > (float)(BINS - 4);
    return s;
}

#if CHECK_RANGE
// Counts a cache index outside [0, maxIndex] and clamps it so the read stays in bounds.
inline int checkIndex(int k, int maxIndex, __global volatile uint* violations) {
    if (k < 0 || k > maxIndex) {
        atomic_inc(violations);
        k = clamp(k, 0, maxIndex);
    }
    return k;
}
#define CHECKED(k, maxIndex) checkIndex((k), (maxIndex), violations)
#define CHECK_ARG , __global volatile uint *violations
#define CHECK_PASS , violations
#else
#define CHECKED(k, maxIndex) (k)
#define CHECK_ARG
#define CHECK_PASS
#endif

// Element s of a private vec (s a compile-time constant after unrolling).
#if SLICES == 1
#define VGET(v, s) (v)
#else
#define VGET(v, s) (((__private float*)&(v))[s])
#endif

// Stores (or adds) the Q accumulators of a work-item: pixel i is band row
// band0 + pix.y + i * RPS, column x0 + pix.x; planes of the band are rows * nx apart.
inline void storeTile(__global float* out, vec* acc, int x0, int band0, int2 pix, int nx,
                      int rows, int accumulate) {
    const int ix = x0 + pix.x;
    if (ix >= nx) return;
    for (int i = 0; i < Q; ++i) {
        const int r = band0 + pix.y + i * RPS;
        if (r >= rows) break;
        for (int s = 0; s < SLICES; ++s) {
            __global float* o = out + ((size_t)s * (size_t)rows + (size_t)r) * (size_t)nx + ix;
            *o = accumulate ? *o + VGET(acc[i], s) : VGET(acc[i], s);
        }
    }
}
