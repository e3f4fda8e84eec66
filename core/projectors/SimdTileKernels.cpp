// AVX2 and AVX-512 versions of the tiled back-projection kernel (see BackProjectionKernels.h
// for the arithmetic they must reproduce bit for bit). Each kernel function carries its own
// target attribute, so this file is compiled for baseline x86-64 and the kernels are only
// called after simdIsaSupported() said yes: the binary runs on any x86-64 CPU.
//
// Per work item (tile x chunk of projections) the loops are
//   angle block (t.angleBlock projections) > tile row > group of G pixels along x > projection,
// with the G accumulators (one vector of S slices each) held in registers over the angle block.
// For one pixel and projection the update reads one bin of the compound sinogram: S values and,
// for linear interpolation, S forward differences, i.e. 64 (AVX2) or 128 (AVX-512) bytes that
// are contiguous and aligned. The fractional index of G pixels is computed in one vector; its
// integer and fractional parts go through a small aligned stack buffer to the scalar loads
// (GCC turns these into lane extracts and permutes; forcing real memory round trips with a
// compiler barrier measured ~15% slower on Zen 5).

#include <immintrin.h>

#include <algorithm>

#include "core/projectors/BackProjectionKernels.h"

namespace tomo::detail {
namespace {

template <bool Linear>
__attribute__((target("avx2,fma"))) void tileAvx2(const TileTask& t) {
    constexpr int S = 8, G = 8;
    constexpr int kShift = Linear ? 4 : 3;  // log2(floats per bin)
    alignas(32) int idx[G];
    alignas(32) float frac[G];
    const __m256 lane = _mm256_setr_ps(0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f);
    const __m256 lo = _mm256_set1_ps(-2.f);
    const __m256 hi = _mm256_set1_ps(t.maxIndex);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256i pad = _mm256_set1_epi32(kPadLeft);
    for (int pb = 0; pb < t.angles; pb += t.angleBlock) {
        const int pe = std::min(pb + t.angleBlock, t.angles);
        for (int r = 0; r < t.height; ++r) {
            const float fiy = static_cast<float>(t.y0 + r);
            for (int g = 0; g < t.width; g += G) {
                float* accPtr = t.acc + (static_cast<std::size_t>(r) * t.tileStride + g) * S;
                __m256 acc[G];
#pragma GCC unroll 16
                for (int k = 0; k < G; ++k)
                    acc[k] = _mm256_load_ps(accPtr + k * S);
                const __m256 ix = _mm256_add_ps(_mm256_set1_ps(static_cast<float>(t.x0 + g)), lane);
                for (int p = pb; p < pe; ++p) {
                    const ProjectionConstants c = t.constants[p];
                    const float base = c.a + fiy * c.cy;
                    const __m256 u = _mm256_add_ps(_mm256_set1_ps(base),
                                                   _mm256_mul_ps(ix, _mm256_set1_ps(c.cx)));
                    __m256 fl;
                    if constexpr (Linear) {
                        fl = _mm256_floor_ps(u);
                        _mm256_store_ps(frac, _mm256_sub_ps(u, fl));
                    } else {
                        fl = _mm256_floor_ps(_mm256_add_ps(u, half));
                    }
                    fl = _mm256_min_ps(_mm256_max_ps(fl, lo), hi);
                    const __m256i bin = _mm256_add_epi32(_mm256_cvttps_epi32(fl), pad);
                    _mm256_store_si256(reinterpret_cast<__m256i*>(idx),
                                       _mm256_slli_epi32(bin, kShift));
                    const float* row = t.compound + static_cast<std::size_t>(p) * t.angleStride;
#pragma GCC unroll 16
                    for (int k = 0; k < G; ++k) {
                        const float* e = row + idx[k];
                        if constexpr (Linear) {
                            const __m256 term = _mm256_add_ps(
                                _mm256_load_ps(e), _mm256_mul_ps(_mm256_broadcast_ss(frac + k),
                                                                 _mm256_load_ps(e + S)));
                            acc[k] = _mm256_add_ps(acc[k], term);
                        } else {
                            acc[k] = _mm256_add_ps(acc[k], _mm256_load_ps(e));
                        }
                    }
                }
#pragma GCC unroll 16
                for (int k = 0; k < G; ++k)
                    _mm256_store_ps(accPtr + k * S, acc[k]);
            }
        }
    }
}

// GCC 12's AVX-512 intrinsics self-initialise their "undefined" operands, which trips
// -Wmaybe-uninitialized where they are inlined (GCC bug 105593); nothing here is uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <bool Linear>
__attribute__((target("avx512f,avx2,fma"))) void tileAvx512(const TileTask& t) {
    constexpr int S = 16, G = 16;
    constexpr int kShift = Linear ? 5 : 4;  // log2(floats per bin)
    alignas(64) int idx[G];
    alignas(64) float frac[G];
    const __m512 lane = _mm512_setr_ps(0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f, 10.f, 11.f,
                                       12.f, 13.f, 14.f, 15.f);
    const __m512 lo = _mm512_set1_ps(-2.f);
    const __m512 hi = _mm512_set1_ps(t.maxIndex);
    const __m512 half = _mm512_set1_ps(0.5f);
    const __m512i pad = _mm512_set1_epi32(kPadLeft);
    for (int pb = 0; pb < t.angles; pb += t.angleBlock) {
        const int pe = std::min(pb + t.angleBlock, t.angles);
        for (int r = 0; r < t.height; ++r) {
            const float fiy = static_cast<float>(t.y0 + r);
            for (int g = 0; g < t.width; g += G) {
                float* accPtr = t.acc + (static_cast<std::size_t>(r) * t.tileStride + g) * S;
                __m512 acc[G];
#pragma GCC unroll 16
                for (int k = 0; k < G; ++k)
                    acc[k] = _mm512_load_ps(accPtr + k * S);
                const __m512 ix = _mm512_add_ps(_mm512_set1_ps(static_cast<float>(t.x0 + g)), lane);
                for (int p = pb; p < pe; ++p) {
                    const ProjectionConstants c = t.constants[p];
                    const float base = c.a + fiy * c.cy;
                    const __m512 u = _mm512_add_ps(_mm512_set1_ps(base),
                                                   _mm512_mul_ps(ix, _mm512_set1_ps(c.cx)));
                    __m512 fl;
                    if constexpr (Linear) {
                        fl = _mm512_roundscale_ps(u, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
                        _mm512_store_ps(frac, _mm512_sub_ps(u, fl));
                    } else {
                        fl = _mm512_roundscale_ps(_mm512_add_ps(u, half),
                                                  _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
                    }
                    fl = _mm512_min_ps(_mm512_max_ps(fl, lo), hi);
                    const __m512i bin = _mm512_add_epi32(_mm512_cvttps_epi32(fl), pad);
                    _mm512_store_si512(idx, _mm512_slli_epi32(bin, kShift));
                    const float* row = t.compound + static_cast<std::size_t>(p) * t.angleStride;
#pragma GCC unroll 16
                    for (int k = 0; k < G; ++k) {
                        const float* e = row + idx[k];
                        if constexpr (Linear) {
                            const __m512 term = _mm512_add_ps(
                                _mm512_load_ps(e),
                                _mm512_mul_ps(_mm512_set1_ps(frac[k]), _mm512_load_ps(e + S)));
                            acc[k] = _mm512_add_ps(acc[k], term);
                        } else {
                            acc[k] = _mm512_add_ps(acc[k], _mm512_load_ps(e));
                        }
                    }
                }
#pragma GCC unroll 16
                for (int k = 0; k < G; ++k)
                    _mm512_store_ps(accPtr + k * S, acc[k]);
            }
        }
    }
}
#pragma GCC diagnostic pop

}  // namespace

void backProjectTileAvx2(bool linear, const TileTask& task) {
    if (linear) {
        tileAvx2<true>(task);
    } else {
        tileAvx2<false>(task);
    }
}

void backProjectTileAvx512(bool linear, const TileTask& task) {
    if (linear) {
        tileAvx512<true>(task);
    } else {
        tileAvx512<false>(task);
    }
}

}  // namespace tomo::detail
