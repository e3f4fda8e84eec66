#pragma once
/// @file GpuIcdLayoutFile.h
/// @brief GPU-ICD's tile layout (GpuIcd.h) on disk (issue 27 item 4): a fresh process reads the
/// layout of a geometry it has seen instead of rebuilding it (0.58 s per geometry on an H200's
/// host). Files live beside the system matrices, under their disk budget (MbirMatrixCache.h).
///
/// Format, version 2 (native little-endian): "TOMOICDL", 19 unsigned 64-bit header words
/// (version, key length, views, channels, padding, nx, ny, pitch, rows, chunks, side, and the
/// element counts of colour, svBase, svFirst, svSize, order, chunkMeta, tiles, scale), the key,
/// the arrays in that order (32-bit elements, tiles as bytes), then a Checksum64 of everything
/// after the magic, except that the tiles enter it as one 64-bit digest: the Checksum64 of the
/// Checksum64s of their 8 MiB blocks (version 1 summed them byte after byte). The tiles are
/// read and checksummed in those blocks on the caller's threads (issue 27 item 4: about 1 GiB
/// at 512^2 x 720 views, read and checked on one thread in 1.1 s on an H200's host). The
/// reader checks the header against the geometry and options it is asked
/// for and the file's length before it allocates, the checksum after it has read, and every
/// index the kernels follow (tile rows, band rows, voxel orders, SV ranges, colours), so that a
/// truncated, corrupt or foreign file is an error, never a wrong layout on the device.

#include <filesystem>
#include <string>

#include "core/base/Status.h"
#include "core/mbir/GpuIcd.h"

namespace tomo {

inline constexpr const char* kGpuIcdLayoutExtension = ".icdl";

/// Writes @p layout, the layout of @p key, to @p path (atomically: CacheFiles.h); the tiles'
/// digest on @p threads threads (ExecContext::threads: 0 all, 1 the calling thread only).
Status saveGpuIcdLayout(const GpuIcdLayout& layout, const std::filesystem::path& path,
                        const std::string& key, int threads);

/// The layout in @p path for @p key, geometry @p g and SVs of options.side, with a new identity
/// (newGpuIcdLayoutId), its tiles read and checked on @p threads threads (as saveGpuIcdLayout's).
/// NotFound when there is no file; InvalidData saying why when it is not
/// such a layout, is truncated or too long, fails its checksum or holds an index out of range.
Result<GpuIcdLayout> loadGpuIcdLayout(const std::filesystem::path& path, const std::string& key,
                                      const MbirSliceGeometry& g, const GpuIcdOptions& options,
                                      int threads);

}  // namespace tomo
