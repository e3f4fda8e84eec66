#pragma once
/// @file GriddingKernel.h
/// @brief The Kaiser-Bessel gridding kernel of the Fourier-domain reconstruction (gridrec): its
/// values, its analytic Fourier transform (the deapodisation), the aliasing error it leaves for
/// an oversampling ratio, and the piecewise polynomials the CPU and GPU kernels evaluate.
///
/// Kernel (Jackson et al., IEEE Trans. Med. Imaging 10(3), 1991, doi:10.1109/42.97598;
/// Beatty, Nishimura & Pauly, IEEE Trans. Med. Imaging 24(6), 2005,
/// doi:10.1109/TMI.2005.848376), width W grid points, normalised to phi(0) = 1:
///   phi(u) = I0(beta sqrt(1 - (2u/W)^2)) / I0(beta) for |u| <= W/2, 0 outside,
///   beta = pi sqrt((W/s)^2 (s - 1/2)^2 - 0.8) (Beatty's choice for oversampling s),
/// a close approximation of the prolate spheroidal wave function gridrec used (Dowd et al.,
/// Proc. SPIE 3772, 1999, doi:10.1117/12.363725), with a closed-form transform:
///   phihat(f) = integral phi(u) exp(-2 pi i f u) du
///             = W sinh(sqrt(beta^2 - (pi W f)^2)) / (sqrt(beta^2 - (pi W f)^2) I0(beta))
/// (sin for pi W |f| > beta). Spreading a sample at grid position g and transforming the grid
/// gives exp(2 pi i g j / M) phihat(j / M) plus aliases phihat(j / M - n), n != 0; dividing by
/// phihat(j / M) (deapodisation) leaves the relative error aliasingError(): the root of the sum
/// of the aliases' squares over phihat, worst over the image band |j / M| <= 1 / (2 s).
///
/// Evaluation: a sample at grid position g touches the W points i0 + i, i = 0..W-1, with
/// i0 = floor(g - W/2) + 1; with t = i0 - g + W/2 in (0, 1] and z = 2t - 1 in (-1, 1], the weight
/// of point i0 + i is phi(t + i - W/2), approximated by a polynomial of degree D in z:
///   w_i = sum_d c[d][i] z^d (Horner from d = D), coefficients in float, c[d][i] at d * W + i.
/// D is the least degree whose float polynomials stay within polynomialError() <=
/// max(aliasingError() / 10, 3e-7) of phi (checked on a fine grid).
///
/// Float rounding: the transforms round at ~1e-7 of the image's largest values and the
/// deapodisation multiplies that by up to (phihat(0) / phihat(1 / (2 s)))^2 in the image's
/// corners, which grows with beta: roundingError() = 3e-7 times that factor (the constant
/// measured in tests/core/fourier, GriddingKernelTest). Wider kernels at low oversampling
/// therefore stop paying off; predictedError() is the sum of the three terms.
/// Threading: immutable after create().

#include <span>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

/// Modified Bessel function of the first kind of order 0 (power series, double precision).
double besselI0(double x);

class GriddingKernel {
  public:
    static constexpr int kMinWidth = 2;
    static constexpr int kMaxWidth = 16;
    static constexpr int kMaxDegree = 15;
    static constexpr double kMinOversampling = 1.1;
    static constexpr double kMaxOversampling = 4.0;

    /// An empty kernel (width 0); use create().
    GriddingKernel() = default;
    /// InvalidArgument unless 2 <= width <= 16 and 1.1 <= oversampling <= 4.
    static Result<GriddingKernel> create(int width, double oversampling);

    int width() const { return m_width; }
    double oversampling() const { return m_oversampling; }
    double beta() const { return m_beta; }
    /// phi(u) in double (0 outside [-W/2, W/2]).
    double value(double u) const;
    /// The analytic transform phihat(f) (see the file comment).
    double transform(double f) const;
    /// Predicted relative error of the deapodised grid over the image band (file comment).
    double aliasingError() const { return m_aliasing; }
    /// Float rounding amplified by the deapodisation (file comment).
    double roundingError() const;
    /// aliasingError() + polynomialError() + roundingError().
    double predictedError() const;

    int degree() const { return m_degree; }
    /// (degree() + 1) x width() float coefficients, c[d][i] at d * width() + i.
    std::span<const float> coefficients() const { return m_coefficients; }
    /// The W weights of a sample at offset @p t in (0, 1] from the float polynomials, as the
    /// spreading kernels compute them (@p weights: width() floats).
    void weights(float t, float* weights) const;
    /// Largest |polynomial - phi| found over the support (relative to phi(0) = 1).
    double polynomialError() const { return m_polynomialError; }

  private:
    int m_width = 0;
    double m_oversampling = 0;
    double m_beta = 0;
    double m_i0beta = 1;
    double m_aliasing = 0;
    int m_degree = 0;
    double m_polynomialError = 0;
    std::vector<float> m_coefficients;
};

/// The smallest kernel width whose predicted error at @p oversampling is at most @p tolerance;
/// the width with the least predicted error when none is.
int widthForTolerance(double tolerance, double oversampling);

}  // namespace tomo
