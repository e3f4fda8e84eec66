#pragma once
/// @file ConeDistributed.h
/// @brief Cone-beam FDK over the ranks of a distributed run (issue 16, item 4): iFDK's R x C
/// grid (paper 003, Sec. 4.1; core/cone/ConeGrid2d.h). Every rank of @p world calls
/// runConeDistributed with the same request; rank 0 owns the output.
///
/// Phases, each ended by RankAgreement::agree (a rank that fails, e.g. a bad read or no
/// memory, makes every rank return its status, "rank R: message", and rank 0 never commits:
/// the output file does not appear):
///  0. setup: the variant and back-projector (ConeSteps.h), the grid (least R within the
///     request's memory budget per rank, or ConeDistributedOptions' R / C), the column and row
///     communicators (world split by column and by row); rank 0 opens the output;
///  1. filter: rank (r, c) reads and filters its views (coneRankViews: whole FDK batches, each
///     filtered exactly as one process filters it) into its column's buffer;
///  2. gather: the column's all-gather (one broadcast per rank of the column, since the
///     ranks' shares may differ by a batch) gives every rank of column c its Np / C views;
///  3. back-project: the row's planes from the column's views (backProjectFiltered: runFdk's
///     slabs and batches);
///  4. reduce: reduceSumInRankOrder along the row to its column-0 rank (none when C = 1);
///  5. store: the row roots send their slabs to rank 0 (Tag::Slab), which writes them in
///     plane order through SlabOutput and commits once every rank agreed.
///
/// Results: with C = 1 each voxel sums the same views in the same order and batches as one
/// process, so the volume is bit-identical to ReconService::run's. With C > 1 the row's sum
/// adds C partial sums (rank order: deterministic for a given grid) and the rounding differs
/// from one process by float rounding (relative RMSE below 1e-6 in tests/dist).
///
/// Report (every rank): FdkReport timings read, filter, gather, backProject, reduce, store and
/// total are this rank's wall seconds per phase, each up to the end of its agreement (so the
/// slowest rank's time), plus notes with the grid, the shares and, when
/// ConeDistributedOptions::model is set, the performance model's stage times beside them.
/// Rank 0's report has the output (ReconReport::image when the request's output path is
/// empty, the metrics against the reference); the others' have none.

#include <optional>

#include "app/recon/ReconService.h"
#include "core/base/ExecContext.h"
#include "core/cone/ConeScalingModel.h"
#include "core/dist/Communicator.h"

namespace tomo::app {

struct ConeDistributedOptions {
    int rows = 0;     ///< forced R (0: the least that fits)
    int columns = 0;  ///< forced C (0: from R)
    /// Measured throughputs: rank 0's notes put coneModel's stage times beside the measured.
    std::optional<ConeModelConstants> model;
};

/// Runs @p request on every rank of @p world (collective: all ranks call it together).
Result<ReconReport> runConeDistributed(const Engine& engine, Communicator& world,
                                       const ConeReconRequest& request,
                                       const ReconCallbacks& callbacks, const ExecContext& ctx,
                                       const ConeDistributedOptions& options = {});

}  // namespace tomo::app
