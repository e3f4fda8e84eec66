#pragma once
/// @file CenterOfRotation.h
/// @brief Estimation of the rotation axis position on the detector (the centre of rotation)
/// from the data, by three independent methods.
///
/// Convention (docs/geometry.md, ParallelGeometry.h): the centre is in detector pixels counted
/// from the centre of pixel 0 of the (preprocessed) detector row, the value `tomo recon
/// --center` takes; the detector centre is (W - 1) / 2 for W pixels. Input sinograms are
/// [angle][detector] line integrals (after flat/dark and minus-log), angles in radians in the
/// convention of ParallelGeometry.h. A projection at theta + pi is the mirror image of the one
/// at theta about the axis: p(theta + pi, j) = p(theta, 2c - j). All three methods use this.
///
///  - **Fourier metric** (N. T. Vo, M. Drakopoulos, R. C. Atwood, C. Reinhard, "Reliable method
///    for calculating the center of rotation in parallel-beam tomography", Opt. Express 22(16),
///    19078, 2014, doi:10.1364/OE.22.019078; TomoPy's find_center_vo): the sinogram of a
///    180-degree scan and its left-right flip, shifted by s = 2 (c - (W - 1) / 2), are stacked
///    into a 360-degree sinogram. When c is right it is a consistent sinogram, whose 2-D Fourier
///    transform has almost no energy in the double wedge |k| < |n| W / (2 pi R) (n: angular
///    frequency in cycles per turn, k: detector frequency index, R = ratio W / 2 the object
///    radius in pixels); rows |n| <= drop and columns |k| <= 1 are left out. The metric is the
///    mean magnitude in the wedge, minimised over c: a coarse sweep in steps of 0.5 px over
///    [c0 - radius, c0 + radius], then a sweep in 0.02 px steps over +-1 px around the best.
///    Shifts are applied as phase ramps (circular; data should fall to ~0 at the detector
///    edges). Needs angles covering 180 degrees (a 360-degree scan uses its first half).
///  - **0/180 phase correlation**: every pair of projections theta, theta + pi (within
///    maxPairErrorDeg) is compared by phase correlation of one with the mirror image of the
///    other (C. D. Kuglin, D. C. Hines, Proc. IEEE Int. Conf. Cybernetics and Society, 1975;
///    cross-power spectra summed over rows and pairs, then normalised). The correlation peak at
///    shift d gives c = (d + W - 1) / 2; the peak is refined to 0.005 px by evaluating the
///    correlation as a continuous trigonometric sum. Needs a scan covering 360 degrees (or at
///    least one pair 180 degrees apart).
///  - **Sharpness sweep**: one slice is reconstructed by FBP (core/recon) for trial centres over
///    [c0 - radius, c0 + radius] in steps of `step`, then in steps of step/5 over +-step around
///    the best, and a metric of the image inside the inscribed disc is minimised: the Shannon
///    entropy of its histogram (256 bins over the value range of the reconstruction at c0;
///    T. Donath, F. Beckmann, A. Schreyer, "Automated determination of the center of rotation
///    in tomography data", J. Opt. Soc. Am. A 23(5), 1048, 2006, doi:10.1364/JOSAA.23.001048),
///    or the sum of absolute values (L1 norm, also in Donath et al.: a wrong centre adds
///    negative arcs and halos). Both are lowest for a sharp image; a parabola through the best
///    point and its neighbours gives the sub-step estimate. (The total variation was tried and
///    rejected: on the test phantom its curve had no usable extremum at the true centre.)
///
/// Confidence in [0, 1]: for the Fourier metric and the sweep, the uniqueness of the minimum of
/// the coarse curve, (m2 - m1) / (max - m1) with m1 the minimum and m2 the lowest local minimum
/// more than 2 px away (max when there is none); 0 when the minimum lies on the border of the
/// search range (widen it). For phase correlation, the height of the normalised correlation
/// peak (1 for a perfect mirror match; noise and inconsistent pairs lower it).
///
/// Threading: the functions use ctx.threads workers where they reconstruct (the sweep); ctx.stop
/// is checked per trial centre; ctx.progress advances per trial (setTotal called here). Errors:
/// InvalidArgument for bad options, angle lists not matching the sinogram, a search range
/// outside the detector, no 180-degree coverage or pair; InvalidData for NaN/Inf values.

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/filter/RampFilter.h"

namespace tomo {

class BackProjector;

/// The result of an estimator, with the curve it optimised (for plots and diagnostics).
struct CenterEstimate {
    double center = std::nan("");  ///< pixels from the centre of pixel 0
    double confidence = 0;         ///< [0, 1], see the file comment
    std::string method;            ///< "vo-fourier", "phase-correlation", "sharpness-entropy", "sharpness-l1"
    std::vector<double> trialCenters;  ///< x of the curve (pixels)
    std::vector<double> metric;        ///< y of the curve
    bool minimised = true;             ///< true when the best centre minimises `metric`
};

struct VoCenterOptions {
    double searchCenter = std::nan("");  ///< c0; NaN = detector centre (W - 1) / 2
    double searchRadius = 0;             ///< pixels; 0 = W / 8 (at least 4)
    double ratio = 0.5;                  ///< object diameter / detector width, (0, 1]
    int drop = 20;                       ///< angular frequencies |n| <= drop left out, >= 0
    Status validate() const;
};

struct PhaseCorrelationOptions {
    double maxPairErrorDeg = -1;  ///< tolerance of theta_q - theta_p - 180; < 0 = half a step
    Status validate() const;
};

enum class SharpnessMetric { Entropy, AbsoluteSum };

struct SharpnessSweepOptions {
    double searchCenter = std::nan("");  ///< c0; NaN = detector centre
    double searchRadius = 0;             ///< pixels; 0 = W / 8 (at least 4)
    double step = 0.5;                   ///< coarse step in pixels, > 0
    SharpnessMetric metric = SharpnessMetric::Entropy;
    FilterOptions filter;                ///< FBP filter (Ram-Lak)
    /// Back-projector to use (not owned); null = the fastest CPU variant (cpu.simd.lin).
    BackProjector* backProjector = nullptr;
    Status validate() const;
};

/// Vo's Fourier metric on @p sinogram [angle][detector] with @p angles (radians).
Result<CenterEstimate> estimateCenterVo(View2<const float> sinogram, std::span<const double> angles,
                                        const VoCenterOptions& options = {},
                                        const ExecContext& ctx = {});

/// 0/180 phase correlation on projections [angle][row][column] (every row used).
Result<CenterEstimate> estimateCenterPhaseCorrelation(const Array3<float>& projections,
                                                      std::span<const double> angles,
                                                      const PhaseCorrelationOptions& options = {},
                                                      const ExecContext& ctx = {});
/// 0/180 phase correlation on one sinogram [angle][detector].
Result<CenterEstimate> estimateCenterPhaseCorrelation(View2<const float> sinogram,
                                                      std::span<const double> angles,
                                                      const PhaseCorrelationOptions& options = {},
                                                      const ExecContext& ctx = {});

/// Sharpness sweep on one sinogram [angle][detector] (unit detector pitch).
Result<CenterEstimate> estimateCenterSharpness(View2<const float> sinogram,
                                               std::span<const double> angles,
                                               const SharpnessSweepOptions& options = {},
                                               const ExecContext& ctx = {});

/// Parses "entropy" or "l1"; InvalidArgument otherwise.
Result<SharpnessMetric> parseSharpnessMetric(const std::string& name);

/// The uniqueness confidence of the minimum of @p metric over @p x (file comment); for a curve
/// to maximise pass the negated values.
double minimumConfidence(std::span<const double> x, std::span<const double> metric,
                         double exclusion = 2.0);

}  // namespace tomo
