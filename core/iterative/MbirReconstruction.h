#pragma once
/// @file MbirReconstruction.h
/// @brief MBIR behind the iterative front door: its parameter schema ("mbir" in
/// algorithmSpecs()) and the run reconstructIterative() hands it to (warm start from FBP on
/// the CPU unless an initial image is given, the matrix cache of the request, notes).

#include "core/iterative/IterativeReconstruction.h"
#include "core/mbir/Mbir.h"

namespace tomo {

/// The "mbir" entry of algorithmSpecs().
AlgorithmSpec mbirAlgorithmSpec();

/// MbirOptions from resolved "mbir" parameters (InvalidArgument for inconsistent ones).
Result<MbirOptions> mbirOptionsFrom(const ParameterValues& params);

/// reconstructIterative() for "mbir".
Status reconstructMbir(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, const IterativeRequest& request,
                       const ParameterValues& params, const IterationCallback& onIteration,
                       Volume& out, SolverSummary& summary, const ExecContext& ctx);

}  // namespace tomo
