#pragma once
// Internal to core/itkio: header checks made before ITK sees a file, for bad input that ITK 5.2
// does not survive (found by the fuzz harnesses). NiftiImageIO aborts the process (vnl
// assert_finite) on a non-finite orientation and accepts files shorter than their data; MetaIO
// loops for minutes on a non-integer or negative NDims, divides by zero (SIGFPE) on a file
// pattern with step 0, and allocates whatever a corrupt CompressedDataSize says (up to 2^63
// bytes); NrrdIO allocates the declared size before it reads a byte.
//
// Every check compares what the header promises with what the file holds, so a volume is only
// allocated when the file can fill it: raw data must be present byte for byte, deflate data can
// expand at most kMaxDeflateRatio times, text at most one element per two characters.
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/base/Status.h"
#include "core/itkio/ItkVolumeIO.h"

namespace tomo {

/// Deflate's largest expansion: a 258-byte match costs at least 2 bits, so one compressed byte
/// decodes to at most 4 x 258 = 1032 bytes (zlib's technical notes; 1032:1 is the documented
/// limit). A header promising more decoded bytes than this times the compressed bytes is corrupt.
inline constexpr std::uintmax_t kMaxDeflateRatio = 1032;

/// How the element data of a volume file is stored.
enum class DataEncoding {
    Raw,      ///< the decoded bytes themselves
    Deflate,  ///< zlib or gzip
    Text,     ///< decimal numbers separated by white space
    Hex,      ///< two hexadecimal digits per byte
};

/// What a header promises against what the file holds.
struct DataExtent {
    long double decodedBytes = 0;    ///< elements x channels x component size
    std::uintmax_t storedBytes = 0;  ///< bytes of the file(s) available to the data
    DataEncoding encoding = DataEncoding::Raw;
    std::uintmax_t componentBytes = 1;  ///< bytes of one decoded component
};

/// InvalidData naming @p name when @p extent's stored bytes cannot hold its decoded bytes:
/// raw needs every byte, deflate at most kMaxDeflateRatio : 1, hex two digits per byte, text at
/// least two characters (a digit and a separator) per element.
Status checkDataExtent(const std::string& name, const DataExtent& extent);

/// Inflates the @p bytes of zlib or gzip data at @p offset of @p file (into a small buffer, not
/// kept) and checks that they decode to exactly @p decodedBytes: MetaIO returns whatever lies in
/// its buffer after a short or corrupt stream. InvalidData naming @p name otherwise.
Status checkDeflateStream(const std::string& name, const std::filesystem::path& file,
                          std::uintmax_t offset, std::uintmax_t bytes, long double decodedBytes);

/// The fields of a NIfTI header that the checks need.
struct NiftiHeader {
    int version = 0;            ///< 1 or 2
    double voxOffset = 0;       ///< byte offset of the voxel data (uncompressed)
    long double dataBytes = 0;  ///< prod(dim[1..dim[0]]) x bitpix / 8
};

/// Reads the header of @p path (gzip-compressed when the name ends in .gz) and checks that
/// pixdim, the quaternion, its offsets and the sform rows are finite and of plausible magnitude
/// (|v| <= 1e12; larger ones overflow ITK's orientation maths), that dim[] and bitpix describe a
/// volume, and that the file holds its data (InvalidData naming the file and the field).
Result<NiftiHeader> checkNiftiHeader(const std::filesystem::path& path);

/// Scans the text header of a MetaImage (up to ElementDataFile, at most 64 KiB): every line is
/// `Key = value` with a plain key and no control characters, no line exceeds 240 characters
/// (MetaIO copies values into fixed 255-byte buffers), NDims is an integer in 1..8 and DimSize
/// has that many positive sizes, ElementType is a scalar MET_ type, ElementDataFile is LOCAL or
/// one file name (Unsupported for lists and patterns), CompressedDataSize (when given) fits the
/// bytes left, and the data extent holds (checkDataExtent).
Status checkMetaImageHeader(const std::filesystem::path& path);

/// Scans the header of a NRRD file (.nrrd or detached .nhdr): magic, dimension, sizes, type,
/// encoding (raw, text, hex, gzip; bzip2 is Unsupported), data file (one file; lists and
/// patterns are Unsupported), byte skip, and the data extent (checkDataExtent).
Status checkNrrdHeader(const std::filesystem::path& path);

/// The check of @p format's header (one of the three above); OK for VolumeFileFormat::None.
Status checkVolumeHeader(const std::filesystem::path& path, VolumeFileFormat format);

}  // namespace tomo
