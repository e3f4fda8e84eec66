#pragma once
/// @file ConeTeachingJob.h
/// @brief The teaching mode's cone-beam lesson: what FDK does to the projections and how the
/// back-projection of the filtered views builds an axial plane, view by view. Plain C++ for a
/// worker thread (no Qt); the panel is ui/teaching/ConeTeachingPanel.h.
///
/// Data: the session's cone-beam dataset (app/jobs/ConeJob.h), or the built-in one
/// (makeTeachingConeData): the 3-D Shepp-Logan of core's ConePhantom on the acquisition of
/// `tomo phantom --cone` (core conePhantomGeometry) with a short source distance, so that the
/// cone is wide enough (about 30 degrees) for the cosine weight to show.
///
/// Everything is computed by core's FDK stages, nothing is re-implemented here:
///  - the cosine pre-weight over the detector: FdkWeights::cosine of view 0,
///    D / sqrt(D^2 + u^2 + v^2) with D = sdd and (u, v) from the principal point;
///  - per animation frame, the frame's last view raw, after FdkWeights::apply (cosine, FDK's
///    constant and the redundancy weight) and after FdkFilter::apply (the weights, then the ramp
///    filter along the rows), on the whole detector;
///  - the plane: the views cropped to the rows it reaches (app/jobs/ConePlane.h cropToPlane),
///    filtered once by FdkFilter, and back-projected a group of views at a time by the Engine's
///    cone back-projector for one plane (planeVariant); frame k is the sum of groups 0..k, so
///    the last frame is FDK's plane (ConeTeachingTest: the double-precision reference) and
///    frame k the contribution of the views [0, frameEndView[k]) alone.
///
/// Frames: the views are split into F = min(views, maxFrames) consecutive groups, fewer when
/// the frames' three projection images would exceed projectionBudget bytes.
/// Threading: plain C++; ctx.stop is checked per frame.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "app/Engine.h"
#include "app/jobs/ConeJob.h"
#include "app/jobs/SliceImage.h"

namespace tomo::app {

struct ConeTeachingSpec {
    int size = 64;                ///< built-in data: size^3 voxels of 1 mm
    int views = 120;              ///< built-in data: views over 360 degrees
    std::string filter = "ramp";  ///< parseFilterWindow name
    int plane = -1;               ///< axial plane j (along the rotation axis y); -1: central
    int maxFrames = 40;           ///< animation frames
    std::size_t projectionBudget = std::size_t(256) << 20;  ///< bytes for the frames' pictures
    std::string backend = "auto";                           ///< for planeVariant()
};

/// The built-in data: a size^3 grid of 1 mm, the 3-D Shepp-Logan of half-size size/2 mm,
/// sid = 2.5 size mm, sdd = 1.5 sid, @p views views over 360 degrees (exact line integrals,
/// 2 x 2 rays per pixel), and its truth. InvalidArgument for size < 8 or views < 2.
Result<ConeDataset> makeTeachingConeData(int size, int views, const ExecContext& ctx);

struct ConeTeachingResult {
    std::shared_ptr<const ConeDataset> data;  ///< what was taught
    std::string geometry;                     ///< describe() of the geometry
    double sdd = 0;                           ///< D of the cosine weight, mm
    SliceImage cosine;                        ///< cos of view 0 over the detector [v][u]
    double cosineMin = 1;                     ///< its smallest value (at a corner)
    std::vector<double> gantryDeg;            ///< gantry angle of every view, degrees
    std::vector<int> frameEndView;            ///< frame k back-projects views [0, frameEndView[k])
    /// The last view of each frame, frameEndView[k] - 1, on the whole detector [v][u]: as
    /// measured, after FDK's weights, after the weights and the ramp filter.
    std::vector<SliceImage> raw, weighted, filtered;
    std::vector<SliceImage> planes;            ///< the plane after each frame's views [z][x]
    SliceImage truth;                          ///< the same plane of the truth; empty when none
    int plane = 0;                             ///< j in the grid
    double planeY = 0;                         ///< y of the plane, mm
    int firstRow = 0, rows = 0;                ///< the detector rows the plane reaches
    std::string variant;                       ///< the cone back-projector
    std::string filter;                        ///< the ramp filter's window (spec.filter)
    std::vector<std::string> notes, warnings;  ///< FdkWeights' scan notes and warnings
};

/// The lesson of @p data (its geometry and default grid) with @p spec (filter, plane, frames).
/// InvalidArgument for an unknown filter, a plane outside the grid or maxFrames < 1.
Result<ConeTeachingResult> runConeTeachingJob(const Engine& engine,
                                              std::shared_ptr<const ConeDataset> data,
                                              const ConeTeachingSpec& spec, const ExecContext& ctx);

}  // namespace tomo::app
