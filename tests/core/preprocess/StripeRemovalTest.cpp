// Stripes added to an analytic sinogram are removed by both methods to a stated residual,
// without damaging the rest beyond a stated bound.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "core/phantom/Phantom.h"
#include "core/preprocess/StripeRemoval.h"

namespace tomo {
namespace {

constexpr std::size_t kAngles = 180, kWidth = 128;

/// Sinogram [angle][detector] of six random ellipses within 40 px of the axis (peak ~23).
/// Both methods damage fine structure of such a small (128-pixel) sinogram more than that of
/// the 2k-pixel detectors they were designed for, so the window (sorting) and the number of
/// levels (Fourier-wavelet) are scaled to the detector: sorting 5 px (the authors' 21 px is
/// ~1% of 2k pixels), wavelet 3 levels (the automatic choice for 128 pixels).
Array3<float> cleanSinogram() {
    auto geom = ParallelGeometry::create(
        {uniformAngles(0, std::numbers::pi, static_cast<int>(kAngles)), static_cast<int>(kWidth)});
    Sinograms s;
    EXPECT_TRUE(Phantom::randomEllipses(6, 3, 40).project(*geom, s, 2).isOk());
    return s;
}

struct Damage {
    double stripeResidual;  ///< max over stripe columns of |mean over angles of (out - clean)|
    double elsewhereRms;    ///< RMS of out - clean over columns >= 6 px from any stripe
    double maxValue;
};

Damage measure(const Array3<float>& out, const Array3<float>& clean, const std::vector<std::size_t>& cols) {
    Damage d{0, 0, 0};
    double sum2 = 0, n = 0;
    for (std::size_t j = 0; j < kWidth; ++j) {
        bool isStripe = false, near = false;
        for (std::size_t s : cols) {
            isStripe = isStripe || j == s;
            near = near || (j + 6 > s && j < s + 6);
        }
        double mean = 0;
        for (std::size_t p = 0; p < kAngles; ++p) {
            const double e = out(0, p, j) - clean(0, p, j);
            mean += e / kAngles;
            d.maxValue = std::max(d.maxValue, static_cast<double>(clean(0, p, j)));
            if (!near) {
                sum2 += e * e;
                n += 1;
            }
        }
        if (isStripe) d.stripeResidual = std::max(d.stripeResidual, std::fabs(mean));
    }
    d.elsewhereRms = std::sqrt(sum2 / n);
    return d;
}

/// Stripes of amplitude 5% of the sinogram maximum on columns 30 (full), 70 (full) and 95
/// (a partial stripe over the first half of the angles: a temporarily misbehaving pixel).
Array3<float> withStripes(const Array3<float>& clean, double amplitude) {
    Array3<float> s = clean.clone();
    for (std::size_t p = 0; p < kAngles; ++p) {
        s(0, p, 30) += static_cast<float>(amplitude);
        s(0, p, 70) -= static_cast<float>(amplitude);
        if (p < kAngles / 2) s(0, p, 95) += static_cast<float>(amplitude);
    }
    return s;
}

TEST(StripeRemoval, SortingRemovesStripes) {
    const Array3<float> clean = cleanSinogram();
    const double peak = measure(clean, clean, {}).maxValue, amp = 0.05 * peak;
    Array3<float> s = withStripes(clean, amp);
    ASSERT_TRUE(removeStripesSorting(s.plane(0), SortingStripeOptions{5}).isOk());
    const Damage d = measure(s, clean, {30, 70});
    RecordProperty("stripe_residual_fraction", std::to_string(d.stripeResidual / amp));
    RecordProperty("elsewhere_rms_fraction", std::to_string(d.elsewhereRms / peak));
    // Only the detected columns change (snr 3); every column as published: 0.06 and 0.8%.
    EXPECT_LT(d.stripeResidual, 0.05 * amp);  // measured 0.022
    EXPECT_LT(d.elsewhereRms, 3e-3 * peak);   // measured 0.1%
    // The partial stripe: its first half is removed too.
    double partial = 0;
    for (std::size_t p = 0; p < kAngles / 2; ++p)
        partial += (s(0, p, 95) - clean(0, p, 95)) / (kAngles / 2);
    EXPECT_LT(std::fabs(partial), 0.2 * amp);
}

TEST(StripeRemoval, TheAutomaticWindowScalesWithTheWidthAndSparesANarrowScan) {
    // 1 % of the width, odd, at least 5 (TomoPy's default): 5 on this 128-column sinogram.
    const SortingStripeOptions automatic;
    EXPECT_EQ(automatic.windowFor(kWidth), 5);
    EXPECT_EQ(automatic.windowFor(256), 5);
    EXPECT_EQ(automatic.windowFor(1000), 11);
    EXPECT_EQ(automatic.windowFor(2048), 21);
    EXPECT_EQ(SortingStripeOptions{9}.windowFor(2048), 9);
    const Array3<float> clean = cleanSinogram();
    const double peak = measure(clean, clean, {}).maxValue, amp = 0.05 * peak;
    Array3<float> autoFiltered = withStripes(clean, amp);
    Array3<float> fixed5 = autoFiltered.clone();
    Array3<float> wide = autoFiltered.clone();
    ASSERT_TRUE(removeStripesSorting(autoFiltered.plane(0), automatic).isOk());
    ASSERT_TRUE(removeStripesSorting(fixed5.plane(0), SortingStripeOptions{5}).isOk());
    ASSERT_TRUE(removeStripesSorting(wide.plane(0), SortingStripeOptions{21}).isOk());
    for (std::size_t p = 0; p < kAngles; ++p)
        for (std::size_t j = 0; j < kWidth; ++j)
            ASSERT_EQ(autoFiltered(0, p, j), fixed5(0, p, j));
    // The old fixed default (21 px, ~16 % of this width) changes the object far more.
    EXPECT_GT(measure(wide, clean, {30, 70}).elsewhereRms,
              1.5 * measure(autoFiltered, clean, {30, 70}).elsewhereRms);
}

TEST(StripeRemoval, FourierWaveletRemovesStripes) {
    const Array3<float> clean = cleanSinogram();
    const double peak = measure(clean, clean, {}).maxValue, amp = 0.05 * peak;
    Array3<float> s = withStripes(clean, amp);
    ASSERT_TRUE(removeStripesFourierWavelet(s.plane(0), FourierWaveletOptions{}).isOk());
    const Damage d = measure(s, clean, {30, 70});
    RecordProperty("stripe_residual_fraction", std::to_string(d.stripeResidual / amp));
    RecordProperty("elsewhere_rms_fraction", std::to_string(d.elsewhereRms / peak));
    // Only the detected columns change (snr 3); every column as published: 0.18 and 2.5%.
    EXPECT_LT(d.stripeResidual, 0.15 * amp);  // measured 0.10
    EXPECT_LT(d.elsewhereRms, 3e-3 * peak);   // measured 0.09%
}

TEST(StripeRemoval, StackVersionMatchesPerSinogramAndBadInputs) {
    // Projections [angle][row][column] with 3 rows: each row's sinogram filtered alone.
    const Array3<float> clean = cleanSinogram();
    Array3<float> proj(kAngles, 3, kWidth);
    for (std::size_t p = 0; p < kAngles; ++p)
        for (std::size_t r = 0; r < 3; ++r)
            for (std::size_t j = 0; j < kWidth; ++j)
                proj(p, r, j) = clean(0, p, j) * static_cast<float>(r + 1) + (j == 40 ? 1.f : 0.f);
    Array3<float> single(1, kAngles, kWidth);
    for (std::size_t p = 0; p < kAngles; ++p)
        for (std::size_t j = 0; j < kWidth; ++j)
            single(0, p, j) = proj(p, 1, j);
    ASSERT_TRUE(removeStripesFourierWavelet(proj, FourierWaveletOptions{}, ExecContext{2, {}, nullptr}).isOk());
    ASSERT_TRUE(removeStripesFourierWavelet(single.plane(0), FourierWaveletOptions{}).isOk());
    for (std::size_t p = 0; p < kAngles; ++p)
        for (std::size_t j = 0; j < kWidth; ++j)
            ASSERT_EQ(proj(p, 1, j), single(0, p, j));

    SortingStripeOptions bad{4};
    EXPECT_NE(removeStripesSorting(single.plane(0), bad).message().find("odd"), std::string::npos);
    FourierWaveletOptions fw;
    fw.wavelet = "db9";
    EXPECT_NE(removeStripesFourierWavelet(single.plane(0), fw).message().find("db9"), std::string::npos);
    fw = {};
    fw.sigma = 0;
    EXPECT_FALSE(removeStripesFourierWavelet(single.plane(0), fw).isOk());
    single(0, 3, 3) = std::nanf("");
    EXPECT_EQ(removeStripesSorting(single.plane(0), {}).code(), ErrorCode::InvalidData);
}

}  // namespace
}  // namespace tomo
