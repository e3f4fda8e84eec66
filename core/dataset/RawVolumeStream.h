#pragma once
/// @file RawVolumeStream.h
/// @brief Raw float32 little-endian volumes ([plane][row][column], no header) written and read a
/// slab of planes at a time (VolumeStream.h): the "raw" format's openVolumeWriter and
/// openVolumeReader. The writer places each slab at its offset in a temporary file beside the
/// target (AtomicFile.h) and renames it into place on commit(); other processes may write
/// planes into that file too (its planeLayout(): PlaneFile.h). The reader reads the planes
/// asked for with pread. Memory: the slab given or asked for, nothing else.

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>

#include "core/dataset/VolumeStream.h"

namespace tomo {

/// InvalidArgument for an empty shape; IoError when the temporary file cannot be created.
Result<std::unique_ptr<VolumeWriter>> openRawVolumeWriter(const std::filesystem::path& path,
                                                          const std::array<std::size_t, 3>& shape);

/// NotFound, or InvalidData when the file's size is not that of @p shape in float32.
Result<std::unique_ptr<VolumeReader>> openRawVolumeReader(const std::filesystem::path& path,
                                                          const std::array<std::size_t, 3>& shape);

}  // namespace tomo
