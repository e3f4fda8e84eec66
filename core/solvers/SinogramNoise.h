#pragma once
/// @file SinogramNoise.h
/// @brief The noise level sigma of a sinogram, estimated from the data alone: the noise norm of
/// the discrepancy principle (StoppingRule.h), TV's automatic lambda and MBIR's noise adaptation.
///
/// Consistency estimate (estimateSinogramNoise, where the views are uniform over a half or a full
/// turn): a sinogram p(theta, t) of an object inside radius R about the rotation axis has its 2-D
/// spectrum, k the angular frequency (cycles per turn) and w the detector frequency (radians per
/// bin), inside the double wedge |k| <= R |w| (P. A. Rattey, A. G. Lindgren, IEEE Trans. Acoust.
/// Speech Signal Process. 29(5), 1981, doi:10.1109/TASSP.1981.1163648; F. Natterer, The
/// Mathematics of Computerized Tomography, 1986, §III.2). Outside it, at low detector and high
/// angular frequencies, there is only what no object can explain: the noise, white with the mean
/// variance of all values whatever their individual (Poisson) levels. The estimate is the median
/// of |Z(k, w)|^2 there (a robust mean of the exponentially distributed powers: median / ln 2),
/// divided by the noise power of one coefficient. Edges, which the detector-row estimate takes for
/// noise (up to 6.4x too high on 40 random ellipses), stay inside the wedge at any view count:
/// undersampled angles alias signal only onto detector frequencies the wedge already fills. A half
/// turn is made periodic by p(theta + pi, t) = p(theta, -t) about the axis (centre per view); R
/// is 1.2x the distance from the axis to the farther detector edge, and k must exceed R |w| by 4.
/// Accuracy on `tomo phantom` cases (docs/algorithms.md, "Noise estimate"): 0.93-1.17x the true
/// sigma on Shepp-Logan, random ellipses and discs, 60-720 views, 1e3-1e6 counts, also with the
/// object wider than the detector.
///
/// Row estimate (estimateNoiseSigma: other angle sets, or too few coefficients outside the wedge):
/// the robust scale of second differences along detector rows, per block of 16 values (D. L.
/// Donoho, I. M. Johnstone, Biometrika 81(3), 1994, doi:10.1093/biomet/81.3.425). It counts the
/// curvature of projections as noise: an upper bound, tight only on smooth objects.

#include <cstddef>
#include <span>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// Which part of a data vector [slice][view][detector] is a sinogram, and how its views lie.
struct SinogramLayout {
    /// The views' span when uniform: theta_j = theta_0 + j pi / V (Half) or j 2 pi / V (Full), in
    /// either direction; None for any other angle set (the row estimate is used).
    enum class Turn { None, Half, Full };
    std::size_t detectors = 0;  ///< values per detector row (0 = the whole vector is one row)
    std::size_t views = 0;      ///< rows per slice
    Turn turn = Turn::None;
    /// Rotation axis in detector bins from bin 0, per view (one value: the same for all views;
    /// empty: the middle of the detector).
    std::vector<double> centers;
};

/// How @p geom's sinograms lie in a data vector [slice][view][detector]: the views' turn when
/// uniform over a half or a full turn (to 1e-3 of the step), and the rotation axis of each view.
SinogramLayout sinogramLayout(const ParallelGeometry& geom);

/// Sigma (the RMS noise over all values) of @p data laid out as @p layout: the consistency
/// estimate where the layout allows it, else estimateNoiseSigma along the rows. Every slice is
/// inspected. With ctx.across the slices of every rank count (the same estimate on every rank, and
/// the same as one process's within rounding).
double estimateSinogramNoise(std::span<const float> data, const SinogramLayout& layout,
                             const ExecContext& ctx = {});

/// Sigma of data smooth along detector rows plus white noise, from the second differences of
/// each row: per block of 16 values their robust scale 1.4826 MAD(d) / sqrt(6), squared and
/// averaged over the blocks weighted by their length. @p rowLength 0 = one row. With ctx.across
/// the blocks of every rank's part count.
double estimateNoiseSigma(std::span<const float> data, std::size_t rowLength,
                          const ExecContext& ctx = {});

/// The value at quantile @p q in [0, 1] of @p data: the k-th smallest, k = floor(q (n - 1)), as
/// std::nth_element at that position gives it. With ctx.across the values of every rank count,
/// so every rank and one process holding all of them get the same value (exact: a bisection over
/// the floats' order, 32 counting passes whose counts are summed across ranks). NaNs are not
/// expected; 0 for no data.
float dataQuantile(std::span<const float> data, double q, const ExecContext& ctx = {});

/// The noise level of a data-driven default: estimateSinogramNoise's sigma with a floor for the
/// model error. The consistency estimate sees only noise that no object could have made, not the
/// model error of data made elsewhere (exact line integrals of smooth-edged objects against our
/// pixels and interpolating projector), which a noise-free scan still has; without a floor its
/// sigma is near 0 there and the defaults act as if the data were exact. The floor is q99 /
/// snrCap, q99 the data's 99th percentile (dataQuantile), so an SNR above snrCap counts as
/// snrCap. Each user chooses its cap by the defaults study (docs/accuracy.md): TV's lambda 250,
/// the discrepancy stop 1000 (StoppingRule.h).
struct NoiseLevel {
    double estimate = 0;  ///< estimateSinogramNoise
    double q99 = 0;       ///< the data's 99th percentile, at least 0
    double floor = 0;     ///< q99 / snrCap
    double sigma() const { return estimate > floor ? estimate : floor; }
    bool floored() const { return floor > estimate; }
};

/// NoiseLevel of @p data (with ctx.across: every rank's values, the same on every rank).
NoiseLevel flooredSinogramNoise(std::span<const float> data, const SinogramLayout& layout,
                                double snrCap, const ExecContext& ctx = {});

}  // namespace tomo
