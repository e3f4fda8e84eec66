#pragma once
/// @file ImageIO.h
/// @brief Reading and writing float32 stacks: raw little-endian, TIFF (libtiff, optional) and PNG
/// previews. Every writer is atomic: data goes to a temporary file in the target directory that
/// is renamed over the target only when complete, so a failure leaves no partial output.
///
/// Layout: a stack is an `Array3<float>` indexed [page][row][column] (dims[2] fastest); for a
/// volume that is [z][y][x] with row 0 the top of the image (largest y, see ParallelGeometry.h),
/// for sinograms [slice][angle][detector]. Files hold only the logical elements: the 64-byte row
/// padding of Array3 is never written and is zero after reading.
///
/// Byte order: raw files are little-endian IEEE-754 float32 on every host (values are swapped on
/// a big-endian host; only little-endian hosts are tested). TIFF files may be either byte order
/// (libtiff converts); they are written in the host's order, which the TIFF header records.
///
/// Errors (never exceptions): NotFound for a missing input file, InvalidData for malformed
/// content (size mismatch, NaN/Inf, unreadable or inconsistent TIFF), Unsupported for sample
/// formats or builds without libtiff, IoError for failed system calls (the message carries the
/// path and the system's reason, e.g. "Permission denied"), InvalidArgument for bad parameters.
///
/// Threading: all functions are reentrant and may run concurrently on different files. No global
/// state is touched (libtiff messages go through per-file handlers into the returned Status).
/// Concurrent writers of the same target each use their own temporary file; the last rename wins.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Reads a raw float32 little-endian file holding dims[0] x dims[1] x dims[2] values (dims[2]
/// fastest, no header).
/// - NotFound when the file does not exist;
/// - InvalidData naming the file, its size in bytes and the expected dims when the size is not
///   exactly dims[0]*dims[1]*dims[2]*4 bytes;
/// - InvalidData with the first offending flat index and its (page, row, column) when a value is
///   NaN or infinite;
/// - InvalidArgument when a dimension is zero.
Result<Array3<float>> readRawFloat32(const std::filesystem::path& path,
                                     std::array<std::size_t, 3> dims);
/// Writes the logical elements (no row padding) as raw float32 little-endian, atomically. The
/// file size is exactly elementCount() * 4 bytes.
Status writeRawFloat32(const std::filesystem::path& path, const Array3<float>& data);

/// True when this build can read and write TIFF (libtiff found at configure time). Without it,
/// readTiff and writeTiff return Unsupported.
bool tiffSupported();
/// Reads a single- or multi-page TIFF (classic or BigTIFF; 8/16/32-bit unsigned or signed
/// integer, 32/64-bit float; one sample per pixel; strips or tiles; any compression libtiff
/// knows) into [page][row][column] float32. Integer samples are converted exactly up to 2^24
/// (32-bit integers beyond that round to the nearest float); the photometric interpretation is
/// not applied (MinIsWhite data is returned as stored). Every page must have the size of page 0
/// (else InvalidData naming the page and both sizes). NaN or Inf in float pages, and 64-bit
/// values beyond the float32 range, are InvalidData naming the page, row and column.
/// A truncated or corrupt file is InvalidData carrying libtiff's own message.
Result<Array3<float>> readTiff(const std::filesystem::path& path);
/// Writes [page][row][column] as a multi-page float32 TIFF (one page per plane, SampleFormat
/// IEEEFP, 32 bits, MinIsBlack, uncompressed, strips of about 64 KiB, SubfileType "page" and
/// PageNumber on multi-page files), atomically. Switches to BigTIFF when the pixel data
/// approaches 4 GiB. InvalidArgument for an empty stack.
Status writeTiff(const std::filesystem::path& path, const Array3<float>& data);

/// Writes an 8-bit greyscale PNG of one plane (row 0 at the top), mapping [lo, hi] linearly to
/// [0, 255] with rounding and clamping; NaN maps to 0. When lo >= hi the plane's own finite
/// minimum and maximum are used (a constant image becomes all 0). Atomic. The encoder is built
/// in (stored deflate blocks: the file is about width*height bytes, no compression), so no
/// external library is needed. InvalidArgument for an empty image.
Status writePngGray(const std::filesystem::path& path, View2<const float> image, double lo = 0,
                    double hi = 0);

/// Writes @p bytes to @p path atomically: a temporary `<name>.tmp-<pid>-<n>` in the same
/// directory is written, fsync'ed, closed and renamed over @p path. On any failure the temporary
/// file is removed, @p path is left as it was, and IoError names the path and the system's reason.
Status writeFileAtomic(const std::filesystem::path& path, const void* bytes, std::size_t size);

/// Writes a float stack chosen by extension (case-insensitive): ".tif"/".tiff" (writeTiff) or
/// ".raw" (writeRawFloat32); anything else is InvalidArgument naming the suffix.
Status writeVolume(const std::filesystem::path& path, const Array3<float>& data);

}  // namespace tomo
