// AnyLengthFft against a direct double-precision DFT, and the Daubechies filters against the
// orthonormality and vanishing-moment identities that define them.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <vector>

#include "core/preprocess/AnyLengthFft.h"
#include "core/preprocess/DaubechiesWavelet.h"

namespace tomo {
namespace {

std::vector<std::complex<double>> directDft(const std::vector<std::complex<double>>& x) {
    const std::size_t n = x.size();
    std::vector<std::complex<double>> out(n);
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t j = 0; j < n; ++j) {
            const double a = -2 * std::numbers::pi * static_cast<double>((k * j) % n) / static_cast<double>(n);
            out[k] += x[j] * std::complex<double>(std::cos(a), std::sin(a));
        }
    return out;
}

TEST(AnyLengthFft, MatchesDirectDftForAnyLength) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (std::size_t n : {1u, 2u, 7u, 12u, 100u, 128u, 361u}) {
        std::vector<std::complex<double>> x(n);
        for (auto& v : x)
            v = {dist(rng), dist(rng)};
        auto fft = AnyLengthFft::create(n);
        ASSERT_TRUE(fft.isOk()) << fft.status().toString();
        AnyLengthFft::Scratch scratch;
        auto y = x;
        fft->forward(y.data(), scratch);
        const auto ref = directDft(x);
        double err = 0, mag = 0;
        for (std::size_t k = 0; k < n; ++k) {
            err = std::max(err, std::abs(y[k] - ref[k]));
            mag = std::max(mag, std::abs(ref[k]));
        }
        EXPECT_LT(err, 1e-12 * mag + 1e-14) << "n = " << n;
        fft->inverse(y.data(), scratch);
        for (std::size_t k = 0; k < n; ++k)
            EXPECT_NEAR(std::abs(y[k] / static_cast<double>(n) - x[k]), 0.0, 1e-12) << "n = " << n;
    }
}

TEST(AnyLengthFft, RejectsZeroLength) {
    auto fft = AnyLengthFft::create(0);
    ASSERT_FALSE(fft.isOk());
    EXPECT_EQ(fft.status().code(), ErrorCode::InvalidArgument);
}

TEST(DaubechiesWavelet, FiltersAreOrthonormalWithVanishingMoments) {
    for (const DaubechiesWavelet& w : {DaubechiesWavelet::haar(), DaubechiesWavelet::db5()}) {
        auto h = w.lowPass();
        auto g = w.highPass();
        const std::size_t L = h.size();
        double sum = 0;
        for (double v : h)
            sum += v;
        EXPECT_NEAR(sum, std::sqrt(2.0), 1e-13) << w.name();
        // sum h[n] h[n + 2k] = delta_k: orthonormal integer translates.
        for (std::size_t k = 0; 2 * k < L; ++k) {
            double c = 0;
            for (std::size_t n = 0; n + 2 * k < L; ++n)
                c += h[n] * h[n + 2 * k];
            // The tabulated db5 values carry about 12 correct digits.
            EXPECT_NEAR(c, k == 0 ? 1.0 : 0.0, 5e-12) << w.name() << " shift " << k;
        }
        // L/2 vanishing moments of the wavelet filter.
        for (std::size_t m = 0; m < L / 2; ++m) {
            double moment = 0, scale = 0;
            for (std::size_t k = 0; k < L; ++k) {
                moment += std::pow(static_cast<double>(k), static_cast<double>(m)) * g[k];
                scale += std::pow(static_cast<double>(k), static_cast<double>(m)) * std::fabs(g[k]);
            }
            EXPECT_NEAR(moment / scale, 0.0, 5e-12) << w.name() << " moment " << m;
        }
    }
}

TEST(DaubechiesWavelet, PeriodicTransformIsOrthogonalAndInvertible) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> dist(-1, 1);
    const DaubechiesWavelet w = DaubechiesWavelet::db5();
    for (std::size_t n : {4u, 10u, 64u, 90u}) {
        // Strided line: every other element of a buffer.
        std::vector<double> buf(2 * n), orig(n), scratch;
        double energy = 0;
        for (std::size_t i = 0; i < n; ++i) {
            orig[i] = buf[2 * i] = dist(rng);
            energy += orig[i] * orig[i];
        }
        w.analyze(buf.data(), n, 2, scratch);
        double energyOut = 0;
        for (std::size_t i = 0; i < n; ++i)
            energyOut += buf[2 * i] * buf[2 * i];
        EXPECT_NEAR(energyOut, energy, 1e-11 * energy) << "n = " << n;
        w.synthesize(buf.data(), n, 2, scratch);
        for (std::size_t i = 0; i < n; ++i)
            EXPECT_NEAR(buf[2 * i], orig[i], 1e-11) << "n = " << n << " i = " << i;
    }
    EXPECT_FALSE(DaubechiesWavelet::fromName("db7").isOk());
}

}  // namespace
}  // namespace tomo
