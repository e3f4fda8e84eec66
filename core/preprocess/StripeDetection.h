#pragma once
/// @file StripeDetection.h
/// @brief Which detector columns of a sinogram hold stripes, so that ring removal changes those
/// columns only and leaves a scan without rings as it was (issue 28, point 3).
///
/// A stripe (a detector pixel whose gain the flats do not capture) shifts its column of line
/// integrals by about the same amount at every angle. Each sinogram row is compared with its
/// running median along the detector (2 h + 1 columns, mirrored at the ends): a median follows
/// any monotone profile exactly, however steep, so the residual is zero across the object's
/// edges and non-zero only at narrow peaks and valleys, which a stripe makes at every angle and
/// an object's feature only at the few angles where its sinusoid passes that column. Per column,
/// the residuals' 65 % and 35 % quantiles over the angles measure a shift that holds on at least
/// 35 % of the angles (full stripes, and partial ones over a third of the scan or more); a column
/// is a stripe when one of them lies further from its median over the columns than `snr` robust
/// standard deviations (1.4826 x the median absolute deviation over the columns, as Vo et al.'s
/// noise-robust threshold) and than 0.1 % of the sinogram's largest magnitude (the floor keeps
/// the curvature of a noise-free profile's maxima from counting).
///
/// After Vo, Atwood, Drakopoulos, Opt. Express 26(22), 28396, 2018, doi:10.1364/OE.26.028396,
/// section 3.4 (detection of stripes by a median-smoothed profile and a noise-robust threshold);
/// theirs compares column means of the angle-sorted sinogram, which a feature near the axis
/// (whose sinusoid lingers at the turning points) also shifts: quantiles of per-angle residuals
/// do not see it.
///
/// Threading: single-threaded, re-entrant.

#include <cstddef>
#include <vector>

#include "core/data/Array.h"

namespace tomo {

/// The stripe columns of @p sinogram [angle][detector], ascending. @p snr > 0; @p halfWidth
/// (h >= 1) the running median's half-width in columns, wider than half the widest stripe.
std::vector<std::size_t> detectStripes(View2<const float> sinogram, double snr,
                                       std::size_t halfWidth);

/// The running median of every row of @p sinogram along the detector over 2 @p halfWidth + 1
/// columns (mirrored at the ends), [angle][detector] row-major.
std::vector<float> rowMedians(View2<const float> sinogram, std::size_t halfWidth);

/// Per column, whether it is one of @p stripes.
std::vector<char> stripeMask(const std::vector<std::size_t>& stripes, std::size_t columns);

/// Replaces the values of @p row (element j at row[j * stride]) at the columns where @p mask is
/// set by linear interpolation between the nearest unmasked columns either side (the one side's
/// value at the ends; unchanged when every column is masked).
void bridgeMaskedColumns(float* row, std::size_t stride, const std::vector<char>& mask);

}  // namespace tomo
