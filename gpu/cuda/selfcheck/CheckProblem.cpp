// The full-size self-check problem and its windowed CPU FBP reference (see CheckProblem.h).
#include "gpu/cuda/selfcheck/CheckProblem.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/filter/RampFilter.h"
#include "core/phantom/Phantom.h"

namespace tomo::cuda {

Result<CheckProblem> CheckProblem::create(const CheckShape& shape, const ExecContext& ctx) {
    if (shape.size < 16 || shape.projections < 1 || shape.slices < 1 || shape.windowRows < 1 ||
        shape.windowRows > shape.size / 4)
        return invalidArgument("self-check problem: size >= 16, windowRows <= size / 4");
    ParallelGeometry::Params params;
    for (int p = 0; p < shape.projections; ++p)
        params.angles.push_back(kPi * p / shape.projections);
    params.detectorCount = shape.size;
    params.rows = 1;
    params.centerOfRotation = 0.5 * (shape.size - 1) + 0.3;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry one, ParallelGeometry::create(params));
    params.rows = shape.slices;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(params));
    CheckProblem pr(shape, std::move(geom));
    pr.m_vol = VolumeGeometry::forDetector(pr.m_geom, shape.size);
    const auto slices = static_cast<std::size_t>(shape.slices);
    const auto angles = static_cast<std::size_t>(shape.projections);
    const auto det = static_cast<std::size_t>(shape.size);
    pr.m_raw = Sinograms(slices, angles, det);
    Sinograms slice;
    for (std::size_t s = 0; s < slices; ++s) {
        // Radius 0.45 of the grid: every ellipse stays inside the field of view.
        const Phantom phantom =
            Phantom::randomEllipses(12, static_cast<std::uint32_t>(101 + s), 0.45 * shape.size);
        TOMO_RETURN_IF_ERROR(phantom.project(one, slice, 1, ctx));
        for (std::size_t p = 0; p < angles; ++p)
            std::memcpy(&pr.m_raw(s, p, 0), &slice(0, p, 0), det * sizeof(float));
    }
    pr.m_filtered = Sinograms(slices, angles, det);
    for (std::size_t r = 0; r < slices * angles; ++r)
        std::memcpy(&pr.m_filtered(r / angles, r % angles, 0), &pr.m_raw(r / angles, r % angles, 0),
                    det * sizeof(float));
    TOMO_ASSIGN_OR_RETURN(RampFilter filter,
                          RampFilter::create(shape.size, pr.m_geom.detectorPitch(), {}));
    TOMO_RETURN_IF_ERROR(filter.apply(pr.m_filtered.rows(), ctx));
    const std::vector<double> w = pr.m_geom.angularWeights();
    pr.m_weights.assign(w.begin(), w.end());
    const int n = shape.size, h = shape.windowRows;
    // Rows 0.., across size/4 and size/2 (band and tile boundaries of the device runs: bands
    // are powers of two), an odd place, and the last rows.
    pr.m_windows = {0, n / 4 - h / 2, n / 2 - h / 2, (3 * n) / 5 + 3, n - h};
    return pr;
}

double CheckProblem::coordinateMagnitude() const {
    double a = 0;
    for (int p = 0; p < m_geom.angleCount(); ++p)
        a = std::max(a, std::abs(m_geom.center(p)));
    const double halfDiagonal =
        0.5 * std::hypot(m_vol.nx, m_vol.ny) * m_vol.voxelSize / m_geom.detectorPitch();
    return std::max(
        {a + halfDiagonal, double(m_vol.nx), double(m_vol.ny), double(m_geom.detectorCount())});
}

Result<std::vector<Volume>> CheckProblem::reference(BackProjector& reference,
                                                    const ExecContext& ctx) const {
    std::vector<Volume> out;
    for (int begin : m_windows) {
        VolumeGeometry window = m_vol;
        window.ny = m_shape.windowRows;
        // y(iy) of the window equals y(begin + iy) of the full grid.
        window.offsetY = m_vol.offsetY +
                         m_vol.voxelSize * (0.5 * (m_vol.ny - 1) - begin - 0.5 * (window.ny - 1));
        Volume v;
        TOMO_RETURN_IF_ERROR(reference.backProject(m_filtered, m_geom, window, m_weights, v, ctx));
        out.push_back(std::move(v));
    }
    return out;
}

}  // namespace tomo::cuda
