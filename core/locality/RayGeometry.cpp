#include "core/locality/RayGeometry.h"

#include <algorithm>

namespace tomo {

std::vector<RayAngle> rayAngles(const ParallelGeometry& geom, const VolumeGeometry& vol) {
    std::vector<RayAngle> out(static_cast<std::size_t>(geom.angleCount()));
    const double pitch = geom.detectorPitch(), vs = vol.voxelSize;
    const double x0 = vol.x(0), y0 = vol.y(0);
    for (int p = 0; p < geom.angleCount(); ++p) {
        const double th = geom.angle(p), c = std::cos(th), s = std::sin(th);
        const double t0 = -geom.center(p) * pitch;  // t of detector pixel 0
        RayAngle& r = out[static_cast<std::size_t>(p)];
        r.alongRows = std::abs(c) >= std::abs(s);
        if (r.alongRows) {
            // Row iy has y = y0 - iy vs; x = (t - y s) / c; column = (x - x0) / vs.
            r.a = ((t0 - y0 * s) / c - x0) / vs;
            r.b = pitch / (c * vs);
            r.d = s / c;
            r.step = vs / std::abs(c);
            r.lines = vol.ny;
            r.lineLength = vol.nx;
        } else {
            // Column ix has x = x0 + ix vs; y = (t - x c) / s; row = (y0 - y) / vs.
            r.a = (y0 - (t0 - x0 * c) / s) / vs;
            r.b = -pitch / (s * vs);
            r.d = c / s;
            r.step = vs / std::abs(s);
            r.lines = vol.nx;
            r.lineLength = vol.ny;
        }
    }
    return out;
}

std::pair<int, int> activeLines(double pos0, double step, int size, int count) {
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

}  // namespace tomo
