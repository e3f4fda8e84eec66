#include "core/locality/JosephOperator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "core/base/Parallel.h"
#include "core/locality/JosephKernels.h"
#include "core/locality/LocalityKernels.h"

namespace tomo {

Result<std::unique_ptr<JosephOperator>> JosephOperator::create(const ParallelGeometry& geom,
                                                               const VolumeGeometry& vol) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (vol.nz != geom.rows())
        return invalidArgument("projector: the grid has " + std::to_string(vol.nz) +
                               " slices but the geometry " + std::to_string(geom.rows()) +
                               " detector rows");
    return std::unique_ptr<JosephOperator>(
        new JosephOperator(vol, rayAngles(geom, vol), geom.detectorCount()));
}

JosephOperator::JosephOperator(const VolumeGeometry& vol, std::vector<RayAngle> rays, int detectors)
    : m_vol(vol), m_rays(std::move(rays)), m_detectors(detectors), m_isa(bestCpuIsa()) {
    const std::size_t nz = static_cast<std::size_t>(vol.nz);
    m_domain = nz * static_cast<std::size_t>(vol.ny) * static_cast<std::size_t>(vol.nx);
    m_range = nz * m_rays.size() * static_cast<std::size_t>(detectors);
    // Per-angle tables shared by forward and adjoint: the float positions on line 0 (the
    // forward kernel's pos0, so both sides round identically) and each ray's active lines.
    const std::size_t angles = m_rays.size(), det = static_cast<std::size_t>(detectors);
    m_halfWidth.resize(angles);
    m_candidates.resize(angles);
    for (std::size_t p = 0; p < angles; ++p) {
        const RayAngle& r = m_rays[p];
        // Largest |a + b j + d k| over the rays and lines of the angle.
        const double maxAbsPos = std::abs(r.a) + std::abs(r.b) * double(detectors) +
                                 std::abs(r.d) * double(r.lines) + 2.0;
        m_halfWidth[p] = detail::josephHalfWidth(r.b, maxAbsPos, detectors);
        m_candidates[p] = detail::josephCandidates(m_halfWidth[p]);
        m_pad = std::max(m_pad, m_candidates[p] + 1);
    }
    m_tableLength = det + 2 * static_cast<std::size_t>(m_pad) + detail::kJosephWindow;
    m_pos0.resize(angles * m_tableLength);
    m_first.resize(angles * det);
    m_last.resize(angles * det);
    for (std::size_t p = 0; p < angles; ++p) {
        const RayAngle& r = m_rays[p];
        float* pos0 = m_pos0.data() + p * m_tableLength + m_pad;
        for (int j = -m_pad; j < int(m_tableLength) - m_pad; ++j)
            pos0[j] = static_cast<float>(r.a + r.b * j);
        for (std::size_t j = 0; j < det; ++j) {
            const auto [first, last] =
                detail::josephActiveLines(pos0[j], static_cast<float>(r.d), r.lineLength, r.lines);
            m_first[p * det + j] = first;
            m_last[p * det + j] = last;
        }
    }
}

Status JosephOperator::forwardSubset(std::span<const float> x, std::span<float> y, int subset,
                                     int subsets, const ExecContext& ctx) {
    using detail::kRayLanes;
    TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
    TOMO_RETURN_IF_ERROR(m_padded.fill(x, m_vol, ctx));
    const std::size_t nz = static_cast<std::size_t>(m_vol.nz);
    const std::size_t angles = m_rays.size();
    const std::size_t perSubset =
        (angles - static_cast<std::size_t>(subset) + static_cast<std::size_t>(subsets) - 1) /
        static_cast<std::size_t>(subsets);
    const std::size_t det = static_cast<std::size_t>(m_detectors);
    return parallelFor(nz * perSubset, ctx.threads, ctx.stop, [&](std::size_t item, int) {
        const std::size_t z = item / perSubset;
        const std::size_t p = static_cast<std::size_t>(subset) +
                              (item % perSubset) * static_cast<std::size_t>(subsets);
        const RayAngle& r = m_rays[p];
        const float* pos0 = m_pos0.data() + p * m_tableLength + m_pad;
        const int* first = m_first.data() + p * det;
        const int* last = m_last.data() + p * det;
        detail::RayGroup g;
        g.image = m_padded.lines(z, r.alongRows);
        g.linePitch = m_padded.linePitch(r.alongRows);
        g.lineLength = r.lineLength;
        g.d = static_cast<float>(r.d);
        const float step = static_cast<float>(r.step);
        float* dst = y.data() + (z * angles + p) * det;
        float sums[kRayLanes];
        for (std::size_t j0 = 0; j0 < det; j0 += kRayLanes) {
            const std::size_t count = std::min<std::size_t>(kRayLanes, det - j0);
            for (std::size_t l = 0; l < kRayLanes; ++l) {
                const bool used = l < count;
                g.pos0[l] = used ? pos0[j0 + l] : 0.f;
                g.first[l] = used ? first[j0 + l] : 0;
                g.last[l] = used ? last[j0 + l] : 0;
            }
            detail::sumRayGroup(m_isa, g, 0, r.lines, sums);
            for (std::size_t l = 0; l < count; ++l)
                dst[j0 + l] = sums[l] * step;
        }
    });
}

Status JosephOperator::adjointSubset(std::span<const float> y, std::span<float> x, int subset,
                                     int subsets, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
    const std::size_t nx = static_cast<std::size_t>(m_vol.nx);
    const std::size_t ny = static_cast<std::size_t>(m_vol.ny);
    const std::size_t nz = static_cast<std::size_t>(m_vol.nz);
    const std::size_t angles = m_rays.size();
    const std::size_t det = static_cast<std::size_t>(m_detectors);
    const std::size_t pad = static_cast<std::size_t>(m_pad);
    // Zero-padded copies of the subset's sinogram rows (the padding is never written).
    if (m_sino.size() != nz * angles * m_tableLength)
        m_sino.assign(nz * angles * m_tableLength, 0.f);
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t p = static_cast<std::size_t>(subset); p < angles;
             p += static_cast<std::size_t>(subsets))
            std::memcpy(m_sino.data() + (z * angles + p) * m_tableLength + pad,
                        y.data() + (z * angles + p) * det, det * sizeof(float));
    constexpr std::size_t kBand = 16;  // rows per item = pixels per column vector
    const std::size_t bands = (ny + kBand - 1) / kBand;
    return parallelFor(nz * bands, ctx.threads, ctx.stop, [&](std::size_t item, int) {
        const std::size_t z = item / bands, iy0 = (item % bands) * kBand;
        const std::size_t rowsHere = std::min(kBand, ny - iy0);
        // Row-dominant angles add into rowAcc[row][x], column-dominant ones into the
        // transposed colAcc[x][row] (16 rows of one column per vector).
        std::vector<float> rowAcc(kBand * nx, 0.f), colAcc(nx * kBand, 0.f);
        for (std::size_t p = static_cast<std::size_t>(subset); p < angles;
             p += static_cast<std::size_t>(subsets)) {
            const RayAngle& r = m_rays[p];
            detail::JosephAdjointAngle g;
            g.pos0 = m_pos0.data() + p * m_tableLength + pad;
            g.sino = m_sino.data() + (z * angles + p) * m_tableLength + pad;
            g.detectors = m_detectors;
            g.pad = m_pad;
            g.candidates = m_candidates[p];
            g.window = detail::josephWindowFits(r.b, g.candidates);
            g.a = r.a;
            g.d = r.d;
            g.invB = static_cast<float>(1.0 / r.b);
            g.halfWidth = m_halfWidth[p];
            g.step = static_cast<float>(r.step);
            if (r.alongRows)
                detail::josephAdjointLines(m_isa, g, int(iy0), int(iy0 + rowsHere), 0, int(nx),
                                           rowAcc.data(), nx);
            else
                detail::josephAdjointLines(m_isa, g, 0, int(nx), int(iy0), int(rowsHere),
                                           colAcc.data(), kBand);
        }
        for (std::size_t row = 0; row < rowsHere; ++row) {
            float* dst = x.data() + (z * ny + iy0 + row) * nx;
            for (std::size_t ix = 0; ix < nx; ++ix)
                dst[ix] = rowAcc[row * nx + ix] + colAcc[ix * kBand + row];
        }
    });
}

}  // namespace tomo
