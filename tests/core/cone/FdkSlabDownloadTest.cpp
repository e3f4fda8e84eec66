// The slab a device's FDK downloads into (createSlabForDownload, zeroInParallel): allocated
// uninitialised and zeroed on several threads, it must hold zeros in every stored float, row
// padding included, never what the memory held before (issue 27).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "core/cone/Fdk.h"

namespace tomo {
namespace {

std::size_t storedFloats(const Volume& v) {
    return v.dim(0) * v.dim(1) * v.pitch();
}

/// How many stored floats of @p v, padding included, are not +0.
std::size_t nonZero(const Volume& v) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < storedFloats(v); ++i)
        if (!(v.data()[i] == 0.0f) || std::signbit(v.data()[i])) ++n;
    return n;
}

TEST(FdkSlabDownload, ZeroInParallelClearsEveryStoredFloatPaddingIncluded) {
    // Row counts around the 64-row task and widths with and without padding; sizes over 4 MiB
    // take several threads.
    const std::size_t shapes[][3] = {{1, 1, 1},    {1, 63, 5},    {2, 65, 17},  {3, 64, 16},
                                     {7, 129, 33}, {9, 300, 301}, {40, 97, 512}};
    for (const auto& s : shapes) {
        SCOPED_TRACE(testing::Message() << s[0] << "x" << s[1] << "x" << s[2]);
        auto v = Volume::createUninitialised(s[0], s[1], s[2]);
        ASSERT_TRUE(v.isOk());
        // Garbage, as uninitialised memory may hold: NaN in every stored float.
        std::fill(v->data(), v->data() + storedFloats(*v), std::numeric_limits<float>::quiet_NaN());
        for (int threads : {1, 3, 0}) {
            ASSERT_TRUE(zeroInParallel(*v, threads).isOk());
            EXPECT_EQ(nonZero(*v), 0u) << threads << " threads";
            std::fill(v->data(), v->data() + storedFloats(*v), -1.0f);
        }
    }
}

TEST(FdkSlabDownload, CreateSlabForDownloadHoldsZeros) {
    auto v = createSlabForDownload(5, 130, 77, 4);
    ASSERT_TRUE(v.isOk());
    EXPECT_EQ(v->dim(0), 5u);
    EXPECT_EQ(v->dim(1), 130u);
    EXPECT_EQ(v->dim(2), 77u);
    EXPECT_EQ(nonZero(*v), 0u);
}

}  // namespace
}  // namespace tomo
