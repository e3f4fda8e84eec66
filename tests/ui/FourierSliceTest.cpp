// The Fourier slice theorem on the teaching lesson's own data: the 1-D transform of a row of the
// sinogram (the analytic Shepp-Logan projection) equals the 2-D transform of the phantom image
// along the line at that row's angle, and a line at the wrong angle or run the wrong way does
// not. Plus the 1-D transform against a direct sum, and the spectrum picture's layout (DC in
// the middle, u to the right, v up) against the transform along lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>

#include "app/Engine.h"
#include "app/jobs/FourierSlice.h"
#include "app/jobs/TeachingJob.h"

namespace tomo::app {
namespace {

using Spectrum = std::vector<std::complex<double>>;

/// max |a_k - b_k| over the frequencies up to @p band, relative to |b_0| (DC: the phantom's
/// integral), so that a spectral null does not blow the measure up.
double mismatch(const Spectrum& a, const Spectrum& b, const std::vector<double>& frequency,
                double band) {
    double worst = 0;
    for (std::size_t k = 0; k < frequency.size() && frequency[k] <= band; ++k)
        worst = std::max(worst, std::abs(a[k] - b[k]));
    return worst / std::abs(b[0]);
}

/// The same for the magnitudes (what the panel plots).
double magnitudeMismatch(const Spectrum& a, const Spectrum& b, const std::vector<double>& frequency,
                         double band) {
    double worst = 0;
    for (std::size_t k = 0; k < frequency.size() && frequency[k] <= band; ++k)
        worst = std::max(worst, std::abs(std::abs(a[k]) - std::abs(b[k])));
    return worst / std::abs(b[0]);
}

TEST(TeachingFourierSlice, ProjectionSpectrumIsTheImageSpectrumAlongTheLine) {
    TeachingSpec spec;  // the lesson's defaults: 128 x 128, 90 angles 2 degrees apart, noiseless
    spec.maxFrames = 3;
    spec.iterative = false;
    const Engine engine;
    Result<TeachingResult> r = runTeachingJob(engine, spec, ExecContext{2, {}, nullptr});
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    // Up to half of Nyquist, |P - F| stays under 0.5 % of |F(0)|. The two sides are different
    // discretisations of one analytic phantom: the image is rasterised with 4 x 4 samples per
    // pixel, the sinogram averages 2 rays per detector bin, so their integrals (DC) differ by
    // up to 1.2e-3 and the ellipses' sharp edges alias differently. Measured worst over
    // 0..0.25 cycles/px: 2.5e-3 at 0 degrees, 1.9e-3 at 30, 1.3e-3 at 90 (the same for the
    // magnitudes); every wrong line below is off by 0.058 or more.
    const double band = 0.25, tolerance = 5e-3;
    for (const int degrees : {0, 30, 90}) {
        const auto row = static_cast<std::size_t>(degrees / 2);
        ASSERT_NEAR(r->angles[row] * 180.0 / kPi, degrees, 1e-9);
        const std::span<const float> projection(r->sinogram.values.data() + row * r->sinogram.cols,
                                                r->sinogram.cols);
        const double theta = r->angles[row];
        Result<FourierSlice> s = fourierSlice(r->truth.view(), projection, r->center, theta);
        ASSERT_TRUE(s.isOk()) << s.status().toString();
        ASSERT_EQ(s->frequency.size(), 129u);  // 0 .. 0.5 in steps of 1/256
        EXPECT_DOUBLE_EQ(s->frequency.back(), 0.5);
        const double right = mismatch(s->projection, s->image, s->frequency, band);
        const double rightMagnitude =
            magnitudeMismatch(s->projection, s->image, s->frequency, band);
        // The mistakes: the line 90 degrees off; mirrored (y taken down, the rows' direction:
        // the same line at 0 degrees); run the wrong way from the centre (w -> -w, which only
        // the phase shows: |F(-w)| = |F(w)| for a real image).
        auto along = [&](double angle) {
            return imageTransformAlong(r->truth.view(), angle, s->frequency);
        };
        const Spectrum turned = along(theta + kPi / 2), mirrored = along(-theta),
                       reversed = along(theta + kPi);
        const double turnedOff = mismatch(s->projection, turned, s->frequency, band);
        const double turnedMagnitude = magnitudeMismatch(s->projection, turned, s->frequency, band);
        const double mirroredOff = mismatch(s->projection, mirrored, s->frequency, band);
        const double reversedOff = mismatch(s->projection, reversed, s->frequency, band);
        std::printf(
            "%2d deg: |P - F| / |F(0)| up to %.2f cycles/px: %.2e (magnitudes %.2e); 90 deg off "
            "%.3f (magnitudes %.3f), mirrored %.3f, reversed %.3f\n",
            degrees, band, right, rightMagnitude, turnedOff, turnedMagnitude, mirroredOff,
            reversedOff);
        EXPECT_LT(right, tolerance) << degrees << " degrees";
        EXPECT_LT(rightMagnitude, tolerance) << degrees << " degrees";
        EXPECT_GT(turnedOff, 5 * tolerance) << degrees << " degrees";
        EXPECT_GT(turnedMagnitude, 5 * tolerance) << degrees << " degrees";
        EXPECT_GT(reversedOff, 5 * tolerance) << degrees << " degrees";
        if (degrees != 0) {
            EXPECT_GT(mirroredOff, 5 * tolerance) << degrees << " degrees";
        }
    }
}

TEST(TeachingFourierSlice, ProjectionTransformIsTheDirectSumAboutTheAxis) {
    std::vector<float> p(37);
    for (std::size_t j = 0; j < p.size(); ++j)
        p[j] = static_cast<float>(std::sin(0.3 * static_cast<double>(j)) + 0.01 * j * j);
    const double center = 17.3;
    Result<Spectrum> fft = projectionTransform(p, center, 64);
    ASSERT_TRUE(fft.isOk()) << fft.status().toString();
    ASSERT_EQ(fft->size(), 33u);
    for (std::size_t k = 0; k < fft->size(); ++k) {
        const double w = static_cast<double>(k) / 64.0;
        std::complex<double> direct = 0;
        for (std::size_t j = 0; j < p.size(); ++j)
            direct += static_cast<double>(p[j]) *
                      std::polar(1.0, -2.0 * kPi * w * (static_cast<double>(j) - center));
        EXPECT_LT(std::abs((*fft)[k] - direct), 1e-10 * std::abs((*fft)[0])) << "k = " << k;
    }
    EXPECT_FALSE(projectionTransform(p, center, 48).isOk());  // not a power of two
    EXPECT_FALSE(projectionTransform(p, center, 32).isOk());  // shorter than the projection
}

TEST(TeachingFourierSlice, SpectrumPictureHasDcInTheMiddleUToTheRightAndVUp) {
    // A plane wave cos(2 pi (x + y) / 8) on 32 x 32 pixels: its peaks are at (u, v) =
    // +-(1/8, 1/8), up and to the right of the centre (and down-left), not up-left.
    const std::size_t n = 32, length = 64;
    std::vector<float> wave(n * n);
    for (std::size_t iy = 0; iy < n; ++iy)
        for (std::size_t ix = 0; ix < n; ++ix) {
            const double x = static_cast<double>(ix) - 15.5, y = 15.5 - static_cast<double>(iy);
            wave[iy * n + ix] = static_cast<float>(std::cos(2.0 * kPi * (x + y) / 8.0));
        }
    Result<SliceImage> picture = logSpectrum(View2<const float>(wave.data(), n, n, n), length);
    ASSERT_TRUE(picture.isOk()) << picture.status().toString();
    ASSERT_EQ(picture->rows, length);
    const auto peak = static_cast<std::size_t>(
        std::max_element(picture->values.begin(), picture->values.end()) - picture->values.begin());
    const std::size_t r = peak / length, c = peak % length;
    EXPECT_TRUE((r == 24 && c == 40) || (r == 40 && c == 24))
        << "peak at row " << r << " col " << c;
    EXPECT_GT(picture->values[24 * length + 40], picture->values[24 * length + 24] + 2.0);

    // An irregular 20 x 24 image (rows != columns): the picture's grid points on the lines at
    // 0, 90 and 45 degrees are |F| along those lines.
    const std::size_t rows = 20, cols = 24;
    std::vector<float> image(rows * cols);
    for (std::size_t i = 0; i < image.size(); ++i)
        image[i] = static_cast<float>((i * 7919) % 101) / 101.0f + (i % cols < 6 ? 1.0f : 0.0f);
    const View2<const float> view(image.data(), rows, cols, cols);
    Result<SliceImage> spectrum = logSpectrum(view, 32);
    ASSERT_TRUE(spectrum.isOk());
    for (const int degrees : {0, 90, 45}) {
        const double scale = degrees == 45 ? std::sqrt(2.0) : 1.0;
        std::vector<double> frequency;
        for (int k = 0; k <= 16; ++k)
            frequency.push_back(scale * k / 32.0);
        const Spectrum line = imageTransformAlong(view, degrees * kPi / 180.0, frequency);
        for (std::size_t k = 0; k <= 16; ++k) {
            const std::size_t row = degrees == 0 ? 16 : 16 - k;   // v up: rows above the centre
            const std::size_t col = degrees == 90 ? 16 : 16 + k;  // u to the right
            if (row >= 32 || col >= 32) continue;
            EXPECT_NEAR(spectrum->values[row * 32 + col], std::log10(std::abs(line[k])), 1e-5)
                << degrees << " degrees, k = " << k;
        }
    }
}

}  // namespace
}  // namespace tomo::app
