#pragma once
/// @file DataFormats.h
/// @brief The file formats of this build, registered in one place (DataFormats.cpp) for every
/// front end: the `tomo` CLI (info, convert, preprocess, center, recon) and the GUI's
/// File > Open (ui/main/FileActions.h) look formats up in the registry this returns and never
/// branch on a format themselves.
///
/// Threading: each call builds a new registry; the registry is read-only afterwards and may be
/// shared between threads (FormatRegistry.h; HDF5 readers allow one call at a time).

#include "core/base/Status.h"
#include "core/dataset/FormatRegistry.h"

namespace tomo::app {

/// Every format compiled into this build: TIFF and raw always, HDF5 (DXchange, NXtomo,
/// reconstructions) with TOMO_WITH_HDF5, and the ITK formats (Unsupported stubs without ITK).
/// A new format is one line in DataFormats.cpp.
Result<FormatRegistry> makeFormatRegistry();

}  // namespace tomo::app
