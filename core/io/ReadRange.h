#pragma once
/// @file ReadRange.h
/// @brief A sub-block of a stack to read: a range of planes (pages of a TIFF, files of a TIFF
/// stack, slices z of a volume, projections of a raw file) and a range of rows within each plane.
///
/// Readers that accept a ReadRange decode only what it selects where the format allows (raw:
/// seeks; TIFF: only the strips or tiles that overlap the rows; TIFF stack: only the selected
/// files; MetaImage: streamed), so data larger than memory can be processed in chunks. Columns
/// are always read whole. The default range selects everything.

#include <cstddef>
#include <limits>
#include <string>

#include "core/base/Status.h"

namespace tomo {

struct ReadRange {
    /// "To the end" for a count.
    static constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();

    std::size_t firstPlane = 0;     ///< index of the first plane read
    std::size_t planeCount = kAll;  ///< number of planes, kAll = up to the last one
    std::size_t firstRow = 0;       ///< first row within each plane
    std::size_t rowCount = kAll;    ///< number of rows, kAll = up to the last one

    /// Planes [first, first + count) of every row.
    static ReadRange planes(std::size_t first, std::size_t count) {
        return {first, count, 0, kAll};
    }
    /// Rows [first, first + count) of every plane.
    static ReadRange rows(std::size_t first, std::size_t count) { return {0, kAll, first, count}; }

    /// The range with kAll replaced by the counts that reach the end of a stack of @p planes x
    /// @p rows. InvalidArgument naming @p where, the range and the stack's size when the range is
    /// empty or reaches beyond the stack.
    Result<ReadRange> resolve(std::size_t planes, std::size_t rows, const std::string& where) const;

    /// "planes 2..5, rows 0..9" (inclusive ends, after resolve()).
    std::string toString() const;
};

}  // namespace tomo
