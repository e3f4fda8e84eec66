// TIFF stacks (TiffStack.h), page/row ranges and 16-bit scaled TIFF (TiffFormat.h). Integer inputs
// are written with libtiff directly; expected values are the stored integers.
#include <gtest/gtest.h>
#include <tiffio.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "IoTestUtil.h"
#include "TestUtil.h"
#include "core/io/ImageIO.h"
#include "core/io/TiffFormat.h"
#include "core/io/TiffStack.h"

namespace tomo {
namespace {

using test::ScratchDir;

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

/// One page of h x w samples of T, value(r, c) = base + 3r + c (negated on odd columns when
/// signed), strips of 2 rows or @p tile x @p tile tiles. Returns the stored values as floats.
template <class T>
std::vector<float> writePage(const std::filesystem::path& path, std::uint16_t format,
                             std::uint32_t h, std::uint32_t w, int base, std::uint32_t tile = 0) {
    TIFF* t = TIFFOpen(path.c_str(), "w");
    EXPECT_NE(t, nullptr);
    std::vector<float> expected;
    if (!t) return expected;
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, w);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, h);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(8 * sizeof(T)));
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, format);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    std::vector<T> plane(std::size_t{h} * w);
    for (std::uint32_t r = 0; r < h; ++r)
        for (std::uint32_t c = 0; c < w; ++c) {
            double v = base + 3.0 * r + c;
            if (format != SAMPLEFORMAT_UINT && (c % 2)) v = -v;
            if (format == SAMPLEFORMAT_IEEEFP) v += 0.25;
            plane[r * w + c] = static_cast<T>(v);
            expected.push_back(static_cast<float>(plane[r * w + c]));
        }
    if (tile) {
        TIFFSetField(t, TIFFTAG_TILEWIDTH, tile);
        TIFFSetField(t, TIFFTAG_TILELENGTH, tile);
        std::vector<T> buf(std::size_t{tile} * tile);
        for (std::uint32_t y = 0; y < h; y += tile)
            for (std::uint32_t x = 0; x < w; x += tile) {
                std::fill(buf.begin(), buf.end(), T{});
                for (std::uint32_t r = y; r < std::min(h, y + tile); ++r)
                    for (std::uint32_t c = x; c < std::min(w, x + tile); ++c)
                        buf[(r - y) * tile + (c - x)] = plane[r * w + c];
                TIFFWriteTile(t, buf.data(), x, y, 0, 0);
            }
    } else {
        TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 2u);
        for (std::uint32_t r = 0; r < h; ++r)
            TIFFWriteScanline(t, &plane[r * w], r, 0);
    }
    TIFFClose(t);
    return expected;
}

Array3<float> ramp(std::size_t n0, std::size_t n1, std::size_t n2) {
    Array3<float> a(n0, n1, n2);
    test::fillRandom(a, 11, -50.f, 50.f);
    return a;
}

TEST(TiffStack, FolderOfEveryIntegerAndFloatTypeReadsInNaturalOrder) {
    ScratchDir dir("tiffstack");
    // Names chosen so that plain string order (p1, p10, p2, ...) differs from natural order.
    std::vector<std::vector<float>> pages;
    pages.push_back(writePage<std::uint8_t>(dir / "p1.tif", SAMPLEFORMAT_UINT, 5, 4, 10));
    pages.push_back(writePage<std::int8_t>(dir / "p2.tif", SAMPLEFORMAT_INT, 5, 4, 20));
    pages.push_back(writePage<std::uint16_t>(dir / "p3.tif", SAMPLEFORMAT_UINT, 5, 4, 40000));
    pages.push_back(writePage<std::int16_t>(dir / "p4.tif", SAMPLEFORMAT_INT, 5, 4, 30000));
    pages.push_back(writePage<std::uint32_t>(dir / "p5.tif", SAMPLEFORMAT_UINT, 5, 4, 1 << 23));
    pages.push_back(writePage<std::int32_t>(dir / "p6.tif", SAMPLEFORMAT_INT, 5, 4, 1 << 22));
    pages.push_back(writePage<float>(dir / "p9.tif", SAMPLEFORMAT_IEEEFP, 5, 4, 7));
    pages.push_back(writePage<double>(dir / "p10.TIFF", SAMPLEFORMAT_IEEEFP, 5, 4, 9, 16));
    test::writeBytes(dir / "notes.txt", "x", 1);  // ignored: not a TIFF name

    auto files = listTiffStack(dir.path());
    ASSERT_TRUE(files.isOk()) << files.status().toString();
    ASSERT_EQ(files->size(), 8u);
    EXPECT_EQ(files->back().filename(), "p10.TIFF");
    auto stack = readTiffStack(dir.path());
    ASSERT_TRUE(stack.isOk()) << stack.status().toString();
    ASSERT_EQ(stack->dims(), (std::array<std::size_t, 3>{8, 5, 4}));
    for (std::size_t p = 0; p < 8; ++p)
        for (std::size_t r = 0; r < 5; ++r)
            for (std::size_t c = 0; c < 4; ++c)
                ASSERT_EQ((*stack)(p, r, c), pages[p][r * 4 + c]) << p << " " << r << " " << c;

    // A pattern selects a subset; a range selects files and rows (row 3 starts strip 1).
    auto some = readTiffStack(dir / "p?.tif", ReadRange{1, 2, 3, 2});
    ASSERT_TRUE(some.isOk()) << some.status().toString();
    ASSERT_EQ(some->dims(), (std::array<std::size_t, 3>{2, 2, 4}));
    for (std::size_t p = 0; p < 2; ++p)
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t c = 0; c < 4; ++c)
                EXPECT_EQ((*some)(p, r, c), pages[1 + p][(3 + r) * 4 + c]);
}

TEST(TiffStack, WriterRoundTripsFloatAndNamesFilesInOrder) {
    ScratchDir dir("tiffstack");
    const Array3<float> a = ramp(11, 6, 7);
    ASSERT_TRUE(writeTiffStack(dir / "out", "proj", a).isOk());
    auto files = listTiffStack(dir / "out");
    ASSERT_TRUE(files.isOk());
    ASSERT_EQ(files->size(), 11u);
    EXPECT_EQ((*files)[10].filename(), "proj_00010.tif");
    auto back = readTiffStack(dir / "out" / "proj_*.tif");
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    EXPECT_EQ(test::maxRelDiff(*back, a), 0.0);
}

TEST(TiffStack, MultiPageRangeAndTiledRowRangeMatchTheWholeRead) {
    ScratchDir dir("tiffstack");
    const Array3<float> a = ramp(5, 9, 6);
    ASSERT_TRUE(writeTiff(dir / "m.tif", a).isOk());
    auto part = readTiffRange(dir / "m.tif", ReadRange{2, 3, 4, 5});
    ASSERT_TRUE(part.isOk()) << part.status().toString();
    ASSERT_EQ(part->dims(), (std::array<std::size_t, 3>{3, 5, 6}));
    for (std::size_t p = 0; p < 3; ++p)
        for (std::size_t r = 0; r < 5; ++r)
            for (std::size_t c = 0; c < 6; ++c)
                EXPECT_EQ((*part)(p, r, c), a(2 + p, 4 + r, c));
    // 16x16 tiles over a 40x20 page: rows 17..34 span tile rows 1 and 2.
    auto values = writePage<std::uint16_t>(dir / "t.tif", SAMPLEFORMAT_UINT, 40, 20, 100, 16);
    auto rows = readTiffRange(dir / "t.tif", ReadRange::rows(17, 18));
    ASSERT_TRUE(rows.isOk()) << rows.status().toString();
    for (std::size_t r = 0; r < 18; ++r)
        for (std::size_t c = 0; c < 20; ++c)
            ASSERT_EQ((*rows)(0, r, c), values[(17 + r) * 20 + c]);
    EXPECT_EQ(readTiffRange(dir / "m.tif", ReadRange::planes(5, 1)).status().code(),
              ErrorCode::InvalidArgument);
}

TEST(TiffStack, SixteenBitScaleRoundTripsWithinHalfAStep) {
    ScratchDir dir("tiffstack");
    const Array3<float> a = ramp(3, 8, 9);  // values in [-50, 50)
    const Tiff16Scale map = Tiff16Scale::forRange(-50, 50);
    EXPECT_DOUBLE_EQ(map.scale, 100.0 / 65535.0);
    ASSERT_TRUE(writeTiff16(dir / "s.tif", a, map).isOk());
    auto info = probeTiff(dir / "s.tif");
    ASSERT_TRUE(info.isOk());
    EXPECT_EQ(info->bitsPerSample, 16);
    EXPECT_EQ(info->pages, 3u);
    EXPECT_TRUE(info->scaled);
    EXPECT_DOUBLE_EQ(info->scale, map.scale);
    EXPECT_DOUBLE_EQ(info->offset, -50.0);
    EXPECT_LT(test::readBytes(dir / "s.tif").size(), 3u * 8 * 9 * 2 + 2000);
    // ImageJ's calibration (issue 28, point 10): ImageJ reads the description as Java properties
    // when it starts with "ImageJ"; cf=0 is its straight line value = c0 + c1 * count, applied
    // only with a value unit.
    {
        TIFF* t = TIFFOpen((dir / "s.tif").c_str(), "r");
        ASSERT_NE(t, nullptr);
        const char* text = nullptr;
        ASSERT_TRUE(TIFFGetField(t, TIFFTAG_IMAGEDESCRIPTION, &text) && text);
        const std::string d(text);
        TIFFClose(t);
        EXPECT_EQ(d.rfind("ImageJ=", 0), 0u) << d;
        std::map<std::string, std::string> props;
        std::size_t start = 0;
        while (start < d.size()) {
            const std::size_t end = std::min(d.find('\n', start), d.size());
            const std::string line = d.substr(start, end - start);
            if (const std::size_t eq = line.find('='); eq != std::string::npos)
                props[line.substr(0, eq)] = line.substr(eq + 1);
            start = end + 1;
        }
        EXPECT_EQ(props["cf"], "0");
        EXPECT_FALSE(props["vunit"].empty());
        EXPECT_DOUBLE_EQ(std::stod(props["c0"]), map.offset);
        EXPECT_DOUBLE_EQ(std::stod(props["c1"]), map.scale);
    }
    auto back = readTiff(dir / "s.tif");
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    double worst = 0;
    for (std::size_t p = 0; p < 3; ++p)
        for (std::size_t r = 0; r < 8; ++r)
            for (std::size_t c = 0; c < 9; ++c)
                worst = std::max(worst, std::abs(double((*back)(p, r, c)) - a(p, r, c)));
    EXPECT_LE(worst, 0.5 * map.scale + 1e-5);  // + float32 rounding of values near 50
    EXPECT_GT(worst, 0.0);                     // really quantised

    // The same through a 16-bit stack.
    ASSERT_TRUE(writeTiffStack(dir / "st", "q", a, &map).isOk());
    auto stack = readTiffStack(dir / "st");
    ASSERT_TRUE(stack.isOk());
    EXPECT_LE(test::maxRelDiff(*stack, *back), 0.0);
}

TEST(TiffStack, SixteenBitOutOfRangeOrBadScaleWritesNothing) {
    ScratchDir dir("tiffstack");
    Array3<float> a = ramp(3, 4, 4);
    a(2, 3, 1) = 80.f;  // beyond [-50, 50]
    const Tiff16Scale map = Tiff16Scale::forRange(-50, 50);
    Status s = writeTiff16(dir / "s.tif", a, map);
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(contains(s.message(), "(2, 3, 1)")) << s.message();
    EXPECT_FALSE(writeTiff16(dir / "z.tif", a, Tiff16Scale{0.0, 0.0}).isOk());
    // The stack fails on its last plane: the planes it wrote before are removed again.
    Status st = writeTiffStack(dir / "st", "q", a, &map);
    ASSERT_FALSE(st.isOk());
    EXPECT_TRUE(contains(st.message(), "q_00002.tif"));
    EXPECT_TRUE(std::filesystem::is_empty(dir / "st"));
    EXPECT_EQ(dir.list(), std::vector<std::string>{"st"});
}

TEST(TiffStack, BadStacksNameTheFileAndCause) {
    ScratchDir dir("tiffstack");
    std::filesystem::create_directory(dir / "empty");
    auto none = readTiffStack(dir / "empty");
    ASSERT_FALSE(none.isOk());
    EXPECT_EQ(none.status().code(), ErrorCode::NotFound);
    EXPECT_TRUE(contains(none.status().message(), "empty"));
    EXPECT_EQ(readTiffStack(dir / "nothing_*.tif").status().code(), ErrorCode::NotFound);

    writePage<std::uint8_t>(dir / "a_0.tif", SAMPLEFORMAT_UINT, 5, 4, 1);
    writePage<std::uint8_t>(dir / "a_1.tif", SAMPLEFORMAT_UINT, 5, 3, 1);
    auto sizes = readTiffStack(dir / "a_*.tif");
    ASSERT_FALSE(sizes.isOk());
    EXPECT_EQ(sizes.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(sizes.status().message(), "a_1.tif"));
    EXPECT_TRUE(contains(sizes.status().message(), "differs"));

    ASSERT_TRUE(writeTiff(dir / "b_0.tif", ramp(1, 5, 4)).isOk());
    ASSERT_TRUE(writeTiff(dir / "b_1.tif", ramp(2, 5, 4)).isOk());
    auto pages = readTiffStack(dir / "b_*.tif");
    ASSERT_FALSE(pages.isOk());
    EXPECT_TRUE(contains(pages.status().message(), "b_1.tif: holds 2 pages"));

    ASSERT_TRUE(writeTiff(dir / "c_0.tif", ramp(1, 5, 4)).isOk());
    auto bytes = test::readBytes(dir / "c_0.tif");
    test::writeBytes(dir / "c_1.tif", bytes.data(), 40);  // truncated copy
    auto cut = readTiffStack(dir / "c_*.tif");
    ASSERT_FALSE(cut.isOk());
    EXPECT_EQ(cut.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(cut.status().message(), "c_1.tif"));
    EXPECT_EQ(listTiffStack(dir / "c_0.tif").status().code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
