#include "app/jobs/FourierSlice.h"

#include <algorithm>
#include <cmath>

#include "core/filter/Radix2Fft.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::app {

namespace {

/// exp(-2 pi i w s) for the positions s = (k - offset) * sign, k < count, as real and
/// imaginary parts (kept apart so the image sum vectorises).
void phases(double w, std::size_t count, double offset, double sign, std::vector<double>& re,
            std::vector<double>& im) {
    re.resize(count);
    im.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
        const double phase = -2.0 * kPi * w * sign * (static_cast<double>(k) - offset);
        re[k] = std::cos(phase);
        im[k] = std::sin(phase);
    }
}

}  // namespace

std::size_t fourierLength(std::size_t imageSize, std::size_t detectors) {
    std::size_t n = 1;
    while (n < std::max(imageSize, detectors))
        n <<= 1;
    return n;
}

Result<std::vector<std::complex<double>>> projectionTransform(std::span<const float> projection,
                                                              double center, std::size_t length) {
    if (!isPowerOfTwo(length) || length < projection.size())
        return invalidArgument("Fourier slice: the FFT length must be a power of two covering " +
                               std::to_string(projection.size()) + " detector pixels");
    TOMO_ASSIGN_OR_RETURN(Radix2Fft<double> fft, Radix2Fft<double>::create(length));
    std::vector<std::complex<double>> data(length);
    std::copy(projection.begin(), projection.end(), data.begin());
    fft.forward(data.data());
    // X[k] = sum_j p_j exp(-2 pi i k j / L); t_j = j - center, so P(w_k) = exp(2 pi i w_k c) X[k].
    std::vector<std::complex<double>> out(length / 2 + 1);
    for (std::size_t k = 0; k < out.size(); ++k) {
        const double w = static_cast<double>(k) / static_cast<double>(length);
        out[k] = data[k] * std::polar(1.0, 2.0 * kPi * w * center);
    }
    return out;
}

std::vector<std::complex<double>> imageTransformAlong(View2<const float> image, double angle,
                                                      const std::vector<double>& frequency) {
    const std::size_t rows = image.rows(), cols = image.cols();
    const double cx = 0.5 * (static_cast<double>(cols) - 1.0);
    const double cy = 0.5 * (static_cast<double>(rows) - 1.0);
    std::vector<double> xr, xi, yr, yi;
    std::vector<std::complex<double>> out;
    out.reserve(frequency.size());
    for (const double w : frequency) {
        // x = ix - cx; y = cy - iy = -(iy - cy).
        phases(w * std::cos(angle), cols, cx, 1.0, xr, xi);
        phases(w * std::sin(angle), rows, cy, -1.0, yr, yi);
        std::complex<double> sum = 0;
        for (std::size_t iy = 0; iy < rows; ++iy) {
            const float* f = image.row(iy).data();
            double re = 0, im = 0;
            for (std::size_t ix = 0; ix < cols; ++ix) {
                re += f[ix] * xr[ix];
                im += f[ix] * xi[ix];
            }
            sum += std::complex<double>(yr[iy], yi[iy]) * std::complex<double>(re, im);
        }
        out.push_back(sum);
    }
    return out;
}

Result<FourierSlice> fourierSlice(View2<const float> image, std::span<const float> projection,
                                  double center, double angle) {
    const std::size_t length =
        fourierLength(std::max(image.rows(), image.cols()), projection.size());
    FourierSlice slice;
    slice.angle = angle;
    TOMO_ASSIGN_OR_RETURN(slice.projection, projectionTransform(projection, center, length));
    for (std::size_t k = 0; k < slice.projection.size(); ++k)
        slice.frequency.push_back(static_cast<double>(k) / static_cast<double>(length));
    slice.image = imageTransformAlong(image, angle, slice.frequency);
    return slice;
}

Result<SliceImage> logSpectrum(View2<const float> image, std::size_t length) {
    if (!isPowerOfTwo(length) || length < image.rows() || length < image.cols())
        return invalidArgument(
            "Fourier slice: the spectrum size must be a power of two covering "
            "the image");
    TOMO_ASSIGN_OR_RETURN(Radix2Fft<double> fft, Radix2Fft<double>::create(length));
    const std::size_t n = length;
    std::vector<std::complex<double>> grid(n * n);
    for (std::size_t r = 0; r < image.rows(); ++r)
        std::copy(image.row(r).begin(), image.row(r).end(), grid.begin() + r * n);
    for (std::size_t r = 0; r < image.rows(); ++r)  // the padding rows stay zero
        fft.forward(grid.data() + r * n);
    std::vector<std::complex<double>> column(n);
    for (std::size_t c = 0; c < n; ++c) {
        for (std::size_t r = 0; r < n; ++r)
            column[r] = grid[r * n + c];
        fft.forward(column.data());
        for (std::size_t r = 0; r < n; ++r)
            grid[r * n + c] = column[r];
    }
    double peak = 0;
    for (const auto& z : grid)
        peak = std::max(peak, std::abs(z));
    const double floor = std::max(peak * 1e-12, 1e-300);
    // Bin (kr, kc) with signed kr is v = -kr / L (rows count down in y) and u = kc / L, so
    // the plain half-size shift puts DC at (L/2, L/2) with u to the right and v up.
    SliceImage out;
    out.rows = out.cols = n;
    out.values.resize(n * n);
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < n; ++c) {
            const std::complex<double> z = grid[((r + n / 2) % n) * n + (c + n / 2) % n];
            out.values[r * n + c] = static_cast<float>(std::log10(std::max(std::abs(z), floor)));
        }
    return out;
}

}  // namespace tomo::app
