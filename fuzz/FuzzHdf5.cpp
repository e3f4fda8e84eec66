// libFuzzer harness for the HDF5 acquisition readers (core/hdf5io), built once per layout with
// TOMO_FUZZ_EXTENSION ".h5" (DXchange) or ".nxs" (NXtomo): open, describe, read whole and by a
// block of projections and rows, the way `tomo info` and `tomo recon` do.
#include <cstddef>
#include <cstdint>

#include "FuzzScratch.h"
#include "core/dataset/FormatRegistry.h"
#include "core/hdf5io/Hdf5Formats.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tomo::fuzz::ScratchFolder folder;
    if (!folder.ok()) return 0;
    const auto path = folder.write(std::string("f") + TOMO_FUZZ_EXTENSION, data, size);
    tomo::FormatRegistry registry;
    if (!tomo::registerHdf5Formats(registry).isOk()) return 0;
    auto description = registry.describe(path, {});
    auto reader = registry.openAcquisition(path, {});
    if (reader.isOk()) {
        auto all = (*reader)->read();
        auto block = (*reader)->readProjections(tomo::IndexRange{1, 2}, tomo::IndexRange{0, 1});
        auto flats = (*reader)->readFlats(tomo::IndexRange{0, 1});
        (void)all;
        (void)block;
        (void)flats;
    }
    return description.isOk() ? 0 : 0;
}
