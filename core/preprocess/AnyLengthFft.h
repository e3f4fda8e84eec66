#pragma once
/// @file AnyLengthFft.h
/// @brief A complex FFT of any length in double precision: the radix-2 FFT of core/filter for
/// powers of two, else Bluestein's chirp-z algorithm on top of it (L. Bluestein, "A linear
/// filtering approach to the computation of the discrete Fourier transform", IEEE Trans. Audio
/// Electroacoust. 18(4), 1970, doi:10.1109/TAU.1970.1162132).
///
/// Used by preprocessing (Fourier-wavelet stripe removal along the angle axis) and by the
/// centre-of-rotation estimators, whose lengths (angle counts, detector widths) are whatever the
/// acquisition has: zero padding to a power of two would change the spectra they inspect.
///
/// Bluestein: with the chirp c[n] = exp(-i pi n^2 / N), nk = (n^2 + k^2 - (k - n)^2) / 2 gives
///   X[k] = c[k] sum_n (x[n] c[n]) conj(c[k - n]),
/// a linear convolution computed by radix-2 FFTs of length M >= 2N - 1. The phase n^2 is reduced
/// modulo 2N before the cosine so the chirp stays accurate for long transforms. Accuracy: about
/// 1e-13 relative for N up to 10^5 (pinned by tests against a direct DFT).
///
/// Conventions (as Radix2Fft): forward X[k] = sum_n x[n] exp(-2 pi i k n / N); inverse uses
/// exp(+...) and is unnormalised (inverse(forward(x)) = N x).
/// Threading: a built object is immutable; forward()/inverse() may run concurrently on different
/// data, each thread with its own Scratch.

#include <complex>
#include <cstddef>
#include <vector>

#include "core/base/Status.h"
#include "core/filter/Radix2Fft.h"

namespace tomo {

class AnyLengthFft {
  public:
    /// Per-thread working memory (empty for power-of-two lengths).
    using Scratch = std::vector<std::complex<double>>;

    /// A transform of length @p n >= 1. InvalidArgument for n = 0 or n > 2^28, OutOfMemory when
    /// the tables cannot be allocated.
    static Result<AnyLengthFft> create(std::size_t n);

    std::size_t size() const { return m_n; }
    /// In-place forward transform of @p data (size() elements).
    void forward(std::complex<double>* data, Scratch& scratch) const;
    /// In-place unnormalised inverse transform of @p data (size() elements).
    void inverse(std::complex<double>* data, Scratch& scratch) const;

  private:
    AnyLengthFft(std::size_t n, Radix2Fft<double> fft) : m_n(n), m_fft(std::move(fft)) {}
    std::size_t m_n = 0;
    Radix2Fft<double> m_fft;                      ///< length n (power of two) or M (Bluestein)
    std::vector<std::complex<double>> m_chirp;    ///< c[n], n < N (Bluestein only)
    std::vector<std::complex<double>> m_kernelFt; ///< FFT of conj(c) wrapped to length M
};

/// Signed frequency index of DFT bin @p k of a length-@p n transform: k for k <= n/2, else k - n.
inline long signedFrequency(std::size_t k, std::size_t n) {
    return 2 * k <= n ? static_cast<long>(k) : static_cast<long>(k) - static_cast<long>(n);
}

}  // namespace tomo
