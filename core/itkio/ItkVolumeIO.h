#pragma once
/// @file ItkVolumeIO.h
/// @brief MetaImage (.mha, .mhd + .raw/.zraw), NRRD (.nrrd, .nhdr + data) and NIfTI (.nii,
/// .nii.gz) volumes through ITK, read as and written from float32 [z][y][x] with their spacing,
/// origin and direction (VolumeMetadata.h). ITK stays behind this header: no ITK type appears in
/// it, and itk::ExceptionObject never escapes (it becomes a Status naming the file and ITK's
/// description).
///
/// Reading: any scalar pixel type (8/16/32/64-bit integers, float, double) converts to float32
/// (integers beyond 2^24 round); a 2-D file is a volume of one slice. Non-scalar pixels (RGB,
/// vectors, tensors, complex) and pixel types ITK cannot convert are Unsupported; files with more
/// than three dimensions, NaN/Inf values, or headers promising more data than the file can hold
/// (checked before ITK allocates: raw data byte for byte, compressed data at most 1032 times the
/// compressed bytes, deflate's limit; see HeaderChecks.h) are InvalidData. Reading a ReadRange asks
/// ITK for just that region: MetaImage (uncompressed binary) streams it from disk, NRRD and NIfTI
/// are decoded whole by ITK 5 and cropped (memory is that of the whole file; probeVolumeFile()
/// tells which).
///
/// Writing is atomic: ITK writes by file name, so the files (header, and a detached data file
/// for .mhd/.nhdr) are written under their final names into a fresh hidden temporary folder next
/// to the target and then renamed into place, data file first and header last; on any failure
/// the temporary folder is removed and nothing is left. Compression (zlib) is used when asked and
/// always for .nii.gz.
///
/// Builds without ITK (TOMO_WITH_ITK off) return Unsupported from every function but
/// volumeFileFormat().
///
/// Threading: reentrant; each call uses its own ITK objects. ITK's own warnings may be printed on
/// stderr by ITK's output window.

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/io/ReadRange.h"
#include "core/itkio/VolumeMetadata.h"

namespace tomo {

/// Volume file formats handled through ITK, chosen by extension (case-insensitive).
enum class VolumeFileFormat { None, MetaImage, Nrrd, Nifti };

/// .mha/.mhd -> MetaImage, .nrrd/.nhdr -> Nrrd, .nii/.nii.gz -> Nifti, else None.
VolumeFileFormat volumeFileFormat(const std::filesystem::path& path);
/// "MetaImage", "NRRD", "NIfTI" or "none".
const char* volumeFileFormatName(VolumeFileFormat format);
/// True when this build reads and writes these formats (ITK found at configure time).
bool itkVolumeIoSupported();

/// @brief A volume and its metadata.
struct VolumeFile {
    Array3<float> data;  ///< [z][y][x]
    VolumeMetadata metadata;
};

/// @brief The header of a volume file.
struct VolumeFileInfo {
    VolumeFileFormat format = VolumeFileFormat::None;
    std::size_t nx = 0, ny = 0, nz = 0;
    std::string pixelType;    ///< ITK's component type name, e.g. "unsigned_short"
    bool streamable = false;  ///< ITK can read a region without decoding the whole file
    VolumeMetadata metadata;
};

/// Reads the header only. Errors as readVolumeFile.
Result<VolumeFileInfo> probeVolumeFile(const std::filesystem::path& path);

/// Reads slices [firstPlane, +planeCount) and rows [firstRow, +rowCount) of each; the metadata's
/// origin is that of the volume's voxel (0, 0, 0), whatever the range. NotFound, InvalidData,
/// Unsupported, InvalidArgument (range) as described above, each naming the file.
Result<VolumeFile> readVolumeFile(const std::filesystem::path& path, const ReadRange& range = {});

/// Writes @p data with @p metadata atomically (see above). InvalidArgument for an empty volume or
/// an unknown extension, IoError naming the file and ITK's description otherwise.
Status writeVolumeFile(const std::filesystem::path& path, const Array3<float>& data,
                       const VolumeMetadata& metadata = {}, bool compress = false);

}  // namespace tomo
