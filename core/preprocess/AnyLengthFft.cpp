#include "core/preprocess/AnyLengthFft.h"

#include <cmath>
#include <numbers>
#include <string>

namespace tomo {

Result<AnyLengthFft> AnyLengthFft::create(std::size_t n) {
    if (n == 0 || n > (std::size_t{1} << 28))
        return invalidArgument("FFT length " + std::to_string(n) + " is outside [1, 2^28]");
    if (isPowerOfTwo(n)) {
        TOMO_ASSIGN_OR_RETURN(Radix2Fft<double> fft, Radix2Fft<double>::create(n));
        return AnyLengthFft(n, std::move(fft));
    }
    std::size_t m = 1;
    while (m < 2 * n - 1)
        m <<= 1;
    TOMO_ASSIGN_OR_RETURN(Radix2Fft<double> fft, Radix2Fft<double>::create(m));
    AnyLengthFft out(n, std::move(fft));
    out.m_chirp.resize(n);
    const std::size_t twoN = 2 * n;
    for (std::size_t k = 0; k < n; ++k) {
        // k^2 mod 2N without overflow for k < 2^28.
        const std::size_t k2 = static_cast<std::size_t>(
            (static_cast<unsigned long long>(k) * k) % static_cast<unsigned long long>(twoN));
        const double angle = -std::numbers::pi * static_cast<double>(k2) / static_cast<double>(n);
        out.m_chirp[k] = {std::cos(angle), std::sin(angle)};
    }
    out.m_kernelFt.assign(m, {0.0, 0.0});
    out.m_kernelFt[0] = std::conj(out.m_chirp[0]);
    for (std::size_t k = 1; k < n; ++k)
        out.m_kernelFt[k] = out.m_kernelFt[m - k] = std::conj(out.m_chirp[k]);
    out.m_fft.forward(out.m_kernelFt.data());
    return out;
}

void AnyLengthFft::forward(std::complex<double>* data, Scratch& scratch) const {
    if (m_chirp.empty()) {
        m_fft.forward(data);
        return;
    }
    const std::size_t m = m_fft.size();
    scratch.assign(m, {0.0, 0.0});
    for (std::size_t k = 0; k < m_n; ++k)
        scratch[k] = data[k] * m_chirp[k];
    m_fft.forward(scratch.data());
    for (std::size_t k = 0; k < m; ++k)
        scratch[k] *= m_kernelFt[k];
    m_fft.inverse(scratch.data());
    const double scale = 1.0 / static_cast<double>(m);
    for (std::size_t k = 0; k < m_n; ++k)
        data[k] = scratch[k] * m_chirp[k] * scale;
}

void AnyLengthFft::inverse(std::complex<double>* data, Scratch& scratch) const {
    // inverse(x) = conj(forward(conj(x))).
    for (std::size_t k = 0; k < m_n; ++k)
        data[k] = std::conj(data[k]);
    forward(data, scratch);
    for (std::size_t k = 0; k < m_n; ++k)
        data[k] = std::conj(data[k]);
}

}  // namespace tomo
