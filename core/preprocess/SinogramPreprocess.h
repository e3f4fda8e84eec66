#pragma once
/// @file SinogramPreprocess.h
/// @brief The preprocessing pipeline (Preprocess.h) on a sinogram stack [slice][angle][detector]
/// of line integrals: the same steps on the same code, the stack seen as projections.
///
/// Sinogram stacks (TIFF, raw, the ITK formats, the demo's dataset folder) hold line integrals
/// that were normalised and logged when they were made, so only the steps that act on line
/// integrals apply: angle selection, cropping (rows = slices, columns = detectors), binning,
/// zinger removal (dark outliers, the same threshold
/// as on raw counts, checked against the local noise: sinogramZingers, OutlierRemoval.h) and ring
/// removal (as TomoPy's remove_stripe_*; it acts on the sinogram of every slice). Flat/dark,
/// Paganin and minus-log need projections with flats (an acquisition): asking for them is an
/// InvalidArgument that says why (checkSinogramSteps).
///
/// One path: the stack is transposed to [angle][slice][detector] (toSinograms, a swap of the
/// first two axes), run through preprocess() and transposed back, so a sinogram stack and an
/// acquisition with the same line integrals give the same bits for every step.
///
/// Errors: as preprocess(), plus InvalidArgument for the steps above and for angles that do not
/// match the stack. Threading and cancellation as preprocess().

#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/preprocess/Preprocess.h"

namespace tomo {

/// Zinger removal as it suits line integrals (OutlierRemoval.h): a zinger (a bright pixel of
/// the raw intensity) is a dark pixel of -log(I/I0), so a pixel is replaced by its size x size
/// median when it lies below it by more than log(1 + @p threshold) (the line integral of an
/// intensity @p threshold times above its neighbours', as the relative threshold on raw counts)
/// and by more than kSpreadFactor robust local spreads (so that edges and noise are kept).
ZingerOptions sinogramZingers(double threshold, int size);

/// @p options as they apply to a sinogram stack: a zinger removal asked with a threshold and a
/// window (`--zinger T`, the GUI's box) becomes sinogramZingers(T, size). The other steps are
/// kept as asked (checkSinogramSteps says which do not apply).
PreprocessOptions forSinograms(PreprocessOptions options);

/// Ok when every enabled step of @p options applies to a sinogram stack; else InvalidArgument
/// naming the first step that does not and why.
Status checkSinogramSteps(const PreprocessOptions& options);

/// True when @p options selects angles (a range or a step).
bool selectsAngles(const PreprocessOptions& options);

/// True when @p options keeps the shape of the data (no angle selection, crop or binning).
bool keepsShape(const PreprocessOptions& options);

/// Runs the enabled steps on @p stack ([slice][angle][detector], replaced by the result).
/// @p angles: one per angle of the stack, or empty (then angle selection keeps none); replaced
/// by the angles kept. @p summary (may be null) gets the counts of the steps that ran.
Status preprocessSinograms(Sinograms& stack, std::vector<double>& angles,
                           const PreprocessOptions& options, const ExecContext& ctx,
                           PreprocessSummary* summary = nullptr);

}  // namespace tomo
