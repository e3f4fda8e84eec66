// AVX-512 and AVX2 versions of the ray-group kernel (AVX-512: a 32-pixel window and permutes
// for strips of neighbouring rays, see windowLane; otherwise gathers across the rays, as the
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

/// The nonempty lane with the smallest pos0 when the group fits the window path, else -1.
/// Why 32 floats suffice: positions are pos_l = fl(pos0_l + fl(d k)), monotonic in pos0_l,
/// so the smallest nonempty lane m has the smallest index i_m on every line (floor and the
/// clamp are monotonic); an active lane l has i_l - i_m <= floor(pos_l) - floor(pos_m) <=
/// spread + 2 ulp + 1 < 30 for spread <= 28 and |pos| < 2^20 (ulp <= 1/8), so i_l + 1 lies in
/// [i_m, i_m + 31]. Empty lanes are never added; their permute indices may wrap (harmless).
int windowLane(const RayGroup& g) {
    if (g.lineLength > kWindowMaxLine) return -1;
    int minLane = -1;
    double lo = 0, hi = 0;
    for (int l = 0; l < kRayLanes; ++l) {
        if (g.first[l] >= g.last[l]) continue;
        const double p = g.pos0[l];
        if (minLane < 0 || p < lo) {
            if (minLane < 0) hi = p;
            lo = p;
            minLane = l;
        }
        hi = std::max(hi, p);
    }
    return minLane >= 0 && hi - lo <= double(kWindowSpread) ? minLane : -1;
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
/// The window path of sumAvx512 (see windowLane): per line two masked loads of 16 floats
/// from the smallest lane's pixel (masked to the padded line, so nothing past it is read) and
/// two permutes pick v[i] and v[i + 1] for every lane.
__attribute__((target("avx512f,avx2,fma"))) void sumWindowAvx512(const RayGroup& g, int minLane,
                                                                 int lo, int hi, float* out) {
    const __m512 d = _mm512_set1_ps(g.d);
    const __m512i minIndex = _mm512_set1_epi32(-kLinePad);
    const __m512i maxIndex = _mm512_set1_epi32(g.lineLength);
    const __m512i pick = _mm512_set1_epi32(minLane);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512 pos0 = _mm512_loadu_ps(g.pos0);
    const __m512i first = _mm512_loadu_si512(g.first);
    const __m512i last = _mm512_loadu_si512(g.last);
    const int readable = g.lineLength + kLinePad;  // padded pixels from index 0 to the end
    __m512 sum = _mm512_setzero_ps();
    for (int k = lo; k < hi; ++k) {
        const float* line = g.image + static_cast<std::size_t>(k) * g.linePitch + kLinePad;
        const __m512 pos = _mm512_add_ps(pos0, _mm512_mul_ps(d, _mm512_set1_ps(float(k))));
        const __m512 fl = _mm512_roundscale_ps(pos, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m512 f = _mm512_sub_ps(pos, fl);
        const __m512i i =
            _mm512_min_epi32(_mm512_max_epi32(_mm512_cvttps_epi32(fl), minIndex), maxIndex);
        const __m512i baseLanes = _mm512_permutexvar_epi32(pick, i);
        const int base = _mm_cvtsi128_si32(_mm512_castsi512_si128(baseLanes));
        const __m512i rel = _mm512_sub_epi32(i, baseLanes);
        const int valid = readable - base;  // >= 2: base <= lineLength
        const unsigned mask = valid >= 32 ? ~0u : (1u << valid) - 1u;
        const __m512 w0 = _mm512_maskz_loadu_ps(static_cast<__mmask16>(mask), line + base);
        const __m512 w1 =
            _mm512_maskz_loadu_ps(static_cast<__mmask16>(mask >> 16), line + base + 16);
        const __m512 v0 = _mm512_permutex2var_ps(w0, rel, w1);
        const __m512 v1 = _mm512_permutex2var_ps(w0, _mm512_add_epi32(rel, one), w1);
        const __m512 term = _mm512_add_ps(v0, _mm512_mul_ps(f, _mm512_sub_ps(v1, v0)));
        const __m512i kv = _mm512_set1_epi32(k);
        const __mmask16 active =
            _mm512_cmple_epi32_mask(first, kv) & _mm512_cmpgt_epi32_mask(last, kv);
        sum = _mm512_mask_add_ps(sum, active, sum, term);
    }
    _mm512_storeu_ps(out, sum);
}

__attribute__((target("avx512f,avx2,fma"))) void sumAvx512(const RayGroup& g, int kBegin, int kEnd,
                                                           float* out, bool allowWindow) {
    static_assert(kRayLanes == 16);
    const auto [lo, hi] = unionRange(g, kBegin, kEnd);
    const int minLane = allowWindow ? windowLane(g) : -1;
    if (minLane >= 0) {
        sumWindowAvx512(g, minLane, lo, hi, out);
        return;
    }
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

bool rayGroupFitsWindow(const RayGroup& group) {
    return windowLane(group) >= 0;
}

void sumRayGroup(CpuIsa isa, const RayGroup& group, int kBegin, int kEnd, float* out,
                 bool allowWindow) {
    switch (isa) {
        case CpuIsa::Avx512:
            sumAvx512(group, kBegin, kEnd, out, allowWindow);
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
