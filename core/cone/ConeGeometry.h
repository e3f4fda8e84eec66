#pragma once
/// @file ConeGeometry.h
/// @brief Circular cone-beam geometry as RTK defines it (rtk::ThreeDCircularProjectionGeometry),
/// converted once into one 3x4 projection matrix per view (paper 003, Eqs. 1-3); the
/// reconstruction grid; and the index-to-index matrices the back-projectors see.
///
/// Frame (RTK's, so that RTK users get the same grid; docs/cone-beam.md):
///  - World x, y, z in mm, origin at the isocentre; the rotation axis is **y**. At gantry angle 0
///    the source is at (sourceOffsetX, sourceOffsetY, sid) and the detector plane at
///    z = sid - sdd; detector u runs along x, v along y.
///  - View k's matrix P (world point -> detector mm, homogeneous) is
///      P = T(sx - px, sy - py) * M(-sdd, -sid) * T(-sx, -sy, 0) * R(-outOfPlane, -gantry,
///      -inPlane)
///    with R(ax, ay, az) = Rz(az) Rx(ax) Ry(ay) (ITK's Euler "ZXY" order), M the perspective
///    [[-sdd,0,0,0],[0,-sdd,0,0],[0,0,1,-sid]] and T translations: u = (P X)_0 / (P X)_2.
///  - Projections are images of nu x nv pixels; pixel (iu, iv) has its centre at
///    u = originU + iu * pitchU, v = originV + iv * pitchV (RTK: the projection stack's origin and
///    spacing). The default origin centres the detector: -(n - 1) / 2 * pitch.
///  - The volume grid maps voxel (i, j, k) to (x, y, z) = origin + (i, j, k) * spacing; stored
///    as Volume [k][j][i] (x fastest), exactly RTK's memory order. Slices along z (planes k)
///    contain the rotation axis; the axial planes are constant j.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

/// RTK's nine per-view parameters (lengths in mm, angles in radians).
struct ConeView {
    double sid = 1000.0;  ///< source to isocentre
    double sdd = 1500.0;  ///< source to detector
    double gantryAngle = 0.0;
    double projOffsetX = 0.0, projOffsetY = 0.0;  ///< detector shift (u, v)
    double outOfPlaneAngle = 0.0, inPlaneAngle = 0.0;
    double sourceOffsetX = 0.0, sourceOffsetY = 0.0;
};

/// The flat-panel detector's pixel grid (shared by all views).
struct DetectorGrid {
    int nu = 0, nv = 0;                   ///< pixels along u (columns) and v (rows)
    double pitchU = 1.0, pitchV = 1.0;    ///< mm per pixel
    double originU = 0.0, originV = 0.0;  ///< centre of pixel (0, 0) in detector mm
    /// A grid with its centre at (0, 0).
    static DetectorGrid centred(int nu, int nv, double pitchU, double pitchV);
};

/// A 3x4 matrix, row-major.
using Matrix34 = std::array<std::array<double, 4>, 3>;

/// The reconstruction grid (RTK's volume origin and spacing, identity direction).
struct ConeVolumeGrid {
    int nx = 0, ny = 0, nz = 0;
    double spacingX = 1.0, spacingY = 1.0, spacingZ = 1.0;
    double originX = 0.0, originY = 0.0, originZ = 0.0;  ///< centre of voxel (0, 0, 0), mm
    /// A grid centred on the isocentre: origin = -(n - 1) / 2 * spacing.
    static ConeVolumeGrid centred(int nx, int ny, int nz, double spacing);
    std::size_t voxels() const {
        return static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny) *
               static_cast<std::size_t>(nz);
    }
    /// Planes [first, first + count) along z as a grid of their own.
    ConeVolumeGrid slab(int first, int count) const;
    Status validate() const;
};

/// How a geometry lets the back-projector reuse work along the rotation axis (y, index j).
enum class ConeSymmetry {
    General,  ///< tilts or per-view matrices: u and the depth change along a voxel column
    Column,   ///< u and depth constant along every column (Theorems 2, 3 of paper 003)
    Mirror,   ///< Column and v(j) + v(ny-1-j) = nv-1 (Theorem 1): half the columns computed
};
const char* coneSymmetryName(ConeSymmetry s);

/// @brief A circular cone-beam acquisition: per-view parameters and the detector grid.
class ConeGeometry {
  public:
    /// Validates (finite values, sid > 0, sdd > sid... > 0, at least one view, detector size
    /// and positive pitch). InvalidArgument names the bad field and view.
    static Result<ConeGeometry> create(std::vector<ConeView> views, DetectorGrid detector);
    /// @p count views at gantry angles first + i * arc / count (degrees), the same sid and sdd,
    /// and a centred detector.
    static Result<ConeGeometry> circular(double sid, double sdd, int count, double firstDeg,
                                         double arcDeg, DetectorGrid detector);

    int viewCount() const { return static_cast<int>(m_views.size()); }
    const std::vector<ConeView>& views() const { return m_views; }
    const ConeView& view(int k) const { return m_views[static_cast<std::size_t>(k)]; }
    const DetectorGrid& detector() const { return m_detector; }
    /// A copy with other views (same detector); validated.
    Result<ConeGeometry> withViews(std::vector<ConeView> views) const;
    /// A copy with another detector grid; validated.
    Result<ConeGeometry> withDetector(DetectorGrid detector) const;

    /// RTK's matrix of view k (world mm -> detector mm, homogeneous).
    Matrix34 matrix(int k) const;
    /// Source position of view k in world mm.
    std::array<double, 3> sourcePosition(int k) const;
    /// RTK's "source angle" of view k in [0, 2 pi): the angle of the source position projected
    /// on the central plane y = 0, measured like the gantry angle. Angular weights use it.
    double sourceAngle(int k) const;

    /// The index-to-index matrix of view k for @p grid: h = M (i, j, k, 1), u = h0 / h2 and
    /// v = h1 / h2 are detector pixel indices, scaled so that h2 = 1 at the isocentre (the
    /// back-projection weight is 1 / h2^2, RTK's normalisation).
    Matrix34 indexMatrix(int k, const ConeVolumeGrid& grid) const;
    /// What every view's index matrix allows for @p grid (tolerance relative to the entries).
    ConeSymmetry symmetry(const ConeVolumeGrid& grid) const;
    /// The fan angle: the largest angle (radians) between the central ray and a ray to a
    /// detector edge in the u direction, over all views.
    double fanAngle() const;

  private:
    ConeGeometry(std::vector<ConeView> v, DetectorGrid d) : m_views(std::move(v)), m_detector(d) {}
    std::vector<ConeView> m_views;
    DetectorGrid m_detector;
};

/// The RTK parameters of an arbitrary per-view projection matrix (world mm -> detector mm,
/// homogeneous, any scale), as rtk::ThreeDCircularProjectionGeometry::AddProjection(matrix)
/// decomposes it: intrinsics (principal point, sdd) by RQ-style decomposition, the rotation
/// as ITK's ZXY Euler angles, the source position in the rotated frame. InvalidArgument for a
/// parallel (singular) matrix or non-square detector pixels (the two focal lengths differ by
/// more than 1e-6 relative), which the nine parameters cannot represent.
Result<ConeView> coneViewFromMatrix(const Matrix34& matrix);

/// A one-line description ("360 views over 360.0 deg, sid 1000 mm, sdd 1500 mm, detector
/// 256 x 256 of 1.000 x 1.000 mm") for provenance and logs.
std::string describe(const ConeGeometry& g);

}  // namespace tomo
