#pragma once
// Double-precision references for the ramp filter tests, written from the formulas in
// RampFilter.h and independent of the library's code.
#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

namespace tomo::test {

/// Ram-Lak kernel h(n) for detector pitch d (Kak & Slaney ch. 3, eq. 61).
inline double ramLak(long n, double d) {
    using std::numbers::pi;
    if (n == 0) return 1.0 / (4.0 * d * d);
    if (n % 2 == 0) return 0.0;
    const double nd = static_cast<double>(n);
    return -1.0 / (nd * nd * pi * pi * d * d);
}

/// The ramp part of the response, bins 0..n/2: (d / n) * DFT of the circular kernel (lags
/// |m| < n/2, negative lags at n - m), by a direct O(n^2) DFT.
inline std::vector<double> rampPart(std::size_t n, double d) {
    std::vector<double> kernel(n, 0.0);
    for (std::size_t m = 0; m < n; ++m) {
        const long lag =
            m < n / 2 ? static_cast<long>(m) : static_cast<long>(m) - static_cast<long>(n);
        if (static_cast<std::size_t>(std::labs(lag)) < n / 2) kernel[m] = ramLak(lag, d);
    }
    std::vector<double> out(n / 2 + 1);
    for (std::size_t k = 0; k <= n / 2; ++k) {
        double s = 0;
        for (std::size_t m = 0; m < n; ++m)
            s += kernel[m] * std::cos(2.0 * std::numbers::pi * static_cast<double>((k * m) % n) /
                                      static_cast<double>(n));
        out[k] = d / static_cast<double>(n) * s;
    }
    return out;
}

/// Linear convolution d * sum_j h(k - j) p_j over one row, k = 0..p.size()-1.
template <class T>
std::vector<double> linearRamp(const T& p, double d) {
    const long w = static_cast<long>(p.size());
    std::vector<double> q(p.size(), 0.0);
    for (long k = 0; k < w; ++k) {
        double s = 0;
        for (long j = 0; j < w; ++j)
            s += ramLak(k - j, d) * static_cast<double>(p[j]);
        q[k] = d * s;
    }
    return q;
}

/// The same kernel applied circularly over the row's own width (what filtering without padding
/// would compute): lags taken modulo the width, each lag m in [-w/2, w/2) once.
template <class T>
std::vector<double> circularRamp(const T& p, double d) {
    const long w = static_cast<long>(p.size());
    std::vector<double> q(p.size(), 0.0);
    for (long k = 0; k < w; ++k) {
        double s = 0;
        for (long j = 0; j < w; ++j) {
            long lag = ((k - j) % w + w) % w;
            if (lag >= (w + 1) / 2) lag -= w;
            s += ramLak(lag, d) * static_cast<double>(p[j]);
        }
        q[k] = d * s;
    }
    return q;
}

}  // namespace tomo::test
