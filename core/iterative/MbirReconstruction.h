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

/// GPU-ICD's SuperVoxel side: @p requested (`gpu_sv_side`) when positive, else 33 for one slice
/// (paper 004's choice, its parallelism from the SVs of one slice) and 17 for a stack of
/// @p slices, whose slices give the launches their parallelism. On a stack the 33-voxel SVs of
/// the partial passes revisit the still-changing voxels too seldom: at the default stop rule
/// GPU-ICD ended 20% above PSV-ICD's error on 8 x 256^2 (PoCL; 0.00908 against 0.00758) and 17
/// brings it to 3.4% (0.00784), on 16 x 128^2 to PSV-ICD's (0.01391 against 0.01394)
/// (docs/mbir.md).
int automaticGpuSvSide(int requested, int slices);

/// MbirOptions from resolved "mbir" parameters (InvalidArgument for inconsistent ones).
Result<MbirOptions> mbirOptionsFrom(const ParameterValues& params);

/// reconstructIterative() for "mbir".
Status reconstructMbir(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, const IterativeRequest& request,
                       const ParameterValues& params, const IterationCallback& onIteration,
                       Volume& out, SolverSummary& summary, const ExecContext& ctx);

}  // namespace tomo
