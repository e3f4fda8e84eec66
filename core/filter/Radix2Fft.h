#pragma once
/// @file Radix2Fft.h
/// @brief Internal to core/filter: an iterative radix-2 complex FFT (Cooley & Tukey 1965,
/// doi:10.1090/S0025-5718-1965-0178586-1), decimation in time with an in-place bit-reversal
/// permutation.
///
/// Used in double precision to build the ramp filter's frequency response (whatever the FFT
/// backend), and in single precision by the built-in row backend when FFTW is not compiled in.
/// It favours clarity over speed (FFTW is 3-5x faster); O(n log n) with one twiddle table.
///
/// Conventions: forward X[k] = sum_n x[n] exp(-2 pi i k n / N), inverse uses exp(+...) and is
/// unnormalised (inverse(forward(x)) = N x). Twiddles are computed in double and rounded to T.
/// Threading: a built object is immutable; forward()/inverse() may run concurrently on
/// different data.

#include <complex>
#include <cstddef>

#include "core/base/Status.h"
#include "core/data/AlignedBuffer.h"

namespace tomo {

template <class T>
class Radix2Fft {
  public:
    /// A transform of length @p n, a power of two >= 1. InvalidArgument for other lengths,
    /// OutOfMemory when the twiddle table cannot be allocated.
    static Result<Radix2Fft> create(std::size_t n);

    std::size_t size() const { return m_n; }
    /// In-place forward transform of @p data (size() elements).
    void forward(std::complex<T>* data) const { transform(data, false); }
    /// In-place unnormalised inverse transform of @p data (size() elements).
    void inverse(std::complex<T>* data) const { transform(data, true); }

  private:
    Radix2Fft() = default;
    void transform(std::complex<T>* data, bool inverse) const;

    std::size_t m_n = 0;
    AlignedBuffer<std::complex<T>> m_twiddles;  ///< exp(-2 pi i k / n), k < n/2
};

extern template class Radix2Fft<float>;
extern template class Radix2Fft<double>;

/// True when @p n is a power of two (1, 2, 4, ...).
constexpr bool isPowerOfTwo(std::size_t n) {
    return n != 0 && (n & (n - 1)) == 0;
}

}  // namespace tomo
