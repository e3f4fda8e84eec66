#pragma once
/// @file ProjectArgs.h
/// @brief `tomo project`'s options: the parallel-beam sinograms of an image or a stack of
/// slices by core's Joseph forward projector (core/projectors/ForwardProjector.h), the
/// operator ASTRA calls "linear" and TomoPy's project() approximates. The command
/// (ProjectCommand.cpp) writes them; the Python module's project() returns them, parsed by
/// the same parser. Geometry options mean what `tomo recon`'s of the same name mean, so
/// `tomo project` then `tomo recon` with the same options puts the image back where it was.

#include <optional>
#include <vector>

#include "app/cli/ArgParser.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo::cli {

/// `tomo project`'s parser: every option declared, with its help text.
ArgParser projectParser();

/// The sinograms [slice][angle][detector] of @p image ([slice][row][column], square slices;
/// row 0 at the top, +y up, as `tomo recon` writes them) at @p angles (radians) when given,
/// else --angles; the grid from --pixel-size and --roi-center, the detector from --detectors,
/// --detector-pitch and --center. InvalidArgument naming the option for a bad value or a
/// non-square image; Cancelled on ctx.stop.
Result<Sinograms> projectFromArgs(const ArgParser& args, const Volume& image,
                                  std::optional<std::vector<double>> angles,
                                  const ExecContext& ctx);

}  // namespace tomo::cli
