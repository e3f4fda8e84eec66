#include "core/projectors/ForwardProjector.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

/// Rows (or columns) k in [0, count) where the sample position pos0 + k * step lies in
/// (-1, size): outside it both interpolation neighbours are zero. Returns [first, last).
std::pair<int, int> activeRange(double pos0, double step, int size, int count) {
    double lo = 0, hi = count;
    if (step > 0) {
        lo = std::max(lo, std::floor((-1.0 - pos0) / step));
        hi = std::min(hi, std::ceil((size - pos0) / step) + 1.0);
    } else if (step < 0) {
        lo = std::max(lo, std::floor((size - pos0) / step));
        hi = std::min(hi, std::ceil((-1.0 - pos0) / step) + 1.0);
    } else if (!(pos0 > -1.0 && pos0 < size)) {
        hi = 0;
    }
    if (!(hi > lo)) return {0, 0};
    return {static_cast<int>(lo), static_cast<int>(hi)};
}

/// Linear interpolation of @p count samples spaced @p stride apart at fractional index @p pos,
/// zero outside [0, count - 1].
inline double interpolate(const float* data, std::ptrdiff_t stride, int count, double pos) {
    const double fl = std::floor(pos);
    const double f = pos - fl;
    const int i = static_cast<int>(fl);
    const double a = (i >= 0 && i < count) ? double(data[i * stride]) : 0.0;
    const double b = (i + 1 >= 0 && i + 1 < count) ? double(data[(i + 1) * stride]) : 0.0;
    return a + f * (b - a);
}

}  // namespace

Status forwardProjectJoseph(const Volume& volume, const VolumeGeometry& vol,
                            const ParallelGeometry& geom, Sinograms& out, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (volume.dim(0) != static_cast<std::size_t>(vol.nz) ||
        volume.dim(1) != static_cast<std::size_t>(vol.ny) ||
        volume.dim(2) != static_cast<std::size_t>(vol.nx))
        return invalidArgument("forward projection: volume " + std::to_string(volume.dim(0)) + "x" +
                               std::to_string(volume.dim(1)) + "x" + std::to_string(volume.dim(2)) +
                               " does not match the grid " + std::to_string(vol.nz) + "x" +
                               std::to_string(vol.ny) + "x" + std::to_string(vol.nx));
    const std::size_t nz = static_cast<std::size_t>(vol.nz);
    const std::size_t angles = static_cast<std::size_t>(geom.angleCount());
    const std::size_t n = static_cast<std::size_t>(geom.detectorCount());
    if (out.dim(0) != nz || out.dim(1) != angles || out.dim(2) != n) {
        TOMO_ASSIGN_OR_RETURN(out, Sinograms::create(nz, angles, n));
    }
    const double pitch = geom.detectorPitch(), vs = vol.voxelSize;
    const double x0 = vol.x(0), y0 = vol.y(0);
    const std::ptrdiff_t rowPitch = static_cast<std::ptrdiff_t>(volume.pitch());
    if (ctx.progress) ctx.progress->setTotal(nz * angles);

    return parallelFor(nz * angles, ctx.threads, ctx.stop, [&](std::size_t item, int) {
        const std::size_t z = item / angles, p = item % angles;
        const double th = geom.angle(static_cast<int>(p));
        const double c = std::cos(th), s = std::sin(th), center = geom.center(static_cast<int>(p));
        const float* image = volume.plane(z).data();
        float* dst = out.row(z, p).data();
        const bool alongRows = std::abs(c) >= std::abs(s);
        // Rows: x(iy) = (t - y(iy) s) / c with y(iy) = y0 - iy vs, so the column index is
        // affine in iy: col = col0 + iy * (s / c). Columns likewise with the roles swapped.
        const double step = alongRows ? vs / std::abs(c) : vs / std::abs(s);
        for (std::size_t j = 0; j < n; ++j) {
            const double t = (static_cast<double>(j) - center) * pitch;
            double sum = 0.0;
            if (alongRows) {
                const double col0 = ((t - y0 * s) / c - x0) / vs;
                const double dcol = s / c;
                const auto [first, last] = activeRange(col0, dcol, vol.nx, vol.ny);
                for (int iy = first; iy < last; ++iy)
                    sum += interpolate(image + iy * rowPitch, 1, vol.nx, col0 + iy * dcol);
            } else {
                // y(row) = (t - x(ix) c) / s with x(ix) = x0 + ix vs; row = (y0 - y) / vs.
                const double row0 = (y0 - (t - x0 * c) / s) / vs;
                const double drow = c / s;
                const auto [first, last] = activeRange(row0, drow, vol.ny, vol.nx);
                for (int ix = first; ix < last; ++ix)
                    sum += interpolate(image + ix, rowPitch, vol.ny, row0 + ix * drow);
            }
            dst[j] = static_cast<float>(sum * step);
        }
        if (ctx.progress) ctx.progress->advance();
    });
}

}  // namespace tomo
