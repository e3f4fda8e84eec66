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

}  // namespace
}  // namespace tomo::volume_stream_cases
