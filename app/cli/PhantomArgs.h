#pragma once
/// @file PhantomArgs.h
/// @brief `tomo phantom`'s options turned into data: the parser with every option declared, and
/// the computation of what the command writes (parallel-beam sinograms or cone-beam
/// projections, the geometry and the ground truth), without writing. The command
/// (PhantomCommand.cpp, ConePhantomCommand.cpp) writes and prints it; the Python module's
/// phantom() returns it as arrays, from the same parser, so its keywords mean the flags.

#include <cstddef>
#include <optional>
#include <string>

#include "app/cli/ArgParser.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/cone/ConeGeometry.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::cli {

struct PhantomResult {
    /// Parallel beam: sinograms [slice][angle][detector]; cone beam: projections [view][v][u].
    Array3<float> data;
    Volume truth;  ///< [z][y][x]; empty unless asked for
    std::optional<ParallelGeometry> parallel;
    std::string angleSpec;    ///< parallel beam: the --angles value used (degrees)
    int size = 0;             ///< the image / volume edge
    std::size_t clamped = 0;  ///< rays with zero counts under --noise
    std::optional<ConeGeometry> cone;
    ConeVolumeGrid coneGrid;  ///< cone beam: the truth's grid
};

/// `tomo phantom`'s parser: every option declared, with its help text.
ArgParser phantomParser();

/// What `tomo phantom` computes for @p args (cone beam with --cone), the truth when
/// @p withTruth; progress in ctx.progress (projecting, then ground truth), Cancelled on ctx.stop.
Result<PhantomResult> phantomFromArgs(const ArgParser& args, bool withTruth,
                                      const ExecContext& ctx);
/// The cone-beam part of phantomFromArgs (ConePhantomCommand.cpp).
Result<PhantomResult> conePhantomFromArgs(const ArgParser& args, bool withTruth,
                                          const ExecContext& ctx);

}  // namespace tomo::cli
