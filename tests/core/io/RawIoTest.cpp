// Raw float32 files, atomic writes and the extension dispatch of ImageIO.h.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "IoTestUtil.h"
#include "TestUtil.h"
#include "core/io/ImageIO.h"

namespace tomo {
namespace {

using test::ScratchDir;

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

TEST(RawIo, RoundTripWritesLogicalElementsOnlyLittleEndian) {
    ScratchDir dir("raw");
    Array3<float> a(2, 3, 5);  // pitch 16: 11 padding elements per row must not be written
    ASSERT_GT(a.pitch(), a.dim(2));
    test::fillRandom(a, 7, -1e3f, 1e3f);
    a(1, 2, 4) = std::numeric_limits<float>::denorm_min();
    auto path = dir / "a.raw";
    ASSERT_TRUE(writeRawFloat32(path, a).isOk());

    auto bytes = test::readBytes(path);
    ASSERT_EQ(bytes.size(), 2u * 3u * 5u * 4u);
    std::size_t k = 0;
    for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t j = 0; j < 3; ++j)
            for (std::size_t c = 0; c < 5; ++c, k += 4) {
                std::uint32_t u = std::uint32_t{bytes[k]} | std::uint32_t{bytes[k + 1]} << 8 |
                                  std::uint32_t{bytes[k + 2]} << 16 |
                                  std::uint32_t{bytes[k + 3]} << 24;
                EXPECT_EQ(u, std::bit_cast<std::uint32_t>(a(i, j, c))) << i << "," << j << "," << c;
            }

    auto back = readRawFloat32(path, {2, 3, 5});
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t j = 0; j < 3; ++j) {
            for (std::size_t c = 0; c < 5; ++c)
                EXPECT_EQ(std::bit_cast<std::uint32_t>((*back)(i, j, c)),
                          std::bit_cast<std::uint32_t>(a(i, j, c)));
            for (std::size_t c = 5; c < back->pitch(); ++c)
                EXPECT_EQ(back->row(i, j).data()[c], 0.f) << "padding";
        }
    EXPECT_EQ(dir.list(), std::vector<std::string>{"a.raw"});
}

TEST(RawIo, SizeMismatchNamesFileBytesAndDims) {
    ScratchDir dir("raw");
    std::vector<float> v(25, 1.f);
    auto path = dir / "short.raw";
    test::writeBytes(path, v.data(), 100);
    auto r = readRawFloat32(path, {1, 5, 6});
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidData);
    const std::string m = r.status().message();
    EXPECT_TRUE(contains(m, path.string())) << m;
    EXPECT_TRUE(contains(m, "100 bytes")) << m;
    EXPECT_TRUE(contains(m, "1x5x6")) << m;
    EXPECT_TRUE(contains(m, "120 bytes")) << m;
    // One byte too many is also rejected.
    test::writeBytes(path, v.data(), 101);
    EXPECT_EQ(readRawFloat32(path, {1, 5, 5}).status().code(), ErrorCode::InvalidData);
}

TEST(RawIo, NanAndInfAreRejectedWithTheFirstIndex) {
    ScratchDir dir("raw");
    std::vector<float> v(2 * 3 * 4, 0.5f);
    v[9] = std::numeric_limits<float>::infinity();
    v[17] = std::numeric_limits<float>::quiet_NaN();
    auto path = dir / "bad.raw";
    test::writeBytes(path, v.data(), v.size() * 4);
    auto r = readRawFloat32(path, {2, 3, 4});
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(r.status().message(), "index 9 (0, 2, 1) is infinite"))
        << r.status().message();
    v[9] = 0.f;
    test::writeBytes(path, v.data(), v.size() * 4);
    r = readRawFloat32(path, {2, 3, 4});
    ASSERT_FALSE(r.isOk());
    EXPECT_TRUE(contains(r.status().message(), "index 17 (1, 1, 1) is NaN"))
        << r.status().message();
}

TEST(RawIo, MissingFileAndZeroDims) {
    ScratchDir dir("raw");
    auto r = readRawFloat32(dir / "nope.raw", {1, 1, 1});
    EXPECT_EQ(r.status().code(), ErrorCode::NotFound);
    EXPECT_TRUE(contains(r.status().message(), "nope.raw"));
    float one = 1.f;
    test::writeBytes(dir / "one.raw", &one, 4);
    EXPECT_EQ(readRawFloat32(dir / "one.raw", {1, 0, 1}).status().code(),
              ErrorCode::InvalidArgument);
}

TEST(AtomicWrite, UnwritableLocationsGiveIoErrorAndLeaveNothing) {
    ScratchDir dir("atomic");
    Array3<float> a(1, 2, 2);
    // Missing directory.
    Status s = writeRawFloat32(dir / "missing" / "x.raw", a);
    EXPECT_EQ(s.code(), ErrorCode::IoError);
    EXPECT_TRUE(contains(s.message(), (dir / "missing" / "x.raw").string())) << s.message();
    EXPECT_TRUE(contains(s.message(), "No such file or directory")) << s.message();
    // Parent is a regular file.
    test::writeBytes(dir / "file", "x", 1);
    s = writeFileAtomic(dir / "file" / "x.png", "abc", 3);
    EXPECT_EQ(s.code(), ErrorCode::IoError);
    EXPECT_TRUE(contains(s.message(), "Not a directory")) << s.message();
    EXPECT_EQ(dir.list(), std::vector<std::string>{"file"});
    // Read-only directory (root ignores permissions, so only checked for other users).
    if (::geteuid() != 0) {
        auto ro = dir / "ro";
        std::filesystem::create_directory(ro);
        std::filesystem::permissions(
            ro, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
        s = writeRawFloat32(ro / "x.raw", a);
        EXPECT_EQ(s.code(), ErrorCode::IoError);
        EXPECT_TRUE(contains(s.message(), "Permission denied")) << s.message();
        EXPECT_TRUE(std::filesystem::is_empty(ro));
    }
}

TEST(AtomicWrite, ReplacesExistingTargetAndLeavesNoTemporary) {
    ScratchDir dir("atomic");
    auto path = dir / "t.bin";
    ASSERT_TRUE(writeFileAtomic(path, "old contents", 12).isOk());
    ASSERT_TRUE(writeFileAtomic(path, "new", 3).isOk());
    auto bytes = test::readBytes(path);
    EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "new");
    ASSERT_TRUE(writeFileAtomic(dir / "empty.bin", nullptr, 0).isOk());
    EXPECT_EQ(std::filesystem::file_size(dir / "empty.bin"), 0u);
    EXPECT_EQ(dir.list(), (std::vector<std::string>{"empty.bin", "t.bin"}));
    // A stale temporary of this process's name pattern does not block a write.
    std::string stale = "s.bin.tmp-" + std::to_string(::getpid()) + "-0";
    test::writeBytes(dir / stale, "zz", 2);
    ASSERT_TRUE(writeFileAtomic(dir / "s.bin", "ok", 2).isOk());
    EXPECT_EQ(test::readBytes(dir / stale).size(), 2u);  // untouched
    EXPECT_EQ(test::readBytes(dir / "s.bin").size(), 2u);
}

TEST(WriteVolume, DispatchesOnExtension) {
    ScratchDir dir("vol");
    Array3<float> a(1, 2, 3);
    test::fillRandom(a, 3);
    ASSERT_TRUE(writeVolume(dir / "v.RAW", a).isOk());
    EXPECT_EQ(std::filesystem::file_size(dir / "v.RAW"), 24u);
    Status s = writeVolume(dir / "v.xyz", a);
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(contains(s.message(), "'.xyz'")) << s.message();
    s = writeVolume(dir / "v.tif", a);
    if (tiffSupported()) {
        EXPECT_TRUE(s.isOk()) << s.toString();
        EXPECT_EQ(dir.list(), (std::vector<std::string>{"v.RAW", "v.tif"}));
    } else {
        EXPECT_EQ(s.code(), ErrorCode::Unsupported);
        EXPECT_EQ(dir.list(), std::vector<std::string>{"v.RAW"});
    }
}

}  // namespace
}  // namespace tomo
