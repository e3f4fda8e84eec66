#pragma once
/// @file ComplexRowFft.h
/// @brief Batched in-place complex FFTs of rows of one length, single precision: the transforms
/// of the Fourier-domain reconstruction (core/fourier: gridrec's row spectra and its 2-D inverse
/// transform done as rows, then blocks of columns).
///
/// Two implementations exist and CMake compiles exactly one of them (as for SpectralRowFilter):
///  - ComplexRowFftFftw.cpp: FFTW3 single precision (Frigo & Johnson 2005,
///    doi:10.1109/JPROC.2004.840301), any length, plans made once in create() with
///    FFTW_ESTIMATE (the plan and so the bits do not depend on timing) and executed with the
///    new-array interface on the caller's rows;
///  - ComplexRowFftBuiltin.cpp: the radix-2 FFT of Radix2Fft.h, powers of two only.
/// fastLength() gives the lengths the build transforms fastly: products of 2, 3 and 5 with FFTW
/// (even ones: gridrec centres its grid on an integer index), powers of two otherwise.
///
/// Conventions: forward X[k] = sum_n x[n] exp(-2 pi i k n / N); inverse uses exp(+...) and is
/// unnormalised. Rows are `distance` complex values apart; distance is a multiple of 8 (64
/// bytes) and the first row starts on a 64-byte boundary (AlignedBuffer, Array3), as FFTW's
/// new-array execution needs the planning arrays' alignment.
/// Threading: create() and destruction serialise on FFTW's planner; forward()/inverse() are const
/// and may run concurrently on different rows.

#include <complex>
#include <cstddef>
#include <memory>

#include "core/base/Status.h"

namespace tomo {

class ComplexRowFft {
  public:
    /// An empty transform (no length); use create().
    ComplexRowFft();
    /// Transforms of @p length (>= 1; a power of two without FFTW) over up to @p batch rows
    /// @p distance complex values apart (>= length, a multiple of 8). InvalidArgument for other
    /// sizes, Internal when FFTW cannot plan, OutOfMemory.
    static Result<ComplexRowFft> create(std::size_t length, std::size_t batch,
                                        std::size_t distance);
    ComplexRowFft(ComplexRowFft&&) noexcept;
    ComplexRowFft& operator=(ComplexRowFft&&) noexcept;
    ~ComplexRowFft();

    std::size_t length() const;
    std::size_t batch() const;
    std::size_t distance() const;
    /// In-place forward transform of @p count rows (count <= batch()) starting at @p rows.
    void forward(std::complex<float>* rows, std::size_t count) const;
    /// In-place unnormalised inverse transform of @p count rows.
    void inverse(std::complex<float>* rows, std::size_t count) const;

    /// The smallest length >= @p atLeast this build transforms fast (see the file comment);
    /// @p even: an even one (a power of two is even but for 1).
    static std::size_t fastLength(std::size_t atLeast, bool even = true);
    /// True when @p n is a length create() accepts.
    static bool supportsLength(std::size_t n);
    /// "fftw3f" or "builtin-radix2".
    static const char* backendName();

  private:
    struct Impl;
    ComplexRowFft(std::unique_ptr<Impl> impl, std::size_t length, std::size_t batch,
                  std::size_t distance);
    /// InvalidArgument unless supportsLength(length), batch >= 1, distance >= length and a
    /// multiple of 8 (ComplexRowFft.cpp, both backends).
    static Status checkShape(std::size_t length, std::size_t batch, std::size_t distance);
    std::unique_ptr<Impl> m_impl;
    std::size_t m_length = 0, m_batch = 0, m_distance = 0;
};

/// The smallest product of 2, 3 and 5 (an even one when @p even) that is >= @p atLeast: the
/// lengths FFTW and cuFFT transform fastest.
std::size_t smoothLength(std::size_t atLeast, bool even = true);
/// The smallest power of two >= @p atLeast.
std::size_t powerOfTwoLength(std::size_t atLeast);

}  // namespace tomo
