#pragma once
/// @file SpectralRowFilter.h
/// @brief Internal to core/filter: the FFT backend of RampFilter. Multiplies the spectrum of
/// blocks of real rows by a real, even frequency response: row <- IDFT(response * DFT(row)).
///
/// Two implementations exist and CMake compiles exactly one of them (no #if in the sources):
///  - SpectralRowFilterFftw.cpp: FFTW3 single precision, batched r2c/c2r plans
///    (Frigo & Johnson 2005, doi:10.1109/JPROC.2004.840301);
///  - SpectralRowFilterBuiltin.cpp: the radix-2 FFT of Radix2Fft.h, two real rows packed into one
///    complex transform (valid because a real even response maps real rows to real rows).
///
/// Usage: create() once per length (plans are made there), one Scratch per worker thread, then
/// per block: write up to blockRows() rows of length() samples (zero-padded by the caller) into
/// scratch.row(r), call filter(), read the rows back.
/// Threading: create() and destruction serialise on the FFTW planner where needed; filter() is
/// const and thread-safe as long as each thread uses its own Scratch.

#include <cstddef>
#include <memory>
#include <span>

#include "core/base/Status.h"

namespace tomo {

class SpectralRowFilter {
  public:
    /// Per-thread working memory for one block of rows (and their spectra).
    class Scratch {
      public:
        Scratch(Scratch&&) noexcept;
        Scratch& operator=(Scratch&&) noexcept;
        ~Scratch();
        /// Row @p r (< blockRows()) of length() floats, the filter's input and output.
        float* row(std::size_t r);

      private:
        friend class SpectralRowFilter;
        struct Impl;
        explicit Scratch(std::unique_ptr<Impl> impl);
        std::unique_ptr<Impl> m_impl;
    };

    /// A filter of transform length @p length (a power of two >= 2) working on blocks of up to
    /// @p blockRows rows. Errors: InvalidArgument, OutOfMemory, Internal (planner failure).
    static Result<SpectralRowFilter> create(std::size_t length, std::size_t blockRows);
    SpectralRowFilter(SpectralRowFilter&&) noexcept;
    SpectralRowFilter& operator=(SpectralRowFilter&&) noexcept;
    ~SpectralRowFilter();

    std::size_t length() const;
    std::size_t blockRows() const;
    /// Working memory for one thread (OutOfMemory when it cannot be allocated).
    Result<Scratch> makeScratch() const;
    /// Replaces rows 0..count-1 of @p scratch (count <= blockRows()) by
    /// IDFT(R * DFT(row)), unnormalised, where R[k] = response[min(k, length - k)] and
    /// response holds length/2 + 1 bins. Deterministic: the same rows, count and response give
    /// the same bits whichever thread runs the call.
    void filter(Scratch& scratch, std::size_t count, std::span<const float> response) const;

    /// "fftw3f" or "builtin-radix2".
    static const char* backendName();

  private:
    struct Impl;
    explicit SpectralRowFilter(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

}  // namespace tomo
