#pragma once
// Volumes written and read by slabs (core/dataset/VolumeStream.h), the same cases for every
// streaming format (included by the tests of each format library): slabs in any order read back
// bit-identical to the whole volume written at once; planes read on demand equal the planes of a
// whole read; a writer dropped before commit() leaves nothing behind; bad slabs and missing planes
// are errors; where the format lays its planes out for other processes (raw, HDF5 asked with
// WriteOptions::sharedPlanes), planes written by a second writer through the layout complete the
// file only once they are recorded.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/dataset/FormatRegistry.h"
#include "core/dataset/PlaneFile.h"
#include "core/io/ImageIO.h"

namespace tomo::volume_stream_cases {
namespace fs = std::filesystem;

/// Registers the formats under test; defined by the file that includes these cases.
Status registerStreamFormats(FormatRegistry& registry);

inline Array3<float> ramp(std::size_t planes, std::size_t rows, std::size_t cols) {
    Array3<float> v(planes, rows, cols);
    for (std::size_t z = 0; z < planes; ++z)
        for (std::size_t y = 0; y < rows; ++y)
            for (std::size_t x = 0; x < cols; ++x)
                v(z, y, x) = 0.5f * float(z) - 0.25f * float(y) + 1e-3f * float(x * x) + 0.1f;
    return v;
}

inline Array3<float> planes(const Array3<float>& v, std::size_t first, std::size_t count) {
    Array3<float> out(count, v.dim(1), v.dim(2));
    for (std::size_t z = 0; z < count; ++z)
        for (std::size_t y = 0; y < v.dim(1); ++y)
            std::copy_n(v.row(first + z, y).data(), v.dim(2), out.row(z, y).data());
    return out;
}

inline bool equal(const Array3<float>& a, const Array3<float>& b) {
    if (a.dims() != b.dims()) return false;
    for (std::size_t z = 0; z < a.dim(0); ++z)
        for (std::size_t y = 0; y < a.dim(1); ++y)
            if (!std::equal(a.row(z, y).begin(), a.row(z, y).end(), b.row(z, y).begin()))
                return false;
    return true;
}

/// Files under @p dir (folders of a TIFF stack not counted).
inline std::size_t files(const fs::path& dir) {
    std::size_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        n += e.is_regular_file() ? 1 : 0;
    return n;
}

class VolumeStream : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        ASSERT_TRUE(registerStreamFormats(registry).isOk());
        auto format = registry.byName(GetParam());
        ASSERT_TRUE(format.isOk());
        if (!(*format)->openVolumeWriter) GTEST_SKIP() << GetParam() << " does not stream";
        if (GetParam().starts_with("tiff") && !tiffSupported())
            GTEST_SKIP() << "this build has no libtiff (the minimal configuration)";
        ext = (*format)->extensions.empty() ? "" : (*format)->extensions.front();
        options.shape = shape;
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
    /// A path of the format: a file with its extension, or for a TIFF stack an (existing, empty)
    /// folder, which is how the registry recognises one.
    fs::path file(const std::string& name) const {
        if (GetParam() != "tiff-stack") return dir / (name + ext);
        fs::create_directories(dir / name);
        return dir / name;
    }

    FormatRegistry registry;
    fs::path dir = fs::temp_directory_path() /
                   ("tomo-volume-stream-" + std::to_string(::getpid()) + "-" + GetParam());
    std::string ext;
    std::array<std::size_t, 3> shape{11, 7, 13};
    ReadOptions options;
};

TEST_P(VolumeStream, SlabsInAnyOrderEqualTheWholeVolume) {
    const Array3<float> v = ramp(shape[0], shape[1], shape[2]);
    ASSERT_TRUE(registry.writeVolume(file("whole"), v, {}).isOk());
    auto writer = registry.openVolumeWriter(file("slabs"), shape, {});
    ASSERT_TRUE(writer.isOk()) << writer.status().toString();
    // Uneven slabs, last first (formats that need order say so with InvalidArgument).
    const std::vector<std::pair<std::size_t, std::size_t>> slabs{{8, 3}, {0, 5}, {5, 3}};
    bool ordered = false;
    for (const auto& [first, count] : slabs) {
        Status s = (*writer)->writeSlab(first, planes(v, first, count));
        if (!s && s.code() == ErrorCode::InvalidArgument && first == 8) {
            ordered = true;  // this format appends in plane order
            break;
        }
        ASSERT_TRUE(s.isOk()) << s.toString();
    }
    if (ordered) {
        writer = registry.openVolumeWriter(file("slabs"), shape, {});
        ASSERT_TRUE(writer.isOk());
        for (const auto& [first, count] :
             std::vector<std::pair<std::size_t, std::size_t>>{{0, 5}, {5, 3}, {8, 3}})
            ASSERT_TRUE((*writer)->writeSlab(first, planes(v, first, count)).isOk());
    }
    ASSERT_TRUE((*writer)->commit().isOk());
    auto whole = registry.readVolume(file("whole"), options);
    auto streamed = registry.readVolume(file("slabs"), options);
    ASSERT_TRUE(whole.isOk()) << whole.status().toString();
    ASSERT_TRUE(streamed.isOk()) << streamed.status().toString();
    EXPECT_TRUE(equal(*whole, *streamed));
    EXPECT_TRUE(equal(*streamed, v));
}

TEST_P(VolumeStream, PlanesOnDemandEqualTheWholeRead) {
    const Array3<float> v = ramp(shape[0], shape[1], shape[2]);
    ASSERT_TRUE(registry.writeVolume(file("v"), v, {}).isOk());
    auto reader = registry.openVolumeReader(file("v"), options);
    if (!reader.isOk() && reader.status().code() == ErrorCode::Unsupported)
        GTEST_SKIP() << reader.status().message();
    ASSERT_TRUE(reader.isOk()) << reader.status().toString();
    EXPECT_EQ((*reader)->shape(), shape);
    for (std::size_t first = 0; first < shape[0]; first += 3)
        for (std::size_t count = 1; first + count <= shape[0]; count += 4) {
            auto part = (*reader)->readPlanes(first, count);
            ASSERT_TRUE(part.isOk()) << part.status().toString();
            EXPECT_TRUE(equal(*part, planes(v, first, count))) << first << "+" << count;
        }
    EXPECT_EQ((*reader)->readPlanes(10, 2).status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ((*reader)->readPlanes(0, 0).status().code(), ErrorCode::InvalidArgument);
}

TEST_P(VolumeStream, AWriterDroppedBeforeCommitLeavesNothing) {
    {
        auto writer = registry.openVolumeWriter(file("dropped"), shape, {});
        ASSERT_TRUE(writer.isOk());
        ASSERT_TRUE((*writer)->writeSlab(0, ramp(4, shape[1], shape[2])).isOk());
    }
    EXPECT_EQ(files(dir), 0u);
}

TEST_P(VolumeStream, BadSlabsAndMissingPlanesAreErrors) {
    auto writer = registry.openVolumeWriter(file("bad"), shape, {});
    ASSERT_TRUE(writer.isOk());
    VolumeWriter& w = **writer;
    EXPECT_EQ(w.writeSlab(0, ramp(2, shape[1] + 1, shape[2])).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(w.writeSlab(0, ramp(2, shape[1], shape[2] - 1)).code(), ErrorCode::InvalidArgument);
    ASSERT_TRUE(w.writeSlab(0, ramp(10, shape[1], shape[2])).isOk());
    EXPECT_EQ(w.writeSlab(10, ramp(2, shape[1], shape[2])).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(w.commit().code(), ErrorCode::InvalidArgument);  // plane 10 missing
    writer->reset();  // dropped after the failed commit: nothing stays
    EXPECT_EQ(files(dir), 0u);
}

TEST_P(VolumeStream, PlanesWrittenThroughTheLayoutByAnotherWriterCompleteTheFile) {
    const Array3<float> v = ramp(shape[0], shape[1], shape[2]);
    WriteOptions shared;
    shared.sharedPlanes = true;
    auto writer = registry.openVolumeWriter(file("shared"), shape, shared);
    ASSERT_TRUE(writer.isOk()) << writer.status().toString();
    const std::optional<PlaneFileLayout> layout = (*writer)->planeLayout();
    if (!layout) {
        EXPECT_TRUE(GetParam().starts_with("tiff")) << GetParam() << " should lay planes out";
        EXPECT_EQ((*writer)->writtenElsewhere(0, 1).code(), ErrorCode::Unsupported);
        GTEST_SKIP() << GetParam() << " writes its planes itself";
    }
    EXPECT_EQ(layout->shape, shape);
    ASSERT_TRUE((*writer)->writeSlab(0, planes(v, 0, 4)).isOk());
    {
        auto other = PlaneFileWriter::open(*layout);  // as another rank opens it
        ASSERT_TRUE(other.isOk()) << other.status().toString();
        ASSERT_TRUE(other->writeSlab(4, planes(v, 4, 7)).isOk());
        EXPECT_EQ(other->writeSlab(9, planes(v, 4, 3)).code(), ErrorCode::InvalidArgument);
        ASSERT_TRUE(other->sync().isOk());
    }
    EXPECT_EQ((*writer)->commit().code(), ErrorCode::InvalidArgument);  // not recorded yet
    EXPECT_FALSE(fs::exists(file("shared")));
    EXPECT_EQ((*writer)->writtenElsewhere(10, 2).code(), ErrorCode::InvalidArgument);
    ASSERT_TRUE((*writer)->writtenElsewhere(4, 7).isOk());
    ASSERT_TRUE((*writer)->commit().isOk());
    auto back = registry.readVolume(file("shared"), options);
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    EXPECT_TRUE(equal(*back, v));
    auto reader = registry.openVolumeReader(file("shared"), options);
    ASSERT_TRUE(reader.isOk()) << reader.status().toString();
    auto part = (*reader)->readPlanes(3, 5);
    ASSERT_TRUE(part.isOk()) << part.status().toString();
    EXPECT_TRUE(equal(*part, planes(v, 3, 5)));
}

}  // namespace tomo::volume_stream_cases
