#include "core/locality/JosephOperator.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/base/Parallel.h"

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
    : m_vol(vol), m_rays(std::move(rays)), m_detectors(detectors) {
    const std::size_t nz = static_cast<std::size_t>(vol.nz);
    m_domain = nz * static_cast<std::size_t>(vol.ny) * static_cast<std::size_t>(vol.nx);
    m_range = nz * m_rays.size() * static_cast<std::size_t>(detectors);
}

Status JosephOperator::checkSizes(std::size_t x, std::size_t y) const {
    if (x != m_domain || y != m_range)
        return invalidArgument(name() + ": vectors of " + std::to_string(x) + " and " +
                               std::to_string(y) + " values, expected " + std::to_string(m_domain) +
                               " and " + std::to_string(m_range));
    return Status::ok();
}

Status JosephOperator::forward(std::span<const float> x, std::span<float> y,
                               const ExecContext& ctx) {
    return forwardSubset(x, y, 0, 1, ctx);
}

Status JosephOperator::adjoint(std::span<const float> y, std::span<float> x,
                               const ExecContext& ctx) {
    return adjointSubset(y, x, 0, 1, ctx);
}

Status JosephOperator::forwardSubset(std::span<const float> x, std::span<float> y, int subset,
                                     int subsets, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSizes(x.size(), y.size()));
    TOMO_RETURN_IF_ERROR(checkSubset(subset, subsets, angleCount()));
    const std::size_t nx = static_cast<std::size_t>(m_vol.nx);
    const std::size_t ny = static_cast<std::size_t>(m_vol.ny);
    const std::size_t angles = m_rays.size();
    const std::size_t perSubset =
        (angles - static_cast<std::size_t>(subset) + static_cast<std::size_t>(subsets) - 1) /
        static_cast<std::size_t>(subsets);
    const std::size_t nz = static_cast<std::size_t>(m_vol.nz);
    const std::size_t det = static_cast<std::size_t>(m_detectors);
    return parallelFor(nz * perSubset, ctx.threads, ctx.stop, [&](std::size_t item, int) {
        const std::size_t z = item / perSubset;
        const std::size_t p = static_cast<std::size_t>(subset) +
                              (item % perSubset) * static_cast<std::size_t>(subsets);
        const RayAngle& r = m_rays[p];
        const float* image = x.data() + z * nx * ny;
        // Along rows: line k = row k, pixel i at image[k * nx + i]. Along columns: line k =
        // column k, pixel i (a row) at image[i * nx + k].
        const std::ptrdiff_t lineStride = r.alongRows ? std::ptrdiff_t(nx) : 1;
        const std::ptrdiff_t pixelStride = r.alongRows ? 1 : std::ptrdiff_t(nx);
        float* dst = y.data() + (z * angles + p) * det;
        for (std::size_t j = 0; j < det; ++j) {
            const double pos0 = r.a + r.b * double(j);
            const auto [first, last] = activeLines(pos0, r.d, r.lineLength, r.lines);
            double sum = 0.0;
            for (int k = first; k < last; ++k) {
                const double pos = pos0 + r.d * k;
                const double fl = std::floor(pos);
                const double f = pos - fl;
                const int i = static_cast<int>(fl);
                const float* line = image + k * lineStride;
                const double v0 = (i >= 0 && i < r.lineLength) ? line[i * pixelStride] : 0.0;
                const double v1 =
                    (i + 1 >= 0 && i + 1 < r.lineLength) ? line[(i + 1) * pixelStride] : 0.0;
                sum += v0 + f * (v1 - v0);
            }
            dst[j] = static_cast<float>(sum * r.step);
        }
    });
}

Status JosephOperator::adjointSubset(std::span<const float> y, std::span<float> x, int subset,
                                     int subsets, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSizes(x.size(), y.size()));
    TOMO_RETURN_IF_ERROR(checkSubset(subset, subsets, angleCount()));
    const std::size_t nx = static_cast<std::size_t>(m_vol.nx);
    const std::size_t ny = static_cast<std::size_t>(m_vol.ny);
    const std::size_t angles = m_rays.size();
    const std::size_t det = static_cast<std::size_t>(m_detectors);
    const double detMax = double(m_detectors) - 1.0;
    return parallelFor(static_cast<std::size_t>(m_vol.nz) * ny, ctx.threads, ctx.stop,
                       [&](std::size_t item, int) {
                           const std::size_t z = item / ny, iy = item % ny;
                           std::vector<double> row(nx, 0.0);
                           for (std::size_t p = static_cast<std::size_t>(subset); p < angles;
                                p += static_cast<std::size_t>(subsets)) {
                               const RayAngle& r = m_rays[p];
                               const float* sino = y.data() + (z * angles + p) * det;
                               const double invB = 1.0 / r.b;
                               for (std::size_t ix = 0; ix < nx; ++ix) {
                                   // Line k and pixel i of (iy, ix) in this projection's stepping.
                                   const double k = r.alongRows ? double(iy) : double(ix);
                                   const double i = r.alongRows ? double(ix) : double(iy);
                                   const double base = r.a + r.d * k - i;  // pos - i = base + b j
                                   double lo = (-1.0 - base) * invB, hi = (1.0 - base) * invB;
                                   if (lo > hi) std::swap(lo, hi);
                                   const double jFirst = std::max(0.0, std::ceil(lo));
                                   const double jLast = std::min(detMax, std::floor(hi));
                                   double sum = 0.0;
                                   for (double j = jFirst; j <= jLast; j += 1.0) {
                                       const double w = 1.0 - std::abs(base + r.b * j);
                                       if (w > 0) sum += w * sino[static_cast<std::size_t>(j)];
                                   }
                                   row[ix] += sum * r.step;
                               }
                           }
                           float* dst = x.data() + (z * ny + iy) * nx;
                           for (std::size_t ix = 0; ix < nx; ++ix)
                               dst[ix] = static_cast<float>(row[ix]);
                       });
}

}  // namespace tomo
