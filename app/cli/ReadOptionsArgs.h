#pragma once
/// @file ReadOptionsArgs.h
/// @brief The options the CLI commands share to read files (--shape, --angle-unit, --dataset).
/// The formats themselves are registered in app/data/DataFormats.h (shared with the GUI).

#include <string>

#include "app/cli/ArgParser.h"
#include "app/data/DataFormats.h"
#include "core/base/Status.h"
#include "core/dataset/FormatRegistry.h"

namespace tomo::cli {

/// Every format compiled into this build (app/data/DataFormats.h).
using app::makeFormatRegistry;

/// `tomo convert`'s parser (INPUT, OUTPUT, --shape, --dataset, --voxel-size, --uint16); the
/// Python module's read() and write() parse their keywords with it.
ArgParser convertParser();

/// WriteOptions from --voxel-size and --uint16 SCALE[,OFFSET]|auto (auto: the range of
/// @p stack) for a file of @p outFormat (--uint16: TIFF only).
Result<WriteOptions> writeOptionsFromArgs(const ArgParser& args, const Array3<float>& stack,
                                          const FileFormat& outFormat);

/// ReadOptions from the options "shape" (ROWSxCOLUMNS[xPLANES], as readStack), "angle-unit"
/// (auto | deg | rad) and "dataset" when the command declares them.
Result<ReadOptions> readOptionsFromArgs(const ArgParser& args);

}  // namespace tomo::cli
