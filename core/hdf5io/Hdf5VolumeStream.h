#pragma once
/// @file Hdf5VolumeStream.h
/// @brief HDF5 reconstructions written and read a slab of planes at a time (VolumeStream.h):
/// the "hdf5" format's openVolumeWriter and openVolumeReader, with the layout and provenance of
/// Hdf5Writer.h (/reconstruction/data float32 [z][y][x], one slice per chunk, attributes of
/// /reconstruction written when the writer opens). Slabs may come in any order; each is one
/// hyperslab write from the slab's own memory (no copy). The file is created under a temporary
/// name and renamed into place by commit(); a writer dropped before commit() removes it.
/// writeHdf5Volume is this writer given the whole volume as one slab.
///
/// Threading: one writer or reader per thread at a time (HDF5 is built without thread safety;
/// see Hdf5Support.h).

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

#include "core/dataset/FormatRegistry.h"
#include "core/dataset/VolumeStream.h"

namespace tomo {

Result<std::unique_ptr<VolumeWriter>> openHdf5VolumeWriter(const std::filesystem::path& path,
                                                           const std::array<std::size_t, 3>& shape,
                                                           const WriteOptions& options);

/// Planes of dataset @p dataset (empty: /reconstruction/data, else /exchange/data) of a rank-3
/// float stack. InvalidData for another rank or a non-numeric type.
Result<std::unique_ptr<VolumeReader>> openHdf5VolumeReader(const std::filesystem::path& path,
                                                           const std::string& dataset);

}  // namespace tomo
