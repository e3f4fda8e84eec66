// RampFilter's frequency response: padded length, the ramp part against a direct double DFT of
// the Ram-Lak kernel, the DC term, every window against its formula, and option validation.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "FilterReference.h"
#include "core/filter/RampFilter.h"
#include "tomo/config.h"

namespace tomo {
namespace {

using std::numbers::pi;

constexpr FilterWindow kWindows[] = {FilterWindow::RamLak, FilterWindow::SheppLogan,
                                     FilterWindow::Cosine, FilterWindow::Hamming,
                                     FilterWindow::Hann};

TEST(RampFilter, PaddedWidthIsSmallestPowerOfTwoAtLeastTwiceTheWidth) {
    const int cases[][2] = {{1, 2},      {2, 4},      {3, 8},       {4, 8},      {5, 16},
                            {512, 1024}, {513, 2048}, {1000, 2048}, {2048, 4096}};
    for (const auto& c : cases) {
        auto f = RampFilter::create(c[0], 1.0);
        ASSERT_TRUE(f.isOk()) << f.status().toString();
        EXPECT_EQ(f->width(), c[0]);
        EXPECT_EQ(f->paddedWidth(), c[1]) << "width " << c[0];
        EXPECT_EQ(f->response().size(), static_cast<std::size_t>(c[1] / 2 + 1));
    }
}

TEST(RampFilter, BackendNameMatchesTheBuild) {
    EXPECT_STREQ(RampFilter::fftBackendName(), TOMO_WITH_FFTW ? "fftw3f" : "builtin-radix2");
}

TEST(RampFilter, WindowFormulasAtAnalyticPoints) {
    FilterOptions o;
    o.cutoff = 0.8;  // fc = 0.4 cycles/sample
    const double fc = 0.4;
    const double atFc[] = {1.0, 2.0 / pi, 0.0, 0.08, 0.0};
    const double atHalfFc[] = {1.0, std::sin(pi / 4) / (pi / 4), std::cos(pi / 4), 0.54, 0.5};
    for (std::size_t i = 0; i < std::size(kWindows); ++i) {
        o.window = kWindows[i];
        SCOPED_TRACE(filterWindowName(o.window));
        EXPECT_NEAR(filterWindowValue(o, 0.0), 1.0, 1e-15);
        EXPECT_NEAR(filterWindowValue(o, fc), atFc[i], 1e-12);
        EXPECT_NEAR(filterWindowValue(o, fc / 2), atHalfFc[i], 1e-12);
        EXPECT_NEAR(filterWindowValue(o, -fc / 2), atHalfFc[i], 1e-12);
        EXPECT_EQ(filterWindowValue(o, fc + 1e-9), 0.0);
        EXPECT_EQ(filterWindowValue(o, 0.5), 0.0);
    }
}

TEST(RampFilter, RampPartEqualsDirectDftOfSpatialKernel) {
    for (double pitch : {1.0, 0.35, 2.5}) {
        for (int width : {1, 3, 37, 300}) {
            SCOPED_TRACE("pitch " + std::to_string(pitch) + " width " + std::to_string(width));
            auto f = RampFilter::create(width, pitch);
            ASSERT_TRUE(f.isOk()) << f.status().toString();
            const auto n = static_cast<std::size_t>(f->paddedWidth());
            const auto ref = test::rampPart(n, pitch);
            const auto r = f->response();
            for (std::size_t k = 0; k <= n / 2; ++k) {
                EXPECT_GT(ref[k], 0.0) << "bin " << k;
                EXPECT_NEAR(r[k], ref[k], 1e-5 * ref[k]) << "bin " << k;
                // Scale: the ramp is |f| / d (f in cycles/sample), up to the kernel truncation
                // at |lag| < N/2, times the folded 1/N.
                const double fk = static_cast<double>(k) / static_cast<double>(n);
                EXPECT_NEAR(r[k] * static_cast<double>(n) * pitch, fk, 0.6 / static_cast<double>(n))
                    << "bin " << k;
            }
        }
    }
}

TEST(RampFilter, DcTermIsSmallPositiveAndMatchesKernelSum) {
    for (double pitch : {1.0, 0.5, 3.0}) {
        for (int width : {1, 2, 7, 100, 1000}) {
            auto f = RampFilter::create(width, pitch);
            ASSERT_TRUE(f.isOk()) << f.status().toString();
            const int n = f->paddedWidth();
            double oddSum = 0;
            for (int m = 1; m < n / 2; m += 2)
                oddSum += 1.0 / (double(m) * m);
            const double dc = (1.0 / (4 * pitch) - 2.0 / (pi * pi * pitch) * oddSum) / n;
            const float got = f->response()[0];
            EXPECT_NEAR(got, dc, 1e-5 * dc) << "pitch " << pitch << " width " << width;
            EXPECT_GT(got, 0.f);
            // Small: below the first bin (the ramp rises from it), for every padded length > 2.
            if (n > 2) {
                EXPECT_LT(got, f->response()[1]);
            }
        }
    }
}

TEST(RampFilter, EachWindowResponseIsRampTimesWindowAndZeroAboveCutoff) {
    const double pitch = 0.8;
    const int width = 300;
    for (FilterWindow w : kWindows) {
        for (double cutoff : {1.0, 0.7, 0.3}) {
            FilterOptions o{w, cutoff};
            SCOPED_TRACE(std::string(filterWindowName(w)) + " cutoff " + std::to_string(cutoff));
            auto f = RampFilter::create(width, pitch, o);
            ASSERT_TRUE(f.isOk()) << f.status().toString();
            const auto n = static_cast<std::size_t>(f->paddedWidth());
            const auto ramp = test::rampPart(n, pitch);
            const auto r = f->response();
            std::size_t zeroBins = 0;
            for (std::size_t k = 0; k <= n / 2; ++k) {
                const double fk = static_cast<double>(k) / static_cast<double>(n);
                if (fk > 0.5 * cutoff) {
                    EXPECT_EQ(r[k], 0.f) << "bin " << k;
                    ++zeroBins;
                } else {
                    EXPECT_NEAR(r[k] / ramp[k], filterWindowValue(o, fk), 1e-5) << "bin " << k;
                }
            }
            // Bins above the cutoff: those with k > cutoff * n / 2.
            const auto expectedZero =
                n / 2 - static_cast<std::size_t>(std::floor(cutoff * static_cast<double>(n) / 2));
            EXPECT_EQ(zeroBins, expectedZero);
        }
    }
}

TEST(RampFilter, ParsesAndNamesWindows) {
    for (FilterWindow w : kWindows) {
        auto parsed = parseFilterWindow(filterWindowName(w));
        ASSERT_TRUE(parsed.isOk());
        EXPECT_EQ(*parsed, w);
    }
    EXPECT_EQ(*parseFilterWindow("ramp"), FilterWindow::RamLak);
    EXPECT_EQ(*parseFilterWindow("Hann"), FilterWindow::Hann);
    auto bad = parseFilterWindow("gaussian");
    ASSERT_FALSE(bad.isOk());
    EXPECT_EQ(bad.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(bad.status().message().find("gaussian"), std::string::npos);
}

TEST(RampFilter, InvalidOptionsGiveErrorsNamingTheCause) {
    struct Case {
        int width;
        double pitch;
        FilterOptions options;
        const char* word;
    };
    const double nan = std::nan("");
    const double inf = INFINITY;
    const Case cases[] = {
        {0, 1.0, {}, "width"},
        {-4, 1.0, {}, "width"},
        {64, 0.0, {}, "pitch"},
        {64, -1.0, {}, "pitch"},
        {64, nan, {}, "pitch"},
        {64, inf, {}, "pitch"},
        {64, 1.0, {FilterWindow::Hann, 0.0}, "cutoff"},
        {64, 1.0, {FilterWindow::Hann, -0.5}, "cutoff"},
        {64, 1.0, {FilterWindow::Hann, 1.5}, "cutoff"},
        {64, 1.0, {FilterWindow::Hann, nan}, "cutoff"},
        {64, 1.0, {static_cast<FilterWindow>(42), 1.0}, "window"},
    };
    for (const Case& c : cases) {
        auto f = RampFilter::create(c.width, c.pitch, c.options);
        ASSERT_FALSE(f.isOk()) << c.word;
        EXPECT_EQ(f.status().code(), ErrorCode::InvalidArgument);
        EXPECT_NE(f.status().message().find(c.word), std::string::npos) << f.status().message();
    }
    EXPECT_TRUE(FilterOptions{}.validate().isOk());
    EXPECT_EQ(filterWindowValue({FilterWindow::Hann, 2.0}, 0.1), 0.0);
}

}  // namespace
}  // namespace tomo
