// Synthetic problems and the error measure of the selector.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/selection/SelectorWorkload.h"

namespace tomo::selection {

Result<Problem> makeProblem(int size, int detectors, int projections, int slices) {
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, projections);
    params.detectorCount = detectors;
    params.rows = slices;
    params.centerOfRotation = 0.5 * (detectors - 1) + 0.3;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    VolumeGeometry grid;
    grid.nx = grid.ny = size;
    grid.nz = slices;
    TOMO_RETURN_IF_ERROR(grid.validate());
    TOMO_ASSIGN_OR_RETURN(Sinograms sino, Sinograms::create(static_cast<std::size_t>(slices),
                                                            static_cast<std::size_t>(projections),
                                                            static_cast<std::size_t>(detectors)));
    // 64 distinct rows per slice, repeated over the projections (filling a large timing stack
    // costs a copy per row, not two transcendental calls per value).
    constexpr int kDistinct = 64;
    for (int z = 0; z < slices; ++z)
        for (int p = 0; p < projections; ++p) {
            float* row = sino.row(static_cast<std::size_t>(z), static_cast<std::size_t>(p)).data();
            if (p >= kDistinct) {
                const float* src =
                    sino.row(static_cast<std::size_t>(z), static_cast<std::size_t>(p % kDistinct))
                        .data();
                std::copy_n(src, detectors, row);
                continue;
            }
            for (int j = 0; j < detectors; ++j)
                row[j] = static_cast<float>(1.0 + std::sin(0.07 * j + 0.3 * p + 0.5 * z) +
                                            0.5 * std::cos(0.023 * j * (z + 1) - 0.11 * p));
        }
    const std::vector<double> w = geometry.angularWeights();
    std::vector<float> weights(w.begin(), w.end());
    return Problem{std::move(geometry), grid, std::move(sino), std::move(weights)};
}

double relativeError(const Volume& a, const Volume& b) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (a.dim(0) != b.dim(0) || a.dim(1) != b.dim(1) || a.dim(2) != b.dim(2)) return kInf;
    double maxDiff = 0, maxRef = 0;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r) {
        auto ra = a.rows().row(r);
        auto rb = b.rows().row(r);
        for (std::size_t i = 0; i < ra.size(); ++i) {
            if (!std::isfinite(ra[i])) return kInf;
            maxDiff = std::max(maxDiff, std::abs(double(ra[i]) - double(rb[i])));
            maxRef = std::max(maxRef, std::abs(double(rb[i])));
        }
    }
    return maxRef > 0 ? maxDiff / maxRef : maxDiff;
}

std::string formatNumber(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

}  // namespace tomo::selection
