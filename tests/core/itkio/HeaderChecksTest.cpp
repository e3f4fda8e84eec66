// Header-against-file checks made before ITK allocates (HeaderChecks.h): corrupt MetaImage, NRRD
// and NIfTI headers that promise more data than their file can hold are InvalidData, in every
// encoding, while the same headers with their data present still read.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "IoTestUtil.h"
#include "TestUtil.h"
#include "core/itkio/HeaderChecks.h"
#include "core/itkio/ItkVolumeIO.h"

namespace tomo {
namespace {

using test::ScratchDir;

#define TOMO_REQUIRE_ITK() \
    if (!itkVolumeIoSupported()) GTEST_SKIP() << "built without ITK"

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

std::string deflate(const std::vector<float>& values) {
    uLongf n = compressBound(static_cast<uLong>(values.size() * sizeof(float)));
    std::string out(n, '\0');
    compress(reinterpret_cast<Bytef*>(out.data()), &n,
             reinterpret_cast<const Bytef*>(values.data()),
             static_cast<uLong>(values.size() * sizeof(float)));
    out.resize(n);
    return out;
}

void writeText(const std::filesystem::path& p, const std::string& s) {
    test::writeBytes(p, s.data(), s.size());
}

/// Expects InvalidData naming the file and mentioning @p cause.
void expectInvalid(const std::filesystem::path& p, const std::string& cause) {
    auto r = readVolumeFile(p);
    ASSERT_FALSE(r.isOk()) << p;
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidData) << r.status().message();
    EXPECT_TRUE(contains(r.status().message(), p.string())) << r.status().message();
    EXPECT_TRUE(contains(r.status().message(), cause)) << r.status().message();
}

TEST(HeaderChecks, DataExtentBoundsFollowTheEncoding) {
    EXPECT_TRUE(checkDataExtent("f", {100, 100, DataEncoding::Raw, 4}).isOk());
    EXPECT_FALSE(checkDataExtent("f", {101, 100, DataEncoding::Raw, 4}).isOk());
    EXPECT_TRUE(checkDataExtent("f", {1032 * 100, 100, DataEncoding::Deflate, 4}).isOk());
    EXPECT_FALSE(checkDataExtent("f", {1032 * 100 + 1, 100, DataEncoding::Deflate, 4}).isOk());
    EXPECT_TRUE(checkDataExtent("f", {50, 100, DataEncoding::Hex, 1}).isOk());
    EXPECT_FALSE(checkDataExtent("f", {51, 100, DataEncoding::Hex, 1}).isOk());
    // 50 values of "1 " in 99 characters ("1 1 ... 1"), 4 bytes each.
    EXPECT_TRUE(checkDataExtent("f", {200, 99, DataEncoding::Text, 4}).isOk());
    EXPECT_FALSE(checkDataExtent("f", {204, 99, DataEncoding::Text, 4}).isOk());
    EXPECT_FALSE(checkDataExtent("f", {1e30L, 10, DataEncoding::Deflate, 4}).isOk());
}

TEST(HeaderChecks, CompressedSizeBombFromFuzzingIsInvalidData) {
    TOMO_REQUIRE_ITK();
    ScratchDir dir("hdrchk");
    const auto bytes = test::readBytes(std::filesystem::path(TOMO_SOURCE_DIR) /
                                       "fuzz/known/mha-compressed-size-bomb");
    ASSERT_FALSE(bytes.empty());
    test::writeBytes(dir / "bomb.mha", bytes.data(), bytes.size());
    expectInvalid(dir / "bomb.mha", "'CompressedDataSize (= 3' is not 'Key = value'");
    EXPECT_EQ(probeVolumeFile(dir / "bomb.mha").status().code(), ErrorCode::InvalidData);
    // With that line mended, the NUL in its ElementDataFile line is refused.
    std::string text(bytes.begin(), bytes.end());
    text.replace(text.find("CompressedDataSize (= 3"), 23, "CompressedDataSize = 3");
    writeText(dir / "nul.mha", text);
    expectInvalid(dir / "nul.mha", "control character");
    // Mended too, 3 compressed bytes do not decode to 2x5x3 floats (MetaIO returned whatever
    // was in its buffer).
    text.replace(text.find(std::string("=\0LOCAL", 7)), 7, "= LOCAL");
    writeText(dir / "mended.mha", text);
    expectInvalid(dir / "mended.mha", "ends early or is corrupt");
}

TEST(HeaderChecks, CompressedMetaImageSizesAreCheckedAgainstTheBytesLeft) {
    TOMO_REQUIRE_ITK();
    ScratchDir dir("hdrchk");
    const std::vector<float> v(2 * 3 * 4, 1.5f);
    const std::string z = deflate(v);
    auto mha = [&](const std::string& dims, const std::string& sizeLine) {
        return "ObjectType = Image\nNDims = 3\nDimSize = " + dims +
               "\nElementType = MET_FLOAT\nCompressedData = True\n" + sizeLine +
               "ElementDataFile = LOCAL\n" + z;
    };
    const std::string size = "CompressedDataSize = " + std::to_string(z.size()) + "\n";
    writeText(dir / "ok.mha", mha("2 3 4", size));
    auto ok = readVolumeFile(dir / "ok.mha");
    ASSERT_TRUE(ok.isOk()) << ok.status().message();
    EXPECT_FLOAT_EQ(ok.value().data(3, 2, 1), 1.5f);
    // CompressedDataSize beyond the end of the file.
    writeText(dir / "past.mha", mha("2 3 4", "CompressedDataSize = 123456789\n"));
    expectInvalid(dir / "past.mha", "CompressedDataSize");
    writeText(dir / "neg.mha", mha("2 3 4", "CompressedDataSize = -5\n"));
    expectInvalid(dir / "neg.mha", "CompressedDataSize");
    // 2000^3 floats (32 GB) cannot come out of a few dozen compressed bytes.
    writeText(dir / "huge.mha", mha("2000 2000 2000", size));
    expectInvalid(dir / "huge.mha", "1032");
    // Without CompressedDataSize ITK 5.2 decodes the wrong bytes and reports success.
    writeText(dir / "nosize.mha", mha("2 3 4", ""));
    EXPECT_EQ(readVolumeFile(dir / "nosize.mha").status().code(), ErrorCode::Unsupported);
    // Within deflate's limit but not what the stream holds: 2x3x5 floats from 2x3x4.
    writeText(dir / "short.mha", mha("2 3 5", size));
    expectInvalid(dir / "short.mha", "decodes to 96 bytes, the header declares 120");
    writeText(dir / "long.mha", mha("2 3 3", size));
    expectInvalid(dir / "long.mha", "decodes to more than the 72 bytes");
    // A DimSize that does not match NDims.
    writeText(dir / "dims.mha", mha("2 3", size));
    expectInvalid(dir / "dims.mha", "DimSize");
}

TEST(HeaderChecks, NrrdSizesAreCheckedForEveryEncoding) {
    TOMO_REQUIRE_ITK();
    ScratchDir dir("hdrchk");
    const std::vector<float> v(2 * 3 * 4, 2.0f);
    auto nrrd = [](const std::string& sizes, const std::string& encoding) {
        return "NRRD0004\ntype: float\ndimension: 3\nsizes: " + sizes + "\nendian: little\n" +
               "encoding: " + encoding + "\n\n";
    };
    std::string raw(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
    writeText(dir / "ok.nrrd", nrrd("2 3 4", "raw") + raw);
    auto ok = readVolumeFile(dir / "ok.nrrd");
    ASSERT_TRUE(ok.isOk()) << ok.status().message();
    EXPECT_FLOAT_EQ(ok.value().data(3, 2, 1), 2.0f);
    writeText(dir / "raw.nrrd", nrrd("2 3 5", "raw") + raw);
    expectInvalid(dir / "raw.nrrd", "raw");
    writeText(dir / "gz.nrrd", nrrd("2000 2000 2000", "gzip") + deflate(v));
    expectInvalid(dir / "gz.nrrd", "1032");
    writeText(dir / "txt.nrrd", nrrd("100 100 100", "ascii") + "1 2 3 4\n");
    expectInvalid(dir / "txt.nrrd", "text");
    writeText(dir / "hex.nrrd", nrrd("2 3 4", "hex") + "00ff\n");
    expectInvalid(dir / "hex.nrrd", "hexadecimal");
    writeText(dir / "neg.nrrd", nrrd("2 -3 4", "raw") + raw);
    expectInvalid(dir / "neg.nrrd", "sizes");
    writeText(dir / "bz.nrrd", nrrd("2 3 4", "bzip2") + raw);
    EXPECT_EQ(readVolumeFile(dir / "bz.nrrd").status().code(), ErrorCode::Unsupported);
    // A detached header whose data file is missing or short.
    writeText(dir / "d.nhdr",
              "NRRD0004\ntype: float\ndimension: 3\nsizes: 2 3 4\n"
              "encoding: raw\ndata file: d.raw\n");
    EXPECT_EQ(readVolumeFile(dir / "d.nhdr").status().code(), ErrorCode::NotFound);
    test::writeBytes(dir / "d.raw", raw.data(), raw.size() - 4);
    expectInvalid(dir / "d.nhdr", "truncated");
}

TEST(HeaderChecks, TextMetaImageReadsWholeAndByRange) {
    TOMO_REQUIRE_ITK();
    // MetaIO writes past the region's buffer when it streams a region of text data (found with
    // fuzz_mha and valgrind: "BinaryData" not starting with T means text): such files are read
    // whole and cropped, and the range equals the same part of the whole read.
    ScratchDir dir("hdrchk");
    std::string text =
        "ObjectType = Image\nNDims = 3\nBinaryData = False\nDimSize = 4 3 2\n"
        "ElementType = MET_FLOAT\nElementDataFile = LOCAL\n";
    for (int v = 0; v < 24; ++v)
        text += std::to_string(v) + (v % 4 == 3 ? "\n" : " ");
    writeText(dir / "t.mha", text);
    auto info = probeVolumeFile(dir / "t.mha");
    ASSERT_TRUE(info.isOk()) << info.status().message();
    EXPECT_FALSE(info.value().streamable);
    auto whole = readVolumeFile(dir / "t.mha");
    ASSERT_TRUE(whole.isOk()) << whole.status().message();
    EXPECT_FLOAT_EQ(whole.value().data(1, 2, 3), 23.f);
    auto part = readVolumeFile(dir / "t.mha", ReadRange{1, 1, 1, 2});
    ASSERT_TRUE(part.isOk()) << part.status().message();
    ASSERT_EQ(part.value().data.dim(1), 2u);
    for (std::size_t j = 0; j < 2; ++j)
        for (std::size_t i = 0; i < 4; ++i)
            EXPECT_EQ(part.value().data(0, j, i), whole.value().data(1, 1 + j, i)) << j << i;
    // A second separator: MetaIO reads past it, so the value is refused.
    std::string doubled = text;
    doubled.replace(doubled.find("BinaryData = False"), 18, "BinaryData =  = Tru");
    writeText(dir / "sep.mha", doubled);
    expectInvalid(dir / "sep.mha", "is not 'Key = value'");
    // Text data shorter than the header's sizes.
    writeText(dir / "short.mha", text.substr(0, text.size() - 30));
    EXPECT_EQ(readVolumeFile(dir / "short.mha").status().code(), ErrorCode::InvalidData);
}

/// A NIfTI-1 header of @p dims floats (bitpix @p bitpix), vox_offset 352, then @p data bytes.
std::string nifti1(const std::vector<std::int16_t>& dims, std::int16_t bitpix, std::size_t data) {
    std::string h(352 + data, '\0');
    const std::int32_t size = 348;
    std::memcpy(&h[0], &size, 4);
    const auto rank = static_cast<std::int16_t>(dims.size());
    std::memcpy(&h[40], &rank, 2);
    for (std::size_t k = 0; k < dims.size(); ++k)
        std::memcpy(&h[42 + 2 * k], &dims[k], 2);
    const std::int16_t datatype = 16;  // DT_FLOAT32
    std::memcpy(&h[70], &datatype, 2);
    std::memcpy(&h[72], &bitpix, 2);
    const float one = 1, offset = 352;
    for (int k = 0; k < 8; ++k)
        std::memcpy(&h[76 + 4 * k], &one, 4);
    std::memcpy(&h[108], &offset, 4);
    std::memcpy(&h[344], "n+1\0", 4);
    return h;
}

TEST(HeaderChecks, NiftiDimensionsAndBitpixAreChecked) {
    TOMO_REQUIRE_ITK();
    ScratchDir dir("hdrchk");
    writeText(dir / "ok.nii", nifti1({2, 3, 4}, 32, 96));
    auto ok = readVolumeFile(dir / "ok.nii");
    ASSERT_TRUE(ok.isOk()) << ok.status().message();
    EXPECT_EQ(ok.value().data.dim(0), 4u);
    writeText(dir / "short.nii", nifti1({2, 3, 4}, 32, 95));
    expectInvalid(dir / "short.nii", "truncated");
    writeText(dir / "zero.nii", nifti1({2, 0, 4}, 32, 96));
    expectInvalid(dir / "zero.nii", "dim[2]");
    writeText(dir / "bits.nii", nifti1({2, 3, 4}, 12, 96));
    expectInvalid(dir / "bits.nii", "bitpix");
    // A gzip-compressed NIfTI of 30000^3 floats from a few hundred bytes.
    const std::string big = nifti1({30000, 30000, 30000}, 32, 64);
    gzFile gz = gzopen((dir / "big.nii.gz").c_str(), "wb");
    ASSERT_NE(gz, nullptr);
    gzwrite(gz, big.data(), static_cast<unsigned>(big.size()));
    gzclose(gz);
    expectInvalid(dir / "big.nii.gz", "1032");
}

}  // namespace
}  // namespace tomo
