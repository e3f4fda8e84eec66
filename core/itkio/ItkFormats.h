#pragma once
/// @file ItkFormats.h
/// @brief Registers the ITK volume formats of ItkVolumeIO.h in a FormatRegistry (core/dataset),
/// so `tomo info`, `tomo convert` and `tomo recon` read and write them like any other format.
///
/// Formats added: "mha" (.mha, .mhd), "nrrd" (.nrrd, .nhdr), "nifti" (.nii, .nii.gz). Each reads
/// a volume, opens it as an acquisition held in memory (one slice per projection, no flats,
/// darks or angles: the caller states them), describes it (size, stored pixel type, spacing and
/// origin as metadata, header only) and writes a volume atomically with spacing
/// WriteOptions::voxelSize on every axis, centred on the rotation axis, rows along -y
/// (VolumeMetadata::forGrid). In builds without ITK the formats are still registered and every
/// call reports Unsupported naming the missing library.

#include "core/base/Status.h"
#include "core/dataset/FormatRegistry.h"

namespace tomo {

/// Adds "mha", "nrrd" and "nifti" to @p registry.
Status registerItkFormats(FormatRegistry& registry);

}  // namespace tomo
