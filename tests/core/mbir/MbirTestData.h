#pragma once
// Shared MBIR test data: an analytic Shepp-Logan (no projector of ours made its sinogram) with
// Poisson noise from a fixed seed, its ground truth and its FBP.
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/mbir/Mbir.h"

namespace tomo::test {

struct MbirCase {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms sino;
    Volume truth;
    Volume fbp;
};

/// @p size^2 pixels of pitch 1, @p views over 180 degrees, detector of size * 1.45 channels,
/// @p slices identical slices, @p counts incident photons (0: no noise) at attenuation scale 0.05.
MbirCase makeMbirCase(int size, int views, double counts, int slices = 1);
/// The same with the 3-D Shepp-Logan (scale size / 2, voxel pitch 1): @p slices central slices
/// of it, each different from the next (for a prior that couples slices).
MbirCase makeMbirStackCase(int size, int views, double counts, int slices);
/// Slice @p z of @p c as a case of its own (sinogram, truth and FBP of that slice).
MbirCase sliceOf(const MbirCase& c, int z);

double rmseOf(const Volume& a, const Volume& b);  ///< over every voxel

/// A solveMbir run on a case: its image, summary, report and status.
struct MbirRun {
    Volume image;
    SolverSummary summary;
    MbirReport report;
    Status status;
};
/// solveMbir on @p c from @p initial (the case's FBP when null) against its truth, with the
/// matrix (and GPU-ICD layout) cache @p cache when given.
MbirRun solveCase(const MbirCase& c, const MbirOptions& o, int threads = 0,
                  const IterationCallback& callback = {}, const Volume* initial = nullptr,
                  MbirMatrixCache* cache = nullptr);

}  // namespace tomo::test
