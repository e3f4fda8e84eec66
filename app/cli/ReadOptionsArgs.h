#pragma once
/// @file ReadOptionsArgs.h
/// @brief The options the CLI commands share to read files (--shape, --angle-unit, --dataset).
/// The formats themselves are registered in app/data/DataFormats.h (shared with the GUI).

#include <string>

#include "app/data/DataFormats.h"
#include "core/base/Status.h"
#include "core/dataset/FormatRegistry.h"

namespace tomo::cli {

class ArgParser;

/// Every format compiled into this build (app/data/DataFormats.h).
using app::makeFormatRegistry;

/// ReadOptions from the options "shape" (ROWSxCOLUMNS[xPLANES], as readStack), "angle-unit"
/// (auto | deg | rad) and "dataset" when the command declares them.
Result<ReadOptions> readOptionsFromArgs(const ArgParser& args);

}  // namespace tomo::cli
