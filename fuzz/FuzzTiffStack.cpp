// libFuzzer harness for TIFF stacks (TiffStack.h): byte 0 picks 1..3 files, the rest is split
// evenly into s_0.tif, s_1.tif, ...; the folder is read whole and by a range.
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzScratch.h"
#include "core/io/TiffStack.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    tomo::fuzz::ScratchFolder folder;
    if (!folder.ok()) return 0;
    const std::size_t files = 1u + data[0] % 3u;
    const std::size_t each = (size - 1) / files;
    for (std::size_t k = 0; k < files; ++k)
        folder.write("s_" + std::to_string(k) + ".tif", data + 1 + k * each,
                     k + 1 == files ? size - 1 - k * each : each);
    auto all = tomo::readTiffStack(folder.path());
    auto part = tomo::readTiffStack(folder.path() / "s_*.tif", tomo::ReadRange{1, 1, 1, 1});
    return all.isOk() && part.isOk() ? 0 : 0;
}
