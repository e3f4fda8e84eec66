#pragma once
/// @file CenterJob.h
/// @brief Centre-of-rotation tuning jobs of the GUI: one slice reconstructed at a trial centre
/// (the live preview behind the slider), the automatic estimate, and a sweep giving N trial
/// slices with the sharpness metric of core/centering plotted against the centre.
///
/// Centre convention (docs/geometry.md, core/centering/CenterOfRotation.h): pixels from the
/// centre of detector pixel 0; the detector centre is (W - 1) / 2 for W pixels. Slices are
/// reconstructed by FBP (core/recon) on the dataset's grid with one slice, by the back-projector
/// @p variantId of @p engine ("" = its default variant), so the preview matches what Reconstruct
/// gives.
///
/// Sweep: N centres evenly spaced over [from, to]; the strip holds the N FBP slices; the curve is
/// estimateCenterSharpness over the same range with coarse step (to - from) / (N - 1), so its
/// coarse points are the strip's centres (plus the refinement around the best), and its
/// `center` is the sweep's estimate (Donath et al. 2006, doi:10.1364/JOSAA.23.001048).
///
/// Threading: plain C++ for a worker thread; ctx.stop is checked per slice.

#include <string>
#include <vector>

#include "app/Engine.h"
#include "app/jobs/DemoJob.h"
#include "app/jobs/SliceImage.h"
#include "core/centering/CenterOfRotation.h"

namespace tomo::app {

/// Slice @p slice of @p data reconstructed by FBP (or @p method: gridrec for the live preview,
/// DemoJob.h) with the rotation axis at @p center. InvalidArgument when the slice or centre is
/// outside the data.
Result<SliceImage> reconstructSliceAtCenter(const Engine& engine, const Dataset& data, int slice,
                                            double center, const FilterOptions& filter,
                                            const std::string& variantId, const ExecContext& ctx,
                                            const AnalyticMethod& method = {});

/// What reconstructSliceAtCenter with the same arguments needs on its device (FFT plans,
/// programs, constants, buffers), made now by ReconService::prepare, so that the first live
/// preview of a dataset costs what the next ones do (issue 27 item 4). Nothing on the CPU.
Status prepareSliceAtCenter(const Engine& engine, const Dataset& data, int slice, double center,
                            const FilterOptions& filter, const std::string& variantId,
                            const AnalyticMethod& method = {});

/// Vo's Fourier-metric estimate on slice @p slice's sinogram (core/centering).
Result<CenterEstimate> estimateDatasetCenter(const Dataset& data, int slice,
                                             const ExecContext& ctx);

struct CenterSweep {
    std::vector<double> centers;     ///< N trial centres, ascending
    std::vector<SliceImage> slices;  ///< the FBP slice at each
    CenterEstimate curve;            ///< sharpness (entropy) against centre, and its minimum
    std::string curveBackProjector;  ///< the back-projector variant the curve was computed with
};

/// N >= 2 trial slices over [from, to] (from < to, inside the detector), reconstructed as
/// reconstructSliceAtCenter with @p method (FBP's projector, gridrec), and the sharpness curve,
/// computed with the back-projector @p variantId (core/centering's sweep takes a BackProjector:
/// with Joseph's projector or gridrec chosen, the curve is still the variant's; the panel says so).
Result<CenterSweep> sweepDatasetCenter(const Engine& engine, const Dataset& data, int slice,
                                       double from, double to, int count,
                                       const FilterOptions& filter, const std::string& variantId,
                                       const ExecContext& ctx, const AnalyticMethod& method = {});

}  // namespace tomo::app
