// MetaImage, NRRD and NIfTI through ITK (ItkVolumeIO.h): round trips with metadata and ranges in
// every format, hand-written headers for integer input, and each bad-input case.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "IoTestUtil.h"
#include "TestUtil.h"
#include "core/itkio/ItkVolumeIO.h"

namespace tomo {
namespace {

using test::ScratchDir;

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

#define TOMO_REQUIRE_ITK() \
    if (!itkVolumeIoSupported()) GTEST_SKIP() << "built without ITK"

Array3<float> volume() {
    Array3<float> a(4, 5, 6);
    test::fillRandom(a, 3, -2.f, 2.f);
    return a;
}

VolumeMetadata metadata() {
    VolumeGeometry g;
    g.nx = 6;
    g.ny = 5;
    g.nz = 4;
    g.voxelSize = 0.25;
    g.offsetX = 1.5;
    g.offsetY = -0.75;
    return VolumeMetadata::forGrid(g, 2.0);
}

/// Writes a MetaImage with a hand-written header followed by @p bytes.
void writeMha(const std::filesystem::path& p, const std::string& header, const void* bytes,
              std::size_t n) {
    std::string all = header + "ElementDataFile = LOCAL\n";
    all.append(static_cast<const char*>(bytes), n);
    test::writeBytes(p, all.data(), all.size());
}

TEST(VolumeMetadata, GridMappingMatchesTheGeometryConventions) {
    const VolumeMetadata m = metadata();
    // Pixel (0, 0): x = (0 - 2.5) * 0.25 + 1.5 = 0.875, y = (2 - 0) * 0.25 - 0.75 = -0.25.
    EXPECT_DOUBLE_EQ(m.origin[0], 0.875);
    EXPECT_DOUBLE_EQ(m.origin[1], -0.25);
    EXPECT_DOUBLE_EQ(m.origin[2], 2.0);
    EXPECT_EQ(m.direction[4], -1.0);
    auto g = m.toGrid(6, 5, 4);
    ASSERT_TRUE(g.isOk());
    EXPECT_DOUBLE_EQ(g->voxelSize, 0.25);
    EXPECT_DOUBLE_EQ(g->offsetX, 1.5);
    EXPECT_DOUBLE_EQ(g->offsetY, -0.75);
    VolumeMetadata flipped = m;
    flipped.direction[4] = 1.0;
    EXPECT_EQ(flipped.toGrid(6, 5, 4).status().code(), ErrorCode::InvalidData);
    VolumeMetadata rect = m;
    rect.spacing[1] = 0.3;
    EXPECT_TRUE(contains(rect.toGrid(6, 5, 4).status().message(), "spacing differ"));
}

TEST(ItkVolumeIo, EveryFormatRoundTripsValuesMetadataAndRanges) {
    TOMO_REQUIRE_ITK();
    const Array3<float> a = volume();
    const VolumeMetadata m = metadata();
    for (const char* name : {"v.mha", "v.mhd", "v.nrrd", "v.nhdr", "v.nii", "v.nii.gz"}) {
        SCOPED_TRACE(name);
        ScratchDir dir("itkio");
        ASSERT_TRUE(writeVolumeFile(dir / name, a, m).isOk());
        auto back = readVolumeFile(dir / name);
        ASSERT_TRUE(back.isOk()) << back.status().toString();
        ASSERT_EQ(back->data.dims(), a.dims());
        EXPECT_EQ(test::maxRelDiff(back->data, a), 0.0);
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(back->metadata.spacing[k], m.spacing[k], 1e-6);
            EXPECT_NEAR(back->metadata.origin[k], m.origin[k], 1e-6);
        }
        for (int k = 0; k < 9; ++k)
            EXPECT_NEAR(back->metadata.direction[k], m.direction[k], 1e-6) << k;
        auto grid = back->metadata.toGrid(6, 5, 4);
        ASSERT_TRUE(grid.isOk()) << grid.status().toString();
        EXPECT_NEAR(grid->offsetX, 1.5, 1e-6);

        auto part = readVolumeFile(dir / name, ReadRange{1, 2, 2, 3});
        ASSERT_TRUE(part.isOk()) << part.status().toString();
        ASSERT_EQ(part->data.dims(), (std::array<std::size_t, 3>{2, 3, 6}));
        for (std::size_t z = 0; z < 2; ++z)
            for (std::size_t y = 0; y < 3; ++y)
                for (std::size_t x = 0; x < 6; ++x)
                    ASSERT_EQ(part->data(z, y, x), a(1 + z, 2 + y, x));
        EXPECT_EQ(readVolumeFile(dir / name, ReadRange::planes(4, 1)).status().code(),
                  ErrorCode::InvalidArgument);

        auto info = probeVolumeFile(dir / name);
        ASSERT_TRUE(info.isOk());
        EXPECT_EQ(info->nx, 6u);
        EXPECT_EQ(info->nz, 4u);
        EXPECT_EQ(info->pixelType, "float");
        // Only the final files: header (+ data file for detached headers), no temporary folder.
        const auto files = dir.list();
        const std::string n(name);
        if (n == "v.mhd")
            EXPECT_EQ(files, (std::vector<std::string>{"v.mhd", "v.raw"}));
        else if (n == "v.nhdr")
            EXPECT_EQ(files.size(), 2u);
        else
            EXPECT_EQ(files, std::vector<std::string>{n});
    }
}

TEST(ItkVolumeIo, MetaImageStreamsAndIntegerPixelsConvert) {
    TOMO_REQUIRE_ITK();
    ScratchDir dir("itkio");
    const std::uint16_t v[2 * 3 * 2] = {0, 1, 2, 300, 4000, 65535, 7, 8, 9, 10, 11, 12};
    writeMha(dir / "u16.mha",
             "ObjectType = Image\nNDims = 3\nDimSize = 2 3 2\nElementType = MET_USHORT\n"
             "ElementSpacing = 0.5 0.5 2\n",
             v, sizeof v);
    auto info = probeVolumeFile(dir / "u16.mha");
    ASSERT_TRUE(info.isOk()) << info.status().toString();
    EXPECT_TRUE(info->streamable);
    EXPECT_EQ(info->pixelType, "unsigned_short");
    auto r = readVolumeFile(dir / "u16.mha");
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    for (std::size_t i = 0; i < 12; ++i)
        EXPECT_EQ(r->data(i / 6, (i / 2) % 3, i % 2), static_cast<float>(v[i])) << i;
    EXPECT_DOUBLE_EQ(r->metadata.spacing[2], 2.0);
    // A 2-D image is one slice.
    const std::int16_t s[3 * 2] = {-5, 4, -3, 2, -1, 0};
    writeMha(dir / "flat.mha",
             "ObjectType = Image\nNDims = 2\nDimSize = 2 3\nElementType = MET_SHORT\n", s,
             sizeof s);
    auto flat = readVolumeFile(dir / "flat.mha");
    ASSERT_TRUE(flat.isOk()) << flat.status().toString();
    ASSERT_EQ(flat->data.dims(), (std::array<std::size_t, 3>{1, 3, 2}));
    EXPECT_EQ(flat->data(0, 2, 0), -1.f);
}

TEST(ItkVolumeIo, BadInputsNameTheFileAndCause) {
    TOMO_REQUIRE_ITK();
    ScratchDir dir("itkio");
    EXPECT_EQ(readVolumeFile(dir / "none.mha").status().code(), ErrorCode::NotFound);
    EXPECT_EQ(readVolumeFile(dir / "x.vtk").status().code(), ErrorCode::InvalidArgument);

    // Truncated: a header promising more than the file holds, in every single-file format.
    const Array3<float> a = volume();
    for (const char* name : {"t.mha", "t.nrrd", "t.nii"}) {
        ASSERT_TRUE(writeVolumeFile(dir / name, a).isOk());
        auto bytes = test::readBytes(dir / name);
        test::writeBytes(dir / name, bytes.data(), bytes.size() - 200);
        auto r = readVolumeFile(dir / name);
        ASSERT_FALSE(r.isOk()) << name;
        EXPECT_EQ(r.status().code(), ErrorCode::InvalidData) << name;
        EXPECT_TRUE(contains(r.status().message(), name)) << r.status().message();
    }
    // Garbage with a volume extension.
    const char junk[] = "this is not a volume header at all\n\x01\x02\x03";
    for (const char* name : {"g.mha", "g.nrrd", "g.nii"}) {
        test::writeBytes(dir / name, junk, sizeof junk);
        auto r = readVolumeFile(dir / name);
        ASSERT_FALSE(r.isOk()) << name;
        EXPECT_EQ(r.status().code(), ErrorCode::InvalidData) << name;
        EXPECT_TRUE(contains(r.status().message(), name)) << r.status().message();
    }
    // Four dimensions.
    float four[2 * 2 * 2 * 2] = {};
    writeMha(dir / "four.mha",
             "ObjectType = Image\nNDims = 4\nDimSize = 2 2 2 2\nElementType = MET_FLOAT\n", four,
             sizeof four);
    auto r4 = readVolumeFile(dir / "four.mha");
    ASSERT_FALSE(r4.isOk());
    EXPECT_EQ(r4.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(r4.status().message(), "4-D")) << r4.status().message();
    // Three channels per voxel.
    std::uint8_t rgb[2 * 2 * 2 * 3] = {};
    writeMha(dir / "rgb.mha",
             "ObjectType = Image\nNDims = 3\nDimSize = 2 2 2\nElementNumberOfChannels = 3\n"
             "ElementType = MET_UCHAR\n",
             rgb, sizeof rgb);
    auto rc = readVolumeFile(dir / "rgb.mha");
    ASSERT_FALSE(rc.isOk());
    EXPECT_EQ(rc.status().code(), ErrorCode::Unsupported);
    EXPECT_TRUE(contains(rc.status().message(), "rgb.mha"));
    // NaN in the data.
    float nan[8] = {0, 1, 2, 3, 4, std::numeric_limits<float>::quiet_NaN(), 6, 7};
    writeMha(dir / "nan.mha",
             "ObjectType = Image\nNDims = 3\nDimSize = 2 2 2\nElementType = MET_FLOAT\n", nan,
             sizeof nan);
    auto rn = readVolumeFile(dir / "nan.mha");
    ASSERT_FALSE(rn.isOk());
    EXPECT_TRUE(contains(rn.status().message(), "slice 1, row 0, column 1"))
        << rn.status().message();
}

TEST(ItkVolumeIo, NonFiniteNiftiOrientationIsInvalidDataNotAnAbort) {
    TOMO_REQUIRE_ITK();
    // Found by fuzz_nifti: ITK 5.2 aborts the process (vnl assert_finite) on such headers.
    ScratchDir dir("itkio");
    ASSERT_TRUE(writeVolumeFile(dir / "o.nii", volume(), metadata()).isOk());
    auto bytes = test::readBytes(dir / "o.nii");
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(bytes.data() + 260, &nan, 4);  // quatern_c
    test::writeBytes(dir / "o.nii", bytes.data(), bytes.size());
    auto r = readVolumeFile(dir / "o.nii");
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::InvalidData);
    EXPECT_TRUE(contains(r.status().message(), "quatern_b/c/d[1]")) << r.status().message();
    const float huge = 3e38f;
    std::memcpy(bytes.data() + 260, &huge, 4);
    test::writeBytes(dir / "o.nii", bytes.data(), bytes.size());
    EXPECT_EQ(readVolumeFile(dir / "o.nii").status().code(), ErrorCode::InvalidData);
}

TEST(ItkVolumeIo, BadMetaImageDimensionCountIsInvalidDataNotAHang) {
    TOMO_REQUIRE_ITK();
    // Found by fuzz_mha: ITK 5.2's MetaIO loops for minutes on "NDims = -1.25 1 1".
    ScratchDir dir("itkio");
    float v[4] = {};
    for (const char* ndims : {"-1.25 1 1", "0", "3.5", "99", "3\nNDims = -2"}) {
        writeMha(dir / "n.mha",
                 std::string("ObjectType = Image\nNDims = ") + ndims +
                     "\nDimSize = 2 2 1\nElementType = MET_FLOAT\n",
                 v, sizeof v);
        auto r = readVolumeFile(dir / "n.mha");
        ASSERT_FALSE(r.isOk()) << ndims;
        EXPECT_EQ(r.status().code(), ErrorCode::InvalidData);
        EXPECT_TRUE(contains(r.status().message(), "NDims")) << r.status().message();
    }
}

TEST(ItkVolumeIo, MetaImageFilePatternsAreUnsupportedNotACrash) {
    TOMO_REQUIRE_ITK();
    // Found by fuzz_mha: MetaIO divides by the step of a file pattern (SIGFPE for step 0).
    ScratchDir dir("itkio");
    const std::string header =
        "ObjectType = Image\nNDims = 3\nDimSize = 2 2 2\nElementType = MET_FLOAT\n"
        "ElementDataFile = s%02d.raw 1 2 0\n";
    test::writeBytes(dir / "p.mhd", header.data(), header.size());
    auto r = readVolumeFile(dir / "p.mhd");
    ASSERT_FALSE(r.isOk());
    EXPECT_EQ(r.status().code(), ErrorCode::Unsupported);
    EXPECT_TRUE(contains(r.status().message(), "ElementDataFile")) << r.status().message();
}

TEST(ItkVolumeIo, FailedWritesLeaveNothing) {
    TOMO_REQUIRE_ITK();
    ScratchDir dir("itkio");
    const Array3<float> a = volume();
    Status s = writeVolumeFile(dir / "missing" / "v.mhd", a);
    ASSERT_FALSE(s.isOk());
    EXPECT_EQ(s.code(), ErrorCode::IoError);
    EXPECT_TRUE(contains(s.message(), "v.mhd"));
    EXPECT_EQ(writeVolumeFile(dir / "v.vtk", a).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(writeVolumeFile(dir / "e.mha", Array3<float>()).code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(dir.list().empty());
}

}  // namespace
}  // namespace tomo
