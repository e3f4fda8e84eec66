#pragma once
/// @file CheckTolerance.h
/// @brief The pass criteria of the full-size CUDA self-check (docs/cuda.md, "Tolerances"): a
/// bound on |candidate - reference| per slice that follows from how each kernel family rounds,
/// and the verdict of one comparison. No CUDA types: tested on the CPU (tests/gpu).
///
/// Notation, per slice s of a problem with P projections (weights w_p, filtered rows p_j):
///   A_s = sum_p |w_p| max_j |p_j|            (bounds sum_p |w_p g_p(u)|, the absolute sum),
///   D_s = sum_p |w_p| max_j |p_{j+1} - p_j|  (bounds the change of the sum per bin of shift).
/// A sample g(u) read at a coordinate off by d bins (or with an interpolation weight off by d)
/// changes by at most d |p_{j+1} - p_j|; summed over projections, by at most d D_s.
///  - coordinate error: u = (a + iy cy) + ix cx in float, |a|, |u|, nx, ny <= U: two roundings
///    of <= 2^-24 U each and three rounded constants (<= 2^-24 U each): delta_u = 2^-22 U;
///  - texture filtering: the fractional weight is 8-bit fixed point (CUDA programming guide,
///    "Linear Filtering"): weight error <= 2^-9;
///  - binary16 storage: |p - half(p)| <= 2^-11 |p| + 2^-25 (subnormals): 2^-11 A_s + 2^-25 W;
///  - quarter-bin oversampling with nearest lookup: position error <= 1/8 bin;
///  - float accumulation over P projections: sigma A_s with sigma = kSummation.
/// Linear-interpolating families must satisfy max |err|_s <= bound_s at every checked pixel.
/// Nearest interpolation picks the other bin where u lies within delta_u of a half-integer, and
/// such a pick changes that term by up to |w_p| |p_{j+1} - p_j|: no useful per-pixel bound holds,
/// so nearest variants are held to statistics instead (relative L2 and the fraction of pixels
/// above the linear bound). Every kind besides has a cap on ||err||_2 / ||ref||_2 over the checked
/// pixels: kExactRelative (issue 11's 1e-5) for exact linear variants; for the others a sanity
/// cap, not derived, that catches what a worst-case bound lets through (one projection of 2048
/// missing moves a pixel by ~1/2048 of A_s, well inside (2^-9 + delta_u) D_s).

#include <string>
#include <vector>

#include "core/projectors/BackProjector.h"

namespace tomo::cuda {

/// Float accumulation allowance sigma (relative to A_s); see docs/cuda.md for the measurement.
inline constexpr double kSummation = 1e-5;
/// Exact ALU variants: ||err||_2 / ||ref||_2 over the checked pixels.
inline constexpr double kExactRelative = 1e-5;

/// How a variant rounds, from its metadata.
enum class ToleranceKind {
    ExactLinear,    ///< ALU linear: float coordinates and arithmetic
    TextureLinear,  ///< 8-bit texture weights (texture lin, hybrid, sampler oversampling)
    ExactNearest,   ///< nearest, float: statistics
    HalfLinear,     ///< binary16 cache, linear
    HalfNearest,    ///< binary16 texels, nearest: statistics
    Oversampling,   ///< quarter-bin samples, nearest lookup
};
ToleranceKind toleranceKind(const BackProjectorInfo& info);
const char* toleranceName(ToleranceKind kind);

/// Per-slice magnitudes of a filtered sinogram stack (see the file comment).
struct SliceMagnitudes {
    std::vector<double> absSum;     ///< A_s
    std::vector<double> diffSum;    ///< D_s
    std::vector<double> weightSum;  ///< W = sum_p |w_p| (same for every slice)
};
SliceMagnitudes sliceMagnitudes(const Sinograms& filtered, std::span<const float> weights);

/// delta_u = 2^-22 U for coordinates of magnitude <= U (U: the larger of detectors, nx, ny and
/// the largest |a_p|, rounded up to a power of two).
double coordinateError(double magnitude);

/// The bound on |candidate - reference| at any pixel of slice s (linear kinds; for nearest kinds
/// the linear bound the statistics are measured against).
double errorBound(ToleranceKind kind, double absSum, double diffSum, double weightSum,
                  double coordError);

/// The outcome of one comparison.
struct Verdict {
    bool pass = false;
    double maxAbs = 0;           ///< max |err| over the checked pixels
    double maxAbsOverBound = 0;  ///< max over slices of max |err|_s / bound_s
    double relL2 = 0;            ///< ||err||_2 / ||ref||_2
    double relMax = 0;           ///< max |err| / max |ref|
    double fractionAbove = 0;    ///< pixels with |err| > bound_s (nearest kinds)
    std::string reason;          ///< why it failed (empty when it passed)
};

/// Compares @p candidate (the full volume) with @p reference windows: reference[k] holds rows
/// [rowBegin[k], rowBegin[k] + rows) of every slice. @p bounds: per slice.
Verdict judge(ToleranceKind kind, const Volume& candidate, const std::vector<Volume>& reference,
              const std::vector<int>& rowBegin, const std::vector<double>& bounds);

}  // namespace tomo::cuda
