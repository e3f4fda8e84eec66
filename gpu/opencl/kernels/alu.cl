// alu.cl - the ALU back-projector with a local-memory cache of sinogram bins (paper 002,
// doi:10.1007/s11554-019-00883-w, section 6, Algorithms 6 and 9). Needs alu_common.cl first.
// Build options besides those of alu_common.cl:
//   LINEAR    1 linear interpolation, 0 nearest (floor(u + 0.5))
//   ACM       1 Advanced Caching Mode (linear only): cache (v[k], v[k+1] - v[k]) pairs so an
//             update is one local fetch and one multiply-add
//   HX        1 the h_x cache: (hb - hm) + x cx for the n x-values of the tile is cached per
//             projection during the caching stage, so the accumulation needs no cx
//   FPROUND   1 floor by the 2^23 trick (FP adds and an integer subtract of the exponent
//             pattern instead of floor and float->int conversion), made tie-exact by a compare;
//             2 also the cache byte offset floor(h) x entry size in float, reinterpreted by
//             the same trick (the fully SFU-free variant of section 6.6: no floor, no
//             float->int conversion, no index shift; 5 FP operations instead of 3 SFU ones)
//   CACHE_HALF  1 store the cached bins (and ACM pairs) as binary16 in local memory, written
//             with vstore_halfN and read with vload_halfN (core OpenCL 1.2, no cl_khr_fp16):
//             half the local memory per entry; approximate (11-bit significand, |w s| < 65504)
//   ALU_NO_ENTRY  defined: only the aluTile() function (the hybrid calls it)
//
// Per batch of PPB projections: stage 1 - RT work-items per projection compute the cache
// origin hm and copy BINS bins (weighted, zero outside the detector) into local memory;
// barrier; stage 2 - every work-item accumulates its Q pixels from the cache; barrier.
// Sums stay in registers and are stored once at the end.

#if ACM && !LINEAR
#error "ACM needs LINEAR"
#endif

#define E23 8388608.0f  // 2^23: x + E23 rounds x (0 <= x < 2^22) to an integer
#define E23_BITS 0x4B000000

#ifndef CACHE_HALF
#define CACHE_HALF 0
#endif

#if ACM
typedef pair centry;
#define CZERO ((pair)(0.0f))
#define CFLOATS (2 * SLICES)  // floats per cache entry
#else
typedef vec centry;
#define CZERO VZERO
#define CFLOATS SLICES
#endif

// Cache storage: cunit[CUNITS] per entry. Half: ushort words (a __local array of half needs
// cl_khr_fp16; a pointer to half does not), converted by vstore_halfN / vload_halfN.
#if CACHE_HALF
typedef ushort cunit;
#define CUNITS CFLOATS
#if CFLOATS == 1
#define CSTORE(row, b, v) vstore_half((v), (b), (__local half*)(row))
#define CLOAD(row, k) vload_half((k), (__local const half*)(row))
#elif CFLOATS == 2
#define CSTORE(row, b, v) vstore_half2((v), (b), (__local half*)(row))
#define CLOAD(row, k) vload_half2((k), (__local const half*)(row))
#elif CFLOATS == 4
#define CSTORE(row, b, v) vstore_half4((v), (b), (__local half*)(row))
#define CLOAD(row, k) vload_half4((k), (__local const half*)(row))
#else
#define CSTORE(row, b, v) vstore_half8((v), (b), (__local half*)(row))
#define CLOAD(row, k) vload_half8((k), (__local const half*)(row))
#endif
#else
typedef centry cunit;
#define CUNITS 1
#define CSTORE(row, b, v) ((row)[b] = (v))
#define CLOAD(row, k) ((row)[k])
#endif
#define CENTRY_BYTES ((int)(sizeof(cunit) * CUNITS))  // bytes per cache entry (power of 2)

// Integer part k and fraction f of h >= 0 (floor, exact).
inline int splitPosition(float h, float* f) {
#if FPROUND
    const float ht = h + E23;  // round to nearest even
    float hf = ht - E23;       // exact
    int k = as_int(ht) - E23_BITS;
    const int over = hf > h;  // rounded up: step back one (also settles ties exactly)
    k -= over;
    hf = over ? hf - 1.0f : hf;
    *f = h - hf;
    return k;
#else
    const float hf = floor(h);
    *f = h - hf;
    return (int)hf;
#endif
}

#if FPROUND == 2
// Byte offset floor(h) * CENTRY_BYTES of the cache entry below h, and the fraction f, in FP
// arithmetic only. Exact for 0 <= h < 2^22: h + 2^23 lies in [2^23, 2^24), where floats are
// the integers, so ht = 2^23 + rne(h) and hf = ht - 2^23 = rne(h) exactly; hf > h means it
// rounded up, so the select gives floor(h) (ties included). The offset o = floor(h) * E (E a
// power of 2, o < 2^23 since h < BINS <= 96 and E <= 32) makes o + 2^23 an exact float in
// [2^23, 2^24), whose bit pattern is 0x4B000000 + o (exponent 23, mantissa o): the integer
// subtract of the pattern is an ALU add, not a conversion. Ops: add, sub, compare-select,
// FMA (hf E + 2^23) and the fraction h - hf (FP), against floor, F2I and the shift.
inline int splitOffset(float h, float* f) {
    const float ht = h + E23;
    float hf = ht - E23;
    hf = hf > h ? hf - 1.0f : hf;
    *f = h - hf;
    return as_int(hf * (float)CENTRY_BYTES + E23) - E23_BITS;
}

// Byte offset floor(t) * CENTRY_BYTES for 0 <= t < 2^22 (same argument).
inline int floorOffset(float t) {
    const float ht = t + E23;
    float hf = ht - E23;
    hf = hf > t ? hf - 1.0f : hf;
    return as_int(hf * (float)CENTRY_BYTES + E23) - E23_BITS;
}

// The cache entry at byte offset off of row (no index arithmetic).
#define CAT(row, off) ((__local const cunit*)((__local const char*)(row) + (off)))
#endif

// floor(t) for t >= 0.
inline int floorIndex(float t) {
#if FPROUND
    const float ht = t + E23;
    const float hf = ht - E23;
    return as_int(ht) - E23_BITS - (hf > t);
#else
    return (int)t;
#endif
}

// Linear or nearest interpolation of projection slot s at cache position h, read from the
// sinogram directly (projections too wide for the cache); same arithmetic as the cache path.
inline vec directSample(SINO_ARG, int nd, int p, ProjSlot s, float h) {
#if LINEAR
    float f;
    const int k = splitPosition(h, &f);
    const vec v0 = loadBin(sino, nd, p, s.jm + k, s.w);
    const vec v1 = loadBin(sino, nd, p, s.jm + k + 1, s.w);
    return v0 + f * (v1 - v0);
#else
    return loadBin(sino, nd, p, s.jm + floorIndex(h + 0.5f), s.w);
#endif
}

// One tile (tileX, tileY) of the band for projections [projBegin, projEnd). The caller
// declares the local arrays: cache[PPB * BINS * CUNITS], slots[PPB], hxc[PPB * TILE] (HX only).
void aluTile(SINO_ARG, __constant float4* consts, int projBegin, int projEnd, int nd,
             __global float* out, int nx, int rows, int rowBegin, int accumulate, int tileX,
             int tileY, __local cunit* cache, __local ProjSlot* slots,
             __local float* hxc CHECK_ARG) {
    const int t = (int)get_local_id(0);
    const int2 pix = tilePixel(t);
    const int x0 = tileX * TILE, band0 = tileY * TILE;
    const float x0f = (float)x0, y0f = (float)(rowBegin + band0);
    const float pxf = (float)pix.x;
    float fy[Q];
    vec acc[Q];
    for (int i = 0; i < Q; ++i) {
        fy[i] = (float)(pix.y + i * RPS);
        acc[i] = VZERO;
    }
    const int g = t / RT, lane = t % RT;

    for (int p0 = projBegin; p0 < projEnd; p0 += PPB) {
        // Stage 1: RT work-items cache BINS bins of projection p0 + g.
        {
            const int p = p0 + g;
            const int valid = p < projEnd;
            const ProjSlot s =
                projectionSlot(valid ? consts[p] : (float4)(0.0f), x0f, y0f, valid);
            if (lane == 0) slots[g] = s;
            __local cunit* row = cache + g * (BINS * CUNITS);
#if HX
            for (int x = lane; x < TILE; x += RT)
                hxc[g * TILE + x] = s.wide ? 1.0f : s.off + (float)x * s.cx;
#endif
            if (s.wide || !valid) {  // the cache path below reads zeros (position 1)
                for (int b = lane; b < BINS; b += RT)
                    CSTORE(row, b, CZERO);
            } else {
#if ACM
                // Consecutive bins per work-item; the neighbour's first value is read again
                // instead of exchanged (OpenCL has no shuffles; see docs/opencl.md).
                const int per = (BINS + RT - 1) / RT;
                const int b0 = lane * per;
                if (b0 < BINS) {
                    vec v = loadBin(sino, nd, p, s.jm + b0, s.w);
                    for (int q = 0; q < per && b0 + q < BINS; ++q) {
                        const vec next = loadBin(sino, nd, p, s.jm + b0 + q + 1, s.w);
                        pair e;
                        e.lo = v;
                        e.hi = next - v;
                        CSTORE(row, b0 + q, e);
                        v = next;
                    }
                }
#else
                for (int b = lane; b < BINS; b += RT)
                    CSTORE(row, b, loadBin(sino, nd, p, s.jm + b, s.w));
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        // Stage 2: accumulate the work-item's Q pixels from the cache (branch-free: wide
        // projections read zeros here and are added by the loop below).
#pragma unroll
        for (int j = 0; j < PPB; ++j) {
            const ProjSlot s = slots[j];
#if HX
            const float hx = hxc[j * TILE + pix.x];
#else
            const float hx = s.wide ? 1.0f : s.off + pxf * s.cx;
#endif
            const float cy = s.wide ? 0.0f : s.cy;
            __local const cunit* row = cache + j * (BINS * CUNITS);
#pragma unroll
            for (int i = 0; i < Q; ++i) {
                const float h = hx + fy[i] * cy;
#if LINEAR && FPROUND == 2
                float f;
                const int off = CHECKED(splitOffset(h, &f), (BINS - 2) * CENTRY_BYTES);
#if ACM
                const pair e = CLOAD(CAT(row, off), 0);
                acc[i] += e.lo + f * e.hi;
#else
                const vec v0 = CLOAD(CAT(row, off), 0);
                const vec v1 = CLOAD(CAT(row, off), 1);
                acc[i] += v0 + f * (v1 - v0);
#endif
#elif FPROUND == 2
                const int off = CHECKED(floorOffset(h + 0.5f), (BINS - 1) * CENTRY_BYTES);
                acc[i] += CLOAD(CAT(row, off), 0);
#elif LINEAR
                float f;
                const int k = CHECKED(splitPosition(h, &f), BINS - 2);
#if ACM
                const pair e = CLOAD(row, k);
                acc[i] += e.lo + f * e.hi;
#else
                const vec v0 = CLOAD(row, k);
                const vec v1 = CLOAD(row, k + 1);
                acc[i] += v0 + f * (v1 - v0);
#endif
#else
                const int k = CHECKED(floorIndex(h + 0.5f), BINS - 1);
                acc[i] += CLOAD(row, k);
#endif
            }
        }
        for (int j = 0; j < PPB; ++j) {
            const ProjSlot s = slots[j];
            if (s.wide) {
                const float hx = s.off + pxf * s.cx;
                for (int i = 0; i < Q; ++i)
                    acc[i] += directSample(sino, nd, p0 + j, s, hx + fy[i] * s.cy);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    storeTile(out, acc, x0, band0, pix, nx, rows, accumulate);
}

#ifndef ALU_NO_ENTRY
// NDRange (tilesX * WG, tilesY) over the band, work-groups (WG, 1).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void aluBackProject(
    SINO_ARG, __constant float4* consts, int projBegin, int projEnd, int detectors,
    __global float* out, int nx, int rows, int rowBegin, int accumulate CHECK_ARG) {
    __local cunit cache[PPB * BINS * CUNITS];
    __local ProjSlot slots[PPB];
#if HX
    __local float hxc[PPB * TILE];
#else
    __local float hxc[1];
#endif
    aluTile(sino, consts, projBegin, projEnd, detectors, out, nx, rows, rowBegin, accumulate,
            (int)get_group_id(0), (int)get_group_id(1), cache, slots, hxc CHECK_PASS);
}
#endif
