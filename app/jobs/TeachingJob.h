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
/// SIRT, CGLS and TV run through core/iterative; RMSE against the phantom is given for each.
/// With stopAtNoise, SIRT and CGLS stop by Morozov's discrepancy principle: as soon as the
/// residual ||A x - b|| falls to the noise level ||b - b_clean|| (known here: the data are
/// simulated, and the noiseless sinogram is made with the same spec), their iteration counts
/// being maxima. Iterating further fits the noise (semi-convergence; Hansen, "Discrete Inverse
/// Problems", SIAM 2010, ch. 6, doi:10.1137/1.9780898718836). TV (a prior) needs no stop.
/// On the strongest noise with the Hann filter, stopped SIRT and CGLS beat FBP and TV beats all
/// (TeachingTest pins it): the lesson the guide tells.
///
/// Single-step ART: one sweep of SART (one projection per update, Andersen & Kak 1984) from
/// zero, its iterate captured after the last projection of each animation frame, so the frame
/// slider shows ART growing the image one projection at a time beside back-projection.
///
/// Fourier slice theorem: the phantom's 2-D spectrum (log10 |F|, centred; FourierSlice.h) is
/// computed once; the angles and the rotation axis are kept so that the panel can put the 1-D
/// transform of any projection beside the 2-D transform along the same line (fourierSlice).
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
    int sirtIterations = 100;     ///< at most, with stopAtNoise
    double sirtRelaxation = 1.0;  ///< lambda in (0, 2)
    int cglsIterations = 30;      ///< at most, with stopAtNoise
    bool stopAtNoise = true;      ///< the discrepancy principle for SIRT and CGLS
    double tvLambda = 5.0;        ///< TV's regularisation weight
    int tvIterations = 50;
    bool iterative = true;  ///< also run SIRT, CGLS, TV and single-step ART
};

struct TeachingResult {
    SliceImage sinogram;                 ///< [angle][detector]
    SliceImage truth;                    ///< the phantom
    std::vector<double> angles;          ///< radians, one per sinogram row
    double center = 0;                   ///< rotation axis on the detector (pixels)
    SliceImage spectrum;                 ///< log10 |F| of the phantom, centred (logSpectrum)
    std::vector<int> frameEndAngle;      ///< frame k shows angles [0, frameEndAngle[k])
    std::vector<SliceImage> unfiltered;  ///< cumulative simple back-projection per frame
    std::vector<SliceImage> filtered;    ///< cumulative filtered back-projection per frame
    std::vector<SliceImage> art;         ///< SART's iterate after each frame's last projection
    SliceImage fbp, sirt, cgls, tv;      ///< the iterative ones empty when !spec.iterative
    double fbpRmse = 0, sirtRmse = 0, cglsRmse = 0, tvRmse = 0;
    int sirtIterations = 0, cglsIterations = 0;  ///< iterations run (fewer when stopped)
    double noiseLevel = 0;  ///< ||b - b_clean|| / ||b||: the discrepancy principle's tolerance
};

/// Back-projects with @p engine's default variant.
Result<TeachingResult> runTeachingJob(const Engine& engine, const TeachingSpec& spec,
                                      const ExecContext& ctx);

}  // namespace tomo::app
