#pragma once
/// @file TuneArgs.h
/// @brief `tomo tune`'s options turned into a selection sweep (app/Selection.h): the command
/// (TuneCommand.cpp) prints the result; the Python module's tune() returns it, parsed by the
/// same parser.

#include "app/Engine.h"
#include "app/Selection.h"
#include "app/cli/ArgParser.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"

namespace tomo::cli {

/// `tomo tune`'s parser: every option declared, with its help text.
ArgParser tuneParser();

/// Runs the sweep of --backend with --budget, --repeats, --size and --slices on @p engine's
/// registry and stores the choice in the selection cache (@p saved: whether it was stored).
Result<SelectionResult> tuneFromArgs(const ArgParser& args, const app::Engine& engine,
                                     const ExecContext& ctx, Status* saved);

}  // namespace tomo::cli
