// One axial plane of a cone-beam FDK reconstruction from the detector rows it reaches
// (ConePlane.h).
#include "app/jobs/ConePlane.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tomo::app {

ConeVolumeGrid planeGrid(const ConeVolumeGrid& grid, int j) {
    ConeVolumeGrid plane = grid;
    plane.ny = 1;
    plane.originY = grid.originY + j * grid.spacingY;
    return plane;
}

std::pair<int, int> planeRows(const ConeGeometry& g, const ConeVolumeGrid& plane) {
    const int nv = g.detector().nv;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    const double is[2] = {0.0, plane.nx - 1.0}, ks[2] = {0.0, plane.nz - 1.0};
    for (int view = 0; view < g.viewCount(); ++view) {
        const Matrix34 m = g.indexMatrix(view, plane);
        for (double i : is)
            for (double k : ks) {
                const double h1 = m[1][0] * i + m[1][2] * k + m[1][3];
                const double h2 = m[2][0] * i + m[2][2] * k + m[2][3];
                if (!(h2 > 0)) return {0, nv - 1};  // a voxel at or behind the source
                lo = std::min(lo, h1 / h2);
                hi = std::max(hi, h1 / h2);
            }
    }
    // The taps floor(v) and floor(v) + 1, and one row more on each side for the kernels'
    // float rounding of v.
    int first = static_cast<int>(std::clamp(std::floor(lo) - 1, 0.0, nv - 1.0));
    int last = static_cast<int>(std::clamp(std::floor(hi) + 2, 0.0, nv - 1.0));
    if (last == first) {  // a detector has at least two rows
        if (last + 1 < nv)
            ++last;
        else
            --first;
    }
    return {first, last};
}

int detectorRowOf(const ConeGeometry& g, const ConeVolumeGrid& grid, int j) {
    const Matrix34 m = g.indexMatrix(0, planeGrid(grid, j));
    const double i = 0.5 * (grid.nx - 1), k = 0.5 * (grid.nz - 1);
    const double h1 = m[1][0] * i + m[1][2] * k + m[1][3];
    const double h2 = m[2][0] * i + m[2][2] * k + m[2][3];
    const double v = h2 > 0 ? h1 / h2 : 0.5 * (g.detector().nv - 1);
    return static_cast<int>(std::clamp(std::round(v), 0.0, g.detector().nv - 1.0));
}

SliceImage sinogramOfRow(const Array3<float>& projections, int row) {
    SliceImage s;
    s.rows = projections.dim(0);
    s.cols = projections.dim(2);
    s.values.resize(s.rows * s.cols);
    for (std::size_t p = 0; p < s.rows; ++p)
        std::copy_n(projections.row(p, static_cast<std::size_t>(row)).begin(), s.cols,
                    s.values.begin() + static_cast<std::ptrdiff_t>(p * s.cols));
    return s;
}

Result<PlaneData> cropToPlane(const Array3<float>& projections, const ConeGeometry& g,
                              const ConeVolumeGrid& grid, int j) {
    if (j < 0 || j >= grid.ny)
        return invalidArgument("plane " + std::to_string(j) + " is outside the volume's " +
                               std::to_string(grid.ny) + " planes");
    const ConeVolumeGrid plane = planeGrid(grid, j);
    const auto [first, last] = planeRows(g, plane);
    DetectorGrid d = g.detector();
    if (projections.dim(0) != std::size_t(g.viewCount()) ||
        projections.dim(1) != std::size_t(d.nv) || projections.dim(2) != std::size_t(d.nu))
        return invalidArgument("the projections do not have the geometry's shape");
    d.nv = last - first + 1;
    d.originV += first * d.pitchV;  // every kept row stays where it was
    TOMO_ASSIGN_OR_RETURN(ConeGeometry cropped, g.withDetector(d));
    TOMO_ASSIGN_OR_RETURN(
        Array3<float> views,
        Array3<float>::create(projections.dim(0), std::size_t(d.nv), projections.dim(2)));
    for (std::size_t p = 0; p < views.dim(0); ++p)
        for (std::size_t r = 0; r < views.dim(1); ++r)
            std::copy_n(projections.row(p, first + r).begin(), views.dim(2),
                        views.row(p, r).begin());
    return PlaneData{std::move(views), std::move(cropped), plane, first};
}

Result<ConeReconRequest> planeRequest(const Array3<float>& projections, const ConeGeometry& g,
                                      const ConeVolumeGrid& grid, int j, const FdkOptions& fdk) {
    TOMO_ASSIGN_OR_RETURN(PlaneData data, cropToPlane(projections, g, grid, j));
    ConeReconRequest request(
        memoryProjections(std::make_shared<const Array3<float>>(std::move(data.views))),
        std::move(data.geometry), data.plane);
    request.fdk = fdk;
    return request;
}

std::string planeVariant(const Engine& engine, const std::string& backend) {
    // "auto" as the service resolves it: the Engine's backend (a GPU, else the CPU).
    const std::string b = backend == "auto" ? engine.autoBackend() : backend;
    const ConeBackProjectorRegistry& registry = engine.coneRegistry();
    if (b != "cpu")
        if (auto chosen = registry.choose(ConeSymmetry::General, b); chosen.isOk()) return *chosen;
    return registry.contains("cpu.fdk.rows") ? "cpu.fdk.rows" : std::string();
}

Result<ConePlane> reconstructCentralPlane(const ReconService& service, const ConeDataset& data,
                                          const ConeJobSpec& spec, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(ConeGeometry g, specGeometry(data, spec));
    ConePlane out;
    out.plane = centralPlane(spec.grid);
    TOMO_ASSIGN_OR_RETURN(ConeReconRequest request, planeRequest(*data.projections, g, spec.grid,
                                                                 out.plane, fdkOptions(spec)));
    request.backend = spec.backend;
    request.variant = spec.variant;
    if (request.variant.empty()) request.variant = planeVariant(service.engine(), spec.backend);
    out.rows = request.geometry.detector().nv;
    out.firstRow = static_cast<int>(std::lround(
        (request.geometry.detector().originV - g.detector().originV) / g.detector().pitchV));
    TOMO_ASSIGN_OR_RETURN(ReconReport report, service.run(request, {}, ctx));
    const Volume& v = report.image;  // [nz][1][nx]
    out.image.rows = v.dim(0);
    out.image.cols = v.dim(2);
    out.image.values.resize(out.image.rows * out.image.cols);
    for (std::size_t k = 0; k < out.image.rows; ++k)
        std::copy_n(v.row(k, 0).begin(), out.image.cols,
                    out.image.values.begin() + static_cast<std::ptrdiff_t>(k * out.image.cols));
    out.variant = report.variant;
    out.timings = report.timings;
    out.notes = report.fdk->notes;
    out.warnings = report.fdk->warnings;
    return out;
}

}  // namespace tomo::app
