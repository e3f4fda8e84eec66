#pragma once
/// @file ImageIO.h
/// @brief Reading and writing float32 stacks: raw little-endian, TIFF (libtiff, optional) and PNG
/// previews. Every writer is atomic: data goes to a temporary file in the target directory that
/// is renamed over the target only when complete, so a failure leaves no partial output.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Reads a raw float32 little-endian file holding dims[0] x dims[1] x dims[2] values (dims[2]
/// fastest). Errors name the file and, for a size mismatch, the sizes found and expected; NaN or
/// Inf values are rejected (InvalidData with the first offending index).
Result<Array3<float>> readRawFloat32(const std::filesystem::path& path,
                                     std::array<std::size_t, 3> dims);
/// Writes the logical elements (no row padding) as raw float32 little-endian, atomically.
Status writeRawFloat32(const std::filesystem::path& path, const Array3<float>& data);

/// True when this build can read and write TIFF.
bool tiffSupported();
/// Reads a single- or multi-page TIFF (8/16/32-bit unsigned or signed integer, 32/64-bit float,
/// one sample per pixel, any compression libtiff knows) into [page][row][column] float32.
Result<Array3<float>> readTiff(const std::filesystem::path& path);
/// Writes [page][row][column] as a multi-page float32 TIFF (one page per plane), atomically.
Status writeTiff(const std::filesystem::path& path, const Array3<float>& data);

/// Writes an 8-bit greyscale PNG of one plane, mapping [lo, hi] to [0, 255] (clamped); when
/// lo >= hi the plane's own minimum and maximum are used. Atomic. No external library needed.
Status writePngGray(const std::filesystem::path& path, View2<const float> image, double lo = 0,
                    double hi = 0);

/// Writes @p bytes to @p path atomically (temporary file in the same directory, then rename).
Status writeFileAtomic(const std::filesystem::path& path, const void* bytes, std::size_t size);

/// Writes a float stack chosen by extension: ".tif"/".tiff" or ".raw" (anything else is
/// InvalidArgument naming the suffix).
Status writeVolume(const std::filesystem::path& path, const Array3<float>& data);

}  // namespace tomo
