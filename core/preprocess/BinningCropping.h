#pragma once
/// @file BinningCropping.h
/// @brief Binning (block averaging) and cropping of projection stacks, selection of angle
/// ranges, and what each does to the centre of rotation.
///
/// Stacks are [angle][row][column] (ProjectionData.h); the same functions serve flats and darks
/// ([frame][row][column]), which must be binned and cropped like the projections.
///
/// Binning by (bRow, bCol) replaces each bRow x bCol block by its mean (double accumulation):
/// out(r, c) = mean of in(r bRow + i, c bCol + j), i < bRow, j < bCol. Trailing rows and columns
/// that do not fill a block are dropped (floor(rows / bRow) rows remain). The pixel pitch grows
/// by bCol. A detector position x in input pixels (0 = centre of pixel 0) becomes
/// (x + 0.5) / bCol - 0.5 in output pixels: binnedCenter().
///
/// Cropping keeps rows [r0, r0 + nr) and columns [c0, c0 + nc); a position x becomes x - c0:
/// croppedCenter().
///
/// Angle selection keeps projections first, first + step, ... below first + count, with their
/// angles (angle decimation when step > 1).
///
/// Errors: InvalidArgument for zero or oversized bins, ranges outside the stack (naming the axis
/// and the sizes), angle lists that do not match; OutOfMemory. Threading: single pass over the
/// data, parallel over frames with ctx.threads workers; ctx.stop per frame; ctx.progress one
/// unit per frame (setTotal here).

#include <cstddef>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Block-averages @p in by @p binRows x @p binCols (each >= 1 and <= the axis size).
Result<Array3<float>> binFrames(const Array3<float>& in, int binRows, int binCols,
                                const ExecContext& ctx = {});

/// Rows [firstRow, firstRow + rowCount) and columns [firstCol, firstCol + colCount) of every
/// frame.
Result<Array3<float>> cropFrames(const Array3<float>& in, std::size_t firstRow, std::size_t rowCount,
                                 std::size_t firstCol, std::size_t colCount,
                                 const ExecContext& ctx = {});

/// Frames first, first + step, ... < first + count of @p in, and the matching entries of
/// @p angles (which may be empty; otherwise one per frame) in @p anglesOut.
Result<Array3<float>> selectFrames(const Array3<float>& in, const std::vector<double>& angles,
                                   std::size_t first, std::size_t count, std::size_t step,
                                   std::vector<double>& anglesOut);

/// Centre of rotation (pixels from the centre of pixel 0) after binning columns by @p binCols.
inline double binnedCenter(double center, int binCols) {
    return (center + 0.5) / binCols - 0.5;
}
/// Centre of rotation after cropping columns from @p firstCol on.
inline double croppedCenter(double center, std::size_t firstCol) {
    return center - static_cast<double>(firstCol);
}

}  // namespace tomo
