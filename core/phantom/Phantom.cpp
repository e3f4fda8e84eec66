#include "core/phantom/Phantom.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>
#include <string_view>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

constexpr double kDegree = kPi / 180.0;

/// The cross-section of one shape with the plane z = const, in world units.
struct Section {
    double density = 0;
    double a = 0, b = 0;  ///< semi-axes
    double cx = 0, cy = 0;
    double cosPhi = 1, sinPhi = 0;
};

/// Cross-section of @p e (normalised units) at world height @p z; false when the plane misses it.
bool sectionAt(const Ellipsoid& e, bool is2d, double scale, double z, Section& s) {
    double f = 1.0;
    if (!is2d) {
        if (!(e.az > 0)) return false;
        double w = (z / scale - e.cz) / e.az;
        double f2 = 1.0 - w * w;
        if (!(f2 > 0.0)) return false;
        f = std::sqrt(f2);
    }
    s.density = e.density;
    s.a = e.ax * f * scale;
    s.b = e.ay * f * scale;
    if (!(s.a > 0) || !(s.b > 0)) return false;
    s.cx = e.cx * scale;
    s.cy = e.cy * scale;
    s.cosPhi = std::cos(e.phi);
    s.sinPhi = std::sin(e.phi);
    return true;
}

std::vector<Section> sectionsAt(const std::vector<Ellipsoid>& shapes, bool is2d, double scale,
                                double z) {
    std::vector<Section> out;
    out.reserve(shapes.size());
    Section s;
    for (const Ellipsoid& e : shapes)
        if (sectionAt(e, is2d, scale, z, s)) out.push_back(s);
    return out;
}

bool contains(const Section& s, double x, double y) {
    double dx = x - s.cx, dy = y - s.cy;
    double u = (dx * s.cosPhi + dy * s.sinPhi) / s.a;
    double v = (dy * s.cosPhi - dx * s.sinPhi) / s.b;
    return u * u + v * v <= 1.0;
}

/// Half-height of the axis-aligned bounding box of a section.
double halfHeight(const Section& s) {
    return std::sqrt(s.a * s.a * s.sinPhi * s.sinPhi + s.b * s.b * s.cosPhi * s.cosPhi);
}

/// A section seen from one projection angle: the chord at detector coordinate t has length
/// 2ab sqrt(h2 - (t - centreT)^2) / h2.
struct Chord {
    double weight = 0;   ///< density * 2ab / h2
    double h2 = 0;       ///< squared support function along the ray normal
    double centreT = 0;  ///< projection of the centre onto the detector
};

Chord chordFor(const Section& s, double cosT, double sinT) {
    double c = cosT * s.cosPhi + sinT * s.sinPhi;   // cos(theta - phi)
    double sn = sinT * s.cosPhi - cosT * s.sinPhi;  // sin(theta - phi)
    double h2 = s.a * s.a * c * c + s.b * s.b * sn * sn;
    return {s.density * 2.0 * s.a * s.b / h2, h2, s.cx * cosT + s.cy * sinT};
}

double chordIntegral(const Chord& c, double t) {
    double d = t - c.centreT;
    double r = c.h2 - d * d;
    return r > 0.0 ? c.weight * std::sqrt(r) : 0.0;
}

/// Reads a non-negative integer field of a phantom name.
template <class T>
bool parseField(std::string_view text, T& value) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && !text.empty();
}

}  // namespace

Phantom Phantom::sheppLogan2d(double scale) {
    // density, ax, ay, cx, cy, phi (degrees): Toft's modified values, MATLAB's table, y up.
    static constexpr double kTable[10][6] = {
        {1.0, 0.69, 0.92, 0.0, 0.0, 0.0},      {-0.8, 0.6624, 0.874, 0.0, -0.0184, 0.0},
        {-0.2, 0.11, 0.31, 0.22, 0.0, -18.0},  {-0.2, 0.16, 0.41, -0.22, 0.0, 18.0},
        {0.1, 0.21, 0.25, 0.0, 0.35, 0.0},     {0.1, 0.046, 0.046, 0.0, 0.1, 0.0},
        {0.1, 0.046, 0.046, 0.0, -0.1, 0.0},   {0.1, 0.046, 0.023, -0.08, -0.605, 0.0},
        {0.1, 0.023, 0.023, 0.0, -0.606, 0.0}, {0.1, 0.023, 0.046, 0.06, -0.605, 0.0},
    };
    std::vector<Ellipsoid> shapes;
    for (const auto& r : kTable)
        shapes.push_back({r[0], r[1], r[2], 0.0, r[3], r[4], 0.0, r[5] * kDegree});
    return Phantom(std::move(shapes), true, scale);
}

Phantom Phantom::sheppLogan3d(double scale) {
    // density, ax, ay, az, cx, cy, cz, phi (degrees): Yu, Ye & Wang's table.
    static constexpr double kTable[10][8] = {
        {1.0, 0.69, 0.92, 0.9, 0.0, 0.0, 0.0, 0.0},
        {-0.8, 0.6624, 0.874, 0.88, 0.0, 0.0, 0.0, 0.0},
        {-0.2, 0.41, 0.16, 0.21, -0.22, 0.0, -0.25, 108.0},
        {-0.2, 0.31, 0.11, 0.22, 0.22, 0.0, -0.25, 72.0},
        {0.2, 0.21, 0.25, 0.5, 0.0, 0.35, -0.25, 0.0},
        {0.2, 0.046, 0.046, 0.046, 0.0, 0.1, -0.25, 0.0},
        {0.1, 0.046, 0.023, 0.02, -0.08, -0.65, -0.25, 0.0},
        {0.1, 0.046, 0.023, 0.02, 0.06, -0.65, -0.25, 90.0},
        {0.2, 0.056, 0.04, 0.1, 0.06, -0.105, 0.625, 90.0},
        {-0.2, 0.056, 0.056, 0.1, 0.0, 0.1, 0.625, 0.0},
    };
    std::vector<Ellipsoid> shapes;
    for (const auto& r : kTable)
        shapes.push_back({r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] * kDegree});
    return Phantom(std::move(shapes), false, scale);
}

Phantom Phantom::randomEllipses(int count, std::uint32_t seed, double scale) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<Ellipsoid> shapes;
    for (int i = 0; i < count; ++i) {
        Ellipsoid e;
        e.ax = 0.05 + 0.3 * unit(rng);
        e.ay = 0.05 + 0.3 * unit(rng);
        // Centre uniform in the disc of radius 1 - max axis, so the ellipse stays in the unit disc.
        double radius = (1.0 - std::max(e.ax, e.ay)) * std::sqrt(unit(rng));
        double direction = 2.0 * kPi * unit(rng);
        e.cx = radius * std::cos(direction);
        e.cy = radius * std::sin(direction);
        e.phi = kPi * unit(rng);
        e.density = 0.1 + 0.9 * unit(rng);
        shapes.push_back(e);
    }
    return Phantom(std::move(shapes), true, scale);
}

Phantom Phantom::lowContrastDiscs(double scale) {
    // A water-like disc of density 1 (radius 0.85) holding two rings of discs: eight at 4%
    // contrast on the outer ring (radii 0.12 to 0.03), eight at 1% on the inner ring (radii 0.1
    // to 0.025), a 4% darker disc at the centre. Like a CT low-contrast module (Catphan's
    // CTP515 has 0.3% to 1% targets of 2 to 15 mm on a 150 mm disc).
    std::vector<Ellipsoid> shapes{{1.0, 0.85, 0.85, 0.85, 0.0, 0.0, 0.0, 0.0}};
    for (int ring = 0; ring < 2; ++ring) {
        const double radius = ring == 0 ? 0.58 : 0.3, contrast = ring == 0 ? 0.04 : 0.01;
        const double largest = ring == 0 ? 0.12 : 0.1, smallest = ring == 0 ? 0.03 : 0.025;
        for (int k = 0; k < 8; ++k) {
            const double r = largest * std::pow(smallest / largest, k / 7.0);
            const double a = 2.0 * kPi * (k + 0.5 * ring) / 8.0;
            shapes.push_back(
                {contrast, r, r, r, radius * std::cos(a), radius * std::sin(a), 0.0, 0.0});
        }
    }
    shapes.push_back({-0.04, 0.08, 0.08, 0.08, 0.0, 0.0, 0.0, 0.0});
    return Phantom(std::move(shapes), true, scale);
}

Phantom Phantom::single(Ellipsoid e, bool is2d, double scale) {
    return Phantom({e}, is2d, scale);
}

Result<Phantom> Phantom::fromName(const std::string& name, double scale) {
    if (!(scale > 0) || !std::isfinite(scale))
        return invalidArgument("phantom scale must be positive and finite (got " +
                               std::to_string(scale) + ")");
    if (name == "shepp-logan") return sheppLogan2d(scale);
    if (name == "shepp-logan-3d") return sheppLogan3d(scale);
    if (name == "disc") return single({1.0, 0.5, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0}, true, scale);
    if (name == "discs") return lowContrastDiscs(scale);
    std::string_view view(name);
    if (view.substr(0, 8) == "ellipses" && (view.size() == 8 || view[8] == ':')) {
        int count = 10;
        std::uint32_t seed = 1;
        std::string_view rest = view.size() > 8 ? view.substr(9) : std::string_view();
        if (view.size() > 8) {
            auto colon = rest.find(':');
            std::string_view countText = rest.substr(0, colon);
            if (!parseField(countText, count) || count < 1 || count > 100000)
                return invalidArgument("phantom '" + name +
                                       "': COUNT must be an integer in [1, 100000]");
            if (colon != std::string_view::npos && !parseField(rest.substr(colon + 1), seed))
                return invalidArgument("phantom '" + name +
                                       "': SEED must be an unsigned 32-bit integer");
        }
        return randomEllipses(count, seed, scale);
    }
    return invalidArgument("unknown phantom '" + name +
                           "' (expected shepp-logan, shepp-logan-3d, ellipses[:COUNT[:SEED]], "
                           "disc or discs)");
}

double Phantom::value(double x, double y, double z) const {
    double sum = 0.0;
    Section s;
    for (const Ellipsoid& e : m_shapes)
        if (sectionAt(e, m_is2d, m_scale, z, s) && contains(s, x, y)) sum += s.density;
    return sum;
}

double Phantom::lineIntegral(double theta, double t, double z) const {
    double cosT = std::cos(theta), sinT = std::sin(theta);
    double sum = 0.0;
    Section s;
    for (const Ellipsoid& e : m_shapes)
        if (sectionAt(e, m_is2d, m_scale, z, s)) sum += chordIntegral(chordFor(s, cosT, sinT), t);
    return sum;
}

Status Phantom::project(const ParallelGeometry& geom, Sinograms& out, int raysPerBin,
                        const ExecContext& ctx) const {
    if (raysPerBin < 1)
        return invalidArgument("rays per detector bin must be at least 1 (got " +
                               std::to_string(raysPerBin) + ")");
    const auto rows = static_cast<std::size_t>(geom.rows());
    const auto angles = static_cast<std::size_t>(geom.angleCount());
    const auto dets = static_cast<std::size_t>(geom.detectorCount());
    if (out.dims() != std::array<std::size_t, 3>{rows, angles, dets}) {
        TOMO_ASSIGN_OR_RETURN(out, Sinograms::create(rows, angles, dets));
    }
    const double pitch = geom.detectorPitch();
    std::vector<double> offsets(static_cast<std::size_t>(raysPerBin));
    for (int k = 0; k < raysPerBin; ++k)
        offsets[static_cast<std::size_t>(k)] = ((k + 0.5) / raysPerBin - 0.5) * pitch;
    const double invRays = 1.0 / raysPerBin;

    const std::size_t items = rows * angles;
    if (ctx.progress) ctx.progress->setTotal(items);
    return parallelFor(items, ctx.threads, ctx.stop, [&](std::size_t i, int) {
        const std::size_t r = i / angles, p = i % angles;
        const double z = (static_cast<double>(r) - 0.5 * static_cast<double>(rows - 1)) * pitch;
        const double theta = geom.angle(static_cast<int>(p));
        const double centre = geom.center(static_cast<int>(p));
        const double cosT = std::cos(theta), sinT = std::sin(theta);
        std::vector<Chord> chords;
        for (const Section& s : sectionsAt(m_shapes, m_is2d, m_scale, z))
            chords.push_back(chordFor(s, cosT, sinT));
        std::span<float> dst = out.row(r, p);
        for (std::size_t j = 0; j < dets; ++j) {
            const double t0 = (static_cast<double>(j) - centre) * pitch;
            double sum = 0.0;
            for (double offset : offsets)
                for (const Chord& c : chords)
                    sum += chordIntegral(c, t0 + offset);
            dst[j] = static_cast<float>(sum * invRays);
        }
        if (ctx.progress) ctx.progress->advance();
    });
}

Status Phantom::rasterize(const VolumeGeometry& vol, Volume& out, int supersample,
                          const ExecContext& ctx) const {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (supersample < 1 || supersample > 64)
        return invalidArgument("supersampling must be in [1, 64] (got " +
                               std::to_string(supersample) + ")");
    const auto nx = static_cast<std::size_t>(vol.nx), ny = static_cast<std::size_t>(vol.ny),
               nz = static_cast<std::size_t>(vol.nz);
    if (out.dims() != std::array<std::size_t, 3>{nz, ny, nx}) {
        TOMO_ASSIGN_OR_RETURN(out, Volume::create(nz, ny, nx));
    }
    const auto n = static_cast<std::size_t>(supersample);
    std::vector<double> offsets(n);
    for (std::size_t k = 0; k < n; ++k)
        offsets[k] = ((static_cast<double>(k) + 0.5) / supersample - 0.5) * vol.voxelSize;
    const double invSamples = 1.0 / static_cast<double>(n * n);

    const std::size_t items = nz * ny;
    if (ctx.progress) ctx.progress->setTotal(items);
    return parallelFor(items, ctx.threads, ctx.stop, [&](std::size_t i, int) {
        const std::size_t iz = i / ny, iy = i % ny;
        const double z =
            (static_cast<double>(iz) - 0.5 * static_cast<double>(nz - 1)) * vol.voxelSize;
        const std::vector<Section> sections = sectionsAt(m_shapes, m_is2d, m_scale, z);
        std::vector<double> rowSum(nx, 0.0);
        std::vector<const Section*> active;
        for (double dy : offsets) {
            const double y = vol.y(static_cast<double>(iy)) + dy;
            active.clear();
            for (const Section& s : sections)
                if (std::abs(y - s.cy) <= halfHeight(s)) active.push_back(&s);
            if (active.empty()) continue;
            for (std::size_t ix = 0; ix < nx; ++ix) {
                const double xc = vol.x(static_cast<double>(ix));
                double sum = 0.0;
                for (double dx : offsets)
                    for (const Section* s : active)
                        if (contains(*s, xc + dx, y)) sum += s->density;
                rowSum[ix] += sum;
            }
        }
        std::span<float> dst = out.row(iz, iy);
        for (std::size_t ix = 0; ix < nx; ++ix)
            dst[ix] = static_cast<float>(rowSum[ix] * invSamples);
        if (ctx.progress) ctx.progress->advance();
    });
}

}  // namespace tomo
