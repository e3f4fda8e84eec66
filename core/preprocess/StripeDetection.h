#pragma once
/// @file StripeDetection.h
/// @brief Which detector columns of a sinogram hold stripes, so that ring removal changes those
/// columns only and leaves a scan without rings as it was (issue 28, point 3).
///
/// A stripe (a detector pixel whose gain the flats do not capture) shifts its column of line
/// integrals by about the same amount at every angle. Each row is compared with its running
/// median along the detector (2 h + 1 columns, mirrored at the ends): a median follows any
/// monotone profile exactly, however steep, so the residual is zero across the object's edges
/// and non-zero at narrow peaks and valleys, which a stripe makes at every angle and an object's
/// feature only at the angles where its sinusoid passes that column. The angles are cut into six
/// runs of consecutive angles; a column's shift is the median of the runs' mean residuals (each
/// without its quarter of largest and quarter of smallest), so a stripe over at least half the
/// angles shows and an edge that lingers near the column over a few runs (an ellipse's tangent at
/// the turning point of its sinusoid), noisy or not, does not. A column is a stripe when its
/// shift lies further from the columns' median than `snr` robust standard deviations (1.4826 x
/// their median absolute deviation, Vo et al.'s noise-robust threshold) and than 0.3 % of the
/// sinogram's largest magnitude, the same way in the sinogram's rows and in its angle-sorted
/// ranks (each column sorted over the angles, Vo's sorted domain; there one run of all ranks). A
/// stripe shifts the running median of the columns within @p halfWidth of it, and so their
/// residuals the other way: candidates are taken strongest first, and one within @p halfWidth
/// of an accepted stripe stays only if it still stands out with the accepted ones bridged.
///
/// After Vo, Atwood, Drakopoulos, Opt. Express 26(22), 28396, 2018, doi:10.1364/OE.26.028396,
/// section 3.4 (stripes found by a median-smoothed profile and a noise-robust threshold). Not
/// found: a stripe on a slope steeper than its height (the median takes it for the profile),
/// partial stripes over less than half the angles, stripes under the floor.
/// Measured in docs/preprocessing.md, "Ring removal defaults".
///
/// Threading: single-threaded, re-entrant.

#include <cstddef>
#include <vector>

#include "core/data/Array.h"

namespace tomo {

/// The stripe columns of @p sinogram [angle][detector], ascending. @p snr > 0; @p halfWidth
/// (h >= 1) the running median's half-width in columns, at least the widest stripe's width.
std::vector<std::size_t> detectStripes(View2<const float> sinogram, double snr,
                                       std::size_t halfWidth);

/// The running median of every row of @p sinogram along the detector over 2 @p halfWidth + 1
/// columns (mirrored at the ends), [angle][detector] row-major.
std::vector<float> rowMedians(View2<const float> sinogram, std::size_t halfWidth);

/// Per column, whether it is one of @p stripes (1) or not (0).
std::vector<char> stripeMask(const std::vector<std::size_t>& stripes, std::size_t columns);

/// Replaces the values of @p row (element j at row[j * stride]) at the columns where @p mask is
/// set by linear interpolation between the nearest unmasked columns either side (the one side's
/// value at the ends; unchanged when every column is masked).
void bridgeMaskedColumns(float* row, std::size_t stride, const std::vector<char>& mask);

}  // namespace tomo
