#include "GridrecReference.h"

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

namespace tomo::test {

Volume referenceGridrec(const Sinograms& sino, const ParallelGeometry& geom,
                        const VolumeGeometry& vol, const FilterOptions& filter,
                        GridrecInterpolation interpolation) {
    using std::numbers::pi;
    auto made = RampFilter::create(geom.detectorCount(), geom.detectorPitch(), filter);
    const RampFilter& ramp = *made;
    const int l = ramp.paddedWidth(), half = l / 2;
    const std::vector<double> weights = geom.angularWeights();
    Volume out(sino.dim(0), std::size_t(vol.ny), std::size_t(vol.nx));
    std::vector<std::complex<double>> spectrum(std::size_t(half) + 1);
    std::vector<double> image(std::size_t(vol.nx) * std::size_t(vol.ny));
    for (std::size_t s = 0; s < sino.dim(0); ++s) {
        std::fill(image.begin(), image.end(), 0.0);
        for (int p = 0; p < geom.angleCount(); ++p) {
            const auto row = sino.row(s, std::size_t(p));
            for (int k = 0; k <= half; ++k) {  // R[k] times the DFT of the zero-padded row
                std::complex<double> sum = 0;
                for (int j = 0; j < geom.detectorCount(); ++j)
                    sum += double(row[std::size_t(j)]) * std::polar(1.0, -2 * pi * k * j / l);
                spectrum[std::size_t(k)] = sum * double(ramp.response()[std::size_t(k)]) *
                                           interpolationResponse(interpolation, double(k) / l);
            }
            const double c = std::cos(geom.angle(p)), sn = std::sin(geom.angle(p));
            for (int iy = 0; iy < vol.ny; ++iy)
                for (int ix = 0; ix < vol.nx; ++ix) {
                    const double t = vol.x(ix) * c + vol.y(iy) * sn;
                    const double u = geom.center(p) + t / geom.detectorPitch();
                    // Real rows: k and -k together; the Nyquist term halved on each side.
                    double f = spectrum[0].real() +
                               (spectrum[std::size_t(half)] * std::cos(pi * u)).real();
                    for (int k = 1; k < half; ++k)
                        f +=
                            2 *
                            (spectrum[std::size_t(k)] * std::polar(1.0, 2 * pi * k * u / l)).real();
                    image[std::size_t(iy) * std::size_t(vol.nx) + std::size_t(ix)] +=
                        weights[std::size_t(p)] * f;
                }
        }
        for (int iy = 0; iy < vol.ny; ++iy)
            for (int ix = 0; ix < vol.nx; ++ix)
                out(s, std::size_t(iy), std::size_t(ix)) = static_cast<float>(
                    image[std::size_t(iy) * std::size_t(vol.nx) + std::size_t(ix)]);
    }
    return out;
}

}  // namespace tomo::test
