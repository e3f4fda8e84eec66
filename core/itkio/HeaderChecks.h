#pragma once
// Internal to core/itkio: header checks made before ITK sees a file, for bad input that ITK 5.2
// does not survive (found by the fuzz harnesses): NiftiImageIO aborts the process (vnl
// assert_finite) on a non-finite orientation and accepts files shorter than their data; MetaIO
// loops for minutes on a non-integer or negative NDims and divides by zero (SIGFPE) on a file
// pattern with step 0.
#include <cstdint>
#include <filesystem>

#include "core/base/Status.h"

namespace tomo {

/// @brief The fields of a NIfTI header that the checks need.
struct NiftiHeader {
    int version = 0;       ///< 1 or 2
    double voxOffset = 0;  ///< byte offset of the voxel data (uncompressed)
};

/// Reads the header of @p path (gzip-compressed when the name ends in .gz) and checks that
/// pixdim, the quaternion, its offsets and the sform rows are finite and of plausible magnitude
/// (|v| <= 1e12; larger ones overflow ITK's orientation maths). InvalidData naming the file and
/// the field otherwise, or when no NIfTI-1/-2 header is found.
Result<NiftiHeader> checkNiftiHeader(const std::filesystem::path& path);

/// Scans the text header of a MetaImage (up to ElementDataFile, at most 64 KiB) and checks that
/// NDims is present and an integer in 1..8 (InvalidData naming the file and the line otherwise),
/// that no header line exceeds 240 characters (MetaIO copies values into fixed 255-byte buffers),
/// and that ElementDataFile is LOCAL or one file name (Unsupported for lists and patterns).
Status checkMetaImageHeader(const std::filesystem::path& path);

}  // namespace tomo
