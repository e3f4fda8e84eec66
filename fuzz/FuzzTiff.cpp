// libFuzzer harness for the TIFF reader (TiffFormat.h): probe, whole read and a page/row range of
// the input as a .tif file.
#include <cstddef>
#include <cstdint>

#include "FuzzScratch.h"
#include "core/io/ImageIO.h"
#include "core/io/TiffFormat.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tomo::fuzz::ScratchFolder folder;
    if (!folder.ok()) return 0;
    const auto path = folder.write("f.tif", data, size);
    auto info = tomo::probeTiff(path);
    auto all = tomo::readTiff(path);
    auto part = tomo::readTiffRange(path, tomo::ReadRange{1, 1, 1, 2});
    return info.isOk() && all.isOk() && part.isOk() ? 0 : 0;
}
