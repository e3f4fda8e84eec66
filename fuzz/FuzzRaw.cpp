// libFuzzer harness for readRaw (RawIO.h). Input: byte 0 = element type, byte 1 = byte order
// and range choice, bytes 2..4 = dims (1..8 each), byte 5 = header size (0..15); the rest is the
// file. Any outcome but a crash, leak or sanitizer report is fine.
#include <cstddef>
#include <cstdint>

#include "FuzzScratch.h"
#include "core/io/RawIO.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 6) return 0;
    tomo::fuzz::ScratchFolder folder;
    if (!folder.ok()) return 0;
    tomo::RawSpec spec;
    spec.type = static_cast<tomo::RawType>(data[0] % 7);
    spec.order = (data[1] & 1) ? tomo::ByteOrder::Big : tomo::ByteOrder::Little;
    spec.dims = {1u + data[2] % 8u, 1u + data[3] % 8u, 1u + data[4] % 8u};
    spec.headerBytes = data[5] % 16u;
    const auto path = folder.write("f.raw", data + 6, size - 6);
    tomo::ReadRange range;
    if (data[1] & 2) range = {data[1] >> 4 & 3u, 1u + (data[1] >> 6), data[2] >> 4 & 7u, 2};
    auto all = tomo::readRaw(path, spec);
    auto part = tomo::readRaw(path, spec, range);
    return all.isOk() && part.isOk() ? 0 : 0;
}
