// Spreading gridrec's polar samples onto the Cartesian grid, one band of rows at a time
// (GridSpreading.h).
#include "core/fourier/GridSpreading.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/devices/CpuFeatures.h"

namespace tomo::detail {
namespace {

using cf = std::complex<float>;
typedef float v16 __attribute__((vector_size(64)));          // NOLINT: GCC/Clang vector extension
typedef std::uint64_t v8u __attribute__((vector_size(64)));  // NOLINT

// Loads and stores through references: vector arguments and results by value would tie the
// functions to one vector ABI.
[[gnu::always_inline]] inline void load16(v16& v, const float* p) {
    std::memcpy(&v, p, sizeof v);
}

[[gnu::always_inline]] inline void store16(float* p, const v16& v) {
    std::memcpy(p, &v, sizeof v);
}

/// The k of a view whose footprint may reach rows [lo, hi) of position space (conservative:
/// the caller checks each sample's rows).
[[gnu::always_inline]] inline void kRange(double lo, double hi, double centre, double uy, int kLo,
                                          int kHi, int& k0, int& k1) {
    if (std::abs(uy) < 1e-12) {
        k0 = kLo;
        k1 = centre >= lo && centre < hi ? kHi : kLo - 1;
        return;
    }
    double a = (lo - centre) / uy, b = (hi - centre) / uy;
    if (a > b) std::swap(a, b);
    const double first = kLo - 1.0, last = kHi + 1.0;  // clamped before the integer casts
    k0 = std::max(kLo, static_cast<int>(std::floor(std::clamp(a, first, last))));
    k1 = std::min(kHi, static_cast<int>(std::ceil(std::clamp(b, first, last))));
}

/// The band's rows [r0, r1) with the samples of one view; C vectors of 8 complex per x row.
template <int C>
[[gnu::always_inline]] inline void spreadView(const SpreadBand& b, const SpreadCoefficients& k,
                                              const FourierPlan::View& view, const cf* row) {
    const int w = k.width, degree = k.degree;
    const double half = 0.5 * w, cx = 0.5 * b.gridX, cy = 0.5 * b.gridY;
    const int kLo = b.kFirst, kHi = b.kFirst + b.kCount - 1;
    const double syA = cy + kLo * view.uy, syB = cy + kHi * view.uy;
    const double syMin = std::min(syA, syB), syMax = std::max(syA, syB);
    const int nMin = static_cast<int>(std::floor((syMin - b.rowEnd + 1 - half) / b.gridY));
    const int nMax = static_cast<int>(std::floor((syMax - b.rowBegin + half) / b.gridY));
    for (int n = nMin; n <= nMax; ++n) {
        const int shift = n * b.gridY;
        int k0 = 0, k1 = -1;
        kRange(b.rowBegin + shift - half, b.rowEnd + shift - 1 + half, cy, view.uy, kLo, kHi, k0,
               k1);
        for (int kk = k0; kk <= k1; ++kk) {
            const double sy = cy + kk * view.uy;
            const double fy = std::floor(sy - half);
            const int iy0 = static_cast<int>(fy) + 1;
            const int rlo = std::max(0, b.rowBegin + shift - iy0);
            const int rhi = std::min(w, b.rowEnd + shift - iy0);
            if (rlo >= rhi) continue;
            const double sx = cx + kk * view.ux;
            const double fx = std::floor(sx - half);
            const int ix0 = static_cast<int>(fx) + 1;
            int column = ix0;  // periodic in Mx; rarely more than one grid away
            while (column < 0)
                column += b.gridX;
            while (column >= b.gridX)
                column -= b.gridX;
            const float zx = 2.f * static_cast<float>(fx + 1 - sx + half) - 1.f;
            const float zy = 2.f * static_cast<float>(fy + 1 - sy + half) - 1.f;
            v16 wx[C], wy, coefficient;
            load16(wy, &k.y[static_cast<std::size_t>(degree) * 16]);
            for (int c = 0; c < C; ++c)
                load16(wx[c], &k.x[static_cast<std::size_t>(degree) * 32 + 16 * c]);
            for (int d = degree - 1; d >= 0; --d) {
                for (int c = 0; c < C; ++c) {
                    load16(coefficient, &k.x[static_cast<std::size_t>(d) * 32 + 16 * c]);
                    wx[c] = wx[c] * zx + coefficient;
                }
                load16(coefficient, &k.y[static_cast<std::size_t>(d) * 16]);
                wy = wy * zy + coefficient;
            }
            // (re, im) in every pair of lanes: one 64-bit broadcast (an integer add of zero, so
            // no bits change), not eight stores that a vector load could not forward from.
            std::uint64_t bits = 0;
            std::memcpy(&bits, &row[kk - b.kFirst], sizeof bits);
            const v8u pairs = bits + v8u{};
            v16 cv;
            std::memcpy(&cv, &pairs, sizeof cv);
            for (int c = 0; c < C; ++c)
                wx[c] *= cv;
            float wyr[16];
            store16(wyr, wy);
            for (int r = rlo; r < rhi; ++r) {
                float* g = reinterpret_cast<float*>(
                    b.grid + static_cast<std::size_t>(iy0 + r - shift) * b.gridStride + column);
                for (int c = 0; c < C; ++c) {
                    v16 cell;
                    load16(cell, g + 16 * c);
                    cell += wyr[r] * wx[c];
                    store16(g + 16 * c, cell);
                }
            }
        }
    }
}

template <int C>
[[gnu::always_inline]] inline void spreadViews(const SpreadBand& b, const SpreadCoefficients& k) {
    for (std::size_t p = 0; p < b.views.size(); ++p)
        spreadView<C>(b, k, b.views[p], b.samples + p * b.sampleStride);
}

__attribute__((target("avx512f,avx2,fma"))) void spreadAvx512(const SpreadBand& b,
                                                              const SpreadCoefficients& k) {
    k.width <= 8 ? spreadViews<1>(b, k) : spreadViews<2>(b, k);
}

__attribute__((target("avx2,fma"))) void spreadAvx2(const SpreadBand& b,
                                                    const SpreadCoefficients& k) {
    k.width <= 8 ? spreadViews<1>(b, k) : spreadViews<2>(b, k);
}

void spreadGeneric(const SpreadBand& b, const SpreadCoefficients& k) {
    k.width <= 8 ? spreadViews<1>(b, k) : spreadViews<2>(b, k);
}

SimdLevel spreadLevel() {
    static const SimdLevel level = detectSimdLevel();
    return level;
}

}  // namespace

SpreadCoefficients SpreadCoefficients::of(const GriddingKernel& kernel) {
    SpreadCoefficients s;
    s.width = kernel.width();
    s.degree = kernel.degree();
    s.x.assign(static_cast<std::size_t>(s.degree + 1) * 32, 0.f);
    s.y.assign(static_cast<std::size_t>(s.degree + 1) * 16, 0.f);
    const std::span<const float> c = kernel.coefficients();
    for (int d = 0; d <= s.degree; ++d)
        for (int i = 0; i < s.width; ++i) {
            const float v = c[static_cast<std::size_t>(d * s.width + i)];
            s.x[static_cast<std::size_t>(d * 32 + 2 * i)] = v;
            s.x[static_cast<std::size_t>(d * 32 + 2 * i + 1)] = v;
            s.y[static_cast<std::size_t>(d * 16 + i)] = v;
        }
    return s;
}

void spreadBand(const SpreadBand& b, const SpreadCoefficients& k) {
    for (int r = b.rowBegin; r < b.rowEnd; ++r)
        std::fill_n(b.grid + static_cast<std::size_t>(r) * b.gridStride, b.gridStride, cf{});
    switch (spreadLevel()) {
        case SimdLevel::Avx512:
            spreadAvx512(b, k);
            break;
        case SimdLevel::Avx2Fma:
            spreadAvx2(b, k);
            break;
        default:
            spreadGeneric(b, k);
    }
    for (int r = b.rowBegin; r < b.rowEnd; ++r) {
        cf* g = b.grid + static_cast<std::size_t>(r) * b.gridStride;
        for (int c = 0; c < kGuardColumns; ++c) {
            g[c % b.gridX] += g[b.gridX + c];
            g[b.gridX + c] = cf{};
        }
    }
}

const char* spreadingIsa() {
    switch (spreadLevel()) {
        case SimdLevel::Avx512:
            return "avx512";
        case SimdLevel::Avx2Fma:
            return "avx2";
        default:
            return "generic";
    }
}

}  // namespace tomo::detail
