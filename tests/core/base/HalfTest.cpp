// The binary16 conversion of the GPU half variants (core/data/Half.h), checked on the CPU.
#include <gtest/gtest.h>

#include <cmath>

#include "core/data/Half.h"

namespace tomo {
namespace {

TEST(Half, FloatToHalfRoundsToNearestEven) {
    EXPECT_EQ(floatToHalf(0.0f), 0x0000);
    EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
    EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
    EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
    EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);                      // largest finite half
    EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);                      // rounds up to infinity
    EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);         // smallest normal
    EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);         // smallest subnormal
    EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);         // tie, rounds to even (0)
    EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002);         // 1.5 units: tie, to even (2)
    EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // tie, stays even
    EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie, rounds up
    EXPECT_EQ(floatToHalf(1.0f / 3.0f), 0x3555);
    EXPECT_EQ(floatToHalf(INFINITY), 0x7c00);
    EXPECT_EQ(floatToHalf(NAN) & 0x7c00, 0x7c00);
    EXPECT_NE(floatToHalf(NAN) & 0x03ff, 0);
}

}  // namespace
}  // namespace tomo
