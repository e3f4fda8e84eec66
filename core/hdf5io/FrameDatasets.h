#pragma once
/// @file FrameDatasets.h
/// @brief Checks shared by the DXchange and NXtomo readers (internal to core/hdf5io).

#include <string>
#include <vector>

#include "core/dataset/ProjectionData.h"
#include "core/hdf5io/Hdf5Support.h"

namespace tomo::hdf5io_detail {

/// "12x20x30" ("scalar" for rank 0).
std::string shapeString(const std::vector<std::size_t>& dims);

/// Opens the rank-3 numeric dataset @p path of @p file, records it in info.datasets with
/// @p role and returns its shape in @p shape. NotFound when missing, InvalidData naming
/// info.file, the path and the cause for a wrong rank or a non-numeric type.
Result<hdf5::Handle> openFrames(hid_t file, AcquisitionInfo& info, const std::string& path,
                                const std::string& role, hdf5::DatasetShape* shape);

/// InvalidData naming both datasets unless frames of @p dims ([frame][row][column]) have the
/// projections' rows x columns (info.rows, info.columns).
Status checkFrameSize(const AcquisitionInfo& info, const std::string& path,
                      const std::vector<std::size_t>& dims, const std::string& dataPath);

}  // namespace tomo::hdf5io_detail
