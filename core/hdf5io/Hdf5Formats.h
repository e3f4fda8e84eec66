#pragma once
/// @file Hdf5Formats.h
/// @brief The "hdf5" entry of the format registry (.h5, .hdf5, .hdf, .nxs, .cxi): acquisitions
/// (DXchange or NXtomo, detected), volumes (/reconstruction/data, read and written with
/// provenance) and descriptions for `tomo info` (every dataset with its shape and type, the
/// provenance attributes, and the acquisition summary when the file is one).

#include <filesystem>

#include "core/dataset/FormatRegistry.h"

namespace tomo {

/// Adds the "hdf5" format to @p registry.
Status registerHdf5Formats(FormatRegistry& registry);

/// What `tomo info` shows about an HDF5 file (datasets found by walking every group, at most
/// 16 levels deep; hard-linked datasets appear under each name). InvalidData when the file
/// looks like an acquisition (has /exchange/data or an NXentry) but cannot be opened as one,
/// naming the dataset and the cause.
Result<FileDescription> describeHdf5(const std::filesystem::path& path, AngleUnit unit);

}  // namespace tomo
