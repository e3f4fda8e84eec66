#pragma once
/// @file MbirModel.h
/// @brief The MBIR cost and its data (docs/algorithms.md, "MBIR"):
///     f(x) = 1 / (2 sigma_y^2) sum_i w_i (y_i - (A x)_i)^2 + sum_{j~k} b_jk rho(x_j - x_k),
///     x >= 0 (positivity, on by default),
/// with the q-GGMRF rho of Qggmrf.h and the weights w of MbirWeighting. sigma_y and sigma_x are
/// set automatically unless given, by svmbir's rules so that its users get the same defaults:
///  - sigma_y = 10^(-snr_db / 20) * sqrt(mean(w y^2)) * sqrt(voxel / pitch), the mean over the
///    sinogram's support (y > 0.05 mean |y|): the noise an SNR of snr_db dB implies;
///  - sigma_x = 0.2 * 2^sharpness * mean(y) / (channels * pitch), the mean over the support:
///    a fifth of a typical attenuation (mean line integral over the detector's width);
///  - noise adaptation (on by default, only for unweighted data with both sigmas automatic):
///    the data's noise sigma_hat, estimated from the sinogram's consistency
///    (estimateSinogramNoise, SinogramNoise.h), against the rule's sigma_y: where rho =
///    sigma_hat / sigma_y > 1 the data are noisier than snr_db assumes and sigma_x is scaled by
///    rho^-0.5 (sharpness lowered by 0.5 log2 rho), a stronger prior. Where rho < 1 and a pixel
///    meets at most one ray (r <= 1, below), sharper by min(1.5, -0.2 log2 rho), tapered to
///    nothing at r = sqrt 2: sharpening by rho at any r lost up to 2x (discs at 720 views,
///    noise-free Shepp-Logan), where the view adaptation now sets the prior. The exponents and
///    the cap are the studies' (docs/accuracy.md, "MBIR's noise adaptation" and "Sixth round,
///    sharpening"; scripts/study/mbir_adapt_study.py, mbir_sharpen_study.py).
///  - view adaptation (on by default, where the noise adaptation may act): where the data
///    overdetermine the image, r = views x image diagonal / (pixels x pitch) rays per pixel
///    above 1 (views above N / sqrt 2 for N^2 pixels of one pitch), sigma_x is scaled by
///    r^-kViewAdaptExponent, a stronger prior. With svmbir's sigma_y the data term's weight
///    grows with every view, but the data's misfit to any pixel model (detail finer than a
///    pixel, the detector's and pixel's profiles) neither shrinks nor stays independent from
///    view to view once the views sample the image densely, so the prior falls behind: with
///    svmbir's rules three of the defaults study's four 720-view cases were best at sharpness
///    -0.5..-1 against +1 at 60-180 views on most cases; the exponent is the study's minimax
///    (docs/accuracy.md, "MBIR's view adaptation", scripts/study/mbir_view_study.py).
/// Sinograms are held transposed as [view][channel][slice] (slices fastest, so that one voxel
/// line's update runs over all slices with the matrix entries read once), with `padding`
/// channels of weight 0 on either side so that every footprint fits.

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/mbir/MbirMatrix.h"
#include "core/mbir/Qggmrf.h"
#include "core/solvers/SinogramNoise.h"

namespace tomo {

enum class MbirWeighting {
    None,          ///< w = 1
    Transmission,  ///< w = exp(-y): the inverse variance of -log data up to a constant
    Counts,        ///< w = N0 exp(-y) with N0 the incident count: the inverse variance itself
};
Result<MbirWeighting> parseMbirWeighting(const std::string& name);  ///< none|transmission|counts

/// The exponent of the noise adaptation: sigma_x x rho^-kNoiseAdaptExponent where rho > 1.
inline constexpr double kNoiseAdaptExponent = 0.5;
/// The exponent of the view adaptation: sigma_x x r^-kViewAdaptExponent where r > 1.
inline constexpr double kViewAdaptExponent = 0.1875;
/// The sharpening where rho < 1 (at most one ray per pixel): sharpness + min(kSharpenCap,
/// -kSharpenExponent log2 rho).
inline constexpr double kSharpenExponent = 0.2;
inline constexpr double kSharpenCap = 1.5;

/// The model's settings; zero sigmas are derived from the data.
struct MbirModelOptions {
    QggmrfParams prior{.p = 2.0, .q = 1.2, .T = 1.0, .sigmaX = 0.0};  ///< sigmaX 0: automatic
    double sigmaY = 0;       ///< 0: automatic from snrDb (Counts: 1, the weights are exact)
    double snrDb = 30;       ///< target SNR of the data in dB for the automatic sigma_y
    double sharpness = 0;    ///< 0 neutral, > 0 sharper, < 0 smoother (sigma_x x 2^sharpness)
    bool noiseAdapt = true;  ///< the noise adaptation of sigma_x above
    bool viewAdapt = true;   ///< the view adaptation of sigma_x above
    MbirWeighting weighting = MbirWeighting::None;
    double incidentCount = 0;  ///< N0 for Counts (> 0)
    bool positivity = true;
};

/// The sigmas used and how they were derived (printed by the CLI, shown by the GUI).
struct MbirSigmas {
    double sigmaY = 0, sigmaX = 0;
    std::string sigmaYNote, sigmaXNote;
};

/// Error and weight sinograms of a slab of slices in the padded, transposed layout.
class MbirSinograms {
  public:
    /// y [slice][view][channel] (its views and channels those of @p g): e = y, w by weighting.
    static Result<MbirSinograms> create(const Sinograms& y, const MbirSliceGeometry& g,
                                        const MbirModelOptions& options);

    int views() const { return m_views; }
    int channels() const { return m_channels; }
    int padding() const { return m_pad; }
    int slices() const { return m_nz; }
    std::size_t rowLength() const { return std::size_t(m_channels + 2 * m_pad) * m_nz; }
    /// Index of (view, channel, slice); channel in [-padding, channels + padding).
    std::size_t index(int v, int c, int z) const {
        return std::size_t(v) * rowLength() + std::size_t(c + m_pad) * m_nz + std::size_t(z);
    }
    std::vector<float>& error() { return m_e; }
    const std::vector<float>& error() const { return m_e; }
    const std::vector<float>& weight() const { return m_w; }

    /// The automatic (or given) sigmas for these data.
    /// @p layout: how the views lie, for the noise estimate of the adaptation (SinogramNoise.h).
    MbirSigmas sigmas(const MbirModelOptions& options, const MbirSliceGeometry& g, double voxelSize,
                      double pitch, const SinogramLayout& layout) const;
    /// sum w e^2 over the detector (the weighted data misfit without 1/(2 sigma_y^2)) and
    /// sum e^2 (for ||y - A x||).
    void misfit(double& weighted, double& plain) const;

  private:
    /// The factor on sigma_x of the noise adaptation (1 where it does not apply), its reason
    /// appended to @p note.
    double noiseAdaptation(const MbirModelOptions& options, double sigmaY, double rays,
                           const SinogramLayout& layout, std::ostringstream& note) const;
    /// The factor on sigma_x of the view adaptation (1 where it does not apply), its reason
    /// appended to @p note.
    double viewAdaptation(const MbirModelOptions& options, double rays,
                          std::ostringstream& note) const;
    /// Rays per pixel: views x image diagonal / (pixels x pitch) (0 without a voxel or pitch).
    double raysPerPixel(const MbirSliceGeometry& g, double voxelSize, double pitch) const;

    int m_views = 0, m_channels = 0, m_pad = 0, m_nz = 0;
    std::vector<float> m_e, m_w, m_y;  // m_y: the data, kept for the sigmas
};

/// sum over neighbour pairs of b_jk rho(x_j - x_k) for x stored as [iy][ix][slice] (parallel
/// over rows, the same bits for any thread count).
double mbirPriorCost(const std::vector<float>& x, int nx, int ny, int nz, const Qggmrf& prior,
                     const ExecContext& ctx);

/// e -= A x for x stored as [iy][ix][slice] (parallel over views; Cancelled on ctx.stop).
Status mbirSubtractProjection(const MbirSliceGeometry& g, const MbirMatrix& a,
                              const std::vector<float>& x, MbirSinograms& s,
                              const ExecContext& ctx);

}  // namespace tomo
