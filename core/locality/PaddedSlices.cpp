#include "core/locality/PaddedSlices.h"

#include <algorithm>
#include <cstring>

#include "core/base/Parallel.h"
#include "core/locality/LocalityKernels.h"

namespace tomo {

Status PaddedSlices::fill(std::span<const float> x, const VolumeGeometry& vol,
                          const ExecContext& ctx) {
    using detail::kLinePad;
    const std::size_t nx = static_cast<std::size_t>(vol.nx);
    const std::size_t ny = static_cast<std::size_t>(vol.ny);
    const std::size_t nz = static_cast<std::size_t>(vol.nz);
    m_rowPitch = nx + 2 * kLinePad;
    m_colPitch = ny + 2 * kLinePad;
    m_rowsSize = ny * m_rowPitch;
    m_sliceSize = m_rowsSize + nx * m_colPitch;
    if (m_data.size() != nz * m_sliceSize) m_data.assign(nz * m_sliceSize, 0.f);
    constexpr std::size_t kB = 32;
    const std::size_t strips = (ny + kB - 1) / kB;
    return parallelFor(nz * strips, ctx.threads, ctx.stop, [&](std::size_t item, int) {
        const std::size_t z = item / strips, by = (item % strips) * kB;
        const std::size_t ey = std::min(by + kB, ny);
        const float* src = x.data() + z * nx * ny;
        float* rows = m_data.data() + z * m_sliceSize;
        float* cols = rows + m_rowsSize;
        for (std::size_t iy = by; iy < ey; ++iy)
            std::memcpy(rows + iy * m_rowPitch + kLinePad, src + iy * nx, nx * sizeof(float));
        for (std::size_t bx = 0; bx < nx; bx += kB)
            for (std::size_t ix = bx; ix < std::min(bx + kB, nx); ++ix)
                for (std::size_t iy = by; iy < ey; ++iy)
                    cols[ix * m_colPitch + iy + kLinePad] = src[iy * nx + ix];
    });
}

}  // namespace tomo
