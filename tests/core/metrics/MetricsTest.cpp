// Image metrics against closed forms and an independent direct SSIM reference.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "core/metrics/Metrics.h"

namespace tomo {
namespace {

using Image = Array3<float>;

Image randomImage(std::size_t rows, std::size_t cols, std::uint32_t seed, float lo, float hi) {
    Image img(1, rows, cols);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    for (std::size_t r = 0; r < rows; ++r)
        for (float& v : img.row(0, r))
            v = dist(rng);
    return img;
}

View2<const float> view(const Image& img) {
    return img.plane(0);
}

/// Direct SSIM reference: for every valid 11x11 window, the 2-D Gaussian weights (computed as
/// exp(-(dx^2 + dy^2) / (2 sigma^2)) and normalised over the window), weighted means, then the
/// variances and covariance as weighted sums of centred products (not E[x^2] - mu^2).
double referenceSsim(const Image& x, const Image& y, double range) {
    const int rows = static_cast<int>(x.dim(1)), cols = static_cast<int>(x.dim(2));
    double w[11][11], wsum = 0;
    for (int i = 0; i < 11; ++i)
        for (int j = 0; j < 11; ++j) {
            w[i][j] = std::exp(-((i - 5) * (i - 5) + (j - 5) * (j - 5)) / (2.0 * 1.5 * 1.5));
            wsum += w[i][j];
        }
    const double c1 = std::pow(0.01 * range, 2), c2 = std::pow(0.03 * range, 2);
    double total = 0;
    int windows = 0;
    for (int r = 0; r + 11 <= rows; ++r)
        for (int c = 0; c + 11 <= cols; ++c) {
            double mx = 0, my = 0;
            for (int i = 0; i < 11; ++i)
                for (int j = 0; j < 11; ++j) {
                    mx += w[i][j] / wsum * x(0, r + i, c + j);
                    my += w[i][j] / wsum * y(0, r + i, c + j);
                }
            double vx = 0, vy = 0, cxy = 0;
            for (int i = 0; i < 11; ++i)
                for (int j = 0; j < 11; ++j) {
                    const double dx = x(0, r + i, c + j) - mx, dy = y(0, r + i, c + j) - my;
                    vx += w[i][j] / wsum * dx * dx;
                    vy += w[i][j] / wsum * dy * dy;
                    cxy += w[i][j] / wsum * dx * dy;
                }
            total +=
                (2 * mx * my + c1) * (2 * cxy + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2));
            ++windows;
        }
    return total / windows;
}

TEST(Metrics, RmseAndMaxErrorOfKnownOffsets) {
    Image ref = randomImage(9, 13, 1, 0.f, 1.f);
    Image img = ref.clone();
    // +0.25 on even pixels, -0.25 on odd ones, one pixel off by 0.75.
    for (std::size_t r = 0; r < 9; ++r)
        for (std::size_t c = 0; c < 13; ++c)
            img(0, r, c) += ((r + c) % 2 ? -0.25f : 0.25f);
    img(0, 4, 6) = ref(0, 4, 6) + 0.75f;
    const double n = 9 * 13;
    const double expected = std::sqrt(((n - 1) * 0.0625 + 0.5625) / n);
    EXPECT_NEAR(*rmse(view(img), view(ref)), expected, 1e-6);
    EXPECT_NEAR(*maxAbsError(view(img), view(ref)), 0.75, 1e-6);

    // A mask selecting the single off pixel and one ordinary pixel.
    Image mask(1, 9, 13);
    mask(0, 4, 6) = 1.f;
    mask(0, 0, 0) = 2.f;
    EXPECT_NEAR(*rmse(view(img), view(ref), view(mask)), std::sqrt((0.5625 + 0.0625) / 2), 1e-6);
    mask(0, 4, 6) = 0.f;
    EXPECT_NEAR(*maxAbsError(view(img), view(ref), view(mask)), 0.25, 1e-6);
    Image empty(1, 9, 13);
    EXPECT_EQ(rmse(view(img), view(ref), view(empty)).status().code(), ErrorCode::InvalidArgument);
}

TEST(Metrics, PsnrFollowsItsDefinition) {
    Image ref = randomImage(12, 12, 2, -1.f, 3.f);
    ref(0, 0, 0) = -1.f;  // known range: exactly 4
    ref(0, 11, 11) = 3.f;
    Image img = ref.clone();
    for (std::size_t r = 0; r < 12; ++r)
        for (float& v : img.row(0, r))
            v += 0.1f;
    const double err = *rmse(view(img), view(ref));
    EXPECT_NEAR(err, 0.1, 1e-6);
    EXPECT_NEAR(*psnr(view(img), view(ref)), 20 * std::log10(4.0 / err), 1e-9);
    EXPECT_NEAR(*psnr(view(img), view(ref), 10.0), 20 * std::log10(10.0 / err), 1e-9);
    EXPECT_EQ(*psnr(view(ref), view(ref)), std::numeric_limits<double>::infinity());
    Image flat(1, 12, 12);
    EXPECT_EQ(psnr(view(img), view(flat)).status().code(), ErrorCode::InvalidArgument);
}

TEST(Metrics, SsimOfAnImageWithItselfIsOne) {
    Image a = randomImage(20, 17, 3, 0.f, 1.f);
    EXPECT_NEAR(*ssim(view(a), view(a)), 1.0, 1e-12);
}

TEST(Metrics, SsimMatchesADirectDoubleLoopReference) {
    Image ref = randomImage(19, 23, 4, 0.f, 1.f);
    Image noisy = ref.clone();
    std::mt19937 rng(5);
    std::normal_distribution<float> noise(0.f, 0.2f);
    for (std::size_t r = 0; r < 19; ++r)
        for (float& v : noisy.row(0, r))
            v = 0.7f * v + 0.1f + noise(rng);
    for (double range : {0.0, 2.0}) {
        double l = range;
        if (l <= 0) {
            float lo = 1e9f, hi = -1e9f;
            for (std::size_t r = 0; r < 19; ++r)
                for (float v : ref.row(0, r))
                    lo = std::min(lo, v), hi = std::max(hi, v);
            l = static_cast<double>(hi) - lo;
        }
        const double expected = referenceSsim(noisy, ref, l);
        EXPECT_LT(expected, 0.9);
        EXPECT_NEAR(*ssim(view(noisy), view(ref), range), expected, 1e-10);
    }
}

TEST(Metrics, SsimOfConstantImagesHasTheClosedForm) {
    // Zero variances: SSIM = (2 a b + C1) / (a^2 + b^2 + C1) for every window.
    Image a(1, 15, 14), b(1, 15, 14);
    a.fill(0.6f);
    b.fill(0.9f);
    const double l = 1.0, c1 = 1e-4, av = 0.6f, bv = 0.9f;
    EXPECT_NEAR(*ssim(view(a), view(b), l), (2 * av * bv + c1) / (av * av + bv * bv + c1), 1e-12);
    // A constant shift of a textured image lowers SSIM below 1 and matches the reference.
    Image tex = randomImage(16, 16, 6, 0.f, 1.f);
    Image shifted = tex.clone();
    for (std::size_t r = 0; r < 16; ++r)
        for (float& v : shifted.row(0, r))
            v += 0.3f;
    const double s = *ssim(view(shifted), view(tex), 1.0);
    EXPECT_LT(s, 0.99);
    EXPECT_NEAR(s, referenceSsim(shifted, tex, 1.0), 1e-10);
}

TEST(Metrics, LineProfileIsExactOnALinearRamp) {
    Image ramp(1, 7, 9);  // f(col, row) = 2 col + 3 row + 1
    for (std::size_t r = 0; r < 7; ++r)
        for (std::size_t c = 0; c < 9; ++c)
            ramp(0, r, c) = static_cast<float>(2 * c + 3 * r + 1);
    const double x0 = 0.5, y0 = 6.0, x1 = 8.0, y1 = 0.25;
    auto profile = lineProfile(view(ramp), x0, y0, x1, y1, 11);
    ASSERT_TRUE(profile.isOk());
    ASSERT_EQ(profile->size(), 11u);
    for (int i = 0; i < 11; ++i) {
        const double x = x0 + (x1 - x0) * i / 10.0, y = y0 + (y1 - y0) * i / 10.0;
        EXPECT_NEAR((*profile)[static_cast<std::size_t>(i)], 2 * x + 3 * y + 1, 1e-12);
    }
    // Bilinear on a saddle f = col * row is exact too (bilinear functions are reproduced).
    Image saddle(1, 5, 5);
    for (std::size_t r = 0; r < 5; ++r)
        for (std::size_t c = 0; c < 5; ++c)
            saddle(0, r, c) = static_cast<float>(c * r);
    auto diag = lineProfile(view(saddle), 0.0, 0.0, 4.0, 4.0, 9);
    for (int i = 0; i < 9; ++i)
        EXPECT_NEAR((*diag)[static_cast<std::size_t>(i)], i * i / 4.0, 1e-12);
    EXPECT_EQ(lineProfile(view(ramp), 0, 0, 9.0, 0, 5).status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(lineProfile(view(ramp), 0, 0, 1, 1, 1).status().code(), ErrorCode::InvalidArgument);
}

TEST(Metrics, MismatchedShapesFailWithBothShapesInTheMessage) {
    Image a(1, 12, 12), b(1, 12, 13), m(1, 11, 12);
    for (const Status& s : {rmse(view(a), view(b)).status(), maxAbsError(view(a), view(b)).status(),
                            psnr(view(a), view(b)).status(), ssim(view(a), view(b)).status(),
                            compareImages(view(a), view(b)).status()}) {
        EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(s.message().find("12x12"), std::string::npos) << s.message();
        EXPECT_NE(s.message().find("12x13"), std::string::npos) << s.message();
    }
    Status maskError = rmse(view(a), view(a), view(m)).status();
    EXPECT_NE(maskError.message().find("mask is 11x12"), std::string::npos) << maskError.message();
    Image small(1, 10, 10);
    EXPECT_EQ(ssim(view(small), view(small), 1.0).status().code(), ErrorCode::InvalidArgument);
}

TEST(Metrics, CompareImagesGathersTheIndividualMetrics) {
    Image ref = randomImage(14, 15, 7, 0.f, 2.f);
    Image img = randomImage(14, 15, 8, 0.f, 2.f);
    auto all = compareImages(view(img), view(ref), 2.0);
    ASSERT_TRUE(all.isOk());
    EXPECT_EQ(all->rmse, *rmse(view(img), view(ref)));
    EXPECT_EQ(all->maxAbsError, *maxAbsError(view(img), view(ref)));
    EXPECT_EQ(all->psnr, *psnr(view(img), view(ref), 2.0));
    EXPECT_EQ(all->ssim, *ssim(view(img), view(ref), 2.0));
    Image small = randomImage(5, 6, 9, 0.f, 1.f);
    auto tiny = compareImages(view(small), view(small), 1.0);
    ASSERT_TRUE(tiny.isOk());
    EXPECT_TRUE(std::isnan(tiny->ssim));
    EXPECT_EQ(tiny->rmse, 0.0);
}

TEST(Metrics, AFieldOfViewMaskIgnoresWhatLiesOutsideIt) {
    // A 41 x 41 image equal to the reference inside the disc of radius 16 about (20, 20) and
    // off by 7 in the corners (what an undetermined corner of a reconstruction holds).
    Image ref = randomImage(41, 41, 3, 0.f, 1.f);
    Image img = ref.clone();
    const std::vector<float> disc = discMask(41, 41, 20.0, 20.0, 16.0);
    std::size_t inside = 0;
    for (std::size_t r = 0; r < 41; ++r)
        for (std::size_t c = 0; c < 41; ++c) {
            const bool in = std::hypot(double(c) - 20.0, double(r) - 20.0) <= 16.0;
            EXPECT_EQ(disc[r * 41 + c], in ? 1.0f : 0.0f);
            inside += in;
            if (!in)
                img(0, r, c) += 7.0f;
            else if (r == 20 && c == 22)
                img(0, r, c) += 0.5f;  // one error inside
        }
    const Mask mask(disc.data(), 41, 41, 41);
    auto m = compareImages(view(img), view(ref), 1.0, mask);
    ASSERT_TRUE(m.isOk()) << m.status().toString();
    EXPECT_NEAR(m->rmse, std::sqrt(0.25 / double(inside)), 1e-7);
    EXPECT_NEAR(m->maxAbsError, 0.5, 1e-6);
    EXPECT_NEAR(m->psnr, 20.0 * std::log10(1.0 / m->rmse), 1e-9);
    // SSIM over the windows wholly inside: the corners' +7 does not reach it.
    EXPECT_GT(m->ssim, 0.9);
    EXPECT_LT(m->ssim, 1.0);
    auto whole = compareImages(view(img), view(ref), 1.0);
    ASSERT_TRUE(whole.isOk());
    EXPECT_GT(whole->rmse, 10 * m->rmse);
    EXPECT_NEAR(whole->maxAbsError, 7.0, 1e-5);
    // Without a data range: the reference's range inside the mask.
    auto ranged = compareImages(view(img), view(ref), 0.0, mask);
    ASSERT_TRUE(ranged.isOk());
    double lo = 1e9, hi = -1e9;
    for (std::size_t i = 0; i < disc.size(); ++i)
        if (disc[i] != 0.f) {
            lo = std::min(lo, double(ref.data()[i / 41 * ref.pitch() + i % 41]));
            hi = std::max(hi, double(ref.data()[i / 41 * ref.pitch() + i % 41]));
        }
    EXPECT_NEAR(ranged->psnr, 20.0 * std::log10((hi - lo) / ranged->rmse), 1e-9);
}

}  // namespace
}  // namespace tomo
