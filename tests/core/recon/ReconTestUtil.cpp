#include "ReconTestUtil.h"

#include <algorithm>
#include <cmath>

#include "core/projectors/CpuBackProjectors.h"

namespace tomo::test {

Status runFbp(const Phantom& phantom, const FbpCase& c, Volume& out) {
    ParallelGeometry::Params acquired;
    acquired.angles = uniformAngles(0.0, kPi, c.angles);
    acquired.detectorCount = c.detectors;
    acquired.detectorPitch = c.pitch;
    acquired.centerOfRotation = c.acquiredCenter;
    acquired.centerCorrection = c.correction;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry acq, ParallelGeometry::create(acquired));
    Sinograms sino;
    TOMO_RETURN_IF_ERROR(phantom.project(acq, sino, c.raysPerBin));

    ParallelGeometry::Params recon = acquired;
    recon.centerOfRotation = c.reconCenter;
    if (c.reconCorrection) recon.centerCorrection = *c.reconCorrection;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry rec, ParallelGeometry::create(recon));
    VolumeGeometry grid = VolumeGeometry::forDetector(rec, c.size);
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    TOMO_ASSIGN_OR_RETURN(auto bp, registry.make(c.variant));
    FbpOptions options;
    options.filter = c.filter;
    return reconstructFbp(sino, rec, grid, *bp, options, out, ExecContext{});
}

std::pair<double, double> centroid(const Volume& image, double threshold) {
    double sx = 0, sy = 0, s = 0;
    for (std::size_t y = 0; y < image.dim(1); ++y)
        for (std::size_t x = 0; x < image.dim(2); ++x) {
            double v = image(0, y, x) > threshold ? double(image(0, y, x)) : 0.0;
            sx += v * double(x);
            sy += v * double(y);
            s += v;
        }
    return {sx / s, sy / s};
}

double maxAbs(const Volume& v) {
    double m = 0;
    for (std::size_t s = 0; s < v.dim(0); ++s)
        for (std::size_t y = 0; y < v.dim(1); ++y)
            for (float x : v.row(s, y))
                m = std::max(m, double(std::abs(x)));
    return m;
}

double patchMean(const Volume& image, int ix, int iy, int r) {
    double s = 0;
    for (int y = iy - r; y <= iy + r; ++y)
        for (int x = ix - r; x <= ix + r; ++x)
            s += image(0, std::size_t(y), std::size_t(x));
    return s / ((2 * r + 1) * (2 * r + 1));
}

}  // namespace tomo::test
