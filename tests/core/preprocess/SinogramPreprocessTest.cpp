// Preprocessing of a sinogram stack (SinogramPreprocess.h): a planted stripe and planted
// zingers are removed (against the clean sinograms), the steps give the bits of the projection
// pipeline on the same line integrals, and the steps that need an acquisition are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <utility>

#include "core/dataset/ProjectionData.h"
#include "core/phantom/Phantom.h"
#include "core/preprocess/SinogramPreprocess.h"

namespace tomo {
namespace {

constexpr std::size_t kSlices = 3, kAngles = 180, kWidth = 128;

/// A stack [slice][angle][detector] of six ellipses within 40 px of the axis (peak ~23).
Sinograms cleanStack() {
    ParallelGeometry::Params p{uniformAngles(0, std::numbers::pi, static_cast<int>(kAngles)),
                               static_cast<int>(kWidth)};
    p.rows = static_cast<int>(kSlices);
    auto geom = ParallelGeometry::create(p);
    Sinograms s;
    EXPECT_TRUE(Phantom::randomEllipses(6, 3, 40).project(*geom, s, 2).isOk());
    return s;
}

constexpr double kStripe = 1.0;  // ~4% of the peak
constexpr float kZinger = 8.0f;  // a bright outlier, ~35% of the peak

/// A stripe on column 70 of every slice and 20 zingers spread over the stack (isZinger).
Sinograms damaged(const Sinograms& clean) {
    Sinograms s = clean.clone();
    for (std::size_t z = 0; z < kSlices; ++z)
        for (std::size_t a = 0; a < kAngles; ++a)
            s(z, a, 70) += static_cast<float>(kStripe);
    for (std::size_t k = 0; k < 20; ++k)
        s(k % kSlices, 7 + 8 * k, 20 + 4 * k) += kZinger;
    return s;
}

bool isZinger(std::size_t z, std::size_t a, std::size_t c) {
    for (std::size_t k = 0; k < 20; ++k)
        if (z == k % kSlices && a == 7 + 8 * k && c == 20 + 4 * k) return true;
    return false;
}

/// The range of @p clean over the 3x3 window around (z, c) of projection @p a (the window the
/// zinger filter takes its median over: slices x detectors).
std::pair<float, float> windowRange(const Sinograms& clean, std::size_t z, std::size_t a,
                                    std::size_t c) {
    float lo = clean(z, a, c), hi = lo;
    for (std::size_t zz = (z ? z - 1 : 0); zz <= std::min(z + 1, kSlices - 1); ++zz)
        for (std::size_t cc = c - 1; cc <= c + 1; ++cc) {
            lo = std::min(lo, clean(zz, a, cc));
            hi = std::max(hi, clean(zz, a, cc));
        }
    return {lo, hi};
}

double maxAbsDiff(const Sinograms& a, const Sinograms& b) {
    double m = 0;
    for (std::size_t z = 0; z < a.dim(0); ++z)
        for (std::size_t r = 0; r < a.dim(1); ++r)
            for (std::size_t c = 0; c < a.dim(2); ++c)
                m = std::max(m, std::fabs(double(a(z, r, c)) - b(z, r, c)));
    return m;
}

/// Max over slices of |mean over angles of (out - clean)| on column @p col.
double columnBias(const Sinograms& out, const Sinograms& clean, std::size_t col) {
    double worst = 0;
    for (std::size_t z = 0; z < out.dim(0); ++z) {
        double sum = 0;
        for (std::size_t a = 0; a < out.dim(1); ++a)
            sum += double(out(z, a, col)) - clean(z, a, col);
        worst = std::max(worst, std::fabs(sum / static_cast<double>(out.dim(1))));
    }
    return worst;
}

PreprocessOptions ringsAndZingers() {
    PreprocessOptions o;
    o.rings = RingMethod::Sorting;
    o.sorting.size = 5;
    o.zingers = sinogramZingers(2.0, 3);  // 2 above the 3x3 median, as TomoPy's remove_outlier
    return o;
}

TEST(SinogramPreprocess, RemovesAPlantedStripeAndZingers) {
    const Sinograms clean = cleanStack();
    Sinograms s = damaged(clean);
    ASSERT_NEAR(columnBias(s, clean, 70), kStripe, 1e-4);
    ASSERT_NEAR(maxAbsDiff(s, clean), kZinger, 1e-3);
    std::vector<double> angles = uniformAngles(0, std::numbers::pi, static_cast<int>(kAngles));
    PreprocessSummary summary;
    ASSERT_TRUE(preprocessSinograms(s, angles, ringsAndZingers(), {}, &summary).isOk());
    EXPECT_EQ(s.dim(0), kSlices);
    EXPECT_EQ(s.dim(1), kAngles);
    EXPECT_EQ(angles.size(), kAngles);
    const double bias = columnBias(s, clean, 70);
    RecordProperty("stripe_residual", std::to_string(bias));
    EXPECT_LT(bias, 0.05 * kStripe);           // the stripe's mean over angles: 1.0 -> below 0.05
    EXPECT_EQ(summary.zingers.replaced, 20u);  // the zingers and nothing else
    std::size_t changedElsewhere = 0;
    for (std::size_t z = 0; z < kSlices; ++z)
        for (std::size_t a = 0; a < kAngles; ++a)
            for (std::size_t c = 0; c < kWidth; ++c) {
                if (c == 70) continue;
                const auto [lo, hi] = windowRange(clean, z, a, c);
                if (isZinger(z, a, c)) {
                    // Replaced by a median of clean neighbours: within their range (8 above
                    // before).
                    EXPECT_GE(s(z, a, c), lo) << z << " " << a << " " << c;
                    EXPECT_LE(s(z, a, c), hi) << z << " " << a << " " << c;
                } else if (s(z, a, c) != clean(z, a, c)) {
                    ++changedElsewhere;
                }
            }
    EXPECT_EQ(changedElsewhere, 0u);  // every other pixel off the stripe's column as it was
}

TEST(SinogramPreprocess, GivesTheBitsOfTheProjectionPipeline) {
    const Sinograms s0 = damaged(cleanStack());
    PreprocessOptions o = ringsAndZingers();
    o.angleRange = {10, 160};  // {first, count}: angles 10..169
    o.angleStep = 2;
    o.cropColumns = {4, 120};
    o.binColumns = 2;
    std::vector<double> angles = uniformAngles(0, std::numbers::pi, static_cast<int>(kAngles));
    ProjectionData data;
    data.projections = toSinograms(s0).value();  // [angle][slice][detector]
    data.angles = angles;
    ASSERT_TRUE(preprocess(data, o, {}).isOk());
    Sinograms s = s0.clone();
    ASSERT_TRUE(preprocessSinograms(s, angles, o, {}).isOk());
    EXPECT_EQ(s.dim(1), 80u);
    EXPECT_EQ(s.dim(2), 60u);  // columns 4..123 binned by 2
    EXPECT_EQ(angles, data.angles);
    EXPECT_EQ(maxAbsDiff(s, *toSinograms(data.projections)), 0.0);
}

TEST(SinogramPreprocess, RefusesTheStepsOfAnAcquisitionSayingWhy) {
    Sinograms s = cleanStack();
    std::vector<double> angles;
    PreprocessOptions flat;
    flat.flatDark = true;
    PreprocessOptions log;
    log.minusLog = true;
    PreprocessOptions paganin;
    paganin.paganin = PaganinOptions{};
    for (const auto& [o, step] : {std::pair{flat, "flat/dark"}, std::pair{log, "minus-log"},
                                  std::pair{paganin, "Paganin"}}) {
        Status st = preprocessSinograms(s, angles, o, {});
        ASSERT_FALSE(st.isOk()) << step;
        EXPECT_EQ(st.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(st.message().find(step), std::string::npos) << st.message();
        EXPECT_NE(st.message().find("line integrals"), std::string::npos) << st.message();
    }
    EXPECT_EQ(maxAbsDiff(s, cleanStack()), 0.0);  // untouched
    std::vector<double> wrong(7, 0.0);
    EXPECT_FALSE(preprocessSinograms(s, wrong, ringsAndZingers(), {}).isOk());
}

}  // namespace
}  // namespace tomo
