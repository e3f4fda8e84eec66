#include "app/jobs/SinogramCheck.h"

#include <cmath>
#include <cstdio>

namespace tomo::app {

double rowSumVariation(const Sinograms& sino, std::size_t slice) {
    const std::size_t angles = sino.dim(1);
    if (angles == 0) return 0.0;
    std::vector<double> sums(angles, 0.0);
    for (std::size_t a = 0; a < angles; ++a)
        for (float v : sino.row(slice, a))
            if (std::isfinite(v)) sums[a] += v;
    double mean = 0.0, meanAbs = 0.0;
    for (double s : sums) {
        mean += s;
        meanAbs += std::fabs(s);
    }
    mean /= static_cast<double>(angles);
    meanAbs /= static_cast<double>(angles);
    if (!(meanAbs > 0)) return 0.0;
    double variance = 0.0;
    for (double s : sums)
        variance += (s - mean) * (s - mean);
    return std::sqrt(variance / static_cast<double>(angles)) / meanAbs;
}

Result<std::vector<std::string>> checkSinograms(const Sinograms& sino, const std::string& name) {
    if (sino.dim(1) < kMinAngles || sino.dim(2) < kMinDetectors)
        return invalidData(name + " holds " + std::to_string(sino.dim(1)) + " x " +
                           std::to_string(sino.dim(2)) +
                           " values per slice: too small to be a sinogram (at least " +
                           std::to_string(kMinAngles) + " angles and " +
                           std::to_string(kMinDetectors) + " detector columns)");
    std::vector<std::string> warnings;
    const double variation = rowSumVariation(sino, 0);
    if (variation > kMaxRowSumVariation) {
        char text[64];
        std::snprintf(text, sizeof(text), "%.0f %%", 100.0 * variation);
        warnings.push_back(
            name + " may not be a sinogram: the sum of each row (one angle) varies by " + text +
            " across the angles, where a parallel-beam sinogram keeps it nearly "
            "constant. Check that the file holds sinograms [angle][detector] "
            "(not projections or a picture) with flat-field correction and -log "
            "applied.");
    }
    return warnings;
}

}  // namespace tomo::app
