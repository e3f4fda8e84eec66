#pragma once
/// @file DaubechiesWavelet.h
/// @brief Orthogonal Daubechies wavelets (Haar = db1, and db5) and a periodic one-level
/// discrete wavelet transform along a strided line, the building block of the Fourier-wavelet
/// stripe removal (StripeRemoval.h).
///
/// Filters: the scaling (low-pass) filter h[0..L-1] of I. Daubechies, "Orthonormal bases of
/// compactly supported wavelets", Comm. Pure Appl. Math. 41(7), 1988,
/// doi:10.1002/cpa.3160410705 (Ten Lectures on Wavelets, SIAM 1992, table 6.1; the values are
/// those of PyWavelets' `db5` rec_lo), normalised so that sum h = sqrt(2) and sum h^2 = 1; the
/// wavelet (high-pass) filter is g[k] = (-1)^k h[L-1-k]. The tabulated db5 values carry about
/// 12 correct digits (orthonormality holds to 2e-12, far below float32 data). db5 has L = 10
/// taps and five vanishing
/// moments (sum k^m g[k] = 0 for m < 5), which Münch et al. chose for stripe removal.
///
/// Periodic transform of a line x of even length n (indices modulo n):
///   a[i] = sum_k h[k] x[2i + k],   d[i] = sum_k g[k] x[2i + k],   i < n/2,
/// and its exact inverse x[2i + k] += h[k] a[i] + g[k] d[i] (the periodised filter bank is
/// orthonormal, so analysis preserves the sum of squares and synthesis inverts it to rounding).
/// Periodic boundaries wrap the two ends of a line into each other; callers pad lines with a
/// mirrored margin (StripeRemoval.cpp) so that the wrap happens away from the data.
///
/// Threading: immutable after construction; the transforms may run concurrently, each thread
/// with its own scratch.

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

class DaubechiesWavelet {
  public:
    /// "haar" (db1) or "db5"; InvalidArgument naming both otherwise.
    static Result<DaubechiesWavelet> fromName(std::string_view name);
    static DaubechiesWavelet haar();
    static DaubechiesWavelet db5();

    const char* name() const { return m_name; }
    std::span<const double> lowPass() const { return m_low; }
    std::span<const double> highPass() const { return m_high; }

    /// One analysis level of the line x[0], x[stride], ..., x[(n-1) stride] (n even, >= 2):
    /// afterwards the line holds a[0..n/2) then d[0..n/2). @p scratch is resized as needed.
    void analyze(double* x, std::size_t n, std::size_t stride, std::vector<double>& scratch) const;
    /// The inverse of analyze() on the same layout.
    void synthesize(double* x, std::size_t n, std::size_t stride, std::vector<double>& scratch) const;

  private:
    DaubechiesWavelet(const char* name, std::vector<double> low);
    const char* m_name;
    std::vector<double> m_low, m_high;
};

}  // namespace tomo
