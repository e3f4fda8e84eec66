// The built-in radix-2 FFT (used in double for every filter response, in float by the fallback
// backend) against a direct O(N^2) DFT in double.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <vector>

#include "core/filter/Radix2Fft.h"

namespace tomo {
namespace {

std::vector<std::complex<double>> directDft(const std::vector<std::complex<double>>& x,
                                            double sign) {
    const std::size_t n = x.size();
    std::vector<std::complex<double>> out(n);
    for (std::size_t k = 0; k < n; ++k) {
        std::complex<double> s = 0;
        for (std::size_t j = 0; j < n; ++j) {
            const double a = sign * 2.0 * std::numbers::pi * static_cast<double>((k * j) % n) /
                             static_cast<double>(n);
            s += x[j] * std::complex<double>(std::cos(a), std::sin(a));
        }
        out[k] = s;
    }
    return out;
}

std::vector<std::complex<double>> randomSignal(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<std::complex<double>> x(n);
    for (auto& v : x)
        v = {dist(rng), dist(rng)};
    return x;
}

template <class T>
double maxRelError(const std::vector<std::complex<T>>& got,
                   const std::vector<std::complex<double>>& ref) {
    double maxDiff = 0, maxRef = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        maxDiff = std::max(maxDiff, std::abs(std::complex<double>(got[i]) - ref[i]));
        maxRef = std::max(maxRef, std::abs(ref[i]));
    }
    return maxDiff / maxRef;
}

template <class T>
void checkAgainstDirectDft(double tolerance) {
    for (std::size_t n : {1u, 2u, 4u, 8u, 64u, 512u}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        auto fft = Radix2Fft<T>::create(n);
        ASSERT_TRUE(fft.isOk()) << fft.status().toString();
        const auto x = randomSignal(n, static_cast<unsigned>(n));
        std::vector<std::complex<T>> data(x.begin(), x.end());
        fft->forward(data.data());
        EXPECT_LT(maxRelError(data, directDft(x, -1.0)), tolerance);
        // Unnormalised inverse: inverse(forward(x)) = n x.
        fft->inverse(data.data());
        std::vector<std::complex<double>> scaled(x);
        for (auto& v : scaled)
            v *= static_cast<double>(n);
        EXPECT_LT(maxRelError(data, scaled), tolerance);
        // The inverse alone is the DFT with the + sign.
        std::vector<std::complex<T>> back(x.begin(), x.end());
        fft->inverse(back.data());
        EXPECT_LT(maxRelError(back, directDft(x, 1.0)), tolerance);
    }
}

TEST(Radix2Fft, DoubleMatchesDirectDft) {
    checkAgainstDirectDft<double>(1e-13);
}

TEST(Radix2Fft, FloatMatchesDirectDft) {
    checkAgainstDirectDft<float>(2e-6);
}

TEST(Radix2Fft, RejectsLengthsThatAreNotPowersOfTwo) {
    for (std::size_t n : {0u, 3u, 12u, 1000u}) {
        auto fft = Radix2Fft<double>::create(n);
        ASSERT_FALSE(fft.isOk());
        EXPECT_EQ(fft.status().code(), ErrorCode::InvalidArgument);
        EXPECT_NE(fft.status().message().find(std::to_string(n)), std::string::npos);
    }
}

}  // namespace
}  // namespace tomo
