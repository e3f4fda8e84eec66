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

}  // namespace
}  // namespace tomo::volume_stream_cases
