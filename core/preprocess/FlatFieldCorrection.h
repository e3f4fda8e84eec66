#pragma once
/// @file FlatFieldCorrection.h
/// @brief Flat/dark normalisation of projections and the minus-log conversion to line
/// integrals, with interpolation between flat fields taken at different times of the scan.
///
/// Transmission of projection p at pixel (r, c):
///   T = (P - D) / (F_p - D)
/// with D the average of the dark frames (zero when there are none) and F_p the flat field of
/// projection p. Flats are grouped into references (see groupFlats): a block of flat frames
/// acquired together (no projection between them) is averaged into one reference with the mean
/// position of its frames. F_p is the linear interpolation between the two references whose
/// positions bracket the position of projection p, or the nearest reference outside them. With
/// one group (or no positions given) every projection uses the average of all flats. Positions
/// are any monotonic acquisition coordinate: frame indices in acquisition order, or times.
///
/// Line integrals: minusLog replaces T by -ln(max(T, epsilon)); values at or below epsilon
/// (dead pixels, T <= 0 from noise) and non-finite ones are clamped to epsilon and counted.
///
/// Errors (nothing is changed when an error is returned, except Cancelled, which leaves the
/// projections partly corrected): InvalidArgument for shapes that do not match (naming both
/// shapes), position lists of the wrong length, options out of range; InvalidData when there are
/// no flats, when a flat reference is zero (or not above the dark) at every pixel, or when an
/// input value is NaN or infinite. Denominators F_p - D at or below `minDenominator` (dead or
/// saturated-dark pixels) are clamped to it and counted in the summary, not an error.
///
/// Threading: parallelFor over projections with ctx.threads workers; results do not depend on
/// the thread count. ctx.stop is checked per projection; ctx.progress gets one unit per
/// projection (setTotal is called here).

#include <cstddef>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

struct FlatFieldOptions {
    /// Position of each projection (acquisition index or time); empty = 0, 1, ..., P-1.
    std::vector<double> projectionPositions;
    /// Position of each flat frame; empty = all flats form one reference (no interpolation).
    std::vector<double> flatPositions;
    /// Smallest accepted denominator F - D in counts; smaller ones are clamped and counted.
    float minDenominator = 1e-3f;
    Status validate() const;
};

/// What the correction did, for logs and provenance.
struct FlatFieldSummary {
    std::size_t flatReferences = 0;        ///< groups of flats averaged into references
    std::size_t clampedDenominators = 0;   ///< pixel-projections with F_p - D <= minDenominator
    bool interpolated = false;             ///< true when projections used two references
};

struct MinusLogSummary {
    std::size_t clampedValues = 0;  ///< values <= epsilon or not finite, replaced by epsilon
};

/// Mean of frames [0, frames.dim(0)) in double precision: a 1 x rows x columns array.
/// InvalidArgument for an empty stack.
Result<Array3<float>> averageFrames(const Array3<float>& frames);

/// A flat reference: the mean of a group of flat frames and the group's mean position.
struct FlatReference {
    Array3<float> image;  ///< 1 x rows x columns
    double position = 0;
};

/// Groups @p flats by position: frames are sorted by position and two consecutive frames belong
/// to the same group when no projection position lies strictly between them. Empty
/// @p flatPositions: one group of all frames at position 0. InvalidArgument when the lists have
/// the wrong length or a position is not finite; InvalidData when there are no flats.
Result<std::vector<FlatReference>> groupFlats(const Array3<float>& flats,
                                              const std::vector<double>& flatPositions,
                                              const std::vector<double>& projectionPositions);

/// Replaces @p projections ([angle][row][column], raw counts) by the transmission T (file
/// comment). @p darks may be empty (D = 0). Returns the summary or the first error.
Result<FlatFieldSummary> correctFlatField(Array3<float>& projections, const Array3<float>& flats,
                                          const Array3<float>& darks,
                                          const FlatFieldOptions& options,
                                          const ExecContext& ctx = {});

/// Replaces every value v of @p data by -ln(max(v, epsilon)) (NaN/Inf count as <= epsilon).
/// InvalidArgument unless epsilon is positive and finite. ctx as above (one unit per plane).
Result<MinusLogSummary> minusLog(Array3<float>& data, float epsilon = 1e-6f,
                                 const ExecContext& ctx = {});

}  // namespace tomo
