#pragma once
/// @file TiffFormat.h
/// @brief TIFF beyond ImageIO.h's whole-file float32 pair: header probing, reading a range of
/// pages and rows, and 16-bit unsigned writing with a stated scale and offset stored in the file.
///
/// 16-bit scaled TIFF: a value v is stored as the unsigned 16-bit integer
/// q = round((v - offset) / scale), so q * scale + offset reproduces v within scale / 2. The
/// scale and offset are written into the ImageDescription tag twice: as ImageJ's calibration
/// (`ImageJ=1.11a`, `cf=0` a straight line, `c0=<o>`, `c1=<s>`, `vunit=a.u.`, one per line;
/// ImageJ and Fiji then show values, not counts) and on the line
/// `TomoStation uint16 scale=<s> offset=<o>` (17 significant digits). readTiffRange and readTiff
/// apply the latter when they find it (at the start of the text, as older files have it, or on a
/// line of its own), so such a file reads back in physical units. Any other 16-bit file reads as
/// its raw counts. Other programs see an ordinary 16-bit greyscale image.
///
/// Conventions, byte order, errors and threading are those of ImageIO.h. Without libtiff every
/// function returns Unsupported.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/io/ReadRange.h"

namespace tomo {

/// @brief What a TIFF file holds, from its first directory (and the directory count).
struct TiffInfo {
    std::size_t pages = 0;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::uint16_t bitsPerSample = 0;
    bool isFloat = false;
    bool isSigned = false;
    bool bigTiff = false;
    bool scaled = false;  ///< carries a TomoStation 16-bit scale (see the file comment)
    double scale = 1.0;
    double offset = 0.0;
};

/// Reads the header of @p path: page count and the first page's layout. NotFound / InvalidData
/// / Unsupported as readTiff.
Result<TiffInfo> probeTiff(const std::filesystem::path& path);

/// Reads pages [firstPlane, firstPlane + planeCount) and rows [firstRow, firstRow + rowCount) of
/// each, decoding only the strips or tiles that overlap those rows. Every selected page must have
/// the size and sample format of the first one selected. Same conversions and errors as readTiff,
/// plus InvalidArgument for a range outside the file.
Result<Array3<float>> readTiffRange(const std::filesystem::path& path, const ReadRange& range);

/// @brief Linear map between 16-bit counts and values: value = offset + scale * count.
struct Tiff16Scale {
    double scale = 1.0;   ///< value units per count; must be finite and > 0
    double offset = 0.0;  ///< value of count 0

    /// The map that spreads [lo, hi] over 0..65535 (scale 1 when hi <= lo).
    static Tiff16Scale forRange(double lo, double hi) {
        return hi > lo ? Tiff16Scale{(hi - lo) / 65535.0, lo} : Tiff16Scale{1.0, lo};
    }
};

/// Writes [page][row][column] as a multi-page 16-bit unsigned TIFF (MinIsBlack, uncompressed,
/// same page tags as writeTiff) with the counts of @p map and the map in ImageDescription,
/// atomically. A value that maps outside 0..65535 (after rounding) or is not finite is
/// InvalidArgument naming it, its (page, row, column) and the representable range; nothing is
/// written then. InvalidArgument for an empty stack or a scale that is not finite and positive.
Status writeTiff16(const std::filesystem::path& path, const Array3<float>& data, Tiff16Scale map);

/// @brief A multi-page TIFF written a block of pages at a time, in page order, with the tags of
/// writeTiff (float32) or writeTiff16 (16-bit counts of a map), atomically: pages go to a
/// temporary file beside the target, renamed into place by commit(); a writer destroyed before
/// commit() removes it. BigTIFF when the whole stack's pixel data approaches 4 GiB. writeTiff
/// and writeTiff16 are this writer given all pages at once. Memory: one row of the page.
class TiffPageWriter {
  public:
    /// A writer for @p shape = {pages, rows, columns}; @p map null for float32. InvalidArgument
    /// for an empty shape, a page beyond the TIFF limit or a bad map; IoError from the disk.
    static Result<std::unique_ptr<TiffPageWriter>> open(const std::filesystem::path& path,
                                                        const std::array<std::size_t, 3>& shape,
                                                        const Tiff16Scale* map);
    virtual ~TiffPageWriter() = default;
    /// Appends @p pages (rows and columns as opened) after those written so far.
    /// InvalidArgument past the last page, for another page size, or (16-bit) for a value the
    /// map cannot represent, naming it; nothing of @p pages is written then.
    virtual Status append(const Array3<float>& pages) = 0;
    /// Pages appended so far.
    virtual std::size_t written() const = 0;
    /// Closes the file and renames it into place. InvalidArgument when pages are missing.
    virtual Status commit() = 0;
};

}  // namespace tomo
