// AVX-512 and AVX2 kernels of the single-slice back-projector (see SingleSliceKernels.h for
// the window-and-permute scheme and BackProjectionKernels.h for the arithmetic they reproduce
// bit for bit). Like SimdTileKernels.cpp, each kernel carries its own target attribute: this
// file is compiled for baseline x86-64 and the kernels run only after cpuIsaSupported().
//
// Per work item (tile x chunk of projections) the loops are
//   angle block > tile row > NG groups of G pixels along x > projection > group,
// with the NG accumulators (one vector of G pixels each) held in registers over the block.

#include <immintrin.h>

#include <algorithm>

#include "core/projectors/SingleSliceKernels.h"

namespace tomo::detail {
namespace {

/// Groups of pixels processed together per projection (register blocking).
constexpr int kGroupsPerPass = 4;

// GCC 12's AVX-512 intrinsics self-initialise their "undefined" operands, which trips
// -Wmaybe-uninitialized where they are inlined (GCC bug 105593); nothing here is uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

/// NG groups of 16 pixels of one row, starting at global column @p firstX, projections
/// [pb, pe) of the chunk, accumulators at @p accRow.
template <bool Linear, int NG>
__attribute__((target("avx512f,avx2,fma"), always_inline)) inline void groupsAvx512(
    const SliceTileTask& t, float* accRow, int firstX, float fiy, int pb, int pe) {
    constexpr int G = 16;
    const __m512 lane = _mm512_setr_ps(0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f, 10.f, 11.f,
                                       12.f, 13.f, 14.f, 15.f);
    const __m512 lo = _mm512_set1_ps(-2.f);
    const __m512 hi = _mm512_set1_ps(t.maxIndex);
    const __m512 half = _mm512_set1_ps(0.5f);
    const __m512i lastOffset = _mm512_set1_epi32(2 * G - 1);
    __m512 acc[NG], ix[NG];
#pragma GCC unroll 8
    for (int j = 0; j < NG; ++j) {
        acc[j] = _mm512_load_ps(accRow + j * G);
        ix[j] = _mm512_add_ps(_mm512_set1_ps(static_cast<float>(firstX + j * G)), lane);
    }
    for (int p = pb; p < pe; ++p) {
        const ProjectionConstants c = t.constants[p];
        const float base = c.a + fiy * c.cy;
        const __m512 vb = _mm512_set1_ps(base), vc = _mm512_set1_ps(c.cx);
        // u is monotonic in the lane: the smallest index is in lane 0 (cx >= 0) or lane 15.
        const __m512i first = _mm512_set1_epi32(c.cx < 0.f ? G - 1 : 0);
        const float* v = t.rows + static_cast<std::size_t>(p) * t.angleStride + kPadLeft;
        const float* d = v + t.rowStride;
#pragma GCC unroll 8
        for (int j = 0; j < NG; ++j) {
            const __m512 u = _mm512_add_ps(vb, _mm512_mul_ps(ix[j], vc));
            __m512 fl, f;
            if constexpr (Linear) {
                fl = _mm512_roundscale_ps(u, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
                f = _mm512_sub_ps(u, fl);
            } else {
                fl = _mm512_roundscale_ps(_mm512_add_ps(u, half),
                                          _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            }
            fl = _mm512_min_ps(_mm512_max_ps(fl, lo), hi);
            const __m512 start = _mm512_permutexvar_ps(first, fl);
            const __m512i off = _mm512_cvttps_epi32(_mm512_sub_ps(fl, start));
            __m512 val, dif;
            if (__builtin_expect(_mm512_cmpgt_epi32_mask(off, lastOffset) == 0, 1)) {
                const float* w = v + static_cast<int>(_mm512_cvtss_f32(start));
                val = _mm512_permutex2var_ps(_mm512_loadu_ps(w), off, _mm512_loadu_ps(w + G));
                if constexpr (Linear) {
                    const float* wd = w + t.rowStride;
                    dif = _mm512_permutex2var_ps(_mm512_loadu_ps(wd), off, _mm512_loadu_ps(wd + G));
                }
            } else {  // span wider than the window (voxel > ~2 detector pixels)
                const __m512i bin = _mm512_cvttps_epi32(fl);
                val = _mm512_i32gather_ps(bin, v, 4);
                if constexpr (Linear) dif = _mm512_i32gather_ps(bin, d, 4);
            }
            if constexpr (Linear) {
                acc[j] = _mm512_add_ps(acc[j], _mm512_add_ps(val, _mm512_mul_ps(f, dif)));
            } else {
                acc[j] = _mm512_add_ps(acc[j], val);
            }
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < NG; ++j)
        _mm512_store_ps(accRow + j * G, acc[j]);
}

template <bool Linear>
__attribute__((target("avx512f,avx2,fma"))) void sliceTileAvx512(const SliceTileTask& t) {
    constexpr int G = 16, kWide = kGroupsPerPass * G;
    for (int pb = 0; pb < t.angles; pb += t.angleBlock) {
        const int pe = std::min(pb + t.angleBlock, t.angles);
        for (int r = 0; r < t.height; ++r) {
            const float fiy = static_cast<float>(t.y0 + r);
            float* accRow = t.acc + static_cast<std::size_t>(r) * t.accStride;
            int g = 0;
            for (; g + kWide <= t.width; g += kWide)
                groupsAvx512<Linear, kGroupsPerPass>(t, accRow + g, t.x0 + g, fiy, pb, pe);
            for (; g < t.width; g += G)
                groupsAvx512<Linear, 1>(t, accRow + g, t.x0 + g, fiy, pb, pe);
        }
    }
}

#pragma GCC diagnostic pop

/// AVX2 version: groups of 8 pixels, a window of 16 bins picked with two 8-lane permutes and
/// a blend on the offset's fourth bit.
template <bool Linear, int NG>
__attribute__((target("avx2,fma"), always_inline)) inline void groupsAvx2(const SliceTileTask& t,
                                                                          float* accRow, int firstX,
                                                                          float fiy, int pb,
                                                                          int pe) {
    constexpr int G = 8;
    const __m256 lane = _mm256_setr_ps(0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f);
    const __m256 lo = _mm256_set1_ps(-2.f);
    const __m256 hi = _mm256_set1_ps(t.maxIndex);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256i lastOffset = _mm256_set1_epi32(2 * G - 1);
    const __m256i lastLow = _mm256_set1_epi32(G - 1);
    __m256 acc[NG], ix[NG];
#pragma GCC unroll 8
    for (int j = 0; j < NG; ++j) {
        acc[j] = _mm256_load_ps(accRow + j * G);
        ix[j] = _mm256_add_ps(_mm256_set1_ps(static_cast<float>(firstX + j * G)), lane);
    }
    for (int p = pb; p < pe; ++p) {
        const ProjectionConstants c = t.constants[p];
        const float base = c.a + fiy * c.cy;
        const __m256 vb = _mm256_set1_ps(base), vc = _mm256_set1_ps(c.cx);
        const __m256i first = _mm256_set1_epi32(c.cx < 0.f ? G - 1 : 0);
        const float* v = t.rows + static_cast<std::size_t>(p) * t.angleStride + kPadLeft;
        const float* d = v + t.rowStride;
#pragma GCC unroll 8
        for (int j = 0; j < NG; ++j) {
            const __m256 u = _mm256_add_ps(vb, _mm256_mul_ps(ix[j], vc));
            __m256 fl, f;
            if constexpr (Linear) {
                fl = _mm256_floor_ps(u);
                f = _mm256_sub_ps(u, fl);
            } else {
                fl = _mm256_floor_ps(_mm256_add_ps(u, half));
            }
            fl = _mm256_min_ps(_mm256_max_ps(fl, lo), hi);
            const __m256 start = _mm256_permutevar8x32_ps(fl, first);
            const __m256i off = _mm256_cvttps_epi32(_mm256_sub_ps(fl, start));
            __m256 val, dif;
            if (__builtin_expect(_mm256_movemask_ps(
                                     _mm256_castsi256_ps(_mm256_cmpgt_epi32(off, lastOffset))) == 0,
                                 1)) {
                const __m256 upper = _mm256_castsi256_ps(_mm256_cmpgt_epi32(off, lastLow));
                const float* w = v + static_cast<int>(_mm256_cvtss_f32(start));
                val =
                    _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(w), off),
                                     _mm256_permutevar8x32_ps(_mm256_loadu_ps(w + G), off), upper);
                if constexpr (Linear) {
                    const float* wd = w + t.rowStride;
                    dif = _mm256_blendv_ps(_mm256_permutevar8x32_ps(_mm256_loadu_ps(wd), off),
                                           _mm256_permutevar8x32_ps(_mm256_loadu_ps(wd + G), off),
                                           upper);
                }
            } else {
                const __m256i bin = _mm256_cvttps_epi32(fl);
                val = _mm256_i32gather_ps(v, bin, 4);
                if constexpr (Linear) dif = _mm256_i32gather_ps(d, bin, 4);
            }
            if constexpr (Linear) {
                acc[j] = _mm256_add_ps(acc[j], _mm256_add_ps(val, _mm256_mul_ps(f, dif)));
            } else {
                acc[j] = _mm256_add_ps(acc[j], val);
            }
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < NG; ++j)
        _mm256_store_ps(accRow + j * G, acc[j]);
}

template <bool Linear>
__attribute__((target("avx2,fma"))) void sliceTileAvx2(const SliceTileTask& t) {
    constexpr int G = 8, kWide = kGroupsPerPass * G;
    for (int pb = 0; pb < t.angles; pb += t.angleBlock) {
        const int pe = std::min(pb + t.angleBlock, t.angles);
        for (int r = 0; r < t.height; ++r) {
            const float fiy = static_cast<float>(t.y0 + r);
            float* accRow = t.acc + static_cast<std::size_t>(r) * t.accStride;
            int g = 0;
            for (; g + kWide <= t.width; g += kWide)
                groupsAvx2<Linear, kGroupsPerPass>(t, accRow + g, t.x0 + g, fiy, pb, pe);
            for (; g < t.width; g += G)
                groupsAvx2<Linear, 1>(t, accRow + g, t.x0 + g, fiy, pb, pe);
        }
    }
}

}  // namespace

void backProjectSliceTileAvx512(bool linear, const SliceTileTask& task) {
    if (linear) {
        sliceTileAvx512<true>(task);
    } else {
        sliceTileAvx512<false>(task);
    }
}

void backProjectSliceTileAvx2(bool linear, const SliceTileTask& task) {
    if (linear) {
        sliceTileAvx2<true>(task);
    } else {
        sliceTileAvx2<false>(task);
    }
}

}  // namespace tomo::detail
