#pragma once
/// @file GridSpreading.h
/// @brief Internal to core/fourier: spreading the polar samples of gridrec onto its Cartesian grid,
/// one band of grid rows at a time (the CPU's kernel; FourierPlan.h defines the samples).
///
/// The grid is My rows of `gridStride` complex values: columns 0..Mx-1 and kGuardColumns more
/// that catch the kernel's footprint past the right edge; foldGuards() adds them to columns
/// 0.. (positions are periodic in Mx) and clears them. A band owns rows [rowBegin, rowEnd): it
/// visits every view, every periodic copy of the band (positions modulo My) and the k whose
/// footprint reaches the band, and adds their weighted values to its own rows only, so bands
/// run in parallel without locks and every grid point receives its terms in one fixed order
/// (views, copies, k): bit-identical results for any thread count.
///
/// Per sample: the x weights (duplicated for the real and imaginary parts) and the y weights by
/// Horner's rule on the kernel's polynomials, x weights times the complex value, then one fused
/// multiply-add of 8 complex values per (chunk, row) (GCC vector extensions: AVX-512, AVX2+FMA,
/// or the baseline, chosen at run time with core/devices detectSimdLevel()). Lanes past the
/// width carry zero weights.

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

#include "core/fourier/FourierPlan.h"

namespace tomo::detail {

/// Complex values past column Mx - 1 of every grid row.
inline constexpr int kGuardColumns = 16;

/// The kernel's polynomial coefficients laid out for the vector code: per degree d, 32 floats
/// of x weights duplicated (w_0, w_0, w_1, w_1, ..., zero past the width) and 16 floats of y
/// weights (zero past the width).
struct SpreadCoefficients {
    int width = 0, degree = 0;
    std::vector<float> x;  ///< (degree + 1) x 32
    std::vector<float> y;  ///< (degree + 1) x 16
    static SpreadCoefficients of(const GriddingKernel& kernel);
};

struct SpreadBand {
    const std::complex<float>* samples = nullptr;  ///< [view][sampleStride], k = kFirst + i
    std::size_t sampleStride = 0;
    int kFirst = 0, kCount = 0;
    std::span<const FourierPlan::View> views;
    std::complex<float>* grid = nullptr;  ///< [My][gridStride]
    std::size_t gridStride = 0;
    int gridX = 0, gridY = 0;
    int rowBegin = 0, rowEnd = 0;
};

/// Clears rows [rowBegin, rowEnd), adds every sample's terms that fall in them and folds their
/// guard columns (see the file comment).
void spreadBand(const SpreadBand& band, const SpreadCoefficients& coefficients);

/// "avx512", "avx2" or "generic": the spreading kernel this CPU runs.
const char* spreadingIsa();

}  // namespace tomo::detail
