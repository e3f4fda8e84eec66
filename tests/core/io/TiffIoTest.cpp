// TIFF reading and writing. Inputs of every sample type are written here with libtiff directly
// (strips, tiles, deflate, big-endian, BigTIFF) and must come back as exactly static_cast<float>
// of the stored values; the float32 writer must round-trip bit-exactly.
#include <gtest/gtest.h>
#include <tiffio.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "IoTestUtil.h"
#include "TestUtil.h"
#include "core/io/ImageIO.h"

namespace tomo {
namespace {

using test::ScratchDir;

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

/// Stored test value for flat index i: the type's extremes first, then a spread pattern.
template <class T>
T sample(std::size_t i) {
    if constexpr (std::is_same_v<T, double>) {  // float32's range: larger doubles are rejected
        if (i == 0) return -3.0e38;
        if (i == 1) return 1.0e-30;
    }
    if (i == 0) return std::numeric_limits<T>::lowest();
    if (i == 1)
        return std::numeric_limits<T>::max() / (std::is_floating_point_v<T> ? T(1e30) : T(1));
    if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>((static_cast<double>(i) * 0.37 - 5.0) / 3.0);
    } else {
        auto span = static_cast<double>(std::numeric_limits<T>::max()) -
                    static_cast<double>(std::numeric_limits<T>::lowest());
        double frac = std::fmod(static_cast<double>(i) * 0.6180339887, 1.0);
        return static_cast<T>(static_cast<double>(std::numeric_limits<T>::lowest()) + frac * span);
    }
}

struct Layout {
    const char* mode = "w";  // "w" little-endian, "wb" big-endian, "w8" BigTIFF
    std::uint32_t tile = 0;  // 0: strips
    std::uint32_t rowsPerStrip = 3;
    std::uint16_t compression = COMPRESSION_NONE;
};

/// Writes pages x h x w samples of T with libtiff and returns the expected floats.
template <class T>
std::vector<float> writeWithLibtiff(const std::filesystem::path& path, std::uint16_t format,
                                    std::size_t pages, std::uint32_t h, std::uint32_t w,
                                    const Layout& layout) {
    std::vector<float> expected;
    TIFF* t = TIFFOpen(path.c_str(), layout.mode);
    EXPECT_NE(t, nullptr);
    if (!t) return expected;
    for (std::size_t p = 0; p < pages; ++p) {
        TIFFSetField(t, TIFFTAG_IMAGEWIDTH, w);
        TIFFSetField(t, TIFFTAG_IMAGELENGTH, h);
        TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, static_cast<std::uint16_t>(8 * sizeof(T)));
        TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
        TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, format);
        TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
        TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(t, TIFFTAG_COMPRESSION, layout.compression);
        std::vector<T> plane(std::size_t{h} * w);
        for (std::size_t i = 0; i < plane.size(); ++i) {
            plane[i] = sample<T>(p * plane.size() + i);
            expected.push_back(static_cast<float>(plane[i]));
        }
        if (layout.tile) {
            const std::uint32_t s = layout.tile;
            TIFFSetField(t, TIFFTAG_TILEWIDTH, s);
            TIFFSetField(t, TIFFTAG_TILELENGTH, s);
            std::vector<T> tile(std::size_t{s} * s);
            for (std::uint32_t y = 0; y < h; y += s)
                for (std::uint32_t x = 0; x < w; x += s) {
                    for (std::uint32_t r = 0; r < s; ++r)
                        for (std::uint32_t c = 0; c < s; ++c)
                            tile[r * s + c] =
                                (y + r < h && x + c < w) ? plane[(y + r) * w + x + c] : T(0);
                    EXPECT_GT(TIFFWriteTile(t, tile.data(), x, y, 0, 0), 0);
                }
        } else {
            TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, layout.rowsPerStrip);
            for (std::uint32_t r = 0; r < h; ++r)
                EXPECT_EQ(TIFFWriteScanline(t, &plane[std::size_t{r} * w], r, 0), 1);
        }
        EXPECT_EQ(TIFFWriteDirectory(t), 1);
    }
    TIFFClose(t);
    return expected;
}

void expectEqualStack(const Array3<float>& got, const std::vector<float>& expected,
                      std::size_t pages, std::size_t h, std::size_t w, const std::string& what) {
    ASSERT_EQ(got.dim(0), pages) << what;
    ASSERT_EQ(got.dim(1), h) << what;
    ASSERT_EQ(got.dim(2), w) << what;
    int bad = 0;
    for (std::size_t p = 0; p < pages; ++p)
        for (std::size_t r = 0; r < h; ++r)
            for (std::size_t c = 0; c < w; ++c) {
                float e = expected[(p * h + r) * w + c];
                if (std::bit_cast<std::uint32_t>(got(p, r, c)) != std::bit_cast<std::uint32_t>(e) &&
                    bad++ < 5)
                    ADD_FAILURE() << what << " at (" << p << "," << r << "," << c << "): got "
                                  << got(p, r, c) << ", expected " << e;
            }
    EXPECT_EQ(bad, 0) << what;
}

template <class T>
void checkType(const ScratchDir& dir, std::uint16_t format, const Layout& layout,
               const std::string& what) {
    auto path = dir / (what + ".tif");
    auto expected = writeWithLibtiff<T>(path, format, 2, 18, 20, layout);
    auto r = readTiff(path);
    ASSERT_TRUE(r.isOk()) << what << ": " << r.status().toString();
    expectEqualStack(*r, expected, 2, 18, 20, what);
}

TEST(TiffIo, ReadsEveryIntegerAndFloatTypeExactly) {
    ScratchDir dir("tiff");
    Layout strips;
    checkType<std::uint8_t>(dir, SAMPLEFORMAT_UINT, strips, "u8");
    checkType<std::int8_t>(dir, SAMPLEFORMAT_INT, strips, "s8");
    checkType<std::uint16_t>(dir, SAMPLEFORMAT_UINT, strips, "u16");
    checkType<std::int16_t>(dir, SAMPLEFORMAT_INT, strips, "s16");
    checkType<std::uint32_t>(dir, SAMPLEFORMAT_UINT, strips, "u32");
    checkType<std::int32_t>(dir, SAMPLEFORMAT_INT, strips, "s32");
    checkType<float>(dir, SAMPLEFORMAT_IEEEFP, strips, "f32");
    checkType<double>(dir, SAMPLEFORMAT_IEEEFP, strips, "f64");
}

TEST(TiffIo, ReadsTilesDeflateBigEndianAndBigTiff) {
    ScratchDir dir("tiff");
    checkType<std::uint16_t>(dir, SAMPLEFORMAT_UINT, Layout{"w", 16, 0, COMPRESSION_NONE},
                             "u16-tiles");
    checkType<std::int16_t>(dir, SAMPLEFORMAT_INT, Layout{"wb", 16, 0, COMPRESSION_ADOBE_DEFLATE},
                            "s16-tiles-deflate-be");
    checkType<float>(dir, SAMPLEFORMAT_IEEEFP, Layout{"wb", 0, 5, COMPRESSION_ADOBE_DEFLATE},
                     "f32-strips-deflate-be");
    checkType<double>(dir, SAMPLEFORMAT_IEEEFP, Layout{"w8", 0, 7, COMPRESSION_NONE},
                      "f64-bigtiff");
    checkType<std::uint32_t>(dir, SAMPLEFORMAT_UINT, Layout{"w8b", 16, 0, COMPRESSION_LZW},
                             "u32-bigtiff-be-lzw-tiles");
}

TEST(TiffIo, FloatStackRoundTripIsBitExactAndWellFormed) {
    ScratchDir dir("tiff");
    const std::size_t pages = 3, h = 100, w = 200;  // 81 rows per 64 KiB strip: 2 strips a page
    Array3<float> a(pages, h, w);
    test::fillRandom(a, 11, -1e6f, 1e6f);
    a(0, 0, 0) = std::numeric_limits<float>::denorm_min();
    a(1, 5, 7) = -0.f;
    a(2, 99, 199) = std::numeric_limits<float>::max();
    auto path = dir / "stack.tif";
    Status written = writeTiff(path, a);
    ASSERT_TRUE(written.isOk()) << written.toString();
    EXPECT_EQ(dir.list(), std::vector<std::string>{"stack.tif"});

    TIFF* t = TIFFOpen(path.c_str(), "r");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(TIFFNumberOfDirectories(t), pages);
    std::uint16_t bits = 0, format = 0, photometric = 9, spp = 0, page = 0, total = 0;
    std::uint32_t rps = 0;
    TIFFGetField(t, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetField(t, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFGetField(t, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetField(t, TIFFTAG_ROWSPERSTRIP, &rps);
    TIFFSetDirectory(t, 2);
    TIFFGetField(t, TIFFTAG_PAGENUMBER, &page, &total);
    TIFFClose(t);
    EXPECT_EQ(bits, 32);
    EXPECT_EQ(format, SAMPLEFORMAT_IEEEFP);
    EXPECT_EQ(photometric, PHOTOMETRIC_MINISBLACK);
    EXPECT_EQ(spp, 1);
    EXPECT_EQ(rps, 65536u / (w * 4));
    EXPECT_EQ(page, 2);
    EXPECT_EQ(total, pages);

    auto r = readTiff(path);
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    std::vector<float> expected;
    for (std::size_t p = 0; p < pages; ++p)
        for (std::size_t y = 0; y < h; ++y)
            for (std::size_t x = 0; x < w; ++x)
                expected.push_back(a(p, y, x));
    expectEqualStack(*r, expected, pages, h, w, "round trip");
}

TEST(TiffIo, NonFiniteAndOutOfRangeFloatsAreInvalidData) {
    ScratchDir dir("tiff");
    auto path = dir / "f64.tif";
    TIFF* t = TIFFOpen(path.c_str(), "w");
    ASSERT_NE(t, nullptr);
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 3u);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, 2u);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 64);
    TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    double rows[2][3] = {{1.0, 2.0, 3.0}, {4.0, 1e39, 6.0}};
    for (std::uint32_t r = 0; r < 2; ++r)
        TIFFWriteScanline(t, rows[r], r, 0);
    TIFFClose(t);
    auto r = readTiff(path);
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(
        contains(r.status().message(),
                 "page 0: value at row 1, column 1 is infinite or beyond the float32 range"))
        << r.status().message();

    Array3<float> a(2, 2, 2);
    a(1, 0, 1) = std::numeric_limits<float>::quiet_NaN();
    ASSERT_TRUE(writeTiff(dir / "nan.tif", a).isOk());  // writing keeps values as they are
    r = readTiff(dir / "nan.tif");
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(r.status().message(), "page 1: value at row 0, column 1 is NaN"))
        << r.status().message();
}

TEST(TiffIo, PagesOfDifferentSizesAreInvalidData) {
    ScratchDir dir("tiff");
    auto path = dir / "mixed.tif";
    TIFF* t = TIFFOpen(path.c_str(), "w");
    ASSERT_NE(t, nullptr);
    for (std::uint32_t w : {4u, 5u}) {
        TIFFSetField(t, TIFFTAG_IMAGEWIDTH, w);
        TIFFSetField(t, TIFFTAG_IMAGELENGTH, 4u);
        TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
        TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
        TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
        std::vector<std::uint8_t> row(w, 1);
        for (std::uint32_t r = 0; r < 4; ++r)
            TIFFWriteScanline(t, row.data(), r, 0);
        TIFFWriteDirectory(t);
    }
    TIFFClose(t);
    auto r = readTiff(path);
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(r.status().message(), "page 1: size 5x4 differs from page 0 (4x4)"))
        << r.status().message();
}

TEST(TiffIo, MultiChannelAndOneBitAreUnsupported) {
    ScratchDir dir("tiff");
    auto path = dir / "rgb.tif";
    TIFF* t = TIFFOpen(path.c_str(), "w");
    ASSERT_NE(t, nullptr);
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 2u);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, 2u);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 3);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
    TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    std::uint8_t row[6] = {1, 2, 3, 4, 5, 6};
    for (std::uint32_t r = 0; r < 2; ++r)
        TIFFWriteScanline(t, row, r, 0);
    TIFFClose(t);
    auto r = readTiff(path);
    EXPECT_EQ(r.status().code(), ErrorCode::Unsupported);
    EXPECT_TRUE(contains(r.status().message(), "3 samples per pixel")) << r.status().message();

    path = dir / "bilevel.tif";
    t = TIFFOpen(path.c_str(), "w");
    ASSERT_NE(t, nullptr);
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 8u);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, 1u);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 1);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    std::uint8_t bits = 0xA5;
    TIFFWriteScanline(t, &bits, 0, 0);
    TIFFClose(t);
    r = readTiff(path);
    EXPECT_EQ(r.status().code(), ErrorCode::Unsupported);
    EXPECT_TRUE(contains(r.status().message(), "1-bit")) << r.status().message();
}

TEST(TiffIo, CorruptOrTruncatedFilesGiveErrorsSilently) {
    ScratchDir dir("tiff");
    Array3<float> a(2, 64, 64);
    test::fillRandom(a, 5);
    auto good = dir / "good.tif";
    Status written = writeTiff(good, a);
    ASSERT_TRUE(written.isOk()) << written.toString();
    auto bytes = test::readBytes(good);

    struct Case {
        std::string name;
        std::vector<unsigned char> data;
    };
    std::vector<Case> cases;
    cases.push_back({"half", {bytes.begin(), bytes.begin() + static_cast<long>(bytes.size() / 2)}});
    cases.push_back({"header-only", {bytes.begin(), bytes.begin() + 8}});
    cases.push_back({"text", {'h', 'e', 'l', 'l', 'o', '\n'}});
    auto garbled = bytes;  // first IFD offset points past the end of the file
    garbled[4] = garbled[5] = garbled[6] = 0xFF;
    garbled[7] = 0x7F;
    cases.push_back({"bad-ifd-offset", garbled});
    auto stripCut = bytes;  // page 0's pixels removed: the IFD offset now points into page 1
    stripCut.erase(stripCut.begin() + 8, stripCut.begin() + 8 + 64 * 64 * 4);
    cases.push_back({"shifted", stripCut});

    // Width and length patched to 60000 x 60000 (14 GB): must be refused before allocating.
    auto huge = bytes;
    std::uint32_t ifd = huge[4] | huge[5] << 8 | huge[6] << 16 | std::uint32_t{huge[7]} << 24;
    std::uint16_t entries = static_cast<std::uint16_t>(huge[ifd] | huge[ifd + 1] << 8);
    for (std::uint16_t e = 0; e < entries; ++e) {
        std::size_t at = ifd + 2 + 12u * e;
        int tag = huge[at] | huge[at + 1] << 8;
        int type = huge[at + 2] | huge[at + 3] << 8;
        if (tag == TIFFTAG_IMAGEWIDTH || tag == TIFFTAG_IMAGELENGTH) {
            huge[at + 2] = 4;  // LONG
            huge[at + 3] = 0;
            huge[at + 8] = 0x60;  // 60000 = 0xEA60, little-endian
            huge[at + 9] = 0xEA;
            huge[at + 10] = huge[at + 11] = 0;
            EXPECT_TRUE(type == 3 || type == 4);
        }
    }
    cases.push_back({"huge-dims", huge});
    // Intact directories but undecodable deflate data in the first strip.
    auto deflated = dir / "deflated.tif";
    writeWithLibtiff<float>(deflated, SAMPLEFORMAT_IEEEFP, 1, 18, 20,
                            Layout{"w", 0, 18, COMPRESSION_ADOBE_DEFLATE});
    auto broken = test::readBytes(deflated);
    for (std::size_t i = 8; i < 72; ++i)
        broken[i] = static_cast<unsigned char>(i * 37);
    cases.push_back({"bad-deflate", broken});

    for (const auto& c : cases) {
        auto path = dir / (c.name + ".tif");
        test::writeBytes(path, c.data.data(), c.data.size());
        ::testing::internal::CaptureStderr();
        auto r = readTiff(path);
        std::string err = ::testing::internal::GetCapturedStderr();
        EXPECT_FALSE(r.isOk()) << c.name;
        EXPECT_EQ(r.status().code(), ErrorCode::InvalidData)
            << c.name << ": " << r.status().toString();
        EXPECT_TRUE(contains(r.status().message(), path.string())) << r.status().message();
        EXPECT_EQ(err, "") << c.name << ": libtiff printed on stderr";
        std::cout << c.name << ": " << r.status().message() << "\n";
    }
    EXPECT_EQ(readTiff(dir / "absent.tif").status().code(), ErrorCode::NotFound);
}

TEST(TiffIo, WriteToMissingDirectoryLeavesNothing) {
    ScratchDir dir("tiff");
    Array3<float> a(1, 2, 2);
    Status s = writeTiff(dir / "no" / "x.tif", a);
    EXPECT_EQ(s.code(), ErrorCode::IoError);
    EXPECT_TRUE(dir.list().empty());
    EXPECT_EQ(writeTiff(dir / "e.tif", Array3<float>(0, 2, 2)).code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(dir.list().empty());
}

}  // namespace
}  // namespace tomo
