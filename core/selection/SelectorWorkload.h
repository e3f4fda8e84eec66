#pragma once
/// @file SelectorWorkload.h
/// @brief The problems the selector runs: a smooth synthetic sinogram stack with its geometry,
/// and the error measure of the correctness check.
/// Internal to the selection module (used by Selector.cpp and the tests).

#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::selection {

/// A back-projection problem: sinograms [slice][angle][detector], geometry, grid and weights.
struct Problem {
    ParallelGeometry geometry;
    VolumeGeometry grid;
    Sinograms sino;
    std::vector<float> weights;
};

/// @p projections angles uniform over [0, pi), @p detectors bins with the axis at
/// (detectors - 1) / 2 + 0.3 (off the pixel grid, so nearest interpolation rarely meets a tie),
/// a centred size x size grid of detector-pitch pixels, @p slices slices, angular weights, and
/// smooth values (sums of low-frequency sines differing per slice: a flipped nearest bin changes
/// a value by a few percent at most). OutOfMemory when the stack cannot be allocated.
Result<Problem> makeProblem(int size, int detectors, int projections, int slices);

/// max |a - b| / max |b| over all elements (max |a - b| when b is all zero); +inf when the
/// shapes differ or a is not finite.
double relativeError(const Volume& a, const Volume& b);

/// @p v printed with the printf @p format (one double conversion).
std::string formatNumber(const char* format, double v);

}  // namespace tomo::selection
