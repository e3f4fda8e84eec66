#include "core/cone/ConeGeometry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/geometry/ParallelGeometry.h"

namespace tomo {
namespace {

using Matrix3 = std::array<std::array<double, 3>, 3>;
using Matrix4 = std::array<std::array<double, 4>, 4>;

Matrix3 multiply(const Matrix3& a, const Matrix3& b) {
    Matrix3 r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k)
                r[i][j] += a[i][k] * b[k][j];
    return r;
}

/// ITK's Euler3DTransform in "ZXY" order: Rz(az) Rx(ax) Ry(ay).
Matrix3 eulerZxy(double ax, double ay, double az) {
    const double cx = std::cos(ax), sx = std::sin(ax);
    const double cy = std::cos(ay), sy = std::sin(ay);
    const double cz = std::cos(az), sz = std::sin(az);
    const Matrix3 rx{{{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}}};
    const Matrix3 ry{{{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}}};
    const Matrix3 rz{{{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}}};
    return multiply(rz, multiply(rx, ry));
}

Matrix3 rotationOf(const ConeView& v) {
    return eulerZxy(-v.outOfPlaneAngle, -v.gantryAngle, -v.inPlaneAngle);
}

bool finite(const ConeView& v) {
    for (double x : {v.sid, v.sdd, v.gantryAngle, v.projOffsetX, v.projOffsetY, v.outOfPlaneAngle,
                     v.inPlaneAngle, v.sourceOffsetX, v.sourceOffsetY})
        if (!std::isfinite(x)) return false;
    return true;
}

Status validateDetector(const DetectorGrid& d) {
    if (d.nu < 2 || d.nv < 2 || d.nu > (1 << 20) || d.nv > (1 << 20))
        return invalidArgument(
            "cone geometry: the detector needs 2 to 2^20 pixels along u and v (" +
            std::to_string(d.nu) + " x " + std::to_string(d.nv) + " given)");
    if (!(d.pitchU > 0) || !(d.pitchV > 0) || !std::isfinite(d.pitchU) || !std::isfinite(d.pitchV))
        return invalidArgument("cone geometry: the detector pitch must be positive and finite");
    if (!std::isfinite(d.originU) || !std::isfinite(d.originV))
        return invalidArgument("cone geometry: the detector origin must be finite");
    return Status::ok();
}

}  // namespace

DetectorGrid DetectorGrid::centred(int nu, int nv, double pitchU, double pitchV) {
    return {nu, nv, pitchU, pitchV, -0.5 * (nu - 1) * pitchU, -0.5 * (nv - 1) * pitchV};
}

ConeVolumeGrid ConeVolumeGrid::centred(int nx, int ny, int nz, double spacing) {
    return {nx,
            ny,
            nz,
            spacing,
            spacing,
            spacing,
            -0.5 * (nx - 1) * spacing,
            -0.5 * (ny - 1) * spacing,
            -0.5 * (nz - 1) * spacing};
}

ConeVolumeGrid ConeVolumeGrid::slab(int first, int count) const {
    ConeVolumeGrid g = *this;
    g.nz = count;
    g.originZ = originZ + first * spacingZ;
    return g;
}

Status ConeVolumeGrid::validate() const {
    if (nx < 1 || ny < 1 || nz < 1 || nx > (1 << 16) || ny > (1 << 16) || nz > (1 << 16))
        return invalidArgument("cone volume: 1 to 65536 voxels per axis (" + std::to_string(nx) +
                               " x " + std::to_string(ny) + " x " + std::to_string(nz) + ")");
    for (double s : {spacingX, spacingY, spacingZ})
        if (!(s > 0) || !std::isfinite(s))
            return invalidArgument("cone volume: the voxel size must be positive and finite");
    for (double o : {originX, originY, originZ})
        if (!std::isfinite(o)) return invalidArgument("cone volume: the origin must be finite");
    return Status::ok();
}

const char* coneSymmetryName(ConeSymmetry s) {
    switch (s) {
        case ConeSymmetry::Mirror:
            return "mirror";
        case ConeSymmetry::Column:
            return "column";
        case ConeSymmetry::General:
            break;
    }
    return "general";
}

Result<ConeGeometry> ConeGeometry::create(std::vector<ConeView> views, DetectorGrid detector) {
    if (views.empty()) return invalidArgument("cone geometry: no views");
    TOMO_RETURN_IF_ERROR(validateDetector(detector));
    for (std::size_t k = 0; k < views.size(); ++k) {
        const ConeView& v = views[k];
        const std::string at = " (view " + std::to_string(k) + ")";
        if (!finite(v)) return invalidArgument("cone geometry: a parameter is not finite" + at);
        if (!(v.sid > 0)) return invalidArgument("cone geometry: sid must be positive" + at);
        if (!(v.sdd > 0))
            return invalidArgument(
                "cone geometry: sdd must be positive (parallel beam is "
                "reconstructed by FBP)" +
                at);
    }
    return ConeGeometry(std::move(views), detector);
}

Result<ConeGeometry> ConeGeometry::circular(double sid, double sdd, int count, double firstDeg,
                                            double arcDeg, DetectorGrid detector) {
    if (count < 1 || count > (1 << 20))
        return invalidArgument("cone geometry: 1 to 2^20 views (" + std::to_string(count) + ")");
    std::vector<ConeView> views(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        ConeView& v = views[static_cast<std::size_t>(i)];
        v.sid = sid;
        v.sdd = sdd;
        v.gantryAngle = (firstDeg + arcDeg * i / count) * kPi / 180.0;
    }
    return create(std::move(views), detector);
}

Result<ConeGeometry> ConeGeometry::withViews(std::vector<ConeView> views) const {
    return create(std::move(views), m_detector);
}

Result<ConeGeometry> ConeGeometry::withDetector(DetectorGrid detector) const {
    return create(m_views, detector);
}

Matrix34 ConeGeometry::matrix(int k) const {
    const ConeView& v = view(k);
    const Matrix3 r = rotationOf(v);
    // T(-sx, -sy, 0) * R as a 3x4 (rotation, then translation).
    Matrix4 sr{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            sr[i][j] = r[i][j];
    sr[0][3] = -v.sourceOffsetX;
    sr[1][3] = -v.sourceOffsetY;
    sr[3][3] = 1.0;
    // Perspective rows: (-sdd x, -sdd y, z - sid).
    Matrix34 m{};
    for (int j = 0; j < 4; ++j) {
        m[0][j] = -v.sdd * sr[0][j];
        m[1][j] = -v.sdd * sr[1][j];
        m[2][j] = sr[2][j] - v.sid * sr[3][j];
    }
    // Detector translation: u += (sx - px) w, v += (sy - py) w.
    for (int j = 0; j < 4; ++j) {
        m[0][j] += (v.sourceOffsetX - v.projOffsetX) * m[2][j];
        m[1][j] += (v.sourceOffsetY - v.projOffsetY) * m[2][j];
    }
    return m;
}

std::array<double, 3> ConeGeometry::sourcePosition(int k) const {
    const ConeView& v = view(k);
    const Matrix3 r = rotationOf(v);
    const double s[3] = {v.sourceOffsetX, v.sourceOffsetY, v.sid};
    std::array<double, 3> out{};
    for (int i = 0; i < 3; ++i)  // R^-1 = R^T
        for (int j = 0; j < 3; ++j)
            out[static_cast<std::size_t>(i)] += r[j][i] * s[j];
    return out;
}

double ConeGeometry::sourceAngle(int k) const {
    auto s = sourcePosition(k);
    const double norm = std::hypot(s[0], s[2]);
    double a = norm > 0 ? std::acos(std::clamp(s[2] / norm, -1.0, 1.0)) : 0.0;
    if (s[0] > 0) a = 2 * kPi - a;
    return a - 2 * kPi * std::floor(a / (2 * kPi));
}

Matrix34 ConeGeometry::indexMatrix(int k, const ConeVolumeGrid& grid) const {
    const Matrix34 p = matrix(k);
    const double norm = p[2][3];  // -sid: the depth at the isocentre
    const double spacing[3] = {grid.spacingX, grid.spacingY, grid.spacingZ};
    const double origin[3] = {grid.originX, grid.originY, grid.originZ};
    // World from index, then detector mm -> pixel index.
    Matrix34 w{};
    for (int r = 0; r < 3; ++r) {
        for (int j = 0; j < 3; ++j)
            w[r][j] = p[r][j] * spacing[j] / norm;
        w[r][3] =
            (p[r][0] * origin[0] + p[r][1] * origin[1] + p[r][2] * origin[2] + p[r][3]) / norm;
    }
    const DetectorGrid& d = m_detector;
    Matrix34 m{};
    for (int j = 0; j < 4; ++j) {
        m[0][j] = (w[0][j] - d.originU * w[2][j]) / d.pitchU;
        m[1][j] = (w[1][j] - d.originV * w[2][j]) / d.pitchV;
        m[2][j] = w[2][j];
    }
    return m;
}

ConeSymmetry ConeGeometry::symmetry(const ConeVolumeGrid& grid) const {
    ConeSymmetry result = ConeSymmetry::Mirror;
    const double nv1 = m_detector.nv - 1.0, ny1 = grid.ny - 1.0;
    for (int k = 0; k < viewCount() && result != ConeSymmetry::General; ++k) {
        const Matrix34 m = indexMatrix(k, grid);
        // Scale of the entries: the change of u, v and depth across the whole volume.
        const double su = std::abs(m[0][0]) * grid.nx + std::abs(m[0][2]) * grid.nz + 1.0;
        const double sw = std::abs(m[2][0]) * grid.nx + std::abs(m[2][2]) * grid.nz + 1.0;
        const double sv = std::abs(m[1][1]) * grid.ny + nv1 + 1.0;
        constexpr double kTol = 1e-9;
        if (std::abs(m[0][1]) * grid.ny > kTol * su || std::abs(m[2][1]) * grid.ny > kTol * sw) {
            result = ConeSymmetry::General;
            break;
        }
        const bool mirror = std::abs(2 * m[1][0] - nv1 * m[2][0]) * grid.nx <= kTol * sv &&
                            std::abs(2 * m[1][2] - nv1 * m[2][2]) * grid.nz <= kTol * sv &&
                            std::abs(2 * m[1][3] + m[1][1] * ny1 - nv1 * m[2][3]) <= kTol * sv;
        if (!mirror) result = ConeSymmetry::Column;
    }
    return result;
}

double ConeGeometry::fanAngle() const {
    const DetectorGrid& d = m_detector;
    const double lo = d.originU - 0.5 * d.pitchU;
    const double hi = d.originU + (d.nu - 0.5) * d.pitchU;
    double fan = 0;
    for (const ConeView& v : m_views) {
        const double u0 = v.sourceOffsetX - v.projOffsetX;  // where the central ray hits
        fan = std::max(fan, std::atan(std::max(std::abs(lo - u0), std::abs(hi - u0)) / v.sdd));
    }
    return fan;
}

namespace {

double det3(const Matrix3& a) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
           a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

double dot3(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

}  // namespace

Result<ConeView> coneViewFromMatrix(const Matrix34& matrix) {
    std::array<std::array<double, 3>, 3> rows{};
    for (int r = 0; r < 3; ++r)
        rows[r] = {matrix[r][0], matrix[r][1], matrix[r][2]};
    const double scale = std::sqrt(dot3(rows[2], rows[2]));
    if (!(scale > 0) || !std::isfinite(scale))
        return invalidArgument("projection matrix: the third row is zero or not finite");
    Matrix3 a{};
    std::array<double, 3> p{};
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            a[r][c] = matrix[r][c] / scale;
        p[r] = matrix[r][3] / scale;
        rows[r] = {a[r][0], a[r][1], a[r][2]};
    }
    const double d = det3(a);
    if (std::abs(d) < 1e-12) return invalidArgument("projection matrix: parallel (singular)");
    const double sign = -d / std::abs(d);
    const double u0 = dot3(rows[0], rows[2]), v0 = dot3(rows[1], rows[2]);
    const double aU = std::sqrt(std::max(0.0, dot3(rows[0], rows[0]) - u0 * u0));
    const double aV = std::sqrt(std::max(0.0, dot3(rows[1], rows[1]) - v0 * v0));
    if (std::abs(aU - aV) > 1e-6 * std::max(aU, aV))
        return invalidArgument("projection matrix: non-square detector pixels (focal lengths " +
                               std::to_string(aU) + " and " + std::to_string(aV) + ")");
    const double sdd = 0.5 * (aU + aV);
    // K = sign [[sdd, 0, -u0], [0, sdd, -v0], [0, 0, -1]]; R = K^-1 A; source = -K^-1 p.
    auto kInv = [&](const std::array<double, 3>& x) {
        const double z = -x[2];
        return std::array<double, 3>{(x[0] + u0 * z) / sdd * sign, (x[1] + v0 * z) / sdd * sign,
                                     z * sign};
    };
    Matrix3 rot{};
    for (int c = 0; c < 3; ++c) {
        const auto col = kInv({a[0][c], a[1][c], a[2][c]});
        for (int r = 0; r < 3; ++r)
            rot[r][c] = col[static_cast<std::size_t>(r)];
    }
    const auto src = kInv(p);
    const double ax = std::asin(std::clamp(rot[2][1], -1.0, 1.0));
    const double ay = std::atan2(-rot[2][0], rot[2][2]);
    const double az = std::atan2(-rot[0][1], rot[1][1]);
    ConeView v;
    v.sid = -src[2];
    v.sdd = sdd;
    v.gantryAngle = -ay;
    v.outOfPlaneAngle = -ax;
    v.inPlaneAngle = -az;
    v.sourceOffsetX = -src[0];
    v.sourceOffsetY = -src[1];
    v.projOffsetX = v.sourceOffsetX - u0;
    v.projOffsetY = v.sourceOffsetY - v0;
    return v;
}

std::string describe(const ConeGeometry& g) {
    std::vector<double> a;
    for (const ConeView& v : g.views())
        a.push_back(v.gantryAngle);
    std::sort(a.begin(), a.end());
    const double arc = a.size() > 1 ? (a.back() - a.front()) * a.size() / (a.size() - 1.0) : 0;
    const DetectorGrid& d = g.detector();
    char text[256];
    std::snprintf(
        text, sizeof text,
        "%d views over %.1f deg, sid %g mm, sdd %g mm, detector %d x %d of %.4g x %.4g mm",
        g.viewCount(), arc * 180.0 / kPi, g.view(0).sid, g.view(0).sdd, d.nu, d.nv, d.pitchU,
        d.pitchV);
    return text;
}

}  // namespace tomo
