// libFuzzer harness for loadGpuIcdLayout (core/mbir/GpuIcdLayoutFile.h): the input is the file,
// read as the layout of the fixed case of FuzzLayoutCase.h. Any outcome but a crash, leak or
// sanitizer report is fine; a layout that loads is walked as the kernels walk it (every chunk's
// tile rows, in a stand-in of one byte per row of the tiles the device would build; every SV's
// voxels and their scales), so an index the reader let through that points outside its array
// is an address-sanitizer report.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "FuzzLayoutCase.h"
#include "FuzzScratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    tomo::fuzz::ScratchFolder folder;
    if (!folder.ok()) return 0;
    static const tomo::fuzz::LayoutCase c = tomo::fuzz::layoutCase();
    const auto path = folder.write("l.icdl", data, size);
    auto layout = tomo::loadGpuIcdLayout(path, c.key, c.geometry, c.options);
    if (!layout) return 0;
    const tomo::GpuIcdLayout& l = *layout;
    const std::vector<std::uint8_t> rows(l.tileRows, 1);  // the reader bounds them (chunkMeta)
    unsigned sum = 0;
    for (std::size_t k = 0; k < l.chunkMeta.size(); k += 2) {
        const std::uint32_t count = l.chunkMeta[k + 1] >> 16;
        for (std::uint32_t r = 0; r < count; ++r)
            sum += rows.at(std::size_t(l.chunkMeta[k]) + r);
    }
    for (std::size_t s = 0; s < l.svCount(); ++s)
        for (std::int32_t k = 0; k < l.svSize[s]; ++k)
            sum += unsigned(l.scale.at(std::size_t(l.order.at(std::size_t(l.svFirst[s] + k)))));
    return sum == 0xdeadbeef ? 0 : 0;
}
