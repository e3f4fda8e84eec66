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
///     request's memory budget per rank, or the request's rankRows / rankColumns), the column and
///     row communicators (world split by column and by row); rank 0 opens the output;
///  1. filter, gather and back-project, overlapped (paper 003's pipeline): batch b of column
///     c's views (whole FDK batches, each filtered exactly as one process filters it) is read
///     and filtered by the column's row b mod R (coneBatchRow), so in each round every rank of
///     the column filters one batch; the round's batches are broadcast in the column in view
///     order (each preceded by its owner's status, so a failure stops the column at once), and
///     meanwhile a worker thread back-projects the row's planes from each batch as soon as it
///     has arrived (backProjectFiltered: runFdk's slabs and batches, waiting on
///     FdkFiltered::ready). Only the calling thread uses MPI;
///  2. reduce: reduceSumInRankOrder along the row to its column-0 rank (none when C = 1);
///  3. store: the row roots put their slabs through RankOutput (RankOutput.h): each writes
///     its own into the output file where the format allows (raw, HDF5), else sends it to
///     rank 0, which writes the rows in plane order; rank 0 commits once every rank agreed.
///
/// Results: with C = 1 each voxel sums the same views in the same order and batches as one
/// process, so the volume is bit-identical to ReconService::run's. With C > 1 the row's sum
/// adds C partial sums (rank order: deterministic for a given grid) and the rounding differs
/// from one process by float rounding (relative RMSE below 1e-6 in tests/dist).
///
/// Report (every rank): FdkReport timings read, filter, gather and backProject are this rank's
/// seconds in each stage of phase 1 (they overlap: filter and gather on the calling thread,
/// backProject on the worker); overlapped, reduce, store and total are wall seconds per phase,
/// each up to the end of its agreement (so the slowest rank's time), plus notes with the grid, the
/// shares and, when ConeDistributedOptions::model is set, the performance model's stage times
/// beside them. Rank 0's report has the output (ReconReport::image when the request's output path
/// is empty, the metrics against the reference); the others' have none.

#include <optional>

#include "app/recon/ReconService.h"
#include "core/base/ExecContext.h"
#include "core/cone/ConeScalingModel.h"
#include "core/dist/Communicator.h"

namespace tomo::app {

struct ConeDistributedOptions {
    /// Measured throughputs: rank 0's notes put coneModel's stage times beside the measured.
    std::optional<ConeModelConstants> model;
    /// false: every batch filtered and exchanged first, then the back-projection (phase 1's
    /// stages one after the other: the ablation tomo_cone_dist_bench measures beside it).
    bool overlap = true;
};

/// Runs @p request on every rank of @p world (collective: all ranks call it together).
Result<ReconReport> runConeDistributed(const Engine& engine, Communicator& world,
                                       const ConeReconRequest& request,
                                       const ReconCallbacks& callbacks, const ExecContext& ctx,
                                       const ConeDistributedOptions& options = {});

}  // namespace tomo::app
