#pragma once
/// @file ParallelGeometry.h
/// @brief Parallel-beam acquisition geometry (2-D, or 3-D as a stack of detector rows) and the
/// reconstruction grid. See docs/geometry.md for the conventions, pinned by
/// tests/core/GeometryTest.cpp:
///
///  - World axes: x to the right, y up, z along the rotation axis; origin on the rotation axis.
///  - Projection p has angle theta_p (radians). A point (x, y) projects onto the detector
///    coordinate t = x cos(theta) + y sin(theta) (length units). At theta = 0 the rays travel
///    along +y and t = x; angles grow counter-clockwise (from +x towards +y).
///  - Detector pixel j (0-based) has its centre at t = (j - c_p) * pitch, where
///    c_p = centerOfRotation + centerCorrection[p] is the rotation axis on the detector in pixels
///    counted from the centre of pixel 0. The default axis is (detectorCount - 1) / 2.
///  - Detector row r images slice z = r of the volume (one sinogram per row).

#include <cmath>
#include <string>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

inline constexpr double kPi = 3.14159265358979323846;

/// Angles in radians from "START:STOP:COUNT" in degrees, STOP exclusive (the CLI's --angles).
Result<std::vector<double>> parseAngleSpec(const std::string& spec);
/// `count` equally spaced angles in radians from @p startRad, stop exclusive.
std::vector<double> uniformAngles(double startRad, double stopRad, int count);

/// @brief Parallel-beam geometry in canonical form: per projection an angle and an axis position.
class ParallelGeometry {
  public:
    struct Params {
        std::vector<double> angles;  ///< radians, any order, any number >= 1
        int detectorCount = 0;       ///< pixels per detector row
        int rows = 1;                ///< detector rows = reconstructed slices
        double detectorPitch = 1.0;  ///< detector pixel width (length unit of the job, e.g. mm)
        /// Rotation axis on the detector in pixels from the centre of pixel 0; NaN = centre.
        double centerOfRotation = std::nan("");
        /// Optional per-projection axis correction in pixels (empty, or one per angle).
        std::vector<double> centerCorrection;
    };

    /// Validates @p params (positive sizes, finite angles and pitch, matching correction list).
    static Result<ParallelGeometry> create(Params params);

    int angleCount() const { return static_cast<int>(m_params.angles.size()); }
    int detectorCount() const { return m_params.detectorCount; }
    int rows() const { return m_params.rows; }
    double detectorPitch() const { return m_params.detectorPitch; }
    double angle(int p) const { return m_params.angles[static_cast<std::size_t>(p)]; }
    const std::vector<double>& angles() const { return m_params.angles; }
    /// The mean rotation axis position in detector pixels.
    double centerOfRotation() const { return m_params.centerOfRotation; }
    /// Rotation axis of projection p (with its correction), in detector pixels.
    double center(int p) const {
        return m_params.centerCorrection.empty()
                   ? m_params.centerOfRotation
                   : m_params.centerOfRotation +
                         m_params.centerCorrection[static_cast<std::size_t>(p)];
    }
    /// Fractional detector index hit by the ray through world point (x, y) at projection p.
    double detectorIndex(int p, double x, double y) const {
        double th = angle(p);
        return center(p) + (x * std::cos(th) + y * std::sin(th)) / m_params.detectorPitch;
    }
    const Params& params() const { return m_params; }

    /// Angular integration weights d(theta) for filtered back-projection (radians): half the
    /// distance to the neighbouring angles on the sorted list (the spacing itself for uniform
    /// angles). When the angles cover more than 180 degrees the weights are scaled by
    /// pi / coverage, so redundant rays are averaged (a full 360-degree scan gets half weights).
    std::vector<double> angularWeights() const;

    /// A copy with a different mean centre of rotation (pixels).
    ParallelGeometry withCenter(double centerOfRotation) const;

  private:
    explicit ParallelGeometry(Params p) : m_params(std::move(p)) {}
    Params m_params;
};

/// @brief The reconstruction grid: nx x ny pixels per slice, nz slices, square voxels.
/// Pixel (ix, iy) has its centre at x = (ix - (nx-1)/2) * voxelSize + offsetX and
/// y = ((ny-1)/2 - iy) * voxelSize + offsetY: row 0 is the top of the image (largest y).
struct VolumeGeometry {
    int nx = 0;
    int ny = 0;
    int nz = 1;
    double voxelSize = 1.0;  ///< same length unit as the detector pitch
    double offsetX = 0.0;    ///< position of the grid centre relative to the rotation axis
    double offsetY = 0.0;

    double x(double ix) const { return (ix - 0.5 * (nx - 1)) * voxelSize + offsetX; }
    double y(double iy) const { return (0.5 * (ny - 1) - iy) * voxelSize + offsetY; }
    /// Inverse of x()/y(): fractional pixel indices of a world point.
    double ix(double xw) const { return (xw - offsetX) / voxelSize + 0.5 * (nx - 1); }
    double iy(double yw) const { return 0.5 * (ny - 1) - (yw - offsetY) / voxelSize; }

    Status validate() const;
    /// The grid that matches a detector: n x n pixels of the detector pitch, one per row.
    static VolumeGeometry forDetector(const ParallelGeometry& g, int n = 0);
};

}  // namespace tomo
