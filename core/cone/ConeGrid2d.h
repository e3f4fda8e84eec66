#pragma once
/// @file ConeGrid2d.h
/// @brief iFDK's R x C grid of ranks (paper 003, Sec. 4.1; digest 4.2) for a distributed FDK:
/// R rows cut the volume into z-slabs, C columns cut the views into groups. Rank (row r,
/// column c) loads and filters its share of column c's views, an all-gather inside the column
/// gives every rank of the column all of them, each rank back-projects its row's slab from its
/// column's views, and one reduction along the row sums the C partial slabs.
///
/// Choosing R: the least R (so the most C) for which one rank's memory holds
///   device: 4 (Nx Ny ceil(Nz / R) + Nu Nv N_batch)   (the paper's inequality, Eq. 7)
///   host:   4 (Nu Nv G + Nx Ny ceil(Nz / R)), G the largest column's filtered views as
///           gathered (Np / C, in whole batches), and the row's slab as reduced and sent on
/// within the budgets (ConeGridLimits: memory and hostMemory); R divides the ranks, R <= Nz and C
/// <= Np. On the CPU both are the same memory; they are checked one by one, as on a GPU node, and
/// ConeDistributed.h adds what the host also needs to its own budget check.
///
/// Views go by FDK batches (fdkBatch in Fdk.h), not one by one: runFdk's ramp filter blocks
/// follow the batches, so whole batches keep every view's filtered bits those of one process.
/// Column c owns a contiguous run of batches and rank (r, c) every R-th of those from its r-th
/// (batch b of the column goes to row b mod R): about Np / (C R) views each, as in the paper
/// (Eq. 5), to within one batch (some ranks filter none when a column has fewer batches than
/// rows). Dealt out in turn, the batches reach the column's ranks in view order, one round of R
/// at a time, so every rank back-projects the first while the next are filtered and exchanged
/// (the overlap of paper 003's Fig. 4; app/recon/ConeDistributed.h).
///
/// Slabs: contiguous, row r owns planes [r Nz / R, (r + 1) Nz / R) (balanced). The paper
/// keeps each GPU's z-extent symmetric because its kernel pairs voxel k with Nz - 1 - k along
/// the rotation axis. Here the rotation axis is y (RTK's frame) and the symmetric kernels pair
/// and reuse along y columns inside a plane of constant z (ConeBackProjector.h); every
/// back-projector addresses voxels in the whole grid, so any run of z planes has the bits of
/// the same planes of a whole-volume run and contiguous slabs need no pairing.

#include <cstddef>

#include "core/base/Status.h"

namespace tomo {

/// The sizes of a cone-beam problem: Nu x Nv x Np -> Nx x Ny x Nz.
struct ConeProblem {
    int nx = 0, ny = 0, nz = 0;
    int nu = 0, nv = 0, np = 0;
    std::size_t voxels() const {
        return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) *
               static_cast<std::size_t>(nz);
    }
    std::size_t viewPixels() const {
        return static_cast<std::size_t>(nu) * static_cast<std::size_t>(nv);
    }
};

struct ConeGridLimits {
    int ranks = 1;
    std::size_t memory = std::size_t(1) << 30;  ///< bytes per rank (device side)
    std::size_t hostMemory = 0;  ///< bytes per rank on the host side; 0: the same as memory
    int batch = 32;              ///< N_batch of the inequality
    int rows = 0;                ///< forced R (0: choose)
    int columns = 0;             ///< forced C (0: choose)
};

/// A run of consecutive items [first, first + count).
struct ConeRange {
    int first = 0, count = 0;
    int end() const { return first + count; }
};

/// The R x C grid of @p ranks ranks. World rank w is row w % R, column w / R (column-major:
/// the ranks of a column, which all-gather every view, are neighbours and on one node first).
struct ConeRankGrid {
    int rows = 1, columns = 1;
    int ranks() const { return rows * columns; }
    int rowOf(int rank) const { return rank % rows; }
    int columnOf(int rank) const { return rank / rows; }
    int rankAt(int row, int column) const { return column * rows + row; }
};

/// The bytes one rank needs under @p grid (the two sides of the inequalities above).
struct ConeRankBytes {
    std::size_t device = 0, host = 0;
    int gathered = 0;  ///< views a rank holds after its column's all-gather (the largest)
};
ConeRankBytes coneRankBytes(const ConeProblem& p, int rows, int columns, int batch);

/// The least R that fits (or the forced R / C, checked). InvalidArgument, naming the sizes and
/// the bytes, when the sizes are invalid, a forced R or C does not divide the ranks, or no R
/// fits the budget.
Result<ConeRankGrid> chooseConeRankGrid(const ConeProblem& problem, const ConeGridLimits& limits);

/// Planes [first, first + count) of grid row @p row: balanced contiguous slabs of @p nz.
ConeRange coneRowPlanes(const ConeRankGrid& grid, int nz, int row);
/// Views of column @p column: whole batches of @p batch views out of @p np, contiguous.
ConeRange coneColumnViews(const ConeRankGrid& grid, int np, int batch, int column);
/// The row of a column that loads and filters the column's batch @p b (b counted in batches
/// from the column's first view): b mod R.
inline int coneBatchRow(const ConeRankGrid& grid, int b) {
    return b % grid.rows;
}
/// Views rank (row, column) loads and filters: its batches of the column's (coneBatchRow).
int coneRankViewCount(const ConeRankGrid& grid, int np, int batch, int row, int column);

}  // namespace tomo
