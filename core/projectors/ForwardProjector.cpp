#include "core/projectors/ForwardProjector.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/base/Parallel.h"
#include "core/projectors/JosephRays.h"

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
    const std::ptrdiff_t rowPitch = static_cast<std::ptrdiff_t>(volume.pitch());
    if (ctx.progress) ctx.progress->setTotal(nz * angles);

    return parallelFor(nz * angles, ctx.threads, ctx.stop, [&](std::size_t item, int) {
        const std::size_t z = item / angles, p = item % angles;
        const JosephRays rays = josephRays(geom, vol, static_cast<int>(p));
        const float* image = volume.plane(z).data();
        float* dst = out.row(z, p).data();
        // Along rows: line iy reads columns of row iy; along columns: line ix reads rows.
        const int lines = rays.alongRows ? vol.ny : vol.nx;
        const int length = rays.alongRows ? vol.nx : vol.ny;
        const std::ptrdiff_t lineStride = rays.alongRows ? rowPitch : 1;
        const std::ptrdiff_t sampleStride = rays.alongRows ? 1 : rowPitch;
        for (std::size_t j = 0; j < n; ++j) {
            const double start = rays.start(j);
            const auto [first, last] = activeRange(start, rays.slope, length, lines);
            double sum = 0.0;
            for (int k = first; k < last; ++k)
                sum += interpolate(image + k * lineStride, sampleStride, length,
                                   start + k * rays.slope);
            dst[j] = static_cast<float>(sum * rays.step);
        }
        if (ctx.progress) ctx.progress->advance();
    });
}

}  // namespace tomo
