// Round trips through the HDF5 writers and readers: DXchange and NXtomo acquisitions (whole,
// by blocks and by row chunks), angle units, and reconstructions with provenance.
#include <gtest/gtest.h>

#include <cmath>

#include "Hdf5TestUtil.h"
#include "core/dataset/FormatRegistry.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/hdf5io/Hdf5AcquisitionReader.h"
#include "core/hdf5io/Hdf5Formats.h"
#include "core/hdf5io/Hdf5Writer.h"
#include "tomo/config.h"

namespace tomo {
namespace {

using test::code;

void expectSame(const Array3<float>& a, const Array3<float>& b) {
    ASSERT_EQ(a.dims(), b.dims());
    for (std::size_t i = 0; i < a.dim(0); ++i)
        for (std::size_t r = 0; r < a.dim(1); ++r)
            for (std::size_t c = 0; c < a.dim(2); ++c)
                ASSERT_EQ(a(i, r, c), b(i, r, c)) << "at " << i << "," << r << "," << c;
}

class Hdf5RoundTrip : public test::Hdf5Test {};

TEST_F(Hdf5RoundTrip, DxchangeUint16WholeAndBlocks) {
    const ProjectionData d = test::codedAcquisition(9, 6, 11);
    AcquisitionWriteOptions options;
    options.dataType = SampleType::UInt16;
    ASSERT_TRUE(writeDxchange(path("a.h5"), d, options).isOk());
    EXPECT_EQ(fileCount(), 1u);  // no temporary left
    auto reader = openDxchange(path("a.h5"));
    ASSERT_TRUE(reader.isOk()) << reader.status().toString();
    const AcquisitionInfo& info = (*reader)->info();
    EXPECT_EQ(info.format, "DXchange");
    EXPECT_EQ(info.angleCount, 9u);
    EXPECT_EQ(info.rows, 6u);
    EXPECT_EQ(info.columns, 11u);
    EXPECT_EQ(info.flatCount, 3u);
    EXPECT_EQ(info.darkCount, 2u);
    EXPECT_EQ(info.projectionType, SampleType::UInt16);
    EXPECT_EQ(info.storedAngleUnit, AngleUnit::Degrees);
    EXPECT_TRUE(info.angleUnitFromAttribute);
    ASSERT_EQ(info.angles.size(), 9u);
    for (std::size_t a = 0; a < 9; ++a)
        EXPECT_NEAR(info.angles[a], d.angles[a], 1e-12);

    auto all = (*reader)->read();
    ASSERT_TRUE(all.isOk()) << all.status().toString();
    expectSame(all->projections, d.projections);
    expectSame(all->flats, d.flats);
    expectSame(all->darks, d.darks);

    auto block = (*reader)->readProjections({3, 4}, {2, 3});
    ASSERT_TRUE(block.isOk());
    ASSERT_EQ(block->dims(), (std::array<std::size_t, 3>{4, 3, 11}));
    for (std::size_t a = 0; a < 4; ++a)
        for (std::size_t r = 0; r < 3; ++r)
            for (std::size_t c = 0; c < 11; ++c)
                ASSERT_EQ((*block)(a, r, c), code(a + 3, r + 2, c));
    auto flats = (*reader)->readFlats({5, 1});
    ASSERT_TRUE(flats.isOk());
    EXPECT_EQ((*flats)(2, 0, 10), 60002.f);
    EXPECT_EQ((*reader)->readProjections({8, 2}, IndexRange::all()).status().code(),
              ErrorCode::InvalidArgument);
}

TEST_F(Hdf5RoundTrip, ChunkedRowReadsAssembleTheSinograms) {
    const ProjectionData d = test::codedAcquisition(7, 10, 5);
    ASSERT_TRUE(writeDxchange(path("c.h5"), d).isOk());
    auto reader = openDxchange(path("c.h5"));
    ASSERT_TRUE(reader.isOk());
    auto whole = toSinograms(d.projections);
    ASSERT_TRUE(whole.isOk());
    // Chunks of 3 rows (the last one shorter), as a larger-than-memory job would read them.
    for (std::size_t r0 = 0; r0 < 10; r0 += 3) {
        const std::size_t n = std::min<std::size_t>(3, 10 - r0);
        auto frames = (*reader)->readProjections(IndexRange::all(), {r0, n});
        ASSERT_TRUE(frames.isOk());
        auto sino = toSinograms(*frames);
        ASSERT_TRUE(sino.isOk());
        for (std::size_t s = 0; s < n; ++s)
            for (std::size_t a = 0; a < 7; ++a)
                for (std::size_t c = 0; c < 5; ++c)
                    ASSERT_EQ((*sino)(s, a, c), (*whole)(r0 + s, a, c));
    }
}

TEST_F(Hdf5RoundTrip, AngleUnitsDetectedOrStated) {
    ProjectionData d = test::codedAcquisition(4, 2, 3);
    d.angles = {0.0, 1.0, 2.0, 3.0};  // radians, all below 2*pi
    AcquisitionWriteOptions options;
    options.writeAngleUnits = false;
    options.angleUnit = AngleUnit::Radians;
    ASSERT_TRUE(writeDxchange(path("rad.h5"), d, options).isOk());
    auto rad = openDxchange(path("rad.h5"));
    ASSERT_TRUE(rad.isOk());
    EXPECT_EQ((*rad)->info().storedAngleUnit, AngleUnit::Radians);
    EXPECT_DOUBLE_EQ((*rad)->info().angles[3], 3.0);
    // Stated by the caller: the same numbers read as degrees.
    auto stated = openDxchange(path("rad.h5"), AngleUnit::Degrees);
    ASSERT_TRUE(stated.isOk());
    EXPECT_DOUBLE_EQ((*stated)->info().angles[3], 3.0 * kPi / 180.0);
    // Degrees without an attribute: 0..270 exceeds 2*pi, detected as degrees.
    d.angles = {0.0, kPi / 2, kPi, 1.5 * kPi};
    options.angleUnit = AngleUnit::Degrees;
    ASSERT_TRUE(writeDxchange(path("deg.h5"), d, options).isOk());
    auto deg = openDxchange(path("deg.h5"));
    ASSERT_TRUE(deg.isOk());
    EXPECT_EQ((*deg)->info().storedAngleUnit, AngleUnit::Degrees);
    EXPECT_FALSE((*deg)->info().angleUnitFromAttribute);
    EXPECT_NEAR((*deg)->info().angles[3], 1.5 * kPi, 1e-12);
}

TEST_F(Hdf5RoundTrip, NxtomoInterleavedFramesKeepOrder) {
    const ProjectionData d = test::codedAcquisition(8, 4, 6);
    AcquisitionWriteOptions options;
    options.splitFlats = true;   // darks, flat 0, projections, flats 1-2
    options.invalidFrames = 2;   // image_key 3, skipped
    options.dataType = SampleType::Float64;
    ASSERT_TRUE(writeNxtomo(path("n.nxs"), d, options).isOk());
    auto reader = openHdf5Acquisition(path("n.nxs"));
    ASSERT_TRUE(reader.isOk()) << reader.status().toString();
    const AcquisitionInfo& info = (*reader)->info();
    EXPECT_EQ(info.format, "NXtomo");
    EXPECT_EQ(info.angleCount, 8u);
    EXPECT_EQ(info.flatCount, 3u);
    EXPECT_EQ(info.darkCount, 2u);
    EXPECT_EQ(info.projectionType, SampleType::Float64);
    ASSERT_EQ(info.angles.size(), 8u);
    EXPECT_NEAR(info.angles[7], 0.35, 1e-12);
    auto all = (*reader)->read();
    ASSERT_TRUE(all.isOk()) << all.status().toString();
    expectSame(all->projections, d.projections);
    expectSame(all->flats, d.flats);  // flat 0 before, 1 and 2 after: order kept
    expectSame(all->darks, d.darks);
    auto block = (*reader)->readProjections({6, 2}, {3, 1});
    ASSERT_TRUE(block.isOk());
    EXPECT_EQ((*block)(1, 0, 5), code(7, 3, 5));
}

TEST_F(Hdf5RoundTrip, NxtomoMinimalLayoutDegreesByDefault) {
    // NXentry/data with data, image_key and rotation_angle without a units attribute.
    {
        test::RawFile f(path("m.h5"));
        f.group("/scan", "NXentry");
        f.group("/scan/data", "");
        std::vector<float> v(4 * 2 * 3);
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = static_cast<float>(i);
        f.floats("/scan/data/data", {4, 2, 3}, v);
        f.ints("/scan/data/image_key", {2, 0, 1, 0});
        f.doubles("/scan/data/rotation_angle", {0, 0, 0, 90});
    }
    auto reader = openNxtomo(path("m.h5"));
    ASSERT_TRUE(reader.isOk()) << reader.status().toString();
    ASSERT_EQ((*reader)->info().angles.size(), 2u);
    EXPECT_NEAR((*reader)->info().angles[1], kPi / 2, 1e-12);
    auto p = (*reader)->readProjections(IndexRange::all(), IndexRange::all());
    ASSERT_TRUE(p.isOk());
    EXPECT_EQ((*p)(0, 0, 0), 6.f);   // frame 1
    EXPECT_EQ((*p)(1, 1, 2), 23.f);  // frame 3, last element
}

TEST_F(Hdf5RoundTrip, ReconstructionWithProvenance) {
    Array3<float> volume(3, 5, 4);
    for (std::size_t z = 0; z < 3; ++z)
        for (std::size_t y = 0; y < 5; ++y)
            for (std::size_t x = 0; x < 4; ++x)
                volume(z, y, x) = 0.25f * code(z, y, x) - 3.f;
    WriteOptions options;
    options.voxelSize = 0.5;
    options.provenance = {{"algorithm", "fbp"}, {"variant", "cpu.reference.lin"},
                          {"geometry", "parallel, 180 angles"}, {"device", "cpu"}};
    ASSERT_TRUE(writeHdf5Volume(path("rec.h5"), volume, options).isOk());
    EXPECT_EQ(fileCount(), 1u);
    auto back = readHdf5Volume(path("rec.h5"));
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    expectSame(*back, volume);
    auto prov = readHdf5Provenance(path("rec.h5"));
    ASSERT_TRUE(prov.isOk());
    EXPECT_EQ(prov->at("algorithm"), "fbp");
    EXPECT_EQ(prov->at("variant"), "cpu.reference.lin");
    EXPECT_EQ(prov->at("tomostation_version"), TOMO_VERSION);
    EXPECT_DOUBLE_EQ(std::stod(prov->at("voxel_size")), 0.5);

    FormatRegistry registry;
    ASSERT_TRUE(registerHdf5Formats(registry).isOk());
    auto description = registry.describe(path("rec.h5"), {});
    ASSERT_TRUE(description.isOk()) << description.status().toString();
    EXPECT_EQ(description->format, "HDF5 (reconstruction)");
    ASSERT_EQ(description->datasets.size(), 1u);
    EXPECT_EQ(description->datasets[0].path, "/reconstruction/data");
    EXPECT_EQ(description->datasets[0].shape, (std::vector<std::size_t>{3, 5, 4}));
    EXPECT_FALSE(description->acquisition.has_value());
    auto viaRegistry = registry.readVolume(path("rec.h5"), {});
    ASSERT_TRUE(viaRegistry.isOk());
    expectSame(*viaRegistry, volume);
}

}  // namespace
}  // namespace tomo
