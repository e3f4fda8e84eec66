#pragma once
/// @file FourierPlan.h
/// @brief Everything of a Fourier-domain reconstruction (gridrec) that is not a kernel, shared by
/// the CPU (Gridrec.h) and the CUDA implementation (gpu/cuda/fourier): the sizes, the gridding
/// kernel, the filter, each view's sample positions, phase and weight, and the deapodisation.
///
/// What is computed (docs/algorithms.md, "Gridrec"). FBP sums w_p q_p(x cos t_p + y sin t_p) over
/// views p, q_p the ramp-filtered row (RampFilter.h: the same filters, windows, cutoff and
/// scaling). Gridrec evaluates the same sum with q_p's trigonometric interpolant over FBP's
/// padded row length L (RampFilter::paddedWidth(): the smallest power of two >= 2 detectors),
///   f(x, y) = sum_p w_p sum_{|k| <= L/2} R[|k|] I(k / L) P_p[k] exp(2 pi i k (c_p + t / d) / L),
/// P_p the DFT of the zero-padded row p, R the ramp filter's response (its 1/L included), I the
/// response of FBP's interpolation (GridrecInterpolation: by default its linear interpolation,
/// so the sum is FBP's), c_p the axis of view p in pixels from pixel 0, d the pitch, and the two
/// Nyquist terms halved. By
/// the Fourier slice theorem this is a sum of plane waves at the polar points
/// (k cos t_p, k sin t_p) / (L d): the samples are spread with GriddingKernel onto an
/// oversampled Cartesian grid of Mx x My points (spacing 1 / (M voxel) in frequency), the grid is
/// inverse transformed and the nx x ny image in its centre is divided by the kernel's transform.
///
/// Grid coordinates: sample (p, k) lies at (Mx / 2 + k ux_p, My / 2 + k uy_p) in grid points,
///   ux_p = cos t_p v Mx / (L d),  uy_p = -sin t_p v My / (L d)   (v the voxel size; the image's
/// rows run down, hence the sign), positions taken modulo M (beyond the image's Nyquist a sample
/// aliases as it does when direct FBP samples the image on its pixels). Its value is
///   w_p R[|k|] P_p[k] exp(i k phase_p),  phase_p = 2 pi (c_p + (x0 cos t_p + y0 sin t_p) / d) / L,
/// (x0, y0) the world position of the pixel (floor(nx / 2), floor(ny / 2)). Output pixel
/// (ix, iy) is element (jy mod My, jx mod Mx) of the inverse transform of the grid (exp(+i),
/// unnormalised), jx = ix - floor(nx / 2), jy = iy - floor(ny / 2), times
/// deapodisation(ix, iy) = (-1)^(jx + jy) / (phihat(jx / Mx) phihat(jy / My)) (the sign moves the
/// grid's centre, Mx / 2, to index 0).
///
/// Two slices per complex transform (as TomoPy's gridrec): rows a + i b of slices a and b give
/// P = A + i B; sampled on whole lines (k = -L/2..L/2) the image is a + i b. One slice alone
/// (the last of an odd count, or a one-slice preview) packs two of its views per row transform,
/// separates their spectra by Hermitian symmetry and samples half lines (k = 0..L/2, the inner
/// terms doubled): the image is the real part. Both cost the same per slice.
///
/// Sizes: Mx, My are fast FFT lengths (FftSizeRule) of at least oversampling x nx, ny, and the
/// kernel is designed for the oversampling they give, min(Mx / nx, My / ny). The
/// oversampling and kernel width are chosen per tolerance unless given: for each candidate
/// oversampling (1.25, 1.5, 2, 3) the least width whose predicted error meets the tolerance, and
/// of those the cheapest by the backend's cost model (the most accurate when none meets it).
/// Threading: immutable after create().

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/Status.h"
#include "core/filter/RampFilter.h"
#include "core/fourier/GriddingKernel.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// Storage of sinograms and images on a GPU (the CPU computes in float32 either way).
enum class GridrecPrecision {
    Float32,
    Half,  ///< binary16 over the bus and in device memory, float32 arithmetic
};
/// "float32" | "half"; InvalidArgument otherwise.
Result<GridrecPrecision> parseGridrecPrecision(std::string_view name);
const char* gridrecPrecisionName(GridrecPrecision p);

/// How the filtered rows are read between their samples, as a frequency response (FourierPlan.h):
/// Linear is direct FBP's linear interpolation (sinc^2 of the frequency in cycles per detector
/// sample: its low-pass, so gridrec gives FBP's image at every noise level), Nearest FBP's
/// nearest-bin lookup (sinc), Trigonometric none (exact band-limited interpolation: sharper, and
/// noisier with the ramp filter; TomoPy's gridrec).
enum class GridrecInterpolation { Linear, Nearest, Trigonometric };
/// "linear" | "nearest" | "trigonometric"; InvalidArgument otherwise.
Result<GridrecInterpolation> parseGridrecInterpolation(std::string_view name);
/// The response of @p interpolation at @p f cycles per detector sample (|f| <= 1/2).
double interpolationResponse(GridrecInterpolation interpolation, double f);

/// The options of a gridrec reconstruction.
struct GridrecOptions {
    FilterOptions filter;  ///< the FBP filter (window, cutoff)
    GridrecInterpolation interpolation = GridrecInterpolation::Linear;
    double tolerance = 1e-3;  ///< predicted error the gridding may add (GriddingKernel.h)
    double oversampling = 0;  ///< grid / image size in [1.1, 4]; 0: chosen with the width
    int kernelWidth = 0;      ///< grid points in [2, 16]; 0: chosen
    GridrecPrecision precision = GridrecPrecision::Float32;
    Status validate() const;
};

/// Which lengths the backend transforms fast: powers of two (the built-in radix-2 FFT) or even
/// products of 2, 3 and 5 (FFTW, cuFFT).
enum class FftSizeRule { PowerOfTwo, Smooth };

/// A backend's cost per slice, for choosing the gridding parameters and for selection: seconds
/// per sample spread, per kernel row of a sample (W rows; two vectors each past W = 8), per
/// kernel tap (W^2: a gather's cost), and per point-log2 of the grid's and the rows' transforms.
struct FourierCostModel {
    double secondsPerSample = 0;
    double secondsPerRow = 0;
    double secondsPerTap = 0;
    double secondsPerFftPoint = 0;
    double rowSecondsPerPoint = 0;  ///< per point-log2 of the row spectra
};

/// Oversampling and width of a plan and the error they predict.
struct GriddingChoice {
    int width = 0;
    double oversampling = 0;
    double predictedError = 0;  ///< GriddingKernel::predictedError() (relative)
};

class FourierPlan {
  public:
    /// Per view: grid points per k, the phase per k (radians) and the angular weight.
    struct View {
        double ux = 0, uy = 0;
        double phase = 0;
        float weight = 0;
    };

    /// Errors: InvalidArgument (options, grid, geometry; a grid too small for the kernel),
    /// OutOfMemory.
    static Result<FourierPlan> create(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                      const GridrecOptions& options, FftSizeRule rule,
                                      const FourierCostModel& cost = {});

    int detectors() const { return m_detectors; }
    int rowLength() const { return m_rowLength; }  ///< L
    int gridX() const { return m_gridX; }          ///< Mx
    int gridY() const { return m_gridY; }          ///< My
    int nx() const { return m_nx; }
    int ny() const { return m_ny; }
    const GriddingKernel& kernel() const { return m_kernel; }
    GriddingChoice choice() const;
    /// The ramp filter's response for bins 0..L/2 (RampFilter::response()) times the
    /// interpolation's (interpolationResponse()).
    std::span<const float> response() const { return m_response; }
    std::span<const View> views() const { return m_views; }
    /// Per output column ix and row iy: (-1)^j / phihat(j / M) (file comment).
    std::span<const float> deapodisationX() const { return m_deapodX; }
    std::span<const float> deapodisationY() const { return m_deapodY; }
    /// The grid column / row holding output column ix / row iy: (ix - floor(nx / 2)) mod Mx.
    int gridColumn(int ix) const;
    int gridRow(int iy) const;
    /// Predicted seconds for @p slices slices with @p cost.
    double predictedSeconds(const FourierCostModel& cost, int slices) const;
    /// "kernel width 6, oversampling 1.25 (2560x2560 grid), rows of 4096, predicted gridding
    /// error 9.3e-04".
    std::string describe() const;

  private:
    FourierPlan() = default;
    int m_detectors = 0, m_rowLength = 0, m_gridX = 0, m_gridY = 0, m_nx = 0, m_ny = 0;
    GriddingKernel m_kernel;
    std::vector<float> m_response;
    std::vector<View> m_views;
    std::vector<float> m_deapodX, m_deapodY;
};

/// The gridding parameters of @p options for an nx x ny image from @p views views of rows of
/// length @p rowLength (given ones kept; the others chosen per the file comment).
Result<GriddingChoice> chooseGridding(const GridrecOptions& options, int nx, int ny, int views,
                                      int rowLength, FftSizeRule rule,
                                      const FourierCostModel& cost);

}  // namespace tomo
