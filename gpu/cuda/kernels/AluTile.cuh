// AluTile.cuh - the ALU back-projector's tile routine (paper 002, S. Chilingaryan et al.,
// J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w, section 6, Alg. 6 and 9),
// used by AluKernels.cu and HybridKernels.cu. The same algorithm as gpu/opencl/kernels/alu.cl:
//
// A block of WG threads reconstructs a TILE x TILE tile, Q = TILE^2 / WG pixels per thread
// (Fig. 13 mapping: 16 consecutive threads cover a 4x4 square in Z-order, squares along x, a
// thread's Q pixels RPS = WG / TILE rows apart). Per batch of PPB projections:
//  stage 1: RT = WG / PPB threads per projection compute the cache origin
//           hm = floor(hb + cm) - 1 and copy BINS = 1.5 TILE weighted bins into shared memory
//           (zero outside the detector); with ACM the entries are (v[k], v[k+1] - v[k]) pairs,
//           the neighbour's v[k+1] taken from the next lane by __shfl_down_sync (the last lane of
//           a row or warp reads it); with HX the offsets (hb - hm) + x cx are cached too;
//  barrier; stage 2: every thread interpolates its Q pixels from the cache; barrier.
// Projections whose tile span exceeds BINS - 4 bins ("wide", voxel > ~1.02 detector pitches)
// read the sinogram directly with the same arithmetic. FPROUND 1: floor by the 2^23 trick
// (h + 2^23 rounds, the integer comes from the bit pattern, a compare makes it an exact floor;
// the index shift-add stays on the SFU, the paper's balanced option); FPROUND 2: the cache
// byte offset floor(h) x entry size is computed in float too and read from the bit pattern
// (fully SFU-free: 5 FP operations instead of floor, F2I and the shift; section 6.6).
// HALF: cache entries stored as binary16 (__float22half2_rn / __half22float2; approximate).
#pragma once

#include "gpu/cuda/kernels/KernelCommon.cuh"

namespace tomo::cuda::kernels {

struct ProjSlot {
    float off;  ///< hb - hm: the tile's top-left pixel inside the cache
    float cx, cy, w;
    int jm;    ///< detector pixel of cache bin 0
    int wide;  ///< read the sinogram directly
};

template <int TILE, int BINS>
__device__ __forceinline__ ProjSlot projectionSlot(float4 c, float x0f, float y0f, bool valid) {
    ProjSlot s;
    if (!valid) {
        s.off = 1.0f;
        s.cx = s.cy = s.w = 0.0f;
        s.jm = 0;
        s.wide = 0;
        return s;
    }
    const float cm = static_cast<float>(TILE - 1) * (fminf(0.0f, c.x) + fminf(0.0f, c.y));
    const float hb = (c.z + y0f * c.y) + x0f * c.x;
    const float hm = floorf(hb + cm) - 1.0f;
    s.off = hb - hm;
    s.cx = c.x;
    s.cy = c.y;
    s.w = c.w;
    s.jm = static_cast<int>(hm);
    s.wide =
        static_cast<float>(TILE - 1) * (fabsf(c.x) + fabsf(c.y)) > static_cast<float>(BINS - 4);
    return s;
}

constexpr float kE23 = 8388608.0f;  // 2^23
constexpr int kE23Bits = 0x4B000000;

/// Integer part and fraction of h >= 0 (exact floor).
template <int FPROUND>
__device__ __forceinline__ int splitPosition(float h, float& f) {
    if constexpr (FPROUND) {
        const float ht = h + kE23;
        float hf = ht - kE23;
        int k = __float_as_int(ht) - kE23Bits;
        const bool over = hf > h;
        k -= over;
        hf = over ? hf - 1.0f : hf;
        f = h - hf;
        return k;
    } else {
        const float hf = floorf(h);
        f = h - hf;
        return static_cast<int>(hf);
    }
}

template <int FPROUND>
__device__ __forceinline__ int floorIndex(float t) {
    if constexpr (FPROUND) {
        const float ht = t + kE23;
        const float hf = ht - kE23;
        return __float_as_int(ht) - kE23Bits - (hf > t);
    } else {
        return static_cast<int>(t);
    }
}

/// Byte offset floor(t) x BYTES of the cache entry below t, and the fraction t - floor(t), in
/// FP arithmetic only (FPROUND 2). Exact for 0 <= t < 2^22: t + 2^23 lies in [2^23, 2^24),
/// where the floats are the integers, so ht = 2^23 + rne(t) and tf = ht - 2^23 = rne(t)
/// exactly; tf > t means it rounded up, and the select gives floor(t) (ties included). The
/// offset o = floor(t) BYTES (BYTES a power of 2; o < 2^23 as t < BINS <= 96, BYTES <= 32)
/// makes o + 2^23 an exact float in [2^23, 2^24) whose bit pattern is 0x4B000000 + o
/// (exponent 23, mantissa o), so the integer subtract of the pattern (an ALU add) yields o.
/// FP ops: add, sub, compare-select, FMA (tf BYTES + 2^23), fraction.
template <int BYTES>
__device__ __forceinline__ int floorOffset(float t, float& f) {
    const float ht = t + kE23;
    float tf = ht - kE23;
    tf = tf > t ? tf - 1.0f : tf;
    f = t - tf;
    return __float_as_int(fmaf(tf, static_cast<float>(BYTES), kE23)) - kE23Bits;
}

/// The cache entry @p off bytes into @p row.
template <typename Unit>
__device__ __forceinline__ const Unit* entryAt(const Unit* row, int off) {
    return reinterpret_cast<const Unit*>(reinterpret_cast<const char*>(row) + off);
}

/// Cache storage of CF floats per entry: float vectors, or binary16 pairs.
template <int CF, bool HALF>
struct CacheEntry;
template <int CF>
struct CacheEntry<CF, false> {
    using Unit = Vec<CF>;
    __device__ static void store(Unit* row, int b, const Vec<CF>& v) { row[b] = v; }
    __device__ static Vec<CF> load(const Unit* row, int k) { return row[k]; }
};
template <int CF>
struct alignas(CF >= 2 ? 2 * CF : 2) HalfVec {
    __half h[CF];
};
template <int CF>
struct CacheEntry<CF, true> {
    using Unit = HalfVec<CF>;
    __device__ static void store(Unit* row, int b, const Vec<CF>& v) {
        Unit u;
        if constexpr (CF == 1) {
            u.h[0] = __float2half_rn(v.v[0]);
        } else {
#pragma unroll
            for (int i = 0; i < CF; i += 2)
                *reinterpret_cast<__half2*>(&u.h[i]) = __floats2half2_rn(v.v[i], v.v[i + 1]);
        }
        row[b] = u;
    }
    __device__ static Vec<CF> load(const Unit* row, int k) {
        const Unit u = row[k];
        Vec<CF> v;
        if constexpr (CF == 1) {
            v.v[0] = __half2float(u.h[0]);
        } else {
#pragma unroll
            for (int i = 0; i < CF; i += 2) {
                const float2 f = __half22float2(*reinterpret_cast<const __half2*>(&u.h[i]));
                v.v[i] = f.x;
                v.v[i + 1] = f.y;
            }
        }
        return v;
    }
};

template <int TILE, int WG, int PPB, int S, bool LINEAR, bool ACM, bool HX, int FPROUND, bool HALF>
struct AluTile {
    static constexpr int Q = TILE * TILE / WG;
    static constexpr int RPS = WG / TILE;
    static constexpr int RT = WG / PPB;
    static constexpr int SQX = TILE / 4;
    static constexpr int BINS = TILE * 3 / 2;
    static constexpr int CF = ACM ? 2 * S : S;
    using Entry = CacheEntry<CF, HALF>;
    using Unit = typename Entry::Unit;

    struct Shared {
        Unit cache[PPB * BINS];
        ProjSlot slots[PPB];
        float hxc[HX ? PPB * TILE : 1];
    };

    /// Tile pixel (lx, ly) of pixel 0 of thread t (Fig. 13 mapping).
    __device__ static int2 tilePixel(int t) {
        const int q = t & 15, sq = t >> 4;
        return make_int2((sq % SQX) * 4 + zorderX(q), (sq / SQX) * 4 + zorderY(q));
    }

    __device__ static Vec<S> directSample(const SinogramView& sino, int p, const ProjSlot& s,
                                          float h) {
        if constexpr (LINEAR) {
            float f;
            const int k = splitPosition<FPROUND>(h, f);
            return vlerp(loadBin<S>(sino, p, s.jm + k, s.w), loadBin<S>(sino, p, s.jm + k + 1, s.w),
                         f);
        } else {
            return loadBin<S>(sino, p, s.jm + floorIndex<FPROUND>(h + 0.5f), s.w);
        }
    }

    __device__ static void run(const LaunchArgs& a, int tileX, int tileY, Shared& sh) {
        const int t = threadIdx.x;
        const int2 pix = tilePixel(t);
        const int x0 = tileX * TILE, band0 = tileY * TILE;
        const float x0f = static_cast<float>(x0), y0f = static_cast<float>(a.rowBegin + band0);
        const float pxf = static_cast<float>(pix.x);
        float fy[Q];
        Vec<S> acc[Q];
#pragma unroll
        for (int i = 0; i < Q; ++i) {
            fy[i] = static_cast<float>(pix.y + i * RPS);
            acc[i] = vzero<S>();
        }
        const int g = t / RT, lane = t % RT;
        for (int p0 = a.projBegin; p0 < a.projEnd; p0 += PPB) {
            {  // Stage 1: cache projection p0 + g.
                const int p = p0 + g;
                const bool valid = p < a.projEnd;
                const ProjSlot s = projectionSlot<TILE, BINS>(
                    valid ? loadConst(a.consts, p) : make_float4(0.f, 0.f, 0.f, 0.f), x0f, y0f,
                    valid);
                if (lane == 0) sh.slots[g] = s;
                Unit* row = sh.cache + g * BINS;
                if constexpr (HX) {
                    for (int x = lane; x < TILE; x += RT)
                        sh.hxc[g * TILE + x] = s.wide ? 1.0f : s.off + static_cast<float>(x) * s.cx;
                }
                const bool fill = valid && !s.wide;
                if constexpr (ACM) {
                    // Uniform trip count so that every lane takes part in the shuffles.
                    const bool lastLane = lane == RT - 1 || (t & 31) == 31;
                    for (int b0 = 0; b0 < BINS; b0 += RT) {
                        const int b = b0 + lane;
                        const Vec<S> v =
                            (fill && b < BINS) ? loadBin<S>(a.sino, p, s.jm + b, s.w) : vzero<S>();
                        Vec<S> next;
#pragma unroll
                        for (int c = 0; c < S; ++c)
                            next.v[c] = __shfl_down_sync(0xffffffffu, v.v[c], 1);
                        if (lastLane)
                            next = fill ? loadBin<S>(a.sino, p, s.jm + b + 1, s.w) : vzero<S>();
                        if (b < BINS) {
                            Vec<CF> e;
#pragma unroll
                            for (int c = 0; c < S; ++c) {
                                e.v[c] = v.v[c];
                                e.v[S + c] = next.v[c] - v.v[c];
                            }
                            Entry::store(row, b, e);
                        }
                    }
                } else {
                    for (int b = lane; b < BINS; b += RT) {
                        const Vec<S> v = fill ? loadBin<S>(a.sino, p, s.jm + b, s.w) : vzero<S>();
                        Entry::store(row, b, *reinterpret_cast<const Vec<CF>*>(&v));
                    }
                }
            }
            __syncthreads();
            // Stage 2: wide projections read zeros here (position 1) and are added below.
#pragma unroll
            for (int j = 0; j < PPB; ++j) {
                const ProjSlot s = sh.slots[j];
                float hx;
                if constexpr (HX) {
                    hx = sh.hxc[j * TILE + pix.x];
                } else {
                    hx = s.wide ? 1.0f : s.off + pxf * s.cx;
                }
                const float cy = s.wide ? 0.0f : s.cy;
                const Unit* row = sh.cache + j * BINS;
#pragma unroll
                for (int i = 0; i < Q; ++i) {
                    const float h = hx + fy[i] * cy;
                    if constexpr (FPROUND == 2) {
                        constexpr int kBytes = static_cast<int>(sizeof(Unit));
                        float f;
                        if constexpr (LINEAR) {
                            const Unit* at = entryAt(row, floorOffset<kBytes>(h, f));
                            const Vec<CF> e = Entry::load(at, 0);
                            if constexpr (ACM) {
#pragma unroll
                                for (int c = 0; c < S; ++c)
                                    acc[i].v[c] += e.v[c] + f * e.v[S + c];
                            } else {
                                const Vec<CF> e1 = Entry::load(at, 1);
#pragma unroll
                                for (int c = 0; c < S; ++c)
                                    acc[i].v[c] += e.v[c] + f * (e1.v[c] - e.v[c]);
                            }
                        } else {
                            const Vec<CF> e =
                                Entry::load(entryAt(row, floorOffset<kBytes>(h + 0.5f, f)), 0);
#pragma unroll
                            for (int c = 0; c < S; ++c)
                                acc[i].v[c] += e.v[c];
                        }
                    } else if constexpr (LINEAR) {
                        float f;
                        const int k = splitPosition<FPROUND>(h, f);
                        const Vec<CF> e = Entry::load(row, k);
                        if constexpr (ACM) {
#pragma unroll
                            for (int c = 0; c < S; ++c)
                                acc[i].v[c] += e.v[c] + f * e.v[S + c];
                        } else {
                            const Vec<CF> e1 = Entry::load(row, k + 1);
#pragma unroll
                            for (int c = 0; c < S; ++c)
                                acc[i].v[c] += e.v[c] + f * (e1.v[c] - e.v[c]);
                        }
                    } else {
                        const Vec<CF> e = Entry::load(row, floorIndex<FPROUND>(h + 0.5f));
#pragma unroll
                        for (int c = 0; c < S; ++c)
                            acc[i].v[c] += e.v[c];
                    }
                }
            }
            for (int j = 0; j < PPB; ++j) {
                const ProjSlot s = sh.slots[j];
                if (s.wide) {
                    const float hx = s.off + pxf * s.cx;
                    for (int i = 0; i < Q; ++i)
                        vadd(acc[i], directSample(a.sino, p0 + j, s, hx + fy[i] * s.cy));
                }
            }
            __syncthreads();
        }
        storeTile(a, acc, x0, band0, pix);
    }

    __device__ static void storeTile(const LaunchArgs& a, const Vec<S>* acc, int x0, int band0,
                                     int2 pix) {
        const int ix = x0 + pix.x;
        if (ix >= a.nx) return;
        const size_t plane = static_cast<size_t>(a.rows) * a.nx;
#pragma unroll
        for (int i = 0; i < Q; ++i) {
            const int r = band0 + pix.y + i * RPS;
            if (r < a.rows)
                storePixel<S>(a.out, static_cast<size_t>(r) * a.nx + ix, plane, acc[i],
                              a.accumulate);
        }
    }
};

}  // namespace tomo::cuda::kernels
