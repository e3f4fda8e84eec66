#pragma once
/// @file PassPlan.h
/// @brief How a GPU back-projection is cut into passes, written once for every GPU backend
/// (issue 12: CUDA and OpenCL supply limits, queue operations and kernel launches only).
///
/// A job of nz slices, ny x nx pixels and A projections runs as items (pass, band, angle chunk):
/// a pass is the variant's slices per pass, a band a block of image rows (a multiple of 16 rows
/// unless the image is smaller, so that every kernel's tiles start aligned), an angle chunk the
/// projections one device sinogram holds. The planner starts from the whole image and every
/// projection the device limits allow, then halves the angle chunk and then the band until
/// the buffers fit the per-buffer allocation limit and the device's memory budget; `shrink`
/// halves them further, once per step, after the device refused an allocation (the backend
/// retries with shrink + 1 until the smallest items, then reports OutOfMemory).
/// Launches hold about `updatesPerLaunch` pixel updates (a projection range each), a multiple
/// of `projectionAlign` projections when at least 8.

#include <cstddef>
#include <functional>
#include <string>

#include "core/base/Status.h"

namespace tomo {

struct PassLimits {
    int slices = 1, slicesPerPass = 1;  ///< nz and the variant's slices per pass
    int nx = 1, ny = 1;                 ///< image size
    int angles = 1;                     ///< projections of the job
    int maxAngleChunk = 0;              ///< device limit on projections per sinogram (0 = none)
    int maxBandRows = 0;                ///< rows per band (0 = the whole image)
    std::size_t maxAllocation = 0;      ///< largest single buffer (0 = none)
    std::size_t budget = 0;             ///< device memory for the job (0 = none)
    /// Bytes of one device sinogram of that many projections (the variant's packing).
    std::function<std::size_t(int angleChunk)> sinogramBytes;
    int sinogramCopies = 2;      ///< sinogram buffers alive at once (double buffering, staging)
    int outputCopies = 2;        ///< output bands alive at once
    std::size_t fixedBytes = 0;  ///< constants and the like
    double updatesPerLaunch = 3.2e7;
    int projectionAlign = 1;
    int shrink = 0;  ///< halvings after refused allocations
};

struct PassPlan {
    int slicesPerPass = 1, passes = 0;
    int bandRows = 0, bands = 0;
    int angleChunk = 0, angleChunks = 0;
    int projPerLaunch = 1;
    std::size_t sinogramBytes = 0, outputBytes = 0, totalBytes = 0;
    /// No smaller items exist (one projection, 16-row bands): a refused allocation is final.
    bool smallest() const;
};

/// The plan of @p limits; OutOfMemory naming @p what and the sizes when even the smallest items
/// do not fit.
Result<PassPlan> planPasses(const PassLimits& limits, const std::string& what);

}  // namespace tomo
