// The streamed-volume cases (VolumeStreamCases.h) for the built-in formats: raw, TIFF, TIFF stack.
#include "VolumeStreamCases.h"

namespace tomo::volume_stream_cases {

Status registerStreamFormats(FormatRegistry& registry) {
    return registerBuiltinFormats(registry);
}

namespace {

INSTANTIATE_TEST_SUITE_P(Formats, VolumeStream, ::testing::Values("raw", "tiff", "tiff-stack"),
                         [](const auto& p) {
                             std::string name = p.param;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

// The cases above skip a format that does not stream; these fail when one stops streaming.
TEST(VolumeStreamFormats, RawAndTiffStreamBothWays) {
    FormatRegistry registry;
    ASSERT_TRUE(registerStreamFormats(registry).isOk());
    std::vector<std::string> files{"x.raw"};
    if (tiffSupported()) files.push_back("x.tif");
    for (const std::string& file : files) {
        auto format = registry.forPath(file);
        ASSERT_TRUE(format.isOk()) << file;
        EXPECT_TRUE(static_cast<bool>((*format)->openVolumeWriter)) << file;
        EXPECT_TRUE(static_cast<bool>((*format)->openVolumeReader)) << file;
    }
}

}  // namespace
}  // namespace tomo::volume_stream_cases
