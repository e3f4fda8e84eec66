// The streamed-volume cases (tests/core/dataset/VolumeStreamCases.h) for HDF5 reconstructions.
#include "core/hdf5io/Hdf5Formats.h"
#include "tests/core/dataset/VolumeStreamCases.h"

namespace tomo::volume_stream_cases {

Status registerStreamFormats(FormatRegistry& registry) {
    return registerHdf5Formats(registry);
}

namespace {

INSTANTIATE_TEST_SUITE_P(Formats, VolumeStream, ::testing::Values("hdf5"),
                         [](const auto& p) { return p.param; });

// The case above skips a format that does not stream; this fails when HDF5 stops streaming.
TEST(VolumeStreamFormats, Hdf5StreamsBothWays) {
    FormatRegistry registry;
    ASSERT_TRUE(registerStreamFormats(registry).isOk());
    auto format = registry.forPath("x.h5");
    ASSERT_TRUE(format.isOk());
    EXPECT_TRUE(static_cast<bool>((*format)->openVolumeWriter));
    EXPECT_TRUE(static_cast<bool>((*format)->openVolumeReader));
}

}  // namespace
}  // namespace tomo::volume_stream_cases
