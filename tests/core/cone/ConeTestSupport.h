#pragma once
// Shared by the cone-beam tests: a small analytic case (geometry, exact projections, truth)
// and error measures.

#include <string>
#include <vector>

#include "core/cone/ConeBackProjector.h"
#include "core/cone/ConeGeometry.h"
#include "core/cone/Fdk.h"

namespace tomo::test {

struct ConeCase {
    ConeGeometry geometry;
    ConeVolumeGrid grid;
    Array3<float> projections;  ///< [view][v][u], exact line integrals (2x2 rays per pixel)
    Volume truth;               ///< supersampled phantom on grid
    FdkOptions options;
};

/// sid 300 mm, sdd 450 mm, detector @p nu x 80 pixels of 1.2 mm (0.8 mm at the isocentre),
/// @p views views over @p arcDeg degrees, a 48^3 grid of 1 mm, the phantom at scale 20 mm.
/// Every view gets the projection offsets and out-of-plane angle given.
ConeCase coneCase(const std::string& phantom, double arcDeg, int views, double projOffsetY = 0,
                  double outOfPlaneRad = 0, double projOffsetX = 0, int nu = 96,
                  std::vector<double> angles = {});

/// @p phantom from 60 views over 360 degrees on a mirror geometry, a column one (vertical
/// detector offset of 6 mm), tall columns (10 x 301 x 8 voxels of 0.2 mm) and coarse voxels
/// (1.8 mm mirror, 4 mm column: detector patches larger than tile.shared's stage): every path of
/// the symmetric kernels, for comparisons of two variants.
std::vector<ConeCase> symmetricCases(const std::string& phantom);

/// FDK of @p c through runFdk with @p bp into one volume.
Result<Volume> runToVolume(const ConeCase& c, ConeBackProjector& bp, int slabPlanes = 0,
                           FdkReport* report = nullptr);

/// |a - b| / |b| over all voxels (root of sums of squares).
double relativeRmse(const Volume& a, const Volume& b);
/// RMSE over the @p planes axial planes (constant j) around the central plane, inside the
/// cylinder of radius 0.45 of the grid.
double centralPlanesRmse(const Volume& a, const Volume& truth, int planes);
/// Mean over the cube of +-@p half voxels around the centre.
double centreMean(const Volume& a, int half);

}  // namespace tomo::test
