// readVolumeAny / writeVolumeAny (AnyVolume.h): each format reachable by name, with ranges.
#include <gtest/gtest.h>

#include "IoTestUtil.h"
#include "TestUtil.h"
#include "core/io/ImageIO.h"
#include "core/itkio/AnyVolume.h"
#include "core/itkio/ItkFormats.h"
#include "core/itkio/ItkVolumeIO.h"

namespace tomo {
namespace {

using test::ScratchDir;

TEST(AnyVolume, EveryFormatRoundTripsThroughTheDispatch) {
    ScratchDir dir("anyvolume");
    Array3<float> a(3, 4, 5);
    test::fillRandom(a, 5, 0.f, 10.f);
    std::vector<std::string> names{"v.raw"};
    if (tiffSupported()) names.insert(names.end(), {"v.tif", "stack/"});
    if (itkVolumeIoSupported()) names.insert(names.end(), {"v.mha", "v.nrrd", "v.nii.gz"});
    for (const auto& name : names) {
        SCOPED_TRACE(name);
        const auto path = dir.path() / name;
        ASSERT_TRUE(writeVolumeAny(path, a).isOk());
        RawSpec spec{{3, 4, 5}, RawType::F32, ByteOrder::Little, 0};
        const bool raw = name == "v.raw";
        auto back = readVolumeAny(path, raw ? &spec : nullptr, ReadRange{1, 2, 1, 3});
        ASSERT_TRUE(back.isOk()) << back.status().toString();
        ASSERT_EQ(back->dims(), (std::array<std::size_t, 3>{2, 3, 5}));
        for (std::size_t p = 0; p < 2; ++p)
            for (std::size_t r = 0; r < 3; ++r)
                for (std::size_t c = 0; c < 5; ++c)
                    ASSERT_EQ((*back)(p, r, c), a(1 + p, 1 + r, c));
    }
}

TEST(AnyVolume, UnknownNamesAndRawWithoutSpecAreInvalidArguments) {
    ScratchDir dir("anyvolume");
    Array3<float> a(1, 2, 2);
    EXPECT_EQ(readVolumeAny(dir / "v.raw").status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(readVolumeAny(dir / "v.xyz").status().code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(writeVolumeAny(dir / "v.xyz", a).code(), ErrorCode::InvalidArgument);
    const Tiff16Scale map;
    EXPECT_EQ(writeVolumeAny(dir / "v.raw", a, nullptr, &map).code(), ErrorCode::InvalidArgument);
    EXPECT_TRUE(dir.list().empty());
}

}  // namespace
}  // namespace tomo

namespace tomo {
namespace {

TEST(ItkFormats, RegistryReadsWritesAndDescribesByExtension) {
    if (!itkVolumeIoSupported()) GTEST_SKIP() << "built without ITK";
    test::ScratchDir dir("itkformats");
    FormatRegistry registry;
    ASSERT_TRUE(registerItkFormats(registry).isOk());
    Array3<float> a(2, 3, 4);
    test::fillRandom(a, 9);
    WriteOptions w;
    w.voxelSize = 0.5;
    for (const char* name : {"r.mhd", "r.nrrd", "r.nii.gz"}) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(registry.writeVolume(dir / name, a, w).isOk());
        auto back = registry.readVolume(dir / name, ReadOptions{});
        ASSERT_TRUE(back.isOk()) << back.status().toString();
        EXPECT_EQ(test::maxRelDiff(*back, a), 0.0);
        auto d = registry.describe(dir / name, ReadOptions{});
        ASSERT_TRUE(d.isOk()) << d.status().toString();
        ASSERT_EQ(d->datasets.size(), 1u);
        EXPECT_EQ(d->datasets[0].shape, (std::vector<std::size_t>{2, 3, 4}));
        EXPECT_EQ(d->datasets[0].type, SampleType::Float32);
        // Spacing 0.5; pixel (0, 0) of a 4 x 3 grid centred on the axis is at (-0.75, 0.5).
        EXPECT_EQ(d->metadata["geometry"], "spacing 0.5 x 0.5 x 0.5, origin (-0.75, 0.5, 0)");
        auto acq = registry.openAcquisition(dir / name, ReadOptions{});
        ASSERT_TRUE(acq.isOk()) << acq.status().toString();
        EXPECT_EQ((*acq)->info().angleCount, 2u);
    }
}

}  // namespace
}  // namespace tomo
