#pragma once
/// @file DataFormats.h
/// @brief The file formats of this build, registered in one place (DataFormats.cpp), and the
/// options the CLI commands share to read them (--shape, --angle-unit, --dataset).

#include <string>

#include "core/base/Status.h"
#include "core/dataset/FormatRegistry.h"

namespace tomo::cli {

class ArgParser;

/// Every format compiled into this build: TIFF and raw always, HDF5 (DXchange, NXtomo,
/// reconstructions) with TOMO_WITH_HDF5. A new format is one line in DataFormats.cpp.
Result<FormatRegistry> makeFormatRegistry();

/// ReadOptions from the options "shape" (ROWSxCOLUMNS[xPLANES], as readStack), "angle-unit"
/// (auto | deg | rad) and "dataset" when the command declares them.
Result<ReadOptions> readOptionsFromArgs(const ArgParser& args);

}  // namespace tomo::cli
