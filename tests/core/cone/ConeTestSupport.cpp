#include "ConeTestSupport.h"

#include <cmath>

#include "core/cone/ConePhantom.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::test {

ConeCase coneCase(const std::string& phantom, double arcDeg, int views, double projOffsetY,
                  double outOfPlaneRad, double projOffsetX, int nu, std::vector<double> angles) {
    const DetectorGrid det = DetectorGrid::centred(nu, 80, 1.2, 1.2);
    std::vector<ConeView> list;
    for (int k = 0; k < views; ++k) {
        ConeView v;
        v.sid = 300;
        v.sdd = 450;
        v.gantryAngle =
            angles.empty() ? arcDeg * k / views * kPi / 180 : angles[static_cast<std::size_t>(k)];
        v.projOffsetX = projOffsetX;
        v.projOffsetY = projOffsetY;
        v.outOfPlaneAngle = outOfPlaneRad;
        list.push_back(v);
    }
    ConeGeometry g = ConeGeometry::create(list, det).value();
    const ConePhantom p = ConePhantom::fromName(phantom, 20.0).value();
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(48, 48, 48, 1.0);
    Array3<float> proj = p.project(g, 2).value();
    Volume truth = p.rasterize(grid, 2).value();
    return {std::move(g), grid, std::move(proj), std::move(truth), FdkOptions{}};
}

std::vector<ConeCase> symmetricCases(const std::string& phantom) {
    std::vector<ConeCase> cases;
    cases.push_back(coneCase(phantom, 360, 60));
    cases.push_back(coneCase(phantom, 360, 60, 6.0));
    cases.push_back(coneCase(phantom, 360, 60));
    cases.back().grid = ConeVolumeGrid::centred(10, 301, 8, 0.2);
    // Coarse voxels (1.8 and 4 mm): a 4 x 2 patch of columns spans more detector columns than
    // the tile.shared kernels stage in some views, not in others (both paths run).
    cases.push_back(coneCase(phantom, 360, 60));
    cases.back().grid = ConeVolumeGrid::centred(16, 40, 16, 1.8);
    cases.push_back(coneCase(phantom, 360, 60, 6.0));
    cases.back().grid = ConeVolumeGrid::centred(12, 12, 12, 4.0);
    return cases;
}

Result<Volume> runToVolume(const ConeCase& c, ConeBackProjector& bp, int slabPlanes,
                           FdkReport* report) {
    FdkOptions o = c.options;
    o.slabPlanes = slabPlanes;
    TOMO_ASSIGN_OR_RETURN(Volume out, Volume::create(static_cast<std::size_t>(c.grid.nz),
                                                     static_cast<std::size_t>(c.grid.ny),
                                                     static_cast<std::size_t>(c.grid.nx)));
    auto read = [&](int first, int count, View2<float> views) -> Status {
        const std::size_t nv = c.projections.dim(1);
        if (views.rows() != static_cast<std::size_t>(count) * nv) return internalError("rows");
        for (int p = 0; p < count; ++p)
            for (std::size_t r = 0; r < nv; ++r) {
                auto src = c.projections.row(static_cast<std::size_t>(first + p), r);
                std::copy(src.begin(), src.end(),
                          views.row(static_cast<std::size_t>(p) * nv + r).begin());
            }
        return Status::ok();
    };
    auto sink = [&](int first, Volume&& slab) -> Status {
        for (std::size_t k = 0; k < slab.dim(0); ++k)
            for (std::size_t j = 0; j < slab.dim(1); ++j) {
                auto src = slab.row(k, j);
                std::copy(src.begin(), src.end(),
                          out.row(static_cast<std::size_t>(first) + k, j).begin());
            }
        return Status::ok();
    };
    TOMO_ASSIGN_OR_RETURN(FdkReport r, runFdk(c.geometry, c.grid, o, bp, read, sink, {}));
    if (report) *report = std::move(r);
    return out;
}

double relativeRmse(const Volume& a, const Volume& b) {
    double num = 0, den = 0;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r) {
        auto x = a.rows().row(r), y = b.rows().row(r);
        for (std::size_t i = 0; i < x.size(); ++i) {
            num += (static_cast<double>(x[i]) - y[i]) * (static_cast<double>(x[i]) - y[i]);
            den += static_cast<double>(y[i]) * y[i];
        }
    }
    return std::sqrt(num / den);
}

double centralPlanesRmse(const Volume& a, const Volume& truth, int planes) {
    const int nz = static_cast<int>(a.dim(0)), ny = static_cast<int>(a.dim(1));
    const int nx = static_cast<int>(a.dim(2));
    double sum = 0;
    std::size_t n = 0;
    for (int k = 0; k < nz; ++k)
        for (int j = ny / 2 - planes / 2; j < ny / 2 - planes / 2 + planes; ++j)
            for (int i = 0; i < nx; ++i) {
                const double x = (i - 0.5 * (nx - 1)) / nx, z = (k - 0.5 * (nz - 1)) / nz;
                if (x * x + z * z > 0.45 * 0.45) continue;
                const double d =
                    a.row(static_cast<std::size_t>(k),
                          static_cast<std::size_t>(j))[static_cast<std::size_t>(i)] -
                    truth.row(static_cast<std::size_t>(k),
                              static_cast<std::size_t>(j))[static_cast<std::size_t>(i)];
                sum += d * d;
                ++n;
            }
    return std::sqrt(sum / static_cast<double>(n));
}

double centreMean(const Volume& a, int half) {
    const int c0 = static_cast<int>(a.dim(0)) / 2, c1 = static_cast<int>(a.dim(1)) / 2;
    const int c2 = static_cast<int>(a.dim(2)) / 2;
    double sum = 0;
    int n = 0;
    for (int k = c0 - half; k < c0 + half; ++k)
        for (int j = c1 - half; j < c1 + half; ++j)
            for (int i = c2 - half; i < c2 + half; ++i, ++n)
                sum += a.row(static_cast<std::size_t>(k),
                             static_cast<std::size_t>(j))[static_cast<std::size_t>(i)];
    return sum / n;
}

}  // namespace tomo::test
