#pragma once
/// @file StripeRemoval.h
/// @brief Ring-artifact removal on sinograms: stripes (detector pixels with a response that
/// differs from their neighbours) become rings in the reconstruction. Two methods:
///
/// **Sorting-based** (N. T. Vo, R. C. Atwood, M. Drakopoulos, "Superior techniques for
/// eliminating ring artifacts in X-ray micro-tomography", Opt. Express 26(22), 28396, 2018,
/// doi:10.1364/OE.26.028396, algorithm 3, `remove_stripe_based_sorting`): each detector column
/// is sorted along the angle axis; in the sorted image a stripe is a column offset from its
/// neighbours while the object's intensity profile varies smoothly along the detector, so a
/// median filter of `size` pixels along the detector (symmetric extension at the edges, as
/// scipy's "reflect") removes it; the filtered values are put back at their original angles.
/// Handles full and partial stripes with little damage; the window must be wider than the
/// widest stripe (default 21 pixels, the authors' default).
///
/// **Fourier-wavelet** (B. Münch, P. Trtik, F. Marone, M. Stampanoni, "Stripe and ring artifact
/// removal with combined wavelet - Fourier filtering", Opt. Express 17(10), 8567, 2009,
/// doi:10.1364/OE.17.008567): a `levels`-level 2-D discrete wavelet transform (db5 by
/// default, DaubechiesWavelet.h); in each level's vertical detail band (high-pass along the
/// detector, low-pass along the angle) a stripe is constant along the angle, so each detector
/// column of the band is Fourier transformed along the angle and multiplied by
///   1 - exp(-m^2 / (2 sigma^2)),  m = signed frequency index along the angle,
/// which removes its mean (m = 0) and damps slow variations; then the inverse transforms.
/// Deviations from the paper and from TomoPy's `remove_stripe_fw`: the DWT is periodic
/// (periodisation), on a sinogram padded on all four sides by a mirrored margin of at least an
/// eighth of its size and to a multiple of 2^levels (TomoPy zero-pads the angle axis by an
/// eighth and uses symmetric-extension DWTs); mirroring keeps stripes constant along the padded
/// angle axis so they are removed up to the ends. Like every method that damps the angular mean,
/// it also damps the object's sinogram content that varies slowly with angle: a structure at r
/// pixels from the axis moves by about r / 2^l coefficients at level l, so structures within
/// ~2^l sigma pixels of the axis lose detail at that level. Hence the automatic level count
/// grows with the sinogram (3 levels for 128 pixels, 7 for 2048).
///
/// **Only detected stripes** (the default, `snr` > 0; issue 28): as published, both methods
/// change every column, and so harm a scan without rings (docs/preprocessing.md, "Ring removal
/// defaults"). By default detectStripes (StripeDetection.h) finds the stripe columns first, and
/// only those change: sorting replaces each by the linear interpolation of its nearest undetected
/// neighbours in the angle-sorted image (instead of the median); Fourier-wavelet filters only the
/// difference between those columns and that interpolation. A sinogram without detected stripes
/// is left exactly as it was. `snr` 0 gives the methods as published. Measured on a 180 x 128
/// sinogram of random ellipses with 5% stripes (tests): sorting leaves 2% of the stripe and
/// changes the rest by 0.1% RMS of the peak, Fourier-wavelet 10% and 0.09% (as published: 6% and
/// 0.8% with a 5-pixel window, 18% and 2.5%).
///
/// Sinograms are [angle][detector] views: for projections stored [angle][row][column] the
/// sinogram of row r is `View2(data + r * pitch, angles, columns, rows * pitch)` (see
/// sinogramOfRow). Values are line integrals (after minus-log) or transmissions.
///
/// Threading: the single-sinogram functions are single-threaded; the stack functions run
/// sinograms in parallel over ctx.threads workers (results independent of the thread count),
/// check ctx.stop per sinogram and advance ctx.progress by one unit per sinogram (setTotal
/// called here). InvalidArgument for bad options or a sinogram smaller than the method needs,
/// InvalidData when a value is NaN or infinite.

#include <string>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Default of both methods' `snr`: columns whose shift stands this many robust standard
/// deviations above the others' are stripes (StripeDetection.h).
inline constexpr double kDefaultStripeSnr = 3.0;

struct SortingStripeOptions {
    /// Median window along the detector in pixels: odd, >= 3; 0 = automatic, windowFor().
    int size = 0;
    /// Only the columns detectStripes finds at this threshold change (and one either side);
    /// 0 = every column (the method as published).
    double snr = kDefaultStripeSnr;
    Status validate() const;
    /// The window used on @p detectors columns: size, or when automatic the odd number nearest
    /// above 1 % of the width and at least 5 (TomoPy's remove_stripe_based_sorting default).
    /// Wide windows on narrow scans smear real edges into streaks; 5 px removes single-pixel
    /// gain errors.
    int windowFor(std::size_t detectors) const;
};

struct FourierWaveletOptions {
    int levels = 0;  ///< wavelet levels; 0 = automatic: clamp(floor(log2(min side)) - 4, 1, 8)
    double sigma = 2.0;       ///< damping width in frequency indices along the angle, > 0
    std::string wavelet = "db5";  ///< "db5" or "haar"
    /// As SortingStripeOptions::snr: only detected stripe columns change; 0 = every column.
    double snr = kDefaultStripeSnr;
    Status validate() const;
};

/// Removes stripes from one sinogram [angle][detector] in place (sorting-based).
Status removeStripesSorting(View2<float> sinogram, const SortingStripeOptions& options);
/// Removes stripes from one sinogram [angle][detector] in place (Fourier-wavelet).
Status removeStripesFourierWavelet(View2<float> sinogram, const FourierWaveletOptions& options);

/// The sinogram of detector row @p row of projections [angle][row][column] (a strided view).
View2<float> sinogramOfRow(Array3<float>& projections, std::size_t row);

/// Applies the sorting-based method to every detector row of @p projections
/// ([angle][row][column]).
Status removeStripesSorting(Array3<float>& projections, const SortingStripeOptions& options,
                            const ExecContext& ctx = {});
/// Applies the Fourier-wavelet method to every detector row of @p projections.
Status removeStripesFourierWavelet(Array3<float>& projections, const FourierWaveletOptions& options,
                                   const ExecContext& ctx = {});

}  // namespace tomo
