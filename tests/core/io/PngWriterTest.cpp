// writePngGray: the file is decoded here by an independent reader (chunk walk, bitwise CRC-32,
// zlib header check, stored-block inflate, plain Adler-32) and compared pixel by pixel with the
// mapping computed in double precision.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "IoTestUtil.h"
#include "core/io/ImageIO.h"

namespace tomo {
namespace {

using Bytes = std::vector<unsigned char>;

std::uint32_t be32(const Bytes& b, std::size_t at) {
    return std::uint32_t{b.at(at)} << 24 | std::uint32_t{b.at(at + 1)} << 16 |
           std::uint32_t{b.at(at + 2)} << 8 | std::uint32_t{b.at(at + 3)};
}

std::uint32_t crc32Bitwise(const unsigned char* p, std::size_t n) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

struct DecodedPng {
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint8_t> pixels;  // row-major, filter bytes removed
    int idatChunks = 0;
    int storedBlocks = 0;
};

// Returns false (with a gtest failure) on any format violation.
bool decodePng(const Bytes& f, DecodedPng& out) {
    const Bytes sig = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    EXPECT_TRUE(f.size() > 8 && Bytes(f.begin(), f.begin() + 8) == sig) << "signature";
    std::size_t pos = 8;
    Bytes z;
    bool sawEnd = false;
    std::vector<std::string> order;
    while (pos + 12 <= f.size()) {
        std::uint32_t len = be32(f, pos);
        std::string type(f.begin() + static_cast<long>(pos) + 4,
                         f.begin() + static_cast<long>(pos) + 8);
        EXPECT_LE(pos + 12 + len, f.size());
        EXPECT_EQ(crc32Bitwise(&f[pos + 4], len + 4), be32(f, pos + 8 + len)) << type << " CRC";
        if (type == "IHDR") {
            EXPECT_EQ(len, 13u);
            out.width = be32(f, pos + 8);
            out.height = be32(f, pos + 12);
            EXPECT_EQ(f[pos + 16], 8) << "bit depth";
            EXPECT_EQ(f[pos + 17], 0) << "colour type grey";
            EXPECT_EQ(f[pos + 18] | f[pos + 19] | f[pos + 20], 0) << "compression/filter/interlace";
        } else if (type == "IDAT") {
            z.insert(z.end(), f.begin() + static_cast<long>(pos) + 8,
                     f.begin() + static_cast<long>(pos + 8 + len));
            ++out.idatChunks;
        } else if (type == "IEND") {
            sawEnd = true;
        }
        order.push_back(type);
        pos += 12 + len;
    }
    EXPECT_TRUE(sawEnd && pos == f.size()) << "IEND must end the file";
    EXPECT_EQ(order.front(), "IHDR");
    if (::testing::Test::HasFailure() || z.size() < 6) return false;

    // zlib: CMF/FLG, then stored blocks, then Adler-32 (RFC 1950/1951).
    EXPECT_EQ(z[0] & 0x0F, 8) << "deflate";
    EXPECT_EQ((z[0] * 256 + z[1]) % 31, 0) << "FCHECK";
    EXPECT_EQ(z[1] & 0x20, 0) << "no preset dictionary";
    std::size_t p = 2;
    Bytes raw;
    for (bool last = false; !last;) {
        if (p + 5 > z.size()) return false;
        last = (z[p] & 1) != 0;
        EXPECT_EQ((z[p] >> 1) & 3, 0) << "stored block";
        std::uint32_t len = z[p + 1] | z[p + 2] << 8;
        std::uint32_t nlen = z[p + 3] | z[p + 4] << 8;
        EXPECT_EQ(len ^ 0xFFFFu, nlen);
        EXPECT_LE(len, 65535u);
        p += 5;
        if (p + len > z.size()) return false;
        raw.insert(raw.end(), z.begin() + static_cast<long>(p),
                   z.begin() + static_cast<long>(p + len));
        p += len;
        ++out.storedBlocks;
    }
    EXPECT_EQ(p + 4, z.size());
    std::uint64_t a = 1, b = 0;
    for (unsigned char c : raw) {
        a = (a + c) % 65521;
        b = (b + a) % 65521;
    }
    EXPECT_EQ(static_cast<std::uint32_t>(b << 16 | a), be32(z, p)) << "Adler-32";

    EXPECT_EQ(raw.size(), std::size_t{out.height} * (out.width + 1));
    if (raw.size() != std::size_t{out.height} * (out.width + 1)) return false;
    for (std::size_t r = 0; r < out.height; ++r) {
        EXPECT_EQ(raw[r * (out.width + 1)], 0) << "filter type of row " << r;
        out.pixels.insert(out.pixels.end(),
                          raw.begin() + static_cast<long>(r * (out.width + 1) + 1),
                          raw.begin() + static_cast<long>((r + 1) * (out.width + 1)));
    }
    return !::testing::Test::HasFailure();
}

std::uint8_t expectedGrey(double v, double lo, double hi) {
    if (std::isnan(v)) return 0;
    double g = std::round((v - lo) / (hi - lo) * 255.0);
    return static_cast<std::uint8_t>(g < 0 ? 0 : g > 255 ? 255 : g);
}

TEST(PngWriter, ExplicitRangeClampsAndMapsNanToZero) {
    test::ScratchDir dir("png");
    Array3<float> img(1, 3, 5);  // padded rows: the writer must skip the padding
    const float values[3][5] = {
        {-2.f, -1.f, 0.f, 0.5f, 1.f},
        {2.f, 3.f, 0.25f, 0.75f, std::numeric_limits<float>::quiet_NaN()},
        {std::numeric_limits<float>::infinity(), 0.1f, 0.9f, 0.002f, 0.998f}};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 5; ++c)
            img(0, r, c) = values[r][c];
    ASSERT_TRUE(writePngGray(dir / "a.png", img.plane(0), 0.0, 1.0).isOk());
    DecodedPng png;
    ASSERT_TRUE(decodePng(test::readBytes(dir / "a.png"), png));
    ASSERT_EQ(png.width, 5u);
    ASSERT_EQ(png.height, 3u);
    const std::uint8_t expected[15] = {0,   0, 0,   128, 255, 255, 255, 64,
                                       191, 0, 255, 26,  229, 1,   254};
    for (int i = 0; i < 15; ++i)
        EXPECT_EQ(png.pixels[i], expected[i]) << "pixel " << i;
    EXPECT_EQ(dir.list(), std::vector<std::string>{"a.png"});
}

TEST(PngWriter, AutoRangeLargeImageSpansBlocksAndChunks) {
    test::ScratchDir dir("png");
    // 1100 x 1000 -> 1.1 MB of filtered scanlines: 17 stored blocks and 2 IDAT chunks.
    const std::size_t h = 1000, w = 1100;
    Array3<float> img(1, h, w);
    for (std::size_t r = 0; r < h; ++r)
        for (std::size_t c = 0; c < w; ++c)
            img(0, r, c) =
                static_cast<float>(std::sin(0.01 * static_cast<double>(r * w + c)) * 40.0 + 3.0);
    double lo = 1e300, hi = -1e300;
    for (std::size_t r = 0; r < h; ++r)
        for (std::size_t c = 0; c < w; ++c) {
            lo = std::min(lo, double{img(0, r, c)});
            hi = std::max(hi, double{img(0, r, c)});
        }
    ASSERT_TRUE(writePngGray(dir / "big.png", img.plane(0)).isOk());
    DecodedPng png;
    ASSERT_TRUE(decodePng(test::readBytes(dir / "big.png"), png));
    ASSERT_EQ(png.width, w);
    ASSERT_EQ(png.height, h);
    EXPECT_EQ(png.storedBlocks, static_cast<int>((h * (w + 1) + 65534) / 65535));
    EXPECT_GE(png.idatChunks, 2);
    int mismatches = 0, zeros = 0, full = 0;
    for (std::size_t i = 0; i < h * w; ++i) {
        std::uint8_t e = expectedGrey(img(0, i / w, i % w), lo, hi);
        mismatches += png.pixels[i] != e;
        zeros += png.pixels[i] == 0;
        full += png.pixels[i] == 255;
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_GE(zeros, 1);  // the minimum maps to 0, the maximum to 255
    EXPECT_GE(full, 1);
}

TEST(PngWriter, ConstantImageIsBlackAndEmptyImageIsRejected) {
    test::ScratchDir dir("png");
    Array3<float> img(1, 2, 2);
    img.fill(7.f);
    ASSERT_TRUE(writePngGray(dir / "c.png", img.plane(0)).isOk());
    DecodedPng png;
    ASSERT_TRUE(decodePng(test::readBytes(dir / "c.png"), png));
    EXPECT_EQ(png.pixels, (std::vector<std::uint8_t>{0, 0, 0, 0}));
    Array3<float> empty(1, 0, 4);
    Status s = writePngGray(dir / "e.png", empty.plane(0));
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(dir.list(), std::vector<std::string>{"c.png"});
}

}  // namespace
}  // namespace tomo
