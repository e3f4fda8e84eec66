#pragma once
/// @file ConeScalingModel.h
/// @brief iFDK's performance model (paper 003, Sec. 4.2, Eqs. 8-19; digest section 5): the
/// time of each stage of a distributed FDK on an R x C grid (ConeGrid2d.h) from measured
/// throughputs, the overlapped total the paper predicts (T_compute = the slowest of load,
/// filter, all-gather and back-projection) and, beside it, the sum of the stages for an
/// implementation that runs them one after the other (ours on the CPU: ConeDistributed.h).
///
/// Units: bytes per second, views per second, GUPS (2^30 voxel updates per second, the
/// paper's GUPS). A throughput of 0 means "no such stage" (its time is 0): a CPU
/// back-projector has no PCIe copies and no transpose.

#include "core/cone/ConeGrid2d.h"

namespace tomo {

struct ConeModelConstants {
    double loadBytesPerSecond = 0;       ///< BW_load: aggregate file-system read
    double filterViewsPerSecond = 0;     ///< TH_flt: views filtered per second per node
    int ranksPerNode = 1;                ///< N_gpu_per_node (ranks sharing a node's CPUs)
    double allgatherBytesPerSecond = 0;  ///< per rank, of the column's all-gather
    double backProjectGups = 0;          ///< TH_bp of one rank's back-projector, GUPS
    double pcieBytesPerSecond = 0;       ///< BW_PCIe of one link (0: no device copies)
    int pcieLinks = 1;                   ///< N_PCIe per node
    double transposeBytesPerSecond = 0;  ///< TH_trans of the device (0: none)
    double reduceBytesPerSecond = 0;     ///< TH_Reduce along a row
    double storeBytesPerSecond = 0;      ///< BW_store: aggregate file-system write
};

/// Seconds per stage (Eqs. 8-16) and the totals (17-19).
struct ConeModelTimes {
    double load = 0, filter = 0, allgather = 0, h2d = 0, backProject = 0;  ///< bp includes h2d
    double transpose = 0, d2h = 0, reduce = 0, store = 0;
    double compute = 0;     ///< Eq. 17: max(load, filter, allgather, backProject)
    double post = 0;        ///< Eq. 18: transpose + d2h + reduce + store
    double runtime = 0;     ///< Eq. 19: compute + post
    double sequential = 0;  ///< every stage one after the other (no overlap)
    double gups = 0;        ///< Nx Ny Nz Np / (runtime 2^30)
};

/// The model of @p problem on @p grid with @p constants.
///  (8)  T_load   = 4 Nu Nv Np / BW_load
///  (9)  T_flt    = Np N_gpu_per_node / (C R TH_flt)
///  (10) T_AllGather: each rank receives the (R - 1) / R of its column's Np / C views it did not
///       filter: 4 Nu Nv (Np / C) (R - 1) / R / BW_allgather (the paper's Np / (C R TH_AllGather)
///       with TH_AllGather = BW_allgather / (4 Nu Nv (R - 1)) views per second)
///  (11) T_H2D    = 4 N_gpu_per_node Nu Nv Np / (C BW_PCIe N_PCIe)
///  (12) T_bp     = T_H2D + (Nx Ny Nz / R) (Np / C) / (2^30 TH_bp)   (TH_bp in GUPS)
///  (13) T_trans  = 4 Nx Ny Nz / (R TH_trans)
///  (14) T_D2H    = 4 N_gpu_per_node Nx Ny Nz / (R BW_PCIe N_PCIe)
///  (15) T_reduce = 4 Nx Ny Nz / (R TH_Reduce)   (0 when C = 1: nothing to reduce)
///  (16) T_store  = 4 Nx Ny Nz / BW_store
ConeModelTimes coneModel(const ConeProblem& problem, const ConeRankGrid& grid,
                         const ConeModelConstants& constants);

}  // namespace tomo
