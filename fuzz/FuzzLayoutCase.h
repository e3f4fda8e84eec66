#pragma once
// The GPU-ICD layout harness's fixed case (FuzzGpuIcdLayout.cpp) and its seeds (written by
// tomo_fuzz_seed_corpus): every input is read as the layout file of a 10 x 10 image seen from 8
// views by 15 channels, for SVs of 4 voxels.
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/base/CacheFiles.h"
#include "core/mbir/GpuIcdLayoutCache.h"
#include "core/mbir/GpuIcdLayoutFile.h"
#include "core/mbir/MbirMatrix.h"

namespace tomo::fuzz {

struct LayoutCase {
    MbirSliceGeometry geometry;
    GpuIcdOptions options;
    std::string key;
};

inline LayoutCase layoutCase() {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.1, kPi, 8);
    p.detectorCount = 15;
    p.centerOfRotation = 7.3;
    LayoutCase c{MbirSliceGeometry(*ParallelGeometry::create(p), {10, 10, 1, 1.0}), {}, ""};
    c.options.side = 4;
    c.key = GpuIcdLayoutCache::key(c.geometry, c.options);
    return c;
}

/// The seeds of fuzz/corpus/gpuicd_layout: the case's layout, and the same cut short.
inline void writeLayoutSeeds(const std::filesystem::path& folder) {
    const LayoutCase c = layoutCase();
    const auto a = MbirMatrix::build(c.geometry, MbirEntryType::Uint8, {});
    const auto layout = GpuIcdLayout::build(c.geometry, *a, c.options, std::size_t(1) << 30, {});
    std::filesystem::create_directories(folder);
    (void)saveGpuIcdLayout(*layout, folder / "seed-layout", c.key);
    std::filesystem::copy_file(folder / "seed-layout", folder / "seed-truncated",
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::resize_file(folder / "seed-truncated",
                                 std::filesystem::file_size(folder / "seed-layout") / 2);
}

}  // namespace tomo::fuzz
