#pragma once
/// @file TeachingJob.h
/// @brief The teaching mode's data: a small Shepp-Logan demo with a chosen number of angles,
/// noise level and filter; back-projection built up angle by angle, unfiltered and filtered,
/// as animation frames; and FBP, SIRT and CGLS reconstructions of the same data side by side.
///
/// Frames: the angles are split into F = min(angles, maxFrames) consecutive groups; frame k is
/// the back-projection of groups 0..k with FBP's angular weights (ParallelGeometry::
/// angularWeights), once of the raw sinogram and once of the ramp-filtered one (RampFilter with
/// the chosen window). The last filtered frame is the FBP image; the last unfiltered frame is
/// the blurred simple back-projection (the 1/r point-spread of Kak & Slaney, "Principles of
/// Computerized Tomographic Imaging", IEEE Press 1988, ch. 3, doi:10.1137/1.9780898719277).
/// Each group is back-projected once and accumulated, so all frames cost two back-projections.
///
/// SIRT and CGLS run through core/iterative with `iterations` set when the algorithm has that
/// parameter (defaults otherwise); RMSE against the phantom is given for each result.
///
/// Threading: plain C++ for a worker thread; ctx.stop is checked per group and per solver.

#include <string>
#include <vector>

#include "app/jobs/DemoJob.h"
#include "app/jobs/SliceImage.h"

#include "app/Engine.h"

namespace tomo::app {

struct TeachingSpec {
    int size = 128;               ///< image size (pixels)
    int angles = 90;              ///< over 180 degrees
    double incidentCount = 0;     ///< photons per ray for Poisson noise; 0 = noiseless
    std::string filter = "ramp";  ///< parseFilterWindow name
    int maxFrames = 45;           ///< animation frames
    int sirtIterations = 30;
    int cglsIterations = 12;
    bool iterative = true;  ///< also run SIRT and CGLS (the comparison row)
};

struct TeachingResult {
    SliceImage sinogram;                 ///< [angle][detector]
    SliceImage truth;                    ///< the phantom
    std::vector<int> frameEndAngle;      ///< frame k shows angles [0, frameEndAngle[k])
    std::vector<SliceImage> unfiltered;  ///< cumulative simple back-projection per frame
    std::vector<SliceImage> filtered;    ///< cumulative filtered back-projection per frame
    SliceImage fbp, sirt, cgls;          ///< sirt/cgls empty when !spec.iterative
    double fbpRmse = 0, sirtRmse = 0, cglsRmse = 0;
};

/// Back-projects with @p engine's default variant.
Result<TeachingResult> runTeachingJob(const Engine& engine, const TeachingSpec& spec,
                                      const ExecContext& ctx);

}  // namespace tomo::app
