#pragma once
/// @file GridrecStages.h
/// @brief Internal to core/fourier: the working memory and the four stages of the CPU gridrec
/// (Gridrec.h describes them).

#include <complex>
#include <cstddef>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/data/AlignedBuffer.h"
#include "core/data/Array.h"
#include "core/filter/ComplexRowFft.h"
#include "core/fourier/FourierPlan.h"
#include "core/fourier/GridSpreading.h"

namespace tomo::detail {

/// Rows per transform block (stages 1, 3 and 4) and grid rows per spreading band (stage 2).
inline constexpr std::size_t kBlockRows = 16;
inline constexpr int kBandRows = 32;

/// Buffers, transforms and kernel coefficients of one reconstruction, made once.
struct GridrecWork {
    const FourierPlan* plan = nullptr;
    ComplexRowFft rowFft;      ///< L points, the views' rows
    ComplexRowFft gridRowFft;  ///< Mx points, the grid's rows
    ComplexRowFft columnFft;   ///< My points, gathered grid columns
    std::size_t rowDistance = 0, columnDistance = 0;
    AlignedBuffer<std::complex<float>> samples;  ///< [view][sampleStride]
    std::size_t sampleStride = 0;
    AlignedBuffer<std::complex<float>> grid;  ///< [My][gridStride]
    std::size_t gridStride = 0;
    std::vector<AlignedBuffer<std::complex<float>>> rowScratch, columnScratch;  ///< per worker
    SpreadCoefficients coefficients;

    /// OutOfMemory naming the buffer and its size. @p pairs: room for whole lines (pairs of
    /// slices); without, half lines only (a one-slice job needs half the samples' memory).
    static Result<GridrecWork> create(const FourierPlan& plan, int workers, bool pairs = true);
};

/// The slices of one group: slice a, and slice a + 1 when pair.
struct GridrecGroup {
    const Sinograms* sino = nullptr;
    std::size_t a = 0;
    bool pair = true;
    Volume* out = nullptr;
};

/// Stage 1: the group's samples (k = -L/2..L/2 for a pair, 0..L/2 alone).
Status computeSpectra(GridrecWork& work, const GridrecGroup& group, const ExecContext& ctx);
/// Stage 2: every band of the grid cleared and spread.
Status spreadSamples(GridrecWork& work, bool pair, const ExecContext& ctx);
/// Stage 3: inverse transforms of the grid's rows.
Status transformGridRows(GridrecWork& work, const ExecContext& ctx);
/// Stage 4: inverse transforms of the image's columns, deapodised into the group's slices.
Status transformColumns(GridrecWork& work, const GridrecGroup& group, const ExecContext& ctx);

}  // namespace tomo::detail
