#include "core/filter/Radix2Fft.h"

#include <cmath>
#include <numbers>
#include <string>
#include <utility>

namespace tomo {

template <class T>
Result<Radix2Fft<T>> Radix2Fft<T>::create(std::size_t n) {
    if (!isPowerOfTwo(n))
        return invalidArgument("radix-2 FFT length " + std::to_string(n) +
                               " is not a power of two");
    Radix2Fft fft;
    fft.m_n = n;
    std::size_t half = n / 2;
    if (!fft.m_twiddles.tryAllocate(half))
        return outOfMemory("cannot allocate the twiddle table of a length-" + std::to_string(n) +
                           " FFT");
    for (std::size_t k = 0; k < half; ++k) {
        double angle = -2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n);
        fft.m_twiddles[k] = {static_cast<T>(std::cos(angle)), static_cast<T>(std::sin(angle))};
    }
    return fft;
}

template <class T>
void Radix2Fft<T>::transform(std::complex<T>* data, bool inverse) const {
    const std::size_t n = m_n;
    // Bit-reversal permutation: j runs through the bit-reversed counter of i.
    for (std::size_t i = 1, j = 0; i < n; ++i) {
        std::size_t bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) std::swap(data[i], data[j]);
    }
    // Butterflies. Complex products are written out: std::complex's operator* takes a slow
    // NaN-recovery path (C99 Annex G) without -ffast-math.
    const T sign = inverse ? T(-1) : T(1);
    for (std::size_t len = 2; len <= n; len <<= 1) {
        const std::size_t half = len / 2;
        const std::size_t step = n / len;
        for (std::size_t start = 0; start < n; start += len) {
            std::complex<T>* a = data + start;
            std::complex<T>* b = a + half;
            for (std::size_t k = 0; k < half; ++k) {
                const T wr = m_twiddles[k * step].real();
                const T wi = sign * m_twiddles[k * step].imag();
                const T br = b[k].real(), bi = b[k].imag();
                const T vr = br * wr - bi * wi;
                const T vi = br * wi + bi * wr;
                const T ar = a[k].real(), ai = a[k].imag();
                a[k] = {ar + vr, ai + vi};
                b[k] = {ar - vr, ai - vi};
            }
        }
    }
}

template class Radix2Fft<float>;
template class Radix2Fft<double>;

}  // namespace tomo
