#pragma once
/// @file RingPreviewJob.h
/// @brief What a ring filter does to one sinogram of the open dataset, for the Preprocessing
/// panel's before/after window: the sinogram before and after the filter and their difference,
/// the slice reconstructed by FBP from each (at the dataset's centre, on its grid, as
/// Reconstruct gives it) and their difference.
///
/// Threading: plain C++ for a worker thread; ctx.stop is checked between the steps.

#include "app/Engine.h"
#include "app/jobs/DemoJob.h"
#include "app/jobs/SliceImage.h"
#include "core/preprocess/Preprocess.h"

namespace tomo::app {

struct RingPreview {
    SliceImage sinogramBefore, sinogramAfter, sinogramDifference;  ///< [angle][detector]
    SliceImage sliceBefore, sliceAfter, sliceDifference;           ///< after - before
    double largestChange = 0;        ///< max |after - before| over the sinogram
    std::size_t changedColumns = 0;  ///< detector columns the filter changed (detected stripes)
};

/// The ring filter of @p options (rings, sorting, fourierWavelet) on sinogram @p slice of
/// @p data, and its effect on the reconstruction. InvalidArgument for a slice outside the data;
/// the filter's error otherwise.
Result<RingPreview> ringPreview(const Engine& engine, const Dataset& data, int slice,
                                const PreprocessOptions& options, const ExecContext& ctx);

}  // namespace tomo::app
