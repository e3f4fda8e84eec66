// The median filter of zinger removal: the selected implementation (ITK when compiled in) and
// the built-in one agree exactly with each other and with a sort-based reference on random data
// (with ties) of shapes smaller and larger than the window; edges are replicated.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/preprocess/MedianFilter.h"
#include "tomo/config.h"

namespace tomo {
namespace {

/// Median of the size x size window at (r, c), edges replicated, by a full sort.
float sortedMedian(const Array3<float>& a, long r, long c, long size) {
    std::vector<float> v;
    const long rows = static_cast<long>(a.dim(1)), cols = static_cast<long>(a.dim(2));
    for (long dr = -size / 2; dr <= size / 2; ++dr)
        for (long dc = -size / 2; dc <= size / 2; ++dc) {
            const long rr = std::min(std::max(r + dr, 0L), rows - 1);
            const long cc = std::min(std::max(c + dc, 0L), cols - 1);
            v.push_back(a(0, static_cast<std::size_t>(rr), static_cast<std::size_t>(cc)));
        }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

TEST(MedianFilter, SelectedAndBuiltinAgreeExactlyWithTheSortedReference) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> value(-3.f, 3.f);
    const std::size_t shapes[][2] = {{1, 1}, {1, 9}, {2, 3}, {5, 4}, {13, 17}, {24, 7}};
    for (const auto& shape : shapes)
        for (int size : {3, 5, 7}) {
            Array3<float> in(1, shape[0], shape[1]), selected(1, shape[0], shape[1]),
                builtin(1, shape[0], shape[1]);
            for (std::size_t r = 0; r < shape[0]; ++r)
                for (std::size_t c = 0; c < shape[1]; ++c) {
                    const float v = value(rng);
                    in(0, r, c) = (r + c) % 3 == 0 ? std::round(v) : v;  // ties too
                }
            ASSERT_TRUE(medianFilter2d(in.plane(0), selected.plane(0), size).isOk());
            ASSERT_TRUE(medianFilter2dBuiltin(in.plane(0), builtin.plane(0), size).isOk());
            for (std::size_t r = 0; r < shape[0]; ++r)
                for (std::size_t c = 0; c < shape[1]; ++c) {
                    const float ref =
                        sortedMedian(in, static_cast<long>(r), static_cast<long>(c), size);
                    ASSERT_EQ(selected(0, r, c), ref) << shape[0] << "x" << shape[1] << " size "
                                                      << size << " at " << r << "," << c;
                    ASSERT_EQ(builtin(0, r, c), ref) << shape[0] << "x" << shape[1] << " size "
                                                     << size << " at " << r << "," << c;
                }
        }
}

TEST(MedianFilter, EdgesAreReplicatedNotZeroPadded) {
    // One row 1..6, window 3: the corner window is {1,1,2} three times -> 1 (zero padding would
    // give 0), the far corner {5,6,6} x 3 -> 6; a positive image never yields 0.
    Array3<float> in(1, 1, 6), out(1, 1, 6);
    for (std::size_t c = 0; c < 6; ++c)
        in(0, 0, c) = static_cast<float>(c + 1);
    ASSERT_TRUE(medianFilter2d(in.plane(0), out.plane(0), 3).isOk());
    const float expected[] = {1, 2, 3, 4, 5, 6};
    for (std::size_t c = 0; c < 6; ++c)
        EXPECT_EQ(out(0, 0, c), expected[c]) << c;
    // A 3x3 block of 5 in the top-left corner of a 6x6 zero image, window 5.
    Array3<float> block(1, 6, 6), med(1, 6, 6);
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t c = 0; c < 3; ++c)
            block(0, r, c) = 5.f;
    ASSERT_TRUE(medianFilter2d(block.plane(0), med.plane(0), 5).isOk());
    // (0,3): rows {0,0,0,1,2} (all in the block's rows), columns {1,2,3,4,5}: 2 of 5 columns
    // are 5 -> 10 fives of 25 -> median 0. (2,2): rows {0..4}, cols {0..4}: 9 of 25 -> 0.
    // (1,1): rows {0,0,1,2,3}, cols {0,0,1,2,3}: 16 of 25 fives -> 5; zero padding: 9 -> 0.
    EXPECT_EQ(med(0, 0, 3), 0.f);
    EXPECT_EQ(med(0, 2, 2), 0.f);
    EXPECT_EQ(med(0, 1, 1), 5.f);
}

TEST(MedianFilter, BadArgumentsAreInvalidAndBackendIsNamed) {
    Array3<float> in(1, 4, 4), out(1, 4, 5);
    EXPECT_EQ(medianFilter2d(in.plane(0), in.plane(0), 4).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(medianFilter2d(in.plane(0), out.plane(0), 3).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(medianFilter2dBuiltin(in.plane(0), out.plane(0), 3).code(),
              ErrorCode::InvalidArgument);
    EXPECT_STREQ(medianFilterBackendName(), TOMO_WITH_ITK ? "itk" : "builtin");
}

}  // namespace
}  // namespace tomo
