// AVX-512 and portable versions of JosephOperator's pixel-driven adjoint line kernel (see
// JosephKernels.h). The AVX-512 function carries its own target attribute (the file is
// compiled for baseline x86-64 and the kernel is only called after cpuIsaSupported said yes).
// Floating-point contraction is disabled for this file (CMakeLists.txt) so that the ray
// positions round exactly as in LocalityKernels.cpp.

#include "core/locality/JosephKernels.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>

namespace tomo::detail {
namespace {

/// The first candidate of pixel @p fi (see JosephKernels.h), clamped to the padded table.
int firstCandidate(const JosephAdjointAngle& g, float base, float fi) {
    const float lo = float(-g.pad), hi = float(g.detectors + g.pad - g.candidates);
    const float s = std::clamp((fi - base) * g.invB - g.halfWidth, lo, hi);
    return static_cast<int>(std::ceil(s));
}

void adjointGeneric(const JosephAdjointAngle& g, int kBegin, int kEnd, int iBegin, int count,
                    float* acc, std::size_t accPitch) {
    const float d = static_cast<float>(g.d);
    for (int k = kBegin; k < kEnd; ++k) {
        const float dk = d * static_cast<float>(k);
        const float base = static_cast<float>(g.a + g.d * double(k));
        float* out = acc + static_cast<std::size_t>(k - kBegin) * accPitch;
        for (int n = 0; n < count; ++n) {
            const float fi = static_cast<float>(iBegin + n);
            const int start = firstCandidate(g, base, fi);
            float sum = 0.f;
            for (int m = 0; m < g.candidates; ++m) {
                const float pos = g.pos0[start + m] + dk;
                const float w = 1.f - std::abs(pos - fi);
                if (w > 0.f) sum += w * g.sino[start + m];
            }
            out[n] += g.step * sum;
        }
    }
}

// GCC 12's AVX-512 intrinsics self-initialise their "undefined" operands, which trips
// -Wmaybe-uninitialized where they are inlined (GCC bug 105593); nothing here is uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f,avx2,fma"))) void adjointAvx512(const JosephAdjointAngle& g,
                                                               int kBegin, int kEnd, int iBegin,
                                                               int count, float* acc,
                                                               std::size_t accPitch) {
    const __m512 one = _mm512_set1_ps(1.f), zero = _mm512_setzero_ps();
    const __m512 lane = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512 invB = _mm512_set1_ps(g.invB), halfWidth = _mm512_set1_ps(g.halfWidth);
    const __m512 step = _mm512_set1_ps(g.step);
    const __m512 lo = _mm512_set1_ps(float(-g.pad));
    const __m512 hi = _mm512_set1_ps(float(g.detectors + g.pad - g.candidates));
    const __m512i unit = _mm512_set1_epi32(1);
    // The smallest candidate of a vector is lane 0's for b > 0 and lane 15's for b < 0
    // (the candidates are monotonic in the pixel index).
    const __m512i firstLane = _mm512_set1_epi32(g.invB > 0.f ? 0 : 15);
    const float d = static_cast<float>(g.d);
    for (int k = kBegin; k < kEnd; ++k) {
        const __m512 dk = _mm512_set1_ps(d * static_cast<float>(k));
        const __m512 base = _mm512_set1_ps(static_cast<float>(g.a + g.d * double(k)));
        float* out = acc + static_cast<std::size_t>(k - kBegin) * accPitch;
        for (int n0 = 0; n0 < count; n0 += 16) {
            const int cnt = std::min(16, count - n0);
            const __mmask16 mask = static_cast<__mmask16>((1u << cnt) - 1u);
            const __m512 fi = _mm512_add_ps(_mm512_set1_ps(float(iBegin + n0)), lane);
            const __m512 s = _mm512_max_ps(
                _mm512_min_ps(
                    _mm512_sub_ps(_mm512_mul_ps(_mm512_sub_ps(fi, base), invB), halfWidth), hi),
                lo);
            const __m512i start = _mm512_cvttps_epi32(
                _mm512_roundscale_ps(s, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC));
            __m512 sum = zero;
            if (g.window) {
                // Every lane's candidates lie in rays [first, first + 32).
                const __m512i firstV = _mm512_permutexvar_epi32(firstLane, start);
                const int first = _mm_cvtsi128_si32(_mm512_castsi512_si128(firstV));
                const __m512 p0 = _mm512_loadu_ps(g.pos0 + first);
                const __m512 p1 = _mm512_loadu_ps(g.pos0 + first + 16);
                const __m512 y0 = _mm512_loadu_ps(g.sino + first);
                const __m512 y1 = _mm512_loadu_ps(g.sino + first + 16);
                __m512i idx = _mm512_sub_epi32(start, firstV);
                for (int m = 0; m < g.candidates; ++m) {
                    const __m512 pos = _mm512_add_ps(_mm512_permutex2var_ps(p0, idx, p1), dk);
                    const __m512 y = _mm512_permutex2var_ps(y0, idx, y1);
                    const __m512 w = _mm512_max_ps(
                        zero, _mm512_sub_ps(one, _mm512_abs_ps(_mm512_sub_ps(pos, fi))));
                    sum = _mm512_fmadd_ps(w, y, sum);
                    idx = _mm512_add_epi32(idx, unit);
                }
            } else {
                __m512i idx = start;
                for (int m = 0; m < g.candidates; ++m) {
                    const __m512 pos = _mm512_add_ps(_mm512_i32gather_ps(idx, g.pos0, 4), dk);
                    const __m512 y = _mm512_i32gather_ps(idx, g.sino, 4);
                    const __m512 w = _mm512_max_ps(
                        zero, _mm512_sub_ps(one, _mm512_abs_ps(_mm512_sub_ps(pos, fi))));
                    sum = _mm512_fmadd_ps(w, y, sum);
                    idx = _mm512_add_epi32(idx, unit);
                }
            }
            const __m512 a = _mm512_maskz_loadu_ps(mask, out + n0);
            _mm512_mask_storeu_ps(out + n0, mask, _mm512_fmadd_ps(step, sum, a));
        }
    }
}
#pragma GCC diagnostic pop

}  // namespace

std::pair<int, int> josephActiveLines(float pos0, float d, int size, int lines) {
    const auto pos = [&](int k) { return pos0 + d * static_cast<float>(k); };
    // First k in [0, lines] where pred holds (pred false then true along k).
    const auto firstTrue = [&](auto pred) {
        int lo = 0, hi = lines;
        while (lo < hi) {
            const int mid = lo + (hi - lo) / 2;
            if (pred(pos(mid)))
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    };
    const float fsize = static_cast<float>(size);
    int first = 0, last = 0;
    if (d >= 0.f) {
        first = firstTrue([](float p) { return p > -1.f; });
        last = firstTrue([&](float p) { return p >= fsize; });
    } else {
        first = firstTrue([&](float p) { return p < fsize; });
        last = firstTrue([](float p) { return p <= -1.f; });
    }
    if (last <= first) return {0, 0};
    return {first, last};
}

float josephHalfWidth(double b, double maxAbsPos, int detectors) {
    const double ulp = std::ldexp(1.0, -23);
    return static_cast<float>((1.0 + 64.0 * ulp * maxAbsPos + 1e-4) / std::abs(b) +
                              64.0 * ulp * detectors);
}

int josephCandidates(float halfWidth) {
    return static_cast<int>(std::floor(2.0 * double(halfWidth))) + 1;
}

bool josephWindowFits(double b, int candidates) {
    return std::ceil(15.0 / std::abs(b) + 0.01) + 1.0 + candidates <= double(kJosephWindow);
}

void josephAdjointLines(CpuIsa isa, const JosephAdjointAngle& angle, int kBegin, int kEnd,
                        int iBegin, int count, float* acc, std::size_t accPitch) {
    if (isa == CpuIsa::Avx512)
        adjointAvx512(angle, kBegin, kEnd, iBegin, count, acc, accPitch);
    else
        adjointGeneric(angle, kBegin, kEnd, iBegin, count, acc, accPitch);
}

}  // namespace tomo::detail
