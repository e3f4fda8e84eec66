#pragma once
// A double-precision evaluation of what gridrec computes (core/fourier/FourierPlan.h): FBP's
// ramp-filtered rows interpolated trigonometrically over the padded length and summed with the
// angular weights at every pixel centre, by direct DFTs and sums (no gridding, no FFT).
#include "core/data/Array.h"
#include "core/filter/RampFilter.h"
#include "core/fourier/FourierPlan.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::test {

Volume referenceGridrec(const Sinograms& sino, const ParallelGeometry& geom,
                        const VolumeGeometry& vol, const FilterOptions& filter,
                        GridrecInterpolation interpolation);

}  // namespace tomo::test
