#pragma once
/// @file PaddedSlices.h
/// @brief The image layout the ray-strip kernels of LocalityKernels.h read: for every slice a
/// row-major copy and a transposed copy, each line with detail::kLinePad zero pixels on both
/// sides, so rays stepping along rows and rays stepping along columns both read contiguous
/// lines. Shared by the locality pair (LocalityOperator) and the matched pair (JosephOperator).
///
/// Threading: fill() runs on ctx.threads workers over strips of 32 rows (the transpose in
/// 32 x 32 blocks); the object itself is not thread-safe.

#include <cstddef>
#include <span>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

class PaddedSlices {
  public:
    /// Copies @p x ([z][y][x] on @p vol, vol.nz slices). Only the pixels are written: the
    /// padding stays zero from the first call on the same grid. Cancelled when ctx.stop fires.
    Status fill(std::span<const float> x, const VolumeGeometry& vol, const ExecContext& ctx);

    /// The lines of slice @p z that rays stepping along rows (true) or columns (false) read:
    /// line i starts at lines(z, alongRows) + i * linePitch(alongRows), pixel 0 at offset
    /// detail::kLinePad.
    const float* lines(std::size_t z, bool alongRows) const {
        return m_data.data() + z * m_sliceSize + (alongRows ? 0 : m_rowsSize);
    }
    std::size_t linePitch(bool alongRows) const { return alongRows ? m_rowPitch : m_colPitch; }

  private:
    std::vector<float> m_data;
    std::size_t m_rowPitch = 0, m_colPitch = 0, m_rowsSize = 0, m_sliceSize = 0;
};

}  // namespace tomo
