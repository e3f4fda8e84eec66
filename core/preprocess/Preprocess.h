#pragma once
/// @file Preprocess.h
/// @brief The preprocessing pipeline on a ProjectionData: the one call `tomo preprocess` and
/// `tomo recon` make. Each step is optional and documented in its own header.
///
/// Order of the steps (fixed; each acts on projections, and the geometric ones also on flats
/// and darks so that they keep matching):
///   1. angle selection   (BinningCropping.h: angleRange, angleStep)
///   2. cropping           (cropRows, cropColumns)
///   3. binning            (binRows x binColumns block means)
///   4. zinger removal     (OutlierRemoval.h, on the projections; on raw counts use a relative
///                          threshold)
///   5. flat/dark          (FlatFieldCorrection.h) -> transmission
///   6. Paganin            (PhaseRetrieval.h) on the transmission
///   7. minus-log          (FlatFieldCorrection.h) -> line integrals
///   8. ring removal       (StripeRemoval.h) on the sinogram of every detector row
/// Steps 1-3 come first so that the costly steps run on the reduced data. Paganin needs a
/// normalised transmission: with `paganin` set, `flatDark` must be set or the data must already
/// be flat-field corrected (the caller's responsibility; not checked). The centre of rotation of
/// the output, for a centre C of the input: centerAfter(C).
///
/// Flat interpolation: FlatFieldOptions::projectionPositions, when given, has one entry per
/// projection of the input (before angle selection); empty means the input indices 0..P-1, so
/// that positions stay acquisition indices after angle selection.
///
/// Provenance: on success data.metadata["preprocessing"] is set to describe(options), a one-line
/// summary of the steps and parameters, which writers store with the output.
///
/// Errors: the first failing step's Status, prefixed with the step ("flat/dark: ..."); data may
/// then be partly processed (callers discard it). Threading: every step runs in parallel over
/// ctx.threads; ctx.stop is honoured within one frame or sinogram; ctx.progress gets one child
/// scope per enabled step.

#include <cstddef>
#include <optional>
#include <string>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/dataset/ProjectionData.h"
#include "core/preprocess/FlatFieldCorrection.h"
#include "core/preprocess/OutlierRemoval.h"
#include "core/preprocess/PhaseRetrieval.h"
#include "core/preprocess/StripeRemoval.h"

namespace tomo {

enum class RingMethod { None, Sorting, FourierWavelet };
/// "none", "vo" (or "sorting"), "fw" (or "fourier-wavelet"); InvalidArgument otherwise.
Result<RingMethod> parseRingMethod(const std::string& name);
const char* ringMethodName(RingMethod m);

struct PreprocessOptions {
    IndexRange angleRange = IndexRange::all();  ///< projections kept (before the step)
    std::size_t angleStep = 1;                  ///< keep every angleStep-th projection of the range
    IndexRange cropRows = IndexRange::all();
    IndexRange cropColumns = IndexRange::all();
    int binRows = 1;     ///< >= 1
    int binColumns = 1;  ///< >= 1
    std::optional<ZingerOptions> zingers;
    bool flatDark = false;
    FlatFieldOptions flatField;
    /// The first flatsBefore flat frames were taken before the scan, the rest after: the two
    /// groups are averaged separately and interpolated over the projections. Used when
    /// flatField.flatPositions is empty; more than the input's flats is an InvalidArgument.
    std::optional<std::size_t> flatsBefore;
    std::optional<PaganinOptions> paganin;
    bool minusLog = false;
    float logEpsilon = 1e-6f;  ///< transmissions at or below it are clamped (and counted)
    RingMethod rings = RingMethod::None;
    SortingStripeOptions sorting;
    FourierWaveletOptions fourierWavelet;

    Status validate() const;
    /// True when no step is enabled.
    bool empty() const;
    /// Centre of rotation of the output for a centre @p center of the input (pixels from the
    /// centre of pixel 0): cropping then binning of the columns.
    double centerAfter(double center) const;
};

/// What the pipeline did (counts from the steps that ran).
struct PreprocessSummary {
    FlatFieldSummary flatField;
    ZingerSummary zingers;
    MinusLogSummary minusLog;
};

/// One line describing the enabled steps and their parameters ("none" when empty).
std::string describe(const PreprocessOptions& options);

/// Runs the enabled steps on @p data in place (see the file comment). @p summary may be null.
Status preprocess(ProjectionData& data, const PreprocessOptions& options, const ExecContext& ctx,
                  PreprocessSummary* summary = nullptr);

}  // namespace tomo
