// Two-level pseudo-Hilbert ordering: bijection on real pixels, 2-D adjacency of consecutive
// indices, the Hilbert curve inside a tile and the tile scan.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <vector>

#include "core/memxct/HilbertOrdering.h"

namespace tomo {
namespace {

bool adjacent(std::uint32_t p, std::uint32_t q, int width) {
    const int pr = static_cast<int>(p) / width, pc = static_cast<int>(p) % width;
    const int qr = static_cast<int>(q) / width, qc = static_cast<int>(q) % width;
    return std::abs(pr - qr) + std::abs(pc - qc) == 1;
}

void expectBijection(const HilbertOrdering& h, std::span<const std::uint8_t> mask) {
    const std::size_t pixels = static_cast<std::size_t>(h.width()) * h.height();
    std::size_t real = 0;
    for (std::size_t p = 0; p < pixels; ++p) {
        const bool isReal = mask.empty() || mask[p] != 0;
        real += isReal ? 1 : 0;
        if (!isReal) {
            EXPECT_EQ(h.curveIndex(p), -1) << "masked pixel " << p;
            continue;
        }
        ASSERT_GE(h.curveIndex(p), 0) << "pixel " << p;
        EXPECT_EQ(h.pixelAt(static_cast<std::size_t>(h.curveIndex(p))), p);
    }
    ASSERT_EQ(h.size(), real);
    std::set<std::uint32_t> seen(h.pixels().begin(), h.pixels().end());
    EXPECT_EQ(seen.size(), real);
}

TEST(HilbertOrdering, SingleTileIsTheHilbertCurve) {
    auto h = HilbertOrdering::create(4, 4, 4);
    ASSERT_TRUE(h.isOk());
    // Order-2 Hilbert curve from (0,0) to (3,0) in (column, row) coordinates.
    const std::vector<std::pair<int, int>> expected = {
        {0, 0}, {0, 1}, {1, 1}, {1, 0}, {2, 0}, {3, 0}, {3, 1}, {2, 1},
        {2, 2}, {3, 2}, {3, 3}, {2, 3}, {1, 3}, {1, 2}, {0, 2}, {0, 3}};
    // The first tile enters at corner (0,0); with one tile the exit is the adjacent corner.
    ASSERT_EQ(h->size(), 16u);
    std::vector<std::pair<int, int>> got;
    for (std::size_t i = 0; i < 16; ++i)
        got.emplace_back(static_cast<int>(h->pixelAt(i)) % 4, static_cast<int>(h->pixelAt(i)) / 4);
    // Either the curve or its transpose (exit corner to the right or below the entry).
    std::vector<std::pair<int, int>> transposed;
    for (auto [c, r] : expected)
        transposed.emplace_back(r, c);
    EXPECT_TRUE(got == expected || got == transposed);
}

TEST(HilbertOrdering, TileScanHasUnitStepsOnAnyGrid) {
    for (int w = 1; w <= 24; ++w)
        for (int h = 1; h <= 24; ++h) {
            const auto scan = HilbertOrdering::tileScan(w, h);
            ASSERT_EQ(scan.size(), static_cast<std::size_t>(w * h));
            std::set<std::pair<int, int>> seen(scan.begin(), scan.end());
            ASSERT_EQ(seen.size(), scan.size()) << w << "x" << h;
            for (std::size_t i = 1; i < scan.size(); ++i)
                ASSERT_EQ(std::abs(scan[i].first - scan[i - 1].first) +
                              std::abs(scan[i].second - scan[i - 1].second),
                          1)
                    << w << "x" << h << " step " << i;
        }
}

TEST(HilbertOrdering, FullTilesGiveAConnectedCurve) {
    // Tile grids 4x3, 5x4 (odd long side), 3x5, 1x1, 7x2 and the pure pixel scan (tile 1).
    const int cases[][3] = {{32, 24, 8}, {40, 32, 8}, {12, 20, 4}, {16, 16, 16},
                            {56, 16, 8}, {13, 11, 1}, {64, 64, 16}};
    for (const auto& c : cases) {
        auto h = HilbertOrdering::create(c[0], c[1], c[2]);
        ASSERT_TRUE(h.isOk());
        expectBijection(*h, {});
        for (std::size_t i = 1; i < h->size(); ++i)
            ASSERT_TRUE(adjacent(h->pixelAt(i - 1), h->pixelAt(i), c[0]))
                << c[0] << "x" << c[1] << " tile " << c[2] << " at " << i;
    }
}

TEST(HilbertOrdering, ClippedTilesAreSkippedAndJumpsStayInThem) {
    // The paper's example: 13 x 11 with 4 x 4 tiles (a 4 x 3 tile grid, clipped at two edges).
    for (auto [w, h, t] : {std::tuple{13, 11, 4}, std::tuple{45, 36, 8}, std::tuple{30, 17, 16}}) {
        auto o = HilbertOrdering::create(w, h, t);
        ASSERT_TRUE(o.isOk());
        expectBijection(*o, {});
        const int fullW = w / t * t, fullH = h / t * t;
        auto inClipped = [&](std::uint32_t p) {
            return static_cast<int>(p) % w >= fullW || static_cast<int>(p) / w >= fullH;
        };
        int jumps = 0;
        for (std::size_t i = 1; i < o->size(); ++i)
            if (!adjacent(o->pixelAt(i - 1), o->pixelAt(i), w)) {
                ++jumps;
                EXPECT_TRUE(inClipped(o->pixelAt(i - 1)) || inClipped(o->pixelAt(i)))
                    << w << "x" << h << " jump at " << i;
            }
        EXPECT_LT(jumps, (w + h) / 2) << w << "x" << h;
    }
}

TEST(HilbertOrdering, MaskedPixelsAreSkipped) {
    const int n = 33;
    std::vector<std::uint8_t> mask(n * n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            mask[r * n + c] = (r - 16) * (r - 16) + (c - 16) * (c - 16) <= 16 * 16;
    auto h = HilbertOrdering::create(n, n, 8, mask);
    ASSERT_TRUE(h.isOk());
    expectBijection(*h, mask);
    // Most steps are still unit steps: the curve is cut only where it leaves the disc.
    int steps = 0;
    for (std::size_t i = 1; i < h->size(); ++i)
        steps += adjacent(h->pixelAt(i - 1), h->pixelAt(i), n) ? 1 : 0;
    EXPECT_GT(steps, static_cast<int>(0.9 * static_cast<double>(h->size())));
}

TEST(HilbertOrdering, RowMajorBaselineIsThePixelOrder) {
    std::vector<std::uint8_t> mask(6 * 5, 1);
    mask[7] = mask[20] = 0;
    auto h = HilbertOrdering::rowMajor(6, 5, mask);
    ASSERT_TRUE(h.isOk());
    expectBijection(*h, mask);
    for (std::size_t i = 1; i < h->size(); ++i)
        EXPECT_LT(h->pixelAt(i - 1), h->pixelAt(i));
    EXPECT_EQ(h->pixelAt(7), 8u);
}

TEST(HilbertOrdering, RejectsBadArguments) {
    EXPECT_EQ(HilbertOrdering::create(0, 4, 4).status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(HilbertOrdering::create(4, 4, 3).status().code(), ErrorCode::InvalidArgument);
    const std::vector<std::uint8_t> mask(5, 1);
    EXPECT_EQ(HilbertOrdering::create(4, 4, 4, mask).status().code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
