// Binning, cropping and angle selection: shapes, values, centre mapping, bad inputs.
#include <gtest/gtest.h>

#include "core/preprocess/BinningCropping.h"

namespace tomo {
namespace {

Array3<float> ramp(std::size_t n, std::size_t rows, std::size_t cols) {
    Array3<float> a(n, rows, cols);
    for (std::size_t f = 0; f < n; ++f)
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                a(f, r, c) = static_cast<float>(100 * f + 10 * r + c);
    return a;
}

TEST(Binning, BlockMeansAndTrailingPixelsDropped) {
    auto b = binFrames(ramp(2, 5, 7), 2, 3);
    ASSERT_TRUE(b.isOk()) << b.status().toString();
    ASSERT_EQ(b->dims(), (std::array<std::size_t, 3>{2, 2, 2}));
    // Block (rows 2r, 2r+1; columns 3c..3c+2) of 100 f + 10 r + c: mean 100 f + 10 (2r + 0.5) + 3c + 1.
    for (std::size_t f = 0; f < 2; ++f)
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t c = 0; c < 2; ++c)
                EXPECT_FLOAT_EQ((*b)(f, r, c), static_cast<float>(100 * f + 10 * (2 * r + 0.5) + 3 * c + 1));
}

TEST(Binning, CentreMappingFollowsTheCentroid) {
    // A bump 1,2,1 centred on column 3 of 8; binned by 2 its centroid is binnedCenter(3, 2).
    Array3<float> a(1, 1, 8);
    a(0, 0, 2) = 1;
    a(0, 0, 3) = 2;
    a(0, 0, 4) = 1;
    auto b = binFrames(a, 1, 2);
    ASSERT_TRUE(b.isOk());
    double m0 = 0, m1 = 0;
    for (std::size_t c = 0; c < 4; ++c) {
        m0 += (*b)(0, 0, c);
        m1 += (*b)(0, 0, c) * static_cast<double>(c);
    }
    EXPECT_DOUBLE_EQ(m1 / m0, binnedCenter(3.0, 2));
    EXPECT_DOUBLE_EQ(binnedCenter(3.0, 2), 1.25);
    EXPECT_DOUBLE_EQ(croppedCenter(10.5, 4), 6.5);
}

TEST(Cropping, KeepsTheRequestedBlock) {
    auto c = cropFrames(ramp(3, 6, 8), 1, 3, 2, 5);
    ASSERT_TRUE(c.isOk());
    ASSERT_EQ(c->dims(), (std::array<std::size_t, 3>{3, 3, 5}));
    EXPECT_FLOAT_EQ((*c)(2, 0, 0), 212.f);
    EXPECT_FLOAT_EQ((*c)(1, 2, 4), 136.f);
}

TEST(AngleSelection, KeepsEveryStepthFrameAndItsAngle) {
    std::vector<double> angles{0, 1, 2, 3, 4, 5, 6}, out;
    auto s = selectFrames(ramp(7, 1, 2), angles, 1, 5, 2, out);
    ASSERT_TRUE(s.isOk());
    ASSERT_EQ(s->dim(0), 3u);
    EXPECT_EQ(out, (std::vector<double>{1, 3, 5}));
    EXPECT_FLOAT_EQ((*s)(2, 0, 1), 501.f);
}

TEST(BinningCropping, BadInputsGiveMessages) {
    auto a = ramp(2, 4, 4);
    std::vector<double> out;
    EXPECT_NE(binFrames(a, 0, 1).status().message().find(">= 1"), std::string::npos);
    EXPECT_NE(binFrames(a, 1, 5).status().message().find("exceeds"), std::string::npos);
    EXPECT_NE(cropFrames(a, 3, 2, 0, 4).status().message().find("rows [3, 5)"), std::string::npos);
    EXPECT_NE(cropFrames(a, 0, 4, 0, 0).status().message().find("columns"), std::string::npos);
    EXPECT_FALSE(selectFrames(a, {0.0}, 0, 1, 1, out).isOk());
    EXPECT_FALSE(selectFrames(a, {}, 0, 3, 1, out).isOk());
    EXPECT_FALSE(selectFrames(a, {}, 0, 2, 0, out).isOk());
}

}  // namespace
}  // namespace tomo
