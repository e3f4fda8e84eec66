// AVX-512 and AVX2 versions of the ray-group kernel (gathers across the rays of a group, as the
// tiled back-projection kernels of core/projectors/SimdTileKernels.cpp: each function carries
// its own target attribute, the file is compiled for baseline x86-64 and the kernels are only
// called after cpuIsaSupported said yes), and the portable scalar loop they reproduce bit for
// bit. Floating-point contraction is disabled for this file (CMakeLists.txt).

#include "core/locality/LocalityKernels.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>

namespace tomo::detail {
namespace {

/// Lines [lo, hi) covering every lane's active range within [kBegin, kEnd).
std::pair<int, int> unionRange(const RayGroup& g, int kBegin, int kEnd) {
    int lo = kEnd, hi = kBegin;
    for (int l = 0; l < kRayLanes; ++l)
        if (g.first[l] < g.last[l]) {
            lo = std::min(lo, g.first[l]);
            hi = std::max(hi, g.last[l]);
        }
    return {std::max(lo, kBegin), std::min(hi, kEnd)};
}

void sumGeneric(const RayGroup& g, int kBegin, int kEnd, float* out) {
    for (int l = 0; l < kRayLanes; ++l) {
        float sum = 0.f;
        const int last = std::min(g.last[l], kEnd);
        for (int k = std::max(g.first[l], kBegin); k < last; ++k) {
            const float pos = g.pos0[l] + g.d * static_cast<float>(k);
            const float fl = std::floor(pos);
            const float f = pos - fl;
            const float* line = g.image + static_cast<std::size_t>(k) * g.linePitch + kLinePad;
            const int i = static_cast<int>(fl);
            const float v0 = line[i], v1 = line[i + 1];
            sum += v0 + f * (v1 - v0);
        }
        out[l] = sum;
    }
}

__attribute__((target("avx2,fma"))) void sumAvx2(const RayGroup& g, int kBegin, int kEnd,
                                                 float* out) {
    const auto [lo, hi] = unionRange(g, kBegin, kEnd);
    const __m256 d = _mm256_set1_ps(g.d);
    const __m256i minIndex = _mm256_set1_epi32(-kLinePad);
    const __m256i maxIndex = _mm256_set1_epi32(g.lineLength);
    for (int h = 0; h < kRayLanes; h += 8) {
        const __m256 pos0 = _mm256_loadu_ps(g.pos0 + h);
        const __m256i first = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g.first + h));
        const __m256i last = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g.last + h));
        __m256 sum = _mm256_setzero_ps();
        for (int k = lo; k < hi; ++k) {
            const float* line = g.image + static_cast<std::size_t>(k) * g.linePitch + kLinePad;
            const __m256 pos = _mm256_add_ps(pos0, _mm256_mul_ps(d, _mm256_set1_ps(float(k))));
            const __m256 fl = _mm256_floor_ps(pos);
            const __m256 f = _mm256_sub_ps(pos, fl);
            const __m256i i =
                _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(fl), minIndex), maxIndex);
            const __m256 v0 = _mm256_i32gather_ps(line, i, 4);
            const __m256 v1 = _mm256_i32gather_ps(line + 1, i, 4);
            const __m256 term = _mm256_add_ps(v0, _mm256_mul_ps(f, _mm256_sub_ps(v1, v0)));
            const __m256i kv = _mm256_set1_epi32(k);
            const __m256i active =
                _mm256_andnot_si256(_mm256_cmpgt_epi32(first, kv), _mm256_cmpgt_epi32(last, kv));
            sum = _mm256_blendv_ps(sum, _mm256_add_ps(sum, term), _mm256_castsi256_ps(active));
        }
        _mm256_storeu_ps(out + h, sum);
    }
}

// GCC 12's AVX-512 intrinsics self-initialise their "undefined" operands, which trips
// -Wmaybe-uninitialized where they are inlined (GCC bug 105593); nothing here is uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f,avx2,fma"))) void sumAvx512(const RayGroup& g, int kBegin, int kEnd,
                                                           float* out) {
    static_assert(kRayLanes == 16);
    const auto [lo, hi] = unionRange(g, kBegin, kEnd);
    const __m512 d = _mm512_set1_ps(g.d);
    const __m512i minIndex = _mm512_set1_epi32(-kLinePad);
    const __m512i maxIndex = _mm512_set1_epi32(g.lineLength);
    const __m512 pos0 = _mm512_loadu_ps(g.pos0);
    const __m512i first = _mm512_loadu_si512(g.first);
    const __m512i last = _mm512_loadu_si512(g.last);
    __m512 sum = _mm512_setzero_ps();
    for (int k = lo; k < hi; ++k) {
        const float* line = g.image + static_cast<std::size_t>(k) * g.linePitch + kLinePad;
        const __m512 pos = _mm512_add_ps(pos0, _mm512_mul_ps(d, _mm512_set1_ps(float(k))));
        const __m512 fl = _mm512_roundscale_ps(pos, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m512 f = _mm512_sub_ps(pos, fl);
        const __m512i i =
            _mm512_min_epi32(_mm512_max_epi32(_mm512_cvttps_epi32(fl), minIndex), maxIndex);
        const __m512 v0 = _mm512_i32gather_ps(i, line, 4);
        const __m512 v1 = _mm512_i32gather_ps(i, line + 1, 4);
        const __m512 term = _mm512_add_ps(v0, _mm512_mul_ps(f, _mm512_sub_ps(v1, v0)));
        const __m512i kv = _mm512_set1_epi32(k);
        const __mmask16 active =
            _mm512_cmple_epi32_mask(first, kv) & _mm512_cmpgt_epi32_mask(last, kv);
        sum = _mm512_mask_add_ps(sum, active, sum, term);
    }
    _mm512_storeu_ps(out, sum);
}
#pragma GCC diagnostic pop

}  // namespace

void sumRayGroup(CpuIsa isa, const RayGroup& group, int kBegin, int kEnd, float* out) {
    switch (isa) {
        case CpuIsa::Avx512:
            sumAvx512(group, kBegin, kEnd, out);
            return;
        case CpuIsa::Avx2:
            sumAvx2(group, kBegin, kEnd, out);
            return;
        case CpuIsa::Generic:
            sumGeneric(group, kBegin, kEnd, out);
            return;
    }
}

}  // namespace tomo::detail
