#pragma once
/// @file PhaseRetrieval.h
/// @brief Paganin single-distance phase retrieval for propagation-based phase contrast
/// (D. Paganin, S. C. Mayo, T. E. Gureyev, P. R. Miller, S. W. Wilkins, "Simultaneous phase and
/// amplitude extraction from a single defocused image of a homogeneous object", J. Microsc.
/// 206(1), 33-40, 2002, doi:10.1046/j.1365-2818.2002.01010.x, eq. 8).
///
/// For a homogeneous object (a single material with refractive index decrement delta and
/// absorption index beta) imaged at propagation distance z, the normalised intensity I/I0
/// (flat-field corrected transmission) is low-pass filtered:
///   I_f = IFFT2[ FFT2(I/I0) / (1 + pi lambda z (delta/beta) |f|^2) ]
/// with f the spatial frequency in cycles per unit length (|f|^2 = fx^2 + fy^2) and lambda the
/// wavelength. This is Paganin's eq. 8, whose denominator mu + z delta |k|^2 with k = 2 pi f and
/// mu = 4 pi beta / lambda reduces to the form above. The projected thickness is then
/// T = -ln(I_f) / mu, so running minusLog (FlatFieldCorrection.h) on the result gives mu T, the
/// line integral of the attenuation coefficient, ready for reconstruction. This function
/// returns I_f (it does not take the logarithm).
///
/// Units: energy in keV (lambda = h c / E = 1.23984198 nm keV / E), distance in millimetres,
/// pixel size in micrometres; the filter uses lambda z / pixel^2 in the dimensionless form
///   1 + pi (lambda z / p^2) (delta/beta) (u^2 + v^2),   u, v in cycles per pixel.
///
/// Padding: each frame is extended to N_r x N_c, the smallest powers of two >= 2 x its rows
/// and columns, by mirroring it (half-sample symmetric) around its edges and centring it, so the
/// FFT's periodic wrap-around joins mirrored copies instead of the opposite edges (the low-pass
/// kernel is long: sqrt(lambda z delta/beta) can span tens of pixels). For a frame whose sides
/// are powers of two the padded frame is exactly its even periodic extension, so a cosine
/// cos(pi m (j + 0.5) / n) is an eigenfunction with the eigenvalue of the formula (the tests
/// pin this). FFTs are the radix-2 FFT of core/filter in single precision; memory: one
/// N_r x N_c complex float buffer per worker (128 MiB for 2048 x 2048 frames).
///
/// Threading: parallelFor over frames with ctx.threads workers; results independent of the
/// thread count; ctx.stop checked per frame; ctx.progress one unit per frame (setTotal here).

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

struct PaganinOptions {
    double energyKeV = 0;      ///< photon energy, keV (> 0)
    double distanceMm = 0;     ///< sample-to-detector propagation distance, mm (>= 0)
    double pixelSizeUm = 0;    ///< effective detector pixel size, micrometres (> 0)
    double deltaOverBeta = 0;  ///< delta / beta of the material (>= 0; 0 leaves data unchanged)
    Status validate() const;
    /// The dimensionless filter constant a = pi lambda z (delta/beta) / p^2 (per cycle/pixel^2).
    double filterConstant() const;
    /// The filter's value at spatial frequency (u, v) in cycles per pixel: 1 / (1 + a (u^2+v^2)).
    double response(double u, double v) const;
};

/// Photon wavelength in metres for an energy in keV.
double wavelengthMeters(double energyKeV);

/// Filters every frame of @p frames ([angle][row][column], normalised transmission) in place.
/// InvalidArgument for bad options or empty frames, InvalidData for NaN/Inf values (nothing
/// changed), OutOfMemory when the padded buffers cannot be allocated, Cancelled.
Status retrievePhasePaganin(Array3<float>& frames, const PaganinOptions& options,
                            const ExecContext& ctx = {});

}  // namespace tomo
