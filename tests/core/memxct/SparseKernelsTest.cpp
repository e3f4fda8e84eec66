// CSR SpMV, the scan-based transpose and the multi-stage buffered SpMV against dense references.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/memxct/BufferedMatrix.h"
#include "core/memxct/CsrMatrix.h"

namespace tomo {
namespace {

/// A random rows x cols matrix with about density * cols entries per row (some rows and
/// columns empty), rows sorted by column; also returned densely.
CsrMatrix randomCsr(std::size_t rows, std::size_t cols, double density, std::uint32_t seed,
                    std::vector<double>& dense) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    CsrMatrix a;
    a.rows = rows;
    a.cols = cols;
    a.rowPtr.push_back(0);
    dense.assign(rows * cols, 0.0);
    for (std::size_t r = 0; r < rows; ++r) {
        const bool emptyRow = r % 7 == 3;
        for (std::size_t c = 0; c < cols; ++c)
            if (!emptyRow && c % 5 != 2 && u(rng) < density) {
                const float v = static_cast<float>(u(rng) * 2.0 - 0.5);
                a.columns.push_back(static_cast<std::uint32_t>(c));
                a.values.push_back(v);
                dense[r * cols + c] = v;
            }
        a.rowPtr.push_back(a.columns.size());
    }
    return a;
}

std::vector<float> randomVector(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v)
        x = u(rng);
    return v;
}

/// Dense product in double and the sum of |terms| per row (the float rounding scale).
void denseProduct(const std::vector<double>& dense, std::size_t rows, std::size_t cols,
                  const std::vector<float>& x, std::vector<double>& y, std::vector<double>& mag) {
    y.assign(rows, 0.0);
    mag.assign(rows, 0.0);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) {
            y[r] += dense[r * cols + c] * x[c];
            mag[r] += std::abs(dense[r * cols + c] * x[c]);
        }
}

TEST(CsrMatrix, SpmvMatchesDense) {
    std::vector<double> dense, ref, mag;
    const CsrMatrix a = randomCsr(97, 61, 0.3, 1, dense);
    ASSERT_TRUE(a.validate().isOk());
    const auto x = randomVector(61, 2);
    std::vector<float> y(97, -7.0f);
    ASSERT_TRUE(spmvCsr(a, x, y, {2, {}, nullptr}).isOk());
    denseProduct(dense, 97, 61, x, ref, mag);
    for (std::size_t r = 0; r < 97; ++r)
        EXPECT_NEAR(y[r], ref[r], 1e-6 * (mag[r] + 1e-30)) << r;
}

TEST(CsrMatrix, TransposeEqualsDenseTransposeAndKeepsOrder) {
    for (std::uint32_t seed : {3u, 4u, 5u}) {
        std::vector<double> dense;
        const std::size_t rows = 50 + seed * 37, cols = 41 + seed * 11;
        const CsrMatrix a = randomCsr(rows, cols, 0.2, seed, dense);
        for (int threads : {1, 3}) {
            auto t = transposeCsr(a, {threads, {}, nullptr});
            ASSERT_TRUE(t.isOk());
            ASSERT_TRUE(t->validate().isOk());
            ASSERT_EQ(t->rows, cols);
            ASSERT_EQ(t->cols, rows);
            std::vector<double> back(rows * cols, 0.0);
            for (std::size_t c = 0; c < cols; ++c)
                for (std::uint64_t j = t->rowPtr[c]; j < t->rowPtr[c + 1]; ++j) {
                    back[t->columns[j] * cols + c] = t->values[j];
                    if (j > t->rowPtr[c]) {
                        EXPECT_LT(t->columns[j - 1], t->columns[j]);
                    }
                }
            EXPECT_EQ(back, dense) << "seed " << seed << " threads " << threads;
        }
    }
}

TEST(BufferedMatrix, EqualsCsrForManyStageLayouts) {
    std::vector<double> dense, ref, mag;
    const std::size_t rows = 203, cols = 157;
    const CsrMatrix a = randomCsr(rows, cols, 0.25, 6, dense);
    const auto x = randomVector(cols, 7);
    std::vector<float> yCsr(rows);
    ASSERT_TRUE(spmvCsr(a, x, yCsr, {1, {}, nullptr}).isOk());
    denseProduct(dense, rows, cols, x, ref, mag);
    // (partition rows, buffer floats): one stage per partition, many tiny stages, odd sizes.
    const std::size_t layouts[][2] = {{16, 4096}, {16, 7}, {1, 3}, {64, 33}, {203, 1}, {5, 157}};
    for (const auto& l : layouts) {
        auto b = buildBuffered(a, l[0], l[1], {2, {}, nullptr});
        ASSERT_TRUE(b.isOk());
        ASSERT_EQ(b->nonzeros(), a.nonzeros());
        for (std::size_t s = 0; s < b->stages(); ++s)
            ASSERT_LE(b->mapBegin[s + 1] - b->mapBegin[s], l[1]);
        std::vector<float> y(rows, 99.0f);
        ASSERT_TRUE(spmvBuffered(*b, x, y, {3, {}, nullptr}).isOk());
        for (std::size_t r = 0; r < rows; ++r) {
            EXPECT_NEAR(y[r], ref[r], 1e-6 * (mag[r] + 1e-30)) << "layout " << l[0] << "/" << l[1];
            EXPECT_NEAR(y[r], yCsr[r], 2e-6 * (mag[r] + 1e-30));
        }
    }
}

TEST(BufferedMatrix, OneStageOneRowPartitionIsBitIdenticalToCsr) {
    // With one row per partition and a buffer holding all its inputs, the buffered kernel sums
    // exactly the terms of spmvCsr in the same grouping.
    std::vector<double> dense;
    const CsrMatrix a = randomCsr(80, 300, 0.3, 8, dense);
    const auto x = randomVector(300, 9);
    auto b = buildBuffered(a, 1, 65536, {1, {}, nullptr});
    ASSERT_TRUE(b.isOk());
    std::vector<float> y1(80), y2(80);
    ASSERT_TRUE(spmvCsr(a, x, y1, {1, {}, nullptr}).isOk());
    ASSERT_TRUE(spmvBuffered(*b, x, y2, {1, {}, nullptr}).isOk());
    EXPECT_EQ(y1, y2);
}

TEST(BufferedMatrix, RejectsBadParametersAndSizes) {
    std::vector<double> dense;
    const CsrMatrix a = randomCsr(10, 10, 0.5, 10, dense);
    EXPECT_EQ(buildBuffered(a, 0, 16, {}).status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(buildBuffered(a, 16, 65537, {}).status().code(), ErrorCode::InvalidArgument);
    auto b = buildBuffered(a, 4, 4, {});
    ASSERT_TRUE(b.isOk());
    std::vector<float> x(9), y(10);
    EXPECT_EQ(spmvBuffered(*b, x, y, {}).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(spmvCsr(a, x, y, {}).code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
