#pragma once
/// @file Phantom.h
/// @brief Analytic phantoms made of ellipses (2-D) or ellipsoids (3-D) with closed-form
/// parallel-beam line integrals, a supersampled rasteriser for the ground truth, and Poisson
/// noise.
///
/// Shapes are defined in normalised coordinates where the phantom fits in [-1, 1]^2 (or ^3), with
/// the same axes as the world frame (x right, y up, z along the rotation axis; docs/geometry.md).
/// `scale` maps normalised units to the job's length unit: a phantom of scale 128 spans
/// [-128, 128] mm (or pixels). Densities add where shapes overlap. Line integrals are in
/// density x length, so FBP of them reproduces the densities.
///
/// References: L. A. Shepp, B. F. Logan, IEEE TNS 21(3), 1974, doi:10.1109/TNS.1974.6499235;
/// modified (higher contrast) values from P. Toft, "The Radon Transform", 1996, and the 3-D
/// version from Kak & Slaney (1988) as modified by Yu, Ye & Wang (2006).

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// An ellipsoid in normalised coordinates. In a 2-D phantom only the x/y fields are used (an
/// ellipse); in a 3-D phantom it is an ellipsoid rotated by phi about the z axis.
struct Ellipsoid {
    double density = 0;       ///< added value inside
    double ax = 0, ay = 0, az = 0;  ///< semi-axes (normalised units)
    double cx = 0, cy = 0, cz = 0;  ///< centre
    double phi = 0;           ///< rotation about z, radians, counter-clockwise from +x
};

/// @brief A sum of ellipses (2-D) or ellipsoids (3-D).
class Phantom {
public:
    /// Modified Shepp-Logan head (Toft), 10 ellipses; extent [-1, 1]^2 scaled by @p scale.
    static Phantom sheppLogan2d(double scale = 1.0);
    /// Modified 3-D Shepp-Logan (10 ellipsoids).
    static Phantom sheppLogan3d(double scale = 1.0);
    /// @p count random ellipses inside the unit disc, densities in [0.1, 1], reproducible by seed.
    static Phantom randomEllipses(int count, std::uint32_t seed, double scale = 1.0);
    /// One ellipse or disc (a test object).
    static Phantom single(Ellipsoid e, bool is2d, double scale = 1.0);
    /// Parses "shepp-logan", "shepp-logan-3d", "ellipses[:COUNT[:SEED]]", "disc".
    static Result<Phantom> fromName(const std::string& name, double scale);

    bool is2d() const { return m_is2d; }
    double scale() const { return m_scale; }
    const std::vector<Ellipsoid>& shapes() const { return m_shapes; }

    /// Density at world point (x, y, z) (2-D phantoms ignore z).
    double value(double x, double y, double z = 0.0) const;

    /// Exact line integral along the ray {t (cos th, sin th) + s (-sin th, cos th)} in the plane
    /// at height z (world units).
    double lineIntegral(double theta, double t, double z = 0.0) const;

    /// Analytic sinograms for @p geom: out[row][angle][det] is the mean of @p raysPerBin
    /// line integrals spread evenly across the detector bin (1 = through the bin centre).
    /// Detector row r lies at height z = (r - (rows-1)/2) * rowPitch with rowPitch the detector
    /// pitch. Multithreaded; deterministic.
    Status project(const ParallelGeometry& geom, Sinograms& out, int raysPerBin = 1,
                   const ExecContext& ctx = {}) const;

    /// Ground truth on the grid @p vol: each voxel is the mean of @p supersample^2 point samples
    /// in its (x, y) footprint at the slice centre z = (iz - (nz-1)/2) * voxelSize.
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
/// @p clampedCount when non-null). Reproducible by @p seed regardless of thread count.
Status addPoissonNoise(Sinograms& sino, double incidentCount, std::uint32_t seed,
                       double attenuationScale = 1.0, std::size_t* clampedCount = nullptr);

}  // namespace tomo
