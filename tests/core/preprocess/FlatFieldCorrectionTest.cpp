// Flat/dark normalisation recovers the transmission of simulated counts (averaged and
// interpolated flats); minus-log; bad inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "core/preprocess/FlatFieldCorrection.h"
#include "core/preprocess/Preprocess.h"

namespace tomo {
namespace {

constexpr std::size_t kP = 6, kR = 5, kC = 7;

double transmission(std::size_t p, std::size_t r, std::size_t c) {
    return std::exp(-0.1 * static_cast<double>(p + 1) - 0.05 * static_cast<double>(r) -
                    0.02 * static_cast<double>(c));
}
double darkAt(std::size_t r, std::size_t c) {
    return 100.0 + 3.0 * static_cast<double>(r) + static_cast<double>(c);
}
double flatAt(std::size_t r, std::size_t c) {
    return 10000.0 * (1.0 + 0.2 * std::sin(0.7 * static_cast<double>(r) + 0.3 * static_cast<double>(c)));
}

/// Two flats (+-50 counts around the flat) and two darks (+-2 around the dark).
struct Scan {
    Array3<float> proj{kP, kR, kC}, flats{2, kR, kC}, darks{2, kR, kC};
};

Scan simulate() {
    Scan s;
    for (std::size_t r = 0; r < kR; ++r)
        for (std::size_t c = 0; c < kC; ++c) {
            for (std::size_t i = 0; i < 2; ++i) {
                const double sign = i == 0 ? 1.0 : -1.0;
                s.flats(i, r, c) = static_cast<float>(flatAt(r, c) + darkAt(r, c) + sign * 50);
                s.darks(i, r, c) = static_cast<float>(darkAt(r, c) + sign * 2);
            }
            for (std::size_t p = 0; p < kP; ++p)
                s.proj(p, r, c) = static_cast<float>(transmission(p, r, c) * flatAt(r, c) + darkAt(r, c));
        }
    return s;
}

TEST(FlatField, AveragedFlatsAndDarksRecoverTheTransmission) {
    Scan s = simulate();
    auto summary = correctFlatField(s.proj, s.flats, s.darks, {});
    ASSERT_TRUE(summary.isOk()) << summary.status().toString();
    EXPECT_EQ(summary->flatReferences, 1u);
    EXPECT_EQ(summary->clampedDenominators, 0u);
    EXPECT_FALSE(summary->interpolated);
    for (std::size_t p = 0; p < kP; ++p)
        for (std::size_t r = 0; r < kR; ++r)
            for (std::size_t c = 0; c < kC; ++c)
                EXPECT_NEAR(s.proj(p, r, c), transmission(p, r, c), 2e-6);
}

TEST(FlatField, InterpolatesBetweenFlatsBeforeAndAfter) {
    // Flat at position -1 (before) and a 10% brighter one at position kP (after); projection p's
    // beam is their linear interpolation at position p.
    Scan s = simulate();
    Array3<float> flats(2, kR, kC), darks(1, kR, kC);
    for (std::size_t r = 0; r < kR; ++r)
        for (std::size_t c = 0; c < kC; ++c) {
            darks(0, r, c) = static_cast<float>(darkAt(r, c));
            flats(0, r, c) = static_cast<float>(flatAt(r, c) + darkAt(r, c));
            flats(1, r, c) = static_cast<float>(1.1 * flatAt(r, c) + darkAt(r, c));
            for (std::size_t p = 0; p < kP; ++p) {
                const double w = (static_cast<double>(p) + 1) / (static_cast<double>(kP) + 1);
                s.proj(p, r, c) = static_cast<float>(
                    transmission(p, r, c) * (1 + 0.1 * w) * flatAt(r, c) + darkAt(r, c));
            }
        }
    Array3<float> averaged = s.proj.clone();
    FlatFieldOptions o;
    o.flatPositions = {-1.0, static_cast<double>(kP)};
    auto summary = correctFlatField(s.proj, flats, darks, o);
    ASSERT_TRUE(summary.isOk()) << summary.status().toString();
    EXPECT_EQ(summary->flatReferences, 2u);
    EXPECT_TRUE(summary->interpolated);
    for (std::size_t p = 0; p < kP; ++p)
        for (std::size_t r = 0; r < kR; ++r)
            for (std::size_t c = 0; c < kC; ++c)
                EXPECT_NEAR(s.proj(p, r, c), transmission(p, r, c), 2e-6);
    // Averaging the two flats instead misses the drift by up to ~4% at the ends.
    ASSERT_TRUE(correctFlatField(averaged, flats, darks, {}).isOk());
    EXPECT_GT(std::fabs(averaged(0, 0, 0) / transmission(0, 0, 0) - 1), 0.03);
}

TEST(FlatField, FlatsBeforeAndAfterTheScanAreInterpolatedByThePipeline) {
    // As above, but the pipeline places the flats: the first one before the scan, the second
    // after it (PreprocessOptions::flatsBefore, `tomo recon --flats-before 1`, the GUI's panel).
    ProjectionData data;
    data.flats = Array3<float>(2, kR, kC);
    data.darks = Array3<float>(1, kR, kC);
    data.projections = Array3<float>(kP, kR, kC);
    data.angles.assign(kP, 0.0);
    for (std::size_t r = 0; r < kR; ++r)
        for (std::size_t c = 0; c < kC; ++c) {
            data.darks(0, r, c) = static_cast<float>(darkAt(r, c));
            data.flats(0, r, c) = static_cast<float>(flatAt(r, c) + darkAt(r, c));
            data.flats(1, r, c) = static_cast<float>(1.1 * flatAt(r, c) + darkAt(r, c));
            for (std::size_t p = 0; p < kP; ++p) {
                const double w = (static_cast<double>(p) + 1) / (static_cast<double>(kP) + 1);
                data.projections(p, r, c) = static_cast<float>(
                    transmission(p, r, c) * (1 + 0.1 * w) * flatAt(r, c) + darkAt(r, c));
            }
        }
    PreprocessOptions o;
    o.flatDark = true;
    o.flatsBefore = 1;
    PreprocessSummary summary;
    ASSERT_TRUE(preprocess(data, o, {}, &summary).isOk());
    EXPECT_TRUE(summary.flatField.interpolated);
    for (std::size_t p = 0; p < kP; ++p)
        for (std::size_t r = 0; r < kR; ++r)
            for (std::size_t c = 0; c < kC; ++c)
                EXPECT_NEAR(data.projections(p, r, c), transmission(p, r, c), 2e-6);
    EXPECT_NE(describe(o).find("1 before"), std::string::npos) << describe(o);
    // More flats before the scan than the input has is refused.
    o.flatsBefore = 3;
    Status refused = preprocess(data, o, {});
    EXPECT_EQ(refused.code(), ErrorCode::InvalidArgument) << refused.toString();
}

TEST(FlatField, GroupsFlatsSeparatedByProjections) {
    Array3<float> flats(4, 1, 1);
    for (std::size_t i = 0; i < 4; ++i)
        flats(i, 0, 0) = static_cast<float>(10 * (i + 1));
    // Flats at 0, 1 (before projections 2..5) and 6, 7 (after).
    auto refs = groupFlats(flats, {0, 1, 6, 7}, {2, 3, 4, 5});
    ASSERT_TRUE(refs.isOk()) << refs.status().toString();
    ASSERT_EQ(refs->size(), 2u);
    EXPECT_FLOAT_EQ((*refs)[0].image(0, 0, 0), 15.f);
    EXPECT_DOUBLE_EQ((*refs)[0].position, 0.5);
    EXPECT_FLOAT_EQ((*refs)[1].image(0, 0, 0), 35.f);
    EXPECT_DOUBLE_EQ((*refs)[1].position, 6.5);
}

TEST(FlatField, DeadPixelsAreClampedAndCounted) {
    Scan s = simulate();
    for (std::size_t i = 0; i < 2; ++i)
        s.flats(i, 2, 3) = s.darks(i, 2, 3);  // flat == dark: zero denominator
    auto summary = correctFlatField(s.proj, s.flats, s.darks, {});
    ASSERT_TRUE(summary.isOk());
    EXPECT_EQ(summary->clampedDenominators, kP);
    EXPECT_TRUE(std::isfinite(s.proj(0, 2, 3)));
}

TEST(FlatField, BadInputsGiveMessages) {
    Scan s = simulate();
    Array3<float> none;
    auto noFlats = correctFlatField(s.proj, none, s.darks, {});
    ASSERT_FALSE(noFlats.isOk());
    EXPECT_EQ(noFlats.status().code(), ErrorCode::InvalidData);
    EXPECT_NE(noFlats.status().message().find("no flat fields"), std::string::npos);

    Array3<float> zero(2, kR, kC);
    auto zeroFlats = correctFlatField(s.proj, zero, s.darks, {});
    ASSERT_FALSE(zeroFlats.isOk());
    EXPECT_NE(zeroFlats.status().message().find("zero or missing flats"), std::string::npos);

    Array3<float> wrong(2, kR, kC + 1);
    auto mismatch = correctFlatField(s.proj, wrong, s.darks, {});
    ASSERT_FALSE(mismatch.isOk());
    EXPECT_EQ(mismatch.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(mismatch.status().message().find("2x5x8"), std::string::npos);

    Array3<float> before = s.proj.clone();
    s.proj(1, 1, 1) = std::nanf("");
    auto nan = correctFlatField(s.proj, s.flats, s.darks, {});
    ASSERT_FALSE(nan.isOk());
    EXPECT_EQ(nan.status().code(), ErrorCode::InvalidData);
    EXPECT_EQ(s.proj(0, 0, 0), before(0, 0, 0));  // nothing changed

    FlatFieldOptions o;
    o.flatPositions = {1.0};
    EXPECT_EQ(correctFlatField(before, s.flats, s.darks, o).status().code(), ErrorCode::InvalidArgument);
}

TEST(MinusLog, ConvertsAndClampsNonPositiveValues) {
    Array3<float> a(1, 1, 5);
    const float xs[] = {0.5f, 2.0f, 0.0f, -1.0f, std::numeric_limits<float>::infinity()};
    for (std::size_t i = 0; i < 3; ++i)
        a(0, 0, i) = std::exp(-xs[i]);
    a(0, 0, 2) = 0.f;
    a(0, 0, 3) = -1.f;
    a(0, 0, 4) = xs[4];
    auto s = minusLog(a, 1e-6f);
    ASSERT_TRUE(s.isOk());
    EXPECT_EQ(s->clampedValues, 3u);
    EXPECT_NEAR(a(0, 0, 0), 0.5, 1e-6);
    EXPECT_NEAR(a(0, 0, 1), 2.0, 1e-6);
    EXPECT_NEAR(a(0, 0, 2), -std::log(1e-6), 1e-4);
    EXPECT_NEAR(a(0, 0, 3), -std::log(1e-6), 1e-4);
    EXPECT_FALSE(minusLog(a, 0.f).isOk());
}

}  // namespace
}  // namespace tomo
