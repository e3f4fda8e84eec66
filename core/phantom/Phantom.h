#pragma once
/// @file Phantom.h
/// @brief Analytic phantoms made of ellipses (2-D) or ellipsoids (3-D) with closed-form
/// parallel-beam line integrals, a supersampled rasteriser for the ground truth, and Poisson
/// noise.
///
/// Shapes are defined in normalised coordinates where the phantom fits in [-1, 1]^2 (or ^3), with
/// the same axes as the world frame (x right, y up, z along the rotation axis; docs/geometry.md).
/// `scale` maps normalised units to the job's length unit: a phantom of scale 128 spans
/// [-128, 128] mm (or pixels), i.e. every semi-axis and centre is multiplied by `scale`.
/// `shapes()` stays in normalised units. Densities add where shapes overlap; a point on a
/// boundary counts as inside. Line integrals are in density x length (world units), so FBP of
/// them reproduces the densities.
///
/// Line integrals are exact: an ellipse with semi-axes a, b rotated by phi and centred at c is cut
/// by the ray at signed distance t from the origin, normal direction theta, along a chord of
/// length 2 a b sqrt(h^2 - t'^2) / h^2, with h^2 = a^2 cos^2(theta - phi) + b^2 sin^2(theta - phi)
/// and t' = t - (c_x cos(theta) + c_y sin(theta)) (Kak & Slaney, ch. 3.1). An ellipsoid rotated
/// about z is cut by the plane z = const along an ellipse of the same orientation with semi-axes
/// scaled by sqrt(1 - ((z - c_z) / a_z)^2), which reduces the 3-D case to the 2-D one.
///
/// Threading: all members are const and thread-safe; `project` and `rasterize` split their work
/// over `ctx.threads` workers with results independent of the thread count.
///
/// References: L. A. Shepp, B. F. Logan, IEEE TNS 21(3), 1974, doi:10.1109/TNS.1974.6499235;
/// modified (higher contrast) values from P. Toft, "The Radon Transform", 1996; A. C. Kak,
/// M. Slaney, "Principles of Computerized Tomographic Imaging", IEEE Press 1988 (SIAM reprint
/// doi:10.1137/1.9780898719277); the 3-D version of Kak & Slaney as modified by H. Yu, Y. Ye,
/// G. Wang, "Katsevich-type algorithms for variable radius spiral cone-beam CT" (the table of
/// M. Schabel's phantom3d, 'yu-ye-wang').

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// An ellipsoid in normalised coordinates. In a 2-D phantom only the x/y fields are used (an
/// ellipse); in a 3-D phantom it is an ellipsoid rotated by phi about the z axis. The semi-axis
/// ax lies along the direction phi, ay along phi + 90 degrees.
struct Ellipsoid {
    double density = 0;             ///< added value inside
    double ax = 0, ay = 0, az = 0;  ///< semi-axes (normalised units)
    double cx = 0, cy = 0, cz = 0;  ///< centre
    double phi = 0;                 ///< rotation about z, radians, counter-clockwise from +x
};

/// @brief A sum of ellipses (2-D) or ellipsoids (3-D).
class Phantom {
  public:
    /// Modified Shepp-Logan head (Toft), 10 ellipses; extent [-1, 1]^2 scaled by @p scale. The
    /// table is the one of MATLAB's phantom('Modified Shepp-Logan') and scikit-image, in the
    /// y-up frame: the ellipse at (0, 0.35) is in the upper half (small row indices of an image)
    /// and the three small ellipses near (0, -0.605) in the lower half. Value 0.2 inside the
    /// brain, 1 on the skull, 0 in the two dark ellipses.
    static Phantom sheppLogan2d(double scale = 1.0);
    /// 3-D Shepp-Logan of Kak & Slaney as modified by Yu, Ye & Wang (10 ellipsoids, all rotated
    /// about z only; densities 1, -0.8, -0.2, -0.2, 0.2, 0.2, 0.1, 0.1, 0.2, -0.2). Its slice
    /// z = -0.25 shows the features of the 2-D head; z = 0.625 two further small ellipsoids.
    static Phantom sheppLogan3d(double scale = 1.0);
    /// @p count random ellipses inside the unit disc, densities in [0.1, 1], reproducible by seed
    /// (std::mt19937). Semi-axes in [0.05, 0.35], orientation uniform. count <= 0 gives an empty
    /// phantom.
    static Phantom randomEllipses(int count, std::uint32_t seed, double scale = 1.0);
    /// A low-contrast disc set: a disc of density 1 with eight discs of +4% and eight of +1%
    /// contrast in two rings (sizes falling by a factor of four around each ring) and a -4% disc
    /// at the centre.
    static Phantom lowContrastDiscs(double scale = 1.0);
    /// One ellipse or disc (a test object), @p e in normalised units.
    static Phantom single(Ellipsoid e, bool is2d, double scale = 1.0);
    /// Parses "shepp-logan", "shepp-logan-3d", "ellipses[:COUNT[:SEED]]" (default 10 ellipses,
    /// seed 1), "disc" (density 1, radius 0.5), "discs" (lowContrastDiscs). InvalidArgument names
    /// the valid choices; the scale must be positive and finite.
    static Result<Phantom> fromName(const std::string& name, double scale);

    bool is2d() const { return m_is2d; }
    double scale() const { return m_scale; }
    /// The shapes in normalised units (multiply lengths and centres by scale() for world units).
    const std::vector<Ellipsoid>& shapes() const { return m_shapes; }

    /// Density at world point (x, y, z) (2-D phantoms ignore z).
    double value(double x, double y, double z = 0.0) const;

    /// Exact line integral along the ray {t (cos th, sin th) + s (-sin th, cos th)} in the plane
    /// at height z (world units; theta in radians). 2-D phantoms ignore z.
    double lineIntegral(double theta, double t, double z = 0.0) const;

    /// Analytic sinograms for @p geom: out[row][angle][det] is the mean of @p raysPerBin
    /// line integrals spread evenly across the detector bin (1 = through the bin centre), at
    /// t = (j - c_p) * pitch + ((k + 0.5) / raysPerBin - 0.5) * pitch, k = 0 .. raysPerBin - 1.
    /// Detector row r lies at height z = (r - (rows-1)/2) * rowPitch with rowPitch the detector
    /// pitch. @p out is reallocated unless it already has the shape [rows][angles][detectors].
    /// Work items are (row, angle) pairs; ctx.progress (when set) gets one unit per item.
    /// Returns InvalidArgument for raysPerBin < 1, Cancelled when ctx.stop fires.
    Status project(const ParallelGeometry& geom, Sinograms& out, int raysPerBin = 1,
                   const ExecContext& ctx = {}) const;

    /// Ground truth on the grid @p vol: each voxel is the mean of @p supersample^2 point samples
    /// in its (x, y) footprint (pixel centre +- voxelSize/2, samples at the centres of a
    /// supersample x supersample sub-grid) at the slice centre z = (iz - (nz-1)/2) * voxelSize.
    /// @p out is reallocated unless it already has the shape [nz][ny][nx]. Work items are
    /// (slice, row) pairs; ctx.progress (when set) gets one unit per item.
    Status rasterize(const VolumeGeometry& vol, Volume& out, int supersample = 4,
                     const ExecContext& ctx = {}) const;

  private:
    Phantom(std::vector<Ellipsoid> shapes, bool is2d, double scale)
        : m_shapes(std::move(shapes)), m_is2d(is2d), m_scale(scale) {}
    std::vector<Ellipsoid> m_shapes;
    bool m_is2d = true;
    double m_scale = 1.0;
};

/// Replaces line integrals p by -ln(N / N0) with N ~ Poisson(N0 exp(-p * attenuationScale)),
/// divided back by attenuationScale; zero counts are clamped to 0.5 photons (reported in
/// @p clampedCount when non-null). Reproducible by @p seed regardless of thread count: every
/// detector row (sinogram row of one angle) draws from its own std::mt19937_64 seeded from
/// (seed, row index). Uses all hardware threads. InvalidArgument for a non-positive count or
/// scale, InvalidData (nothing changed) when a value is not finite.
Status addPoissonNoise(Sinograms& sino, double incidentCount, std::uint32_t seed,
                       double attenuationScale = 1.0, std::size_t* clampedCount = nullptr);

}  // namespace tomo
