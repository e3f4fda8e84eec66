#pragma once
/// @file AnyVolume.h
/// @brief One entry point per direction for every stack format of core/io and core/itkio,
/// chosen from the path: what `tomo convert` and `tomo recon` use for files that are not HDF5.
///
/// Reading (readVolumeAny):
///  - a folder or a pattern with `*`, `?`, `[` -> TIFF stack (TiffStack.h);
///  - .tif / .tiff -> single- or multi-page TIFF (TiffFormat.h);
///  - .mha .mhd .nrrd .nhdr .nii .nii.gz -> ITK (ItkVolumeIO.h);
///  - anything, when @p raw is given, and .raw/.bin/.dat -> raw (RawIO.h; the spec is required).
/// Planes are TIFF pages, stack files, volume slices z or raw planes; ranges as ReadRange.h.
///
/// Writing (writeVolumeAny): a path ending in '/' or naming an existing folder -> TIFF stack
/// `slice_00000.tif`...; .tif/.tiff -> multi-page TIFF; .raw -> raw float32 little-endian;
/// ITK extensions -> writeVolumeFile with @p metadata (default VolumeMetadata when null). With
/// @p scale16 the TIFF outputs are 16-bit with that scale (TiffFormat.h); other formats refuse it.
/// Every writer is atomic.
///
/// Errors: those of the chosen reader/writer; InvalidArgument naming the path for an unknown
/// extension or a raw file without a spec. Threading: reentrant.

#include <filesystem>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/io/RawIO.h"
#include "core/io/ReadRange.h"
#include "core/io/TiffFormat.h"
#include "core/itkio/VolumeMetadata.h"

namespace tomo {

/// Reads @p range of the stack at @p path as float32 [plane][row][column] (see above).
Result<Array3<float>> readVolumeAny(const std::filesystem::path& path, const RawSpec* raw = nullptr,
                                    const ReadRange& range = {});

/// Writes @p data to @p path in the format its name asks for (see above).
Status writeVolumeAny(const std::filesystem::path& path, const Array3<float>& data,
                      const VolumeMetadata* metadata = nullptr,
                      const Tiff16Scale* scale16 = nullptr);

}  // namespace tomo
