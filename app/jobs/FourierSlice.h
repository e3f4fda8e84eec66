#pragma once
/// @file FourierSlice.h
/// @brief The Fourier slice theorem on the teaching data: the 1-D Fourier transform of the
/// projection at angle theta equals the 2-D Fourier transform of the image along the line
/// through the origin at the same angle (Kak & Slaney, "Principles of Computerized Tomographic
/// Imaging", IEEE Press 1988, ch. 3.2, doi:10.1137/1.9780898719277). Plain C++, no Qt.
///
/// Conventions (docs/geometry.md), in pixels; image pixels and detector pixels must have the
/// same size (the teaching grid is VolumeGeometry::forDetector, voxel = pitch):
///  - image pixel (ix, iy) of an n x m image is at x = ix - (m - 1) / 2, y = (n - 1) / 2 - iy
///    (row 0 is the top, y up); detector pixel j is at t = j - center; t = x cos + y sin.
///  - The transforms are those of the samples at continuous frequency (cycles per pixel):
///      P(w) = sum_j p_j exp(-2 pi i w t_j),
///      F(u, v) = sum_{ix, iy} f(ix, iy) exp(-2 pi i (u x + v y)),
///    and the theorem reads P_theta(w) = F(w cos theta, w sin theta). Both are complex: their
///    phases carry the direction along the line (for a real image |F(-u, -v)| = |F(u, v)|, so
///    magnitudes alone cannot tell the two directions apart).
///  - Frequencies are w_k = k / L, k = 0 .. L / 2 (0 to 0.5 cycles/pixel), L = fourierLength:
///    the FFT length, a power of two covering the image and the detector.
///
/// Costs: P by one zero-padded Radix2Fft (times the phase of the axis offset); F along a line
/// by a direct sum, n * m multiply-adds per frequency (2 million for a 128 x 128 image and 129
/// frequencies: a few milliseconds); the picture by a 2-D Radix2Fft of L x L.
/// Threading: pure functions, safe on any thread.

#include <complex>
#include <span>
#include <vector>

#include "app/jobs/SliceImage.h"
#include "core/base/Status.h"

namespace tomo::app {

/// The two sides of the theorem at one angle, on the same frequencies.
struct FourierSlice {
    double angle = 0;                              ///< radians
    std::vector<double> frequency;                 ///< w_k, cycles per pixel
    std::vector<std::complex<double>> projection;  ///< P(w_k) of the projection
    std::vector<std::complex<double>> image;       ///< F(w_k cos, w_k sin) of the image
};

/// The smallest power of two >= @p imageSize and >= @p detectors.
std::size_t fourierLength(std::size_t imageSize, std::size_t detectors);

/// P(w) of @p projection (detector pixels, rotation axis at @p center) at w_k = k / @p length,
/// k = 0 .. length / 2. InvalidArgument unless length is a power of two >= projection.size().
Result<std::vector<std::complex<double>>> projectionTransform(std::span<const float> projection,
                                                              double center, std::size_t length);

/// F(w cos @p angle, w sin @p angle) of @p image for each w of @p frequency (direct sums).
std::vector<std::complex<double>> imageTransformAlong(View2<const float> image, double angle,
                                                      const std::vector<double>& frequency);

/// Both sides at @p angle (radians): P of @p projection (axis at @p center) and F of @p image
/// along the line, on w_k = k / L, L = fourierLength(image size, projection size).
Result<FourierSlice> fourierSlice(View2<const float> image, std::span<const float> projection,
                                  double center, double angle);

/// log10 |F| of @p image on the @p length x @p length DFT grid (u = (c - L/2) / L to the right,
/// v = (L/2 - r) / L up: DC at row and column L/2, the picture the right way round for the
/// image's own display), floored at 1e-12 of the peak. InvalidArgument unless @p length is a
/// power of two covering the image.
Result<SliceImage> logSpectrum(View2<const float> image, std::size_t length);

}  // namespace tomo::app
