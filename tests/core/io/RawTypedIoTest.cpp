// Typed raw stacks (RawIO.h): every element type in both byte orders, ranges, specs, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "IoTestUtil.h"
#include "core/io/RawIO.h"

namespace tomo {
namespace {

using test::ScratchDir;

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

/// Values every type can hold exactly (integers within 0..200), plus fractions for floats.
Array3<float> sample(RawType type) {
    Array3<float> a(3, 4, 5);
    const bool isFloat = type == RawType::F32 || type == RawType::F64;
    const bool isSigned = type == RawType::I16 || type == RawType::I32 || isFloat;
    for (std::size_t p = 0; p < 3; ++p)
        for (std::size_t r = 0; r < 4; ++r)
            for (std::size_t c = 0; c < 5; ++c) {
                float v = static_cast<float>(p * 60 + r * 13 + c * 2);
                if (isSigned && (c % 2)) v = -v;
                if (isFloat) v += 0.375f;
                a(p, r, c) = v;
            }
    return a;
}

TEST(RawTypedIo, EveryTypeAndByteOrderRoundTripsExactly) {
    ScratchDir dir("rawtyped");
    for (RawType t : {RawType::U8, RawType::U16, RawType::U32, RawType::I16, RawType::I32,
                      RawType::F32, RawType::F64})
        for (ByteOrder o : {ByteOrder::Little, ByteOrder::Big}) {
            SCOPED_TRACE(std::string(rawTypeName(t)) + (o == ByteOrder::Big ? " be" : " le"));
            const Array3<float> a = sample(t);
            const auto path = dir / (std::string(rawTypeName(t)) + ".raw");
            ASSERT_TRUE(writeRaw(path, a, t, o).isOk());
            EXPECT_EQ(test::readBytes(path).size(), 60 * rawTypeSize(t));
            RawSpec spec{{3, 4, 5}, t, o, 0};
            auto back = readRaw(path, spec);
            ASSERT_TRUE(back.isOk()) << back.status().toString();
            for (std::size_t p = 0; p < 3; ++p)
                for (std::size_t r = 0; r < 4; ++r)
                    for (std::size_t c = 0; c < 5; ++c)
                        ASSERT_EQ((*back)(p, r, c), a(p, r, c));
        }
}

TEST(RawTypedIo, BytesFollowTheStatedOrder) {
    ScratchDir dir("rawtyped");
    Array3<float> a(1, 1, 2);
    a(0, 0, 0) = 258;  // 0x0102
    a(0, 0, 1) = -2;   // 0xFFFE as i16
    ASSERT_TRUE(writeRaw(dir / "be.raw", a, RawType::I16, ByteOrder::Big).isOk());
    ASSERT_TRUE(writeRaw(dir / "le.raw", a, RawType::I16, ByteOrder::Little).isOk());
    EXPECT_EQ(test::readBytes(dir / "be.raw"), (std::vector<unsigned char>{1, 2, 0xFF, 0xFE}));
    EXPECT_EQ(test::readBytes(dir / "le.raw"), (std::vector<unsigned char>{2, 1, 0xFE, 0xFF}));
    // 1.5 as big-endian IEEE double is 3F F8 00 .. 00.
    Array3<float> b(1, 1, 1);
    b(0, 0, 0) = 1.5f;
    ASSERT_TRUE(writeRaw(dir / "d.raw", b, RawType::F64, ByteOrder::Big).isOk());
    EXPECT_EQ(test::readBytes(dir / "d.raw"),
              (std::vector<unsigned char>{0x3F, 0xF8, 0, 0, 0, 0, 0, 0}));
}

TEST(RawTypedIo, RangeReadsTheSubBlockAndSkipsTheHeader) {
    ScratchDir dir("rawtyped");
    const Array3<float> a = sample(RawType::U16);
    ASSERT_TRUE(writeRaw(dir / "a.raw", a, RawType::U16, ByteOrder::Big).isOk());
    auto body = test::readBytes(dir / "a.raw");
    std::vector<unsigned char> withHeader(100, 0xAB);
    withHeader.insert(withHeader.end(), body.begin(), body.end());
    test::writeBytes(dir / "h.raw", withHeader.data(), withHeader.size());
    auto spec = parseRawSpec("3x4x5:u16:be:skip=100");
    ASSERT_TRUE(spec.isOk()) << spec.status().toString();
    auto part = readRaw(dir / "h.raw", *spec, ReadRange{1, 2, 1, 2});
    ASSERT_TRUE(part.isOk()) << part.status().toString();
    ASSERT_EQ(part->dims(), (std::array<std::size_t, 3>{2, 2, 5}));
    for (std::size_t p = 0; p < 2; ++p)
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t c = 0; c < 5; ++c)
                EXPECT_EQ((*part)(p, r, c), a(1 + p, 1 + r, c));
    auto outside = readRaw(dir / "h.raw", *spec, ReadRange{2, 2, 0, ReadRange::kAll});
    ASSERT_FALSE(outside.isOk());
    EXPECT_EQ(outside.status().code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(contains(outside.status().message(), "h.raw"));
}

TEST(RawTypedIo, ParsesSpecs) {
    auto s = parseRawSpec("90x64x128:u16:be:skip=512");
    ASSERT_TRUE(s.isOk());
    EXPECT_EQ(s->dims, (std::array<std::size_t, 3>{90, 64, 128}));
    EXPECT_EQ(s->type, RawType::U16);
    EXPECT_EQ(s->order, ByteOrder::Big);
    EXPECT_EQ(s->headerBytes, 512u);
    auto two = parseRawSpec("64x128");
    ASSERT_TRUE(two.isOk());
    EXPECT_EQ(two->dims, (std::array<std::size_t, 3>{1, 64, 128}));
    EXPECT_EQ(two->type, RawType::F32);
    EXPECT_EQ(two->order, ByteOrder::Little);
    EXPECT_EQ(parseRawSpec("64x128:float64")->type, RawType::F64);
    for (const char* bad : {"64", "1x2x3x4", "ax3", "4x4:u12", "4x4:skip=-1", ""}) {
        auto r = parseRawSpec(bad);
        EXPECT_FALSE(r.isOk()) << bad;
        if (!r.isOk()) {
            EXPECT_EQ(r.status().code(), ErrorCode::InvalidArgument) << bad;
        }
    }
}

TEST(RawTypedIo, TruncatedTrailingMissingAndNonFiniteInputsAreNamed) {
    ScratchDir dir("rawtyped");
    std::vector<std::uint16_t> v(59, 7);
    test::writeBytes(dir / "short.raw", v.data(), v.size() * 2);
    RawSpec spec{{3, 4, 5}, RawType::U16, ByteOrder::Little, 0};
    auto r = readRaw(dir / "short.raw", spec);
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(r.status().message(), "short.raw"));
    EXPECT_TRUE(contains(r.status().message(), "118 bytes"));
    EXPECT_TRUE(contains(r.status().message(), "truncated"));

    v.resize(61);
    test::writeBytes(dir / "long.raw", v.data(), v.size() * 2);
    auto l = readRaw(dir / "long.raw", spec);
    ASSERT_FALSE(l.isOk());
    EXPECT_TRUE(contains(l.status().message(), "trailing"));

    EXPECT_EQ(readRaw(dir / "none.raw", spec).status().code(), ErrorCode::NotFound);

    std::vector<double> d(60, 1.0);
    d[27] = std::nan("");  // plane 1, row 1, column 2
    test::writeBytes(dir / "nan.raw", d.data(), d.size() * 8);
    auto n = readRaw(dir / "nan.raw", RawSpec{{3, 4, 5}, RawType::F64, ByteOrder::Little, 0});
    ASSERT_FALSE(n.isOk());
    EXPECT_EQ(n.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(n.status().message(), "(1, 1, 2)")) << n.status().message();
    d[27] = 1e300;  // finite double, beyond float
    test::writeBytes(dir / "big.raw", d.data(), d.size() * 8);
    EXPECT_FALSE(
        readRaw(dir / "big.raw", RawSpec{{3, 4, 5}, RawType::F64, ByteOrder::Little, 0}).isOk());
}

TEST(RawTypedIo, ValuesOutsideTheTypeWriteNothing) {
    ScratchDir dir("rawtyped");
    Array3<float> a(1, 2, 2);
    a(0, 1, 0) = 256.f;
    Status s = writeRaw(dir / "a.raw", a, RawType::U8);
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(contains(s.message(), "(0, 1, 0)"));
    a(0, 1, 0) = -1.f;
    EXPECT_FALSE(writeRaw(dir / "a.raw", a, RawType::U16).isOk());
    a(0, 1, 0) = 32767.f;
    EXPECT_TRUE(writeRaw(dir / "ok.raw", a, RawType::I16).isOk());
    EXPECT_EQ(dir.list(), std::vector<std::string>{"ok.raw"});
}

}  // namespace
}  // namespace tomo
