// libFuzzer harness for the ITK volume readers (ItkVolumeIO.h), built once per format with
// TOMO_FUZZ_EXTENSION ".mha", ".nrrd" or ".nii": probe, whole read and a slice/row range.
#include <cstddef>
#include <cstdint>

#include "FuzzScratch.h"
#include "core/itkio/ItkVolumeIO.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tomo::fuzz::ScratchFolder folder;
    if (!folder.ok()) return 0;
    const auto path = folder.write(std::string("f") + TOMO_FUZZ_EXTENSION, data, size);
    auto info = tomo::probeVolumeFile(path);
    auto all = tomo::readVolumeFile(path);
    auto part = tomo::readVolumeFile(path, tomo::ReadRange{1, 1, 1, 1});
    return info.isOk() && all.isOk() && part.isOk() ? 0 : 0;
}
