#pragma once
/// @file TiffStack.h
/// @brief TIFF stacks: a folder (or a file-name pattern) of single-page TIFF files, one plane per
/// file, in natural sort order. This is how most synchrotron and lab detectors save projections
/// (`proj_00000.tif`, `proj_00001.tif`, ...).
///
/// Selection: a folder takes every regular file ending in .tif or .tiff (any case); a path whose
/// file name contains `*`, `?` or `[` is a shell pattern (fnmatch(3)) over the files of its
/// folder, e.g. `scan/proj_*.tif`. Hidden files (leading '.') are skipped. Names are sorted in
/// natural order: runs of digits compare by value, so `p2.tif` comes before `p10.tif`.
///
/// Every file must hold exactly one page, and all pages the same width and height (InvalidData
/// naming the file otherwise). Samples are converted as by readTiff (8/16/32-bit integers,
/// 32/64-bit floats, the TomoStation 16-bit scale of TiffFormat.h applied).
///
/// Errors: NotFound when nothing matches; the readers' errors otherwise, each naming its file.
/// Threading: reentrant.

#include <filesystem>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/io/ReadRange.h"
#include "core/io/TiffFormat.h"

namespace tomo {

/// True when @p path names a folder or a pattern (its file name holds `*`, `?` or `[`).
bool isTiffStackPath(const std::filesystem::path& path);

/// The files of a stack, naturally sorted. NotFound naming the folder/pattern when none match.
Result<std::vector<std::filesystem::path>> listTiffStack(const std::filesystem::path& path);

/// Reads files [firstPlane, firstPlane + planeCount) of the stack and rows
/// [firstRow, firstRow + rowCount) of each: only those files are opened and only the strips
/// overlapping those rows decoded.
Result<Array3<float>> readTiffStack(const std::filesystem::path& path, const ReadRange& range = {});

/// The file of plane @p k of a stack of @p count planes written by writeTiffStack:
/// `folder/<stem>_<k>.tif`, k zero-padded to at least 5 digits.
std::filesystem::path tiffStackFile(const std::filesystem::path& folder, const std::string& stem,
                                    std::size_t k, std::size_t count);
/// Writes plane k of @p data to `folder/<stem>_<k>.tif` with k zero-padded to at least 5 digits,
/// as float32 (@p map null) or 16-bit counts of @p map (TiffFormat.h). The folder is created when
/// missing. Each file is written atomically; when one fails, the files this call already wrote
/// are removed again, so a failure leaves no partial stack (files of the same names that existed
/// before are replaced only on success of their own write).
Status writeTiffStack(const std::filesystem::path& folder, const std::string& stem,
                      const Array3<float>& data, const Tiff16Scale* map = nullptr);

}  // namespace tomo
