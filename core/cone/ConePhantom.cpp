#include "core/cone/ConePhantom.h"

#include <cmath>
#include <cstdio>
#include <random>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

/// World (x, y, z) -> phantom frame (x, -z, y).
std::array<double, 3> toPhantom(const std::array<double, 3>& w) {
    return {w[0], -w[2], w[1]};
}

/// Rotated-frame point Y -> world X = R^T Y, with R of the view (as in ConeGeometry.cpp).
std::array<double, 3> fromRotated(const ConeView& v, const std::array<double, 3>& y) {
    const double ax = -v.outOfPlaneAngle, ay = -v.gantryAngle, az = -v.inPlaneAngle;
    const double cx = std::cos(ax), sx = std::sin(ax), cy = std::cos(ay), sy = std::sin(ay);
    const double cz = std::cos(az), sz = std::sin(az);
    // R^T = Ry^T Rx^T Rz^T applied to y.
    const double a0 = cz * y[0] + sz * y[1], a1 = -sz * y[0] + cz * y[1], a2 = y[2];
    const double b0 = a0, b1 = cx * a1 + sx * a2, b2 = -sx * a1 + cx * a2;
    return {cy * b0 - sy * b2, b1, sy * b0 + cy * b2};
}

}  // namespace

std::array<double, 3> detectorPoint(const ConeGeometry& g, int k, double u, double v) {
    const ConeView& view = g.view(k);
    return fromRotated(view, {u + view.projOffsetX, v + view.projOffsetY, view.sid - view.sdd});
}

Result<ConeGeometry> conePhantomGeometry(int n, double sid, double sdd, int views, double arcDeg) {
    const double r = n / std::sqrt(2.0);
    if (n < 1 || !(sid > 1.05 * r))
        return invalidArgument(
            "the source to isocentre distance must exceed the volume's radius (" +
            std::to_string(r) + " mm for a size of " + std::to_string(n) + ")");
    const double mag = sdd / sid, near = sdd / (sid - r);
    const int nu = static_cast<int>(std::ceil(2 * r * sid / std::sqrt(sid * sid - r * r))) + 4;
    const int nv = static_cast<int>(std::ceil(n * near / mag)) + 4;
    return ConeGeometry::circular(sid, sdd, views, 0, arcDeg,
                                  DetectorGrid::centred(nu, nv, mag, mag));
}

ConePhantom ConePhantom::sheppLogan(double scale) {
    return ConePhantom(Phantom::sheppLogan3d().shapes(), scale);
}

ConePhantom ConePhantom::randomEllipsoids(int count, std::uint32_t seed, double scale) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<Ellipsoid> shapes;
    for (int i = 0; i < count; ++i) {
        Ellipsoid e;
        e.density = 0.1 + 0.9 * unit(rng);
        e.ax = 0.05 + 0.3 * unit(rng);
        e.ay = 0.05 + 0.3 * unit(rng);
        e.az = 0.05 + 0.3 * unit(rng);
        const double r = 0.6 * std::cbrt(unit(rng)), th = 2 * kPi * unit(rng);
        const double cz = 2 * unit(rng) - 1, s = std::sqrt(1 - cz * cz);
        e.cx = r * s * std::cos(th);
        e.cy = r * s * std::sin(th);
        e.cz = r * cz;
        e.phi = kPi * unit(rng);
        shapes.push_back(e);
    }
    return ConePhantom(std::move(shapes), scale);
}

Result<ConePhantom> ConePhantom::fromName(const std::string& name, double scale) {
    if (!(scale > 0) || !std::isfinite(scale))
        return invalidArgument("phantom scale must be positive and finite");
    if (name == "shepp-logan" || name == "shepp-logan-3d") return sheppLogan(scale);
    if (name == "ball") return ConePhantom({{1.0, 0.5, 0.5, 0.5, 0, 0, 0, 0}}, scale);
    if (name.rfind("ellipsoids", 0) == 0) {
        int count = 10;
        unsigned seed = 1;
        const std::string rest = name.substr(10);
        if (!rest.empty() &&
            (rest[0] != ':' || std::sscanf(rest.c_str(), ":%d:%u", &count, &seed) < 1 ||
             count < 1 || count > 10000))
            return invalidArgument("phantom '" + name +
                                   "': ellipsoids[:COUNT[:SEED]] with COUNT "
                                   "in [1, 10000]");
        return randomEllipsoids(count, seed, scale);
    }
    return invalidArgument("unknown cone-beam phantom '" + name +
                           "' (shepp-logan, ellipsoids[:COUNT[:SEED]], ball)");
}

double ConePhantom::value(double x, double y, double z) const {
    const auto p = toPhantom({x / m_scale, y / m_scale, z / m_scale});
    double sum = 0;
    for (const Ellipsoid& e : m_shapes) {
        const double dx = p[0] - e.cx, dy = p[1] - e.cy, dz = p[2] - e.cz;
        const double c = std::cos(e.phi), s = std::sin(e.phi);
        const double qx = (c * dx + s * dy) / e.ax, qy = (-s * dx + c * dy) / e.ay;
        const double qz = dz / e.az;
        if (qx * qx + qy * qy + qz * qz <= 1.0) sum += e.density;
    }
    return sum;
}

double ConePhantom::lineIntegral(const std::array<double, 3>& source,
                                 const std::array<double, 3>& target) const {
    const auto s = toPhantom({source[0] / m_scale, source[1] / m_scale, source[2] / m_scale});
    const auto t = toPhantom({target[0] / m_scale, target[1] / m_scale, target[2] / m_scale});
    const double d[3] = {t[0] - s[0], t[1] - s[1], t[2] - s[2]};
    const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) * m_scale;
    double sum = 0;
    for (const Ellipsoid& e : m_shapes) {
        const double c = std::cos(e.phi), sn = std::sin(e.phi);
        const double px = s[0] - e.cx, py = s[1] - e.cy, pz = s[2] - e.cz;
        // Into the unit-sphere frame of the ellipsoid.
        const double o[3] = {(c * px + sn * py) / e.ax, (-sn * px + c * py) / e.ay, pz / e.az};
        const double r[3] = {(c * d[0] + sn * d[1]) / e.ax, (-sn * d[0] + c * d[1]) / e.ay,
                             d[2] / e.az};
        const double a = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
        const double b = o[0] * r[0] + o[1] * r[1] + o[2] * r[2];
        const double cc = o[0] * o[0] + o[1] * o[1] + o[2] * o[2] - 1.0;
        const double disc = b * b - a * cc;
        if (disc > 0 && a > 0) sum += e.density * 2.0 * std::sqrt(disc) / a * length;
    }
    return sum;
}

Result<Array3<float>> ConePhantom::project(const ConeGeometry& geometry, int rays,
                                           const ExecContext& ctx) const {
    if (rays < 1 || rays > 16) return invalidArgument("rays per pixel must be in [1, 16]");
    const DetectorGrid& d = geometry.detector();
    TOMO_ASSIGN_OR_RETURN(
        Array3<float> out,
        Array3<float>::create(static_cast<std::size_t>(geometry.viewCount()),
                              static_cast<std::size_t>(d.nv), static_cast<std::size_t>(d.nu)));
    if (ctx.progress)
        ctx.progress->setTotal(static_cast<std::uint64_t>(geometry.viewCount()) *
                               static_cast<std::uint64_t>(d.nv));
    const std::size_t items = static_cast<std::size_t>(geometry.viewCount()) * d.nv;
    return parallelFor(
               items, ctx.threads, ctx.stop,
               [&](std::size_t item, int) {
                   const int k = static_cast<int>(item / d.nv);
                   const int iv = static_cast<int>(item % d.nv);
                   const auto src = geometry.sourcePosition(k);
                   auto row = out.row(static_cast<std::size_t>(k), static_cast<std::size_t>(iv));
                   for (int iu = 0; iu < d.nu; ++iu) {
                       double sum = 0;
                       for (int a = 0; a < rays; ++a)
                           for (int b = 0; b < rays; ++b) {
                               const double u =
                                   d.originU + (iu + (b + 0.5) / rays - 0.5) * d.pitchU;
                               const double v =
                                   d.originV + (iv + (a + 0.5) / rays - 0.5) * d.pitchV;
                               sum += lineIntegral(src, detectorPoint(geometry, k, u, v));
                           }
                       row[static_cast<std::size_t>(iu)] = static_cast<float>(sum / (rays * rays));
                   }
                   if (ctx.progress) ctx.progress->advance(1);
               }).isOk()
               ? Result<Array3<float>>(std::move(out))
               : Result<Array3<float>>(cancelled());
}

Result<Volume> ConePhantom::rasterize(const ConeVolumeGrid& grid, int supersample,
                                      const ExecContext& ctx) const {
    TOMO_RETURN_IF_ERROR(grid.validate());
    if (supersample < 1 || supersample > 8)
        return invalidArgument("supersampling must be in [1, 8]");
    TOMO_ASSIGN_OR_RETURN(Volume out, Volume::create(static_cast<std::size_t>(grid.nz),
                                                     static_cast<std::size_t>(grid.ny),
                                                     static_cast<std::size_t>(grid.nx)));
    const int s = supersample;
    const std::size_t items = static_cast<std::size_t>(grid.nz) * grid.ny;
    Status st = parallelFor(items, ctx.threads, ctx.stop, [&](std::size_t item, int) {
        const int k = static_cast<int>(item / grid.ny), j = static_cast<int>(item % grid.ny);
        auto row = out.row(static_cast<std::size_t>(k), static_cast<std::size_t>(j));
        for (int i = 0; i < grid.nx; ++i) {
            double sum = 0;
            for (int a = 0; a < s; ++a)
                for (int b = 0; b < s; ++b)
                    for (int c = 0; c < s; ++c)
                        sum += value(grid.originX + (i + (c + 0.5) / s - 0.5) * grid.spacingX,
                                     grid.originY + (j + (b + 0.5) / s - 0.5) * grid.spacingY,
                                     grid.originZ + (k + (a + 0.5) / s - 0.5) * grid.spacingZ);
            row[static_cast<std::size_t>(i)] = static_cast<float>(sum / (s * s * s));
        }
    });
    TOMO_RETURN_IF_ERROR(st);
    return out;
}

}  // namespace tomo
