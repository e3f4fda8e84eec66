#pragma once
/// @file CenterArgs.h
/// @brief `tomo center`'s options turned into the three estimates of core/centering: the
/// command (CenterCommand.cpp) prints them; the Python module's find_center() returns them,
/// parsed by the same parser.

#include <vector>

#include "app/cli/ArgParser.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/centering/CenterOfRotation.h"
#include "core/data/Array.h"

namespace tomo::cli {

/// The three estimators' results (each may fail on its own: no 180-degree pair, ...).
struct CenterEstimates {
    Result<CenterEstimate> vo;
    Result<CenterEstimate> phaseCorrelation;
    Result<CenterEstimate> sharpness;
};

/// `tomo center`'s parser: every option declared, with its help text.
ArgParser centerParser();

/// The estimates for slice --slice of @p stack ([slice][angle][detector]) with @p angles
/// (radians) and --radius, by the estimators --method names (the others: Unsupported, "not
/// asked for"); InvalidArgument for a bad option, Cancelled on ctx.stop.
Result<CenterEstimates> centerFromArgs(const ArgParser& args, const Array3<float>& stack,
                                       const std::vector<double>& angles, const ExecContext& ctx);

}  // namespace tomo::cli
