// Writes the seed corpora of fuzz/corpus/<reader>/ (small valid files of each format and layout,
// a few KB each) with TomoStation's own writers and libtiff. Run once; the output is committed:
//   tomo_fuzz_seed_corpus <fuzz/corpus>
#include <tiffio.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "FuzzLayoutCase.h"
#include "core/io/ImageIO.h"
#include "core/io/RawIO.h"
#include "core/io/TiffFormat.h"
#include "core/itkio/ItkVolumeIO.h"

namespace {

namespace fs = std::filesystem;

tomo::Array3<float> ramp(std::size_t n0, std::size_t n1, std::size_t n2) {
    tomo::Array3<float> a(n0, n1, n2);
    for (std::size_t i = 0; i < n0; ++i)
        for (std::size_t j = 0; j < n1; ++j)
            for (std::size_t k = 0; k < n2; ++k)
                a(i, j, k) = static_cast<float>(i * 31 + j * 7 + k);
    return a;
}

std::vector<char> bytesOf(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(const fs::path& p, const std::vector<char>& prefix, const std::vector<char>& body) {
    std::ofstream out(p, std::ios::binary);
    out.write(prefix.data(), static_cast<std::streamsize>(prefix.size()));
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
}

/// A tiled 16-bit TIFF written with libtiff (the float writer only writes strips).
void tiledU16(const fs::path& p) {
    TIFF* t = TIFFOpen(p.c_str(), "w");
    if (!t) return;
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 20u);
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, 20u);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 16);
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(t, TIFFTAG_TILEWIDTH, 16u);
    TIFFSetField(t, TIFFTAG_TILELENGTH, 16u);
    TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
    std::vector<std::uint16_t> tile(256);
    for (std::size_t i = 0; i < tile.size(); ++i)
        tile[i] = static_cast<std::uint16_t>(i * 97);
    for (std::uint32_t y = 0; y < 20; y += 16)
        for (std::uint32_t x = 0; x < 20; x += 16)
            TIFFWriteTile(t, tile.data(), x, y, 0, 0);
    TIFFClose(t);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <corpus folder>\n", argv[0]);
        return 2;
    }
    const fs::path root = argv[1];
    for (const char* d : {"raw", "tiff", "tiff_stack", "mha", "nrrd", "nifti"})
        fs::create_directories(root / d);
    const fs::path tmp = root / "tmp.seed";

    // raw: 6 control bytes (type, order/range, dims, header) then the file.
    const tomo::RawType types[] = {tomo::RawType::U8, tomo::RawType::U16, tomo::RawType::I32,
                                   tomo::RawType::F32, tomo::RawType::F64};
    for (std::size_t k = 0; k < 5; ++k) {
        (void)tomo::writeRaw(tmp, ramp(2, 3, 4), types[k],
                             k % 2 ? tomo::ByteOrder::Big : tomo::ByteOrder::Little);
        const std::uint8_t t = static_cast<std::uint8_t>(types[k]);
        put(root / "raw" / ("seed" + std::to_string(k)),
            {static_cast<char>(t), static_cast<char>(k % 2 | 2), 1, 2, 3, 0}, bytesOf(tmp));
    }
    // tiff: float multi-page, 16-bit scaled, tiled deflate.
    (void)tomo::writeTiff(root / "tiff" / "float3.tif", ramp(3, 5, 6));
    (void)tomo::writeTiff16(root / "tiff" / "u16scaled.tif", ramp(2, 4, 5),
                            tomo::Tiff16Scale{0.5, -3.0});
    tiledU16(root / "tiff" / "tiled.tif");
    // tiff_stack: byte 0 = file count - 1, then equal parts.
    (void)tomo::writeTiff(tmp, ramp(1, 4, 5));
    auto page = bytesOf(tmp);
    std::vector<char> two(page);
    two.insert(two.end(), page.begin(), page.end());
    put(root / "tiff_stack" / "two", {1}, two);
    put(root / "tiff_stack" / "one", {0}, page);
    // ITK formats: float and compressed, with geometry.
    tomo::VolumeGeometry g;
    g.nx = 6;
    g.ny = 5;
    g.voxelSize = 0.5;
    const auto meta = tomo::VolumeMetadata::forGrid(g, 1.0);
    (void)tomo::writeVolumeFile(root / "mha" / "v.mha", ramp(3, 5, 6), meta);
    (void)tomo::writeVolumeFile(root / "mha" / "z.mha", ramp(3, 5, 6), meta, true);
    (void)tomo::writeVolumeFile(root / "nrrd" / "v.nrrd", ramp(3, 5, 6), meta);
    (void)tomo::writeVolumeFile(root / "nrrd" / "z.nrrd", ramp(3, 5, 6), meta, true);
    (void)tomo::writeVolumeFile(root / "nifti" / "v.nii", ramp(3, 5, 6), meta);
    // gpuicd_layout: GPU-ICD's layout of FuzzLayoutCase.h, whole and cut short.
    tomo::fuzz::writeLayoutSeeds(root / "gpuicd_layout");
    fs::remove(tmp);
    return 0;
}
