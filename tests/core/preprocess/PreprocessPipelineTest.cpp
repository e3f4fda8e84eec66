// The pipeline on ProjectionData: steps in order, flats/darks kept matching, provenance,
// centre mapping, errors named by step.
#include <gtest/gtest.h>

#include <cmath>

#include "core/preprocess/Preprocess.h"

namespace tomo {
namespace {

/// 4 projections of 6 x 8 with transmission exp(-mu(p, c)), flat 1000 + dark 10.
ProjectionData makeData() {
    ProjectionData d;
    d.projections = Array3<float>(4, 6, 8);
    d.flats = Array3<float>(2, 6, 8);
    d.darks = Array3<float>(1, 6, 8);
    d.angles = {0.0, 0.1, 0.2, 0.3};
    for (std::size_t r = 0; r < 6; ++r)
        for (std::size_t c = 0; c < 8; ++c) {
            d.flats(0, r, c) = d.flats(1, r, c) = 1010.f;
            d.darks(0, r, c) = 10.f;
            for (std::size_t p = 0; p < 4; ++p)
                d.projections(p, r, c) =
                    static_cast<float>(1000 * std::exp(-0.1 * static_cast<double>(p + c)) + 10);
        }
    return d;
}

TEST(Preprocess, CropBinFlatDarkLogGiveLineIntegrals) {
    ProjectionData d = makeData();
    PreprocessOptions o;
    o.angleRange = {1, 3};
    o.angleStep = 2;  // projections 1 and 3
    o.cropColumns = {2, 4};
    o.binRows = 2;
    o.binColumns = 2;
    o.flatDark = true;
    o.minusLog = true;
    PreprocessSummary s;
    ASSERT_TRUE(preprocess(d, o, {}, &s).isOk());
    ASSERT_EQ(d.projections.dims(), (std::array<std::size_t, 3>{2, 3, 2}));
    ASSERT_EQ(d.flats.dims(), (std::array<std::size_t, 3>{2, 3, 2}));
    EXPECT_EQ(d.angles, (std::vector<double>{0.1, 0.3}));
    // Column block c of the crop holds input columns 2 + 2c, 3 + 2c; binning averages the
    // transmissions, so the result is -ln of the mean of exp(-0.1 (p + col)).
    for (std::size_t k = 0; k < 2; ++k)
        for (std::size_t c = 0; c < 2; ++c) {
            const double p = 1.0 + 2.0 * static_cast<double>(k), c0 = 2.0 + 2.0 * static_cast<double>(c);
            const double t = 0.5 * (std::exp(-0.1 * (p + c0)) + std::exp(-0.1 * (p + c0 + 1)));
            EXPECT_NEAR(d.projections(k, 1, c), -std::log(t), 1e-5);
        }
    EXPECT_EQ(s.flatField.flatReferences, 1u);
    EXPECT_EQ(s.minusLog.clampedValues, 0u);
    EXPECT_NE(d.metadata["preprocessing"].find("bin 2x2"), std::string::npos);
    EXPECT_DOUBLE_EQ(o.centerAfter(5.0), 1.25);  // (5 - 2 + 0.5) / 2 - 0.5
}

TEST(Preprocess, EmptyOptionsChangeNothingAndErrorsNameTheStep) {
    ProjectionData d = makeData();
    const float before = d.projections(2, 3, 4);
    PreprocessOptions none;
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(describe(none), "none");
    ASSERT_TRUE(preprocess(d, none, {}).isOk());
    EXPECT_EQ(d.projections(2, 3, 4), before);

    PreprocessOptions o;
    o.flatDark = true;
    d.flats = Array3<float>();
    Status st = preprocess(d, o, {});
    EXPECT_EQ(st.code(), ErrorCode::InvalidData);
    EXPECT_EQ(st.message().rfind("flat/dark: no flat fields", 0), 0u) << st.message();

    o = {};
    o.cropColumns = {6, 5};
    st = preprocess(d, o, {});
    EXPECT_NE(st.message().find("columns range"), std::string::npos) << st.message();
    o = {};
    o.binRows = 0;
    EXPECT_EQ(preprocess(d, o, {}).code(), ErrorCode::InvalidArgument);
    EXPECT_FALSE(parseRingMethod("median").isOk());
    EXPECT_EQ(*parseRingMethod("fw"), RingMethod::FourierWavelet);
}

}  // namespace
}  // namespace tomo
