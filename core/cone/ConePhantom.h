#pragma once
/// @file ConePhantom.h
/// @brief Ellipsoid phantoms with exact cone-beam line integrals (ray-ellipsoid intersections,
/// several rays per detector pixel), so cone-beam tests use data no projector of ours made.
///
/// Shapes are core/phantom's Ellipsoid in normalised units times `scale` (mm). The phantom's
/// own axes (x_p, y_p, z_p) lie in RTK's world frame as x_p = x, y_p = -z, z_p = y: the phantom's
/// z (its "slice" axis, rotation phi about it) is the rotation axis y, so an axial plane
/// (constant y) shows the 2-D-like section of the phantom at z_p = y / scale.
///
/// A ray from the source S towards a detector point D meets an ellipsoid (centre c, rotation
/// R_phi, semi-axes a) where |A^-1 R^T (S + t (D - S) - c)|^2 = 1, A = diag(a): a quadratic in t
/// whose two roots give the chord length |D - S| (t2 - t1) exactly. Densities add.

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/cone/ConeGeometry.h"
#include "core/data/Array.h"
#include "core/phantom/Phantom.h"

namespace tomo {

class ConePhantom {
  public:
    /// 3-D Shepp-Logan (core/phantom's Yu-Ye-Wang table) of half-size @p scale mm.
    static ConePhantom sheppLogan(double scale);
    /// @p count random ellipsoids inside the unit ball (rotated about z_p), densities in
    /// [0.1, 1], reproducible by seed (std::mt19937).
    static ConePhantom randomEllipsoids(int count, std::uint32_t seed, double scale);
    /// "shepp-logan" (or "shepp-logan-3d"), "ellipsoids[:COUNT[:SEED]]", "ball" (density 1,
    /// radius 0.5); InvalidArgument names the choices.
    static Result<ConePhantom> fromName(const std::string& name, double scale);

    const std::vector<Ellipsoid>& shapes() const { return m_shapes; }
    double scale() const { return m_scale; }

    /// Density at world point (x, y, z), mm.
    double value(double x, double y, double z) const;
    /// Exact line integral from @p source towards @p target (world mm), over the whole line.
    double lineIntegral(const std::array<double, 3>& source,
                        const std::array<double, 3>& target) const;

    /// Projections [view][v][u] (RTK's stack order): each pixel the mean of rays x rays line
    /// integrals through a regular sub-grid of the pixel. InvalidArgument for rays < 1;
    /// Cancelled on ctx.stop; ctx.progress gets one unit per (view, row).
    Result<Array3<float>> project(const ConeGeometry& geometry, int rays = 2,
                                  const ExecContext& ctx = {}) const;
    /// Ground truth on @p grid, [k][j][i]: each voxel the mean of s^3 point samples.
    Result<Volume> rasterize(const ConeVolumeGrid& grid, int supersample = 2,
                             const ExecContext& ctx = {}) const;

  private:
    ConePhantom(std::vector<Ellipsoid> shapes, double scale)
        : m_shapes(std::move(shapes)), m_scale(scale) {}
    std::vector<Ellipsoid> m_shapes;
    double m_scale = 1.0;
};

/// The acquisition of `tomo phantom --cone` for an @p n^3 volume of 1 mm voxels centred on the
/// isocentre: @p views views over @p arcDeg degrees (from 0), a centred detector of pixels of
/// 1 mm at the isocentre (sdd / sid mm) that sees the whole volume (the cylinder of radius
/// n / sqrt(2) mm, magnified at its near side). InvalidArgument when sid does not exceed 1.05
/// times that radius (or as ConeGeometry::circular).
Result<ConeGeometry> conePhantomGeometry(int n, double sid, double sdd, int views, double arcDeg);

/// Detector point (world mm) of pixel position (u, v) in detector mm of view @p k.
std::array<double, 3> detectorPoint(const ConeGeometry& g, int k, double u, double v);

}  // namespace tomo
