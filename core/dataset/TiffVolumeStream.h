#pragma once
/// @file TiffVolumeStream.h
/// @brief TIFF volumes written and read a slab of planes at a time (VolumeStream.h): the
/// "tiff" and "tiff-stack" formats' openVolumeWriter and openVolumeReader.
///  - multi-page TIFF: pages are appended in plane order (TiffPageWriter); a slab that does not
///    start at the next plane is InvalidArgument. Read by pages (readTiffRange).
///  - TIFF stack (a folder, one single-page file per plane, `slice_<k>.tif`): slabs in any
///    order, each plane its own atomic file; a writer dropped before commit() removes the files
///    it wrote (and the folder when it created it). Read by files (readTiffStack).
/// 16-bit outputs (WriteOptions::tiff16) write the counts of the map.

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>

#include "core/dataset/VolumeStream.h"
#include "core/io/TiffFormat.h"

namespace tomo {

Result<std::unique_ptr<VolumeWriter>> openTiffVolumeWriter(const std::filesystem::path& path,
                                                           const std::array<std::size_t, 3>& shape,
                                                           const std::optional<Tiff16Scale>& map);
Result<std::unique_ptr<VolumeReader>> openTiffVolumeReader(const std::filesystem::path& path);

Result<std::unique_ptr<VolumeWriter>> openTiffStackWriter(const std::filesystem::path& folder,
                                                          const std::array<std::size_t, 3>& shape,
                                                          const std::optional<Tiff16Scale>& map);
Result<std::unique_ptr<VolumeReader>> openTiffStackReader(const std::filesystem::path& path);

}  // namespace tomo
