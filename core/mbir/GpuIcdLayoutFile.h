#pragma once
/// @file GpuIcdLayoutFile.h
/// @brief GPU-ICD's layout (GpuIcd.h) on disk (issue 27 item 4): a fresh process reads the
/// layout of a geometry it has seen instead of rebuilding it. Files live beside the system
/// matrices, under their disk budget (MbirMatrixCache.h).
///
/// Format, version 3 (native little-endian): "TOMOICDL", 19 unsigned 64-bit header words
/// (version, key length, views, channels, padding, nx, ny, pitch, rows, chunks, side, the
/// element counts of colour, svBase, svFirst, svSize, order, chunkMeta, the tiles' rows, and
/// the count of scale), the key, the arrays colour .. chunkMeta and scale (32-bit elements),
/// then a Checksum64 of everything after the magic. The tiles are not in the file: the device
/// builds them from the matrix (version 2 held them, 909 MiB at 512^2 x 720 views, read in
/// 1.1 s on an H200's host; an older version is rebuilt with a note). The reader checks the
/// header against the geometry and options it is asked for and the file's length before it
/// allocates, the checksum after it has read, and every index the kernels follow (tiles one
/// after the other adding up to the tiles' rows, band rows, voxel orders, SV ranges, colours),
/// so that a truncated, corrupt or foreign file is an error, never a wrong layout on the
/// device.

#include <filesystem>
#include <string>

#include "core/base/Status.h"
#include "core/mbir/GpuIcd.h"

namespace tomo {

inline constexpr const char* kGpuIcdLayoutExtension = ".icdl";

/// Writes @p layout, the layout of @p key, to @p path (atomically: CacheFiles.h).
Status saveGpuIcdLayout(const GpuIcdLayout& layout, const std::filesystem::path& path,
                        const std::string& key);

/// The layout in @p path for @p key, geometry @p g and SVs of options.side, with a new identity
/// (newGpuIcdLayoutId).
/// NotFound when there is no file; InvalidData saying why when it is not
/// such a layout, is truncated or too long, fails its checksum or holds an index out of range.
Result<GpuIcdLayout> loadGpuIcdLayout(const std::filesystem::path& path, const std::string& key,
                                      const MbirSliceGeometry& g, const GpuIcdOptions& options);

}  // namespace tomo
