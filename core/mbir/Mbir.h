#pragma once
/// @file Mbir.h
/// @brief Model-based iterative reconstruction of parallel-beam slices (paper 004): the cost of
/// MbirModel.h minimised by ICD over SuperVoxels (PSV-ICD, SuperVoxels.h) or plain sequential
/// ICD, on the system matrix of MbirMatrix.h. Reports after every iteration of the schedule
/// through the solvers' callback (IterationInfo: cost, equits, error against the reference),
/// with Cancel and StopAndKeep, and stops on
///  - the relative update: 100 x mean |delta| / mean |x| below `stopThreshold` percent
///    (svmbir's rule, for real data), or
///  - against a golden image (the reference): RMSE in Hounsfield units,
///    HU = 1000 (mu - mu_water) / mu_water, so RMSE_HU = 1000 RMSE / mu_water, below `stopHu`
///    (paper 004: 10 HU), or
///  - the iteration count.
/// An equit is as many voxel updates as the image has voxels (zero-skipped ones not counted).
/// With MbirOptions::device the passes run as GPU-ICD on that device: a stack is one problem
/// there, its slices coupled by the same 3-D prior as PSV-ICD's (GpuIcd.h), the images and error
/// sinograms read back once per iteration.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/mbir/GpuIcd.h"
#include "core/mbir/MbirHostSteps.h"
#include "core/mbir/MbirMatrixCache.h"
#include "core/mbir/MbirModel.h"
#include "core/mbir/SuperVoxels.h"
#include "core/pipeline/Timeline.h"
#include "core/solvers/IterationInfo.h"

namespace tomo {

struct MbirOptions {
    MbirModelOptions model;
    PsvOptions psv;
    MbirEntryType entries = MbirEntryType::Uint8;
    int iterations = 100;        ///< iterations (about one equit each) at most
    double stopThreshold = 0.5;  ///< percent; 0 = off (docs/mbir.md: why not svmbir's 0.02)
    /// The threshold stops no run before this iteration (the multi-resolution start sets 3: its
    /// first fine iteration moves little from the coarse image while its 2 x 2 blocks remain).
    int minIterations = 1;
    double stopHu = 0;      ///< with a reference: stop below this RMSE in HU; 0 = off
    double muWater = 0.02;  ///< attenuation of water per length unit, for HU
    int innerSteps = 1;     ///< surrogate steps per voxel visit
    bool zeroSkip = true;
    bool vectorised = true;  ///< AVX2 theta sums where the CPU has them (IcdUpdate.h)
    std::size_t memoryBudget = std::size_t(4) << 30;  ///< bytes the system matrix may take
    /// GPU-ICD (GpuIcd.h) on the device this makes (slices and stacks); empty: PSV-ICD (`psv`).
    IcdDeviceFactory device;
    GpuIcdOptions gpu;

    Status validate() const;
};

struct MbirReport {
    MbirSigmas sigmas;
    MbirMatrixSource matrixSource = MbirMatrixSource::Built;
    double matrixSeconds = 0;
    std::size_t matrixBytes = 0;
    double equits = 0;
    /// Per iteration, the stop rule's relative update in percent (100 x mean |delta| / mean |x|).
    std::vector<double> relativeUpdates;
    std::vector<std::string> notes;  ///< sigma derivations, matrix source, cache notes
    /// The solve's timeline (issue 27 item 5): the matrix, layout, sinograms and each
    /// iteration's numbers as host work; on a device its uploads, kernels and downloads on its
    /// clock, on the CPU PSV-ICD's passes as kernels on the host's.
    TimelineReport timeline;
    /// Its host spans by name (MbirHostSteps.h): where the host time goes.
    MbirHostSteps hostSteps;
};

/// Reconstructs @p y ([slice][view][channel]) on @p vol into @p out ([slice][y][x]).
/// @p initial (optional, the output's shape) is the warm start (clamped to >= 0 with
/// positivity), zeros when null; @p reference (optional) gives IterationInfo::error and the HU
/// rule; @p cache (optional) keeps matrices between runs; @p onNote gets each of
/// report.notes as it is made (the sigmas before the first iteration). ctx.progress: the matrix the
/// first 20%, the iterations the rest. StopAndKeep returns OK with the current image.
Status solveMbir(const Sinograms& y, const ParallelGeometry& geom, const VolumeGeometry& vol,
                 const MbirOptions& options, const Volume* initial, const Volume* reference,
                 const IterationCallback& onIteration, Volume& out, SolverSummary& summary,
                 MbirReport& report, const ExecContext& ctx, MbirMatrixCache* cache = nullptr,
                 const std::function<void(const std::string&)>& onNote = {});

}  // namespace tomo
