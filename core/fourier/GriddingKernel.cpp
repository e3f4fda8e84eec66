// The Kaiser-Bessel gridding kernel: values, analytic transform, aliasing error and the
// piecewise polynomials of the spreading kernels (GriddingKernel.h).
#include "core/fourier/GriddingKernel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>

namespace tomo {
namespace {

using std::numbers::pi;

/// Solves the (n x n) system a x = b in place by Gaussian elimination with partial pivoting.
void solve(std::vector<double>& a, std::vector<double>& b, int n) {
    for (int col = 0; col < n; ++col) {
        int pivot = col;
        for (int r = col + 1; r < n; ++r)
            if (std::abs(a[r * n + col]) > std::abs(a[pivot * n + col])) pivot = r;
        for (int c = 0; c < n; ++c)
            std::swap(a[col * n + c], a[pivot * n + c]);
        std::swap(b[col], b[pivot]);
        for (int r = col + 1; r < n; ++r) {
            const double f = a[r * n + col] / a[col * n + col];
            for (int c = col; c < n; ++c)
                a[r * n + c] -= f * a[col * n + c];
            b[r] -= f * b[col];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        double s = b[r];
        for (int c = r + 1; c < n; ++c)
            s -= a[r * n + c] * b[c];
        b[r] = s / a[r * n + r];
    }
}

/// Float coefficients of the degree-@p degree interpolants of phi on the W unit intervals, in
/// z = 2t - 1, interpolating at Chebyshev nodes (well conditioned in [-1, 1]).
std::vector<float> fitPolynomials(const GriddingKernel& k, int degree) {
    const int w = k.width(), n = degree + 1;
    std::vector<float> c(static_cast<std::size_t>(n * w));
    for (int i = 0; i < w; ++i) {
        std::vector<double> a(static_cast<std::size_t>(n * n)), y(static_cast<std::size_t>(n));
        for (int j = 0; j < n; ++j) {
            const double z = std::cos(pi * (j + 0.5) / n);
            double p = 1;
            for (int d = 0; d < n; ++d, p *= z)
                a[static_cast<std::size_t>(j * n + d)] = p;
            y[static_cast<std::size_t>(j)] = k.value(0.5 * (z + 1) + i - 0.5 * w);
        }
        solve(a, y, n);
        for (int d = 0; d < n; ++d)
            c[static_cast<std::size_t>(d * w + i)] =
                static_cast<float>(y[static_cast<std::size_t>(d)]);
    }
    return c;
}

}  // namespace

double besselI0(double x) {
    const double q = 0.25 * x * x;
    double term = 1, sum = 1;
    for (int k = 1; k < 500 && term > 1e-17 * sum; ++k) {
        term *= q / (static_cast<double>(k) * k);
        sum += term;
    }
    return sum;
}

Result<GriddingKernel> GriddingKernel::create(int width, double oversampling) {
    if (width < kMinWidth || width > kMaxWidth)
        return invalidArgument("gridding kernel width " + std::to_string(width) + " is outside [" +
                               std::to_string(kMinWidth) + ", " + std::to_string(kMaxWidth) +
                               "] grid points");
    if (!(oversampling >= kMinOversampling && oversampling <= kMaxOversampling))
        return invalidArgument("oversampling " + std::to_string(oversampling) +
                               " is outside [1.1, 4]");
    GriddingKernel k;
    k.m_width = width;
    k.m_oversampling = oversampling;
    const double r = width / oversampling * (oversampling - 0.5);
    k.m_beta = pi * std::sqrt(std::max(r * r - 0.8, 0.25));
    k.m_i0beta = besselI0(k.m_beta);

    // Aliasing: worst over the image band of sqrt(sum_{n != 0} phihat(f + n)^2) / phihat(f)
    // (the worst is at the band's edge; 32 steps, aliases up to |n| = 64, whose tail adds < 1%).
    const double band = 0.5 / oversampling;
    for (int s = 0; s <= 32; ++s) {
        const double f = band * s / 32.0;
        double sum = 0;
        for (int n = 1; n <= 64; ++n)
            sum += std::pow(k.transform(f + n), 2) + std::pow(k.transform(f - n), 2);
        k.m_aliasing = std::max(k.m_aliasing, std::sqrt(sum) / std::abs(k.transform(f)));
    }

    // The least polynomial degree that keeps the float weights within the target of phi.
    const double target = std::max(0.1 * k.m_aliasing, 3e-7);
    for (int degree = 3; degree <= kMaxDegree; ++degree) {
        k.m_degree = degree;
        k.m_coefficients = fitPolynomials(k, degree);
        double err = 0;
        std::array<float, kMaxWidth> w{};
        for (int s = 1; s <= 200; ++s) {
            const float t = static_cast<float>(s) / 200.f;
            k.weights(t, w.data());
            for (int i = 0; i < width; ++i)
                err = std::max(err, std::abs(w[static_cast<std::size_t>(i)] -
                                             k.value(double(t) + i - 0.5 * width)));
        }
        k.m_polynomialError = err;
        if (err <= target) break;
    }
    return k;
}

double GriddingKernel::value(double u) const {
    const double v = 2.0 * u / m_width;
    if (std::abs(v) > 1.0) return 0.0;
    return besselI0(m_beta * std::sqrt(1.0 - v * v)) / m_i0beta;
}

double GriddingKernel::transform(double f) const {
    const double a = pi * m_width * f;
    const double d = m_beta * m_beta - a * a;
    if (std::abs(d) < 1e-12) return m_width / m_i0beta;
    const double s = std::sqrt(std::abs(d));
    return m_width * (d > 0 ? std::sinh(s) : std::sin(s)) / (s * m_i0beta);
}

void GriddingKernel::weights(float t, float* weights) const {
    const float z = 2.f * t - 1.f;
    const float* c = m_coefficients.data();
    for (int i = 0; i < m_width; ++i) {
        float w = c[m_degree * m_width + i];
        for (int d = m_degree - 1; d >= 0; --d)
            w = w * z + c[d * m_width + i];
        weights[i] = w;
    }
}

double GriddingKernel::roundingError() const {
    const double ratio = transform(0.0) / transform(0.5 / m_oversampling);
    return 3e-7 * ratio * ratio;
}

double GriddingKernel::predictedError() const {
    return m_aliasing + m_polynomialError + roundingError();
}

int widthForTolerance(double tolerance, double oversampling) {
    int best = GriddingKernel::kMinWidth;
    double bestError = 1e300;
    for (int w = GriddingKernel::kMinWidth; w <= GriddingKernel::kMaxWidth; ++w) {
        auto k = GriddingKernel::create(w, oversampling);
        if (!k.isOk()) continue;
        if (k->predictedError() <= tolerance) return w;
        if (k->predictedError() < bestError) {
            best = w;
            bestError = k->predictedError();
        }
        if (k->predictedError() > 2 * bestError) break;  // past the optimum: rounding grows
    }
    return best;
}

}  // namespace tomo
