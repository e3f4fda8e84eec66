// The acquisition model: index ranges, validation, the sinogram transposition, the in-memory
// reader and the format registry with the built-in raw format.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "TestUtil.h"
#include "core/dataset/FormatRegistry.h"
#include "core/dataset/MemoryAcquisitionReader.h"
#include "core/dataset/ProjectionData.h"

namespace tomo {
namespace {
namespace fs = std::filesystem;

/// Value of projection a, row r, column c: unique per element, exact in float.
float code(std::size_t a, std::size_t r, std::size_t c) {
    return static_cast<float>(a * 10000 + r * 100 + c);
}

ProjectionData makeData(std::size_t angles, std::size_t rows, std::size_t cols) {
    ProjectionData d;
    d.projections = Array3<float>(angles, rows, cols);
    for (std::size_t a = 0; a < angles; ++a)
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < cols; ++c)
                d.projections(a, r, c) = code(a, r, c);
    d.flats = Array3<float>(2, rows, cols);
    d.flats.fill(1000.f);
    d.darks = Array3<float>(1, rows, cols);
    d.darks.fill(10.f);
    for (std::size_t a = 0; a < angles; ++a)
        d.angles.push_back(0.1 * static_cast<double>(a));
    return d;
}

TEST(IndexRange, ResolvesAllAndChecksBounds) {
    auto all = IndexRange::all().resolve(7, "rows");
    ASSERT_TRUE(all.isOk());
    EXPECT_EQ(all->first, 0u);
    EXPECT_EQ(all->count, 7u);
    auto tail = IndexRange{3, IndexRange::kAll}.resolve(7, "rows");
    ASSERT_TRUE(tail.isOk());
    EXPECT_EQ(tail->count, 4u);
    auto over = IndexRange{5, 3}.resolve(7, "rows");
    ASSERT_FALSE(over.isOk());
    EXPECT_EQ(over.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(over.status().message().find("[5, 8) exceeds the 7 rows"), std::string::npos)
        << over.status().message();
    EXPECT_FALSE(IndexRange({7, 1}).resolve(7, "angles").isOk());
    EXPECT_FALSE(IndexRange({2, 0}).resolve(7, "angles").isOk());
}

TEST(AngleUnit, ParsesNames) {
    EXPECT_EQ(*parseAngleUnit("deg"), AngleUnit::Degrees);
    EXPECT_EQ(*parseAngleUnit("radians"), AngleUnit::Radians);
    EXPECT_EQ(*parseAngleUnit("auto"), AngleUnit::Auto);
    EXPECT_FALSE(parseAngleUnit("gon").isOk());
}

TEST(ProjectionData, ToSinogramsTransposes) {
    ProjectionData d = makeData(5, 4, 3);
    auto sino = toSinograms(d.projections, {1, 2});
    ASSERT_TRUE(sino.isOk());
    ASSERT_EQ(sino->dim(0), 2u);
    ASSERT_EQ(sino->dim(1), 5u);
    ASSERT_EQ(sino->dim(2), 3u);
    for (std::size_t s = 0; s < 2; ++s)
        for (std::size_t a = 0; a < 5; ++a)
            for (std::size_t c = 0; c < 3; ++c)
                EXPECT_EQ((*sino)(s, a, c), code(a, s + 1, c));
    EXPECT_FALSE(toSinograms(d.projections, {3, 2}).isOk());
}

TEST(ProjectionData, ValidateNamesEachMismatch) {
    EXPECT_TRUE(makeData(4, 3, 2).validate().isOk());
    ProjectionData d = makeData(4, 3, 2);
    d.angles.pop_back();
    EXPECT_NE(d.validate().message().find("3 angles for 4 projections"), std::string::npos);
    d = makeData(4, 3, 2);
    d.flats = Array3<float>(1, 3, 5);
    EXPECT_NE(d.validate().message().find("flats are 3x5 but projections are 3x2"),
              std::string::npos)
        << d.validate().message();
    d = makeData(4, 3, 2);
    d.darks(0, 2, 1) = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(d.validate().message().find("darks has a non-finite value (nan) at [0][2][1]"),
              std::string::npos)
        << d.validate().message();
}

TEST(MemoryAcquisitionReader, ServesBlocks) {
    auto reader = MemoryAcquisitionReader::create(makeData(6, 5, 4), "test", "mem", SampleType::UInt16);
    ASSERT_TRUE(reader.isOk());
    EXPECT_EQ(reader->info().angleCount, 6u);
    EXPECT_EQ(reader->info().flatCount, 2u);
    auto block = reader->readProjections({2, 3}, {1, 2});
    ASSERT_TRUE(block.isOk());
    ASSERT_EQ(block->dims(), (std::array<std::size_t, 3>{3, 2, 4}));
    for (std::size_t a = 0; a < 3; ++a)
        for (std::size_t r = 0; r < 2; ++r)
            for (std::size_t c = 0; c < 4; ++c)
                EXPECT_EQ((*block)(a, r, c), code(a + 2, r + 1, c));
    auto flats = reader->readFlats({4, 1});
    ASSERT_TRUE(flats.isOk());
    EXPECT_EQ(flats->dims(), (std::array<std::size_t, 3>{2, 1, 4}));
    EXPECT_EQ((*flats)(1, 0, 3), 1000.f);
    EXPECT_FALSE(reader->readProjections({5, 2}, IndexRange::all()).isOk());
}

TEST(FormatRegistry, LooksUpByExtensionAndCapability) {
    FormatRegistry registry;
    ASSERT_TRUE(registerBuiltinFormats(registry).isOk());
    auto f = registry.forPath("a/b/Stack.TIFF");
    ASSERT_TRUE(f.isOk());
    EXPECT_EQ((*f)->name, "tiff");
    auto unknown = registry.forPath("x.xyz");
    ASSERT_FALSE(unknown.isOk());
    EXPECT_NE(unknown.status().message().find("unknown file type '.xyz'"), std::string::npos);
    EXPECT_NE(unknown.status().message().find(".raw"), std::string::npos);
    // A format without a writer answers Unsupported naming itself.
    FileFormat readOnly;
    readOnly.name = "ro";
    readOnly.extensions = {".RO"};
    readOnly.readVolume = [](const fs::path&, const ReadOptions&) -> Result<Array3<float>> {
        return Array3<float>(1, 1, 1);
    };
    ASSERT_TRUE(registry.add(readOnly).isOk());
    Status s = registry.writeVolume("out.ro", Array3<float>(1, 1, 1), {});
    EXPECT_EQ(s.code(), ErrorCode::Unsupported);
    EXPECT_NE(s.message().find("the ro format cannot be written"), std::string::npos);
    EXPECT_EQ(registry.readVolume("missing.ro", {}).status().code(), ErrorCode::NotFound);
    // Re-adding a name replaces the entry.
    ASSERT_TRUE(registry.add(readOnly).isOk());
    EXPECT_EQ(registry.formats().size(), 4u);  // tiff, tiff-stack, raw, ro
}

TEST(FormatRegistry, RawRoundTripAsVolumeAndAcquisition) {
    const fs::path dir = fs::temp_directory_path() / ("tomo-dataset-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    FormatRegistry registry;
    ASSERT_TRUE(registerBuiltinFormats(registry).isOk());
    ProjectionData d = makeData(3, 4, 5);
    const fs::path file = dir / "p.raw";
    ASSERT_TRUE(registry.writeVolume(file, d.projections, {}).isOk());
    ReadOptions options;
    EXPECT_EQ(registry.readVolume(file, options).status().code(), ErrorCode::InvalidArgument);
    options.shape = std::array<std::size_t, 3>{3, 4, 5};
    auto back = registry.readVolume(file, options);
    ASSERT_TRUE(back.isOk());
    EXPECT_EQ(test::maxRelDiff(*back, d.projections), 0.0);
    auto reader = registry.openAcquisition(file, options);
    ASSERT_TRUE(reader.isOk()) << reader.status().toString();
    EXPECT_TRUE((*reader)->info().angles.empty());
    auto rows = (*reader)->readProjections(IndexRange::all(), {3, 1});
    ASSERT_TRUE(rows.isOk());
    EXPECT_EQ((*rows)(2, 0, 4), code(2, 3, 4));
    auto description = registry.describe(file, options);
    ASSERT_TRUE(description.isOk());
    EXPECT_EQ(description->datasets.at(0).shape, (std::vector<std::size_t>{3, 4, 5}));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace tomo
