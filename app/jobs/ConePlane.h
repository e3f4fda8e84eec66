#pragma once
/// @file ConePlane.h
/// @brief One axial plane of a cone-beam FDK reconstruction at a fraction of the cost of the
/// volume: the central-plane preview behind the Cone geometry panel.
///
/// The plane y = y_j of a volume grid is a grid of its own (ny = 1, originY = y_j). Its voxels
/// reach only a few detector rows: for each view, v over the plane is a ratio of affine
/// functions of (i, k) with a positive denominator, so its extremes lie at the plane's four
/// corners. planeRows() takes the rows from floor(v_min) to floor(v_max) + 1 over all views
/// (the two taps of the bilinear rule, ConeBackProjector.h), clamped to the detector.
/// planeRequest() crops the projections to those rows and moves the detector origin by the
/// rows dropped (originV + first pitchV), so every remaining pixel keeps its position: FDK's
/// weights (cosine, Parker, half-fan: functions of the pixel's position) and the ramp filter
/// (along rows) give each kept row the same values as in the full run, and each voxel reads the
/// same taps. The plane equals the same plane of the whole volume up to float rounding
/// (ConePlaneTest: 1e-5 relative).
///
/// Cost: the row range (4 corners per view), the kept rows' weights and filter, and nx nz np
/// voxel updates instead of nx ny nz np. The CPU runs it with cpu.fdk.rows (planeVariant()):
/// a 512^2 plane from 720 views of 768 x 768 (4 rows kept) in 0.24 s on the 2-core
/// development machine (ConePlaneTest's TOMO_CONE_PREVIEW_BENCH; cpu.fdk.standard 0.54 s,
/// cpu.fdk.symmetric 1.9 s: one plane leaves it nothing to reuse along y).
///
/// Threading: plain C++; runs on a worker.

#include <memory>
#include <utility>

#include "app/jobs/ConeJob.h"
#include "app/jobs/SliceImage.h"

namespace tomo::app {

/// Plane @p j of @p grid as a grid of one plane along y.
ConeVolumeGrid planeGrid(const ConeVolumeGrid& grid, int j);

/// Detector rows [first, last] the back-projection of @p plane (ny = 1) reads; at least two
/// rows. The whole detector when a voxel lies at or behind a source.
std::pair<int, int> planeRows(const ConeGeometry& g, const ConeVolumeGrid& plane);

/// The projections plane @p j of @p grid needs: every view cropped to planeRows() and the
/// geometry with the detector moved accordingly (file comment), the plane's grid.
struct PlaneData {
    Array3<float> views;    ///< [view][row - firstRow][u]
    ConeGeometry geometry;  ///< the cropped detector
    ConeVolumeGrid plane;   ///< planeGrid(grid, j)
    int firstRow = 0;       ///< the first detector row kept
};
/// InvalidArgument when @p j is outside the grid or the projections are not of @p g's shape.
Result<PlaneData> cropToPlane(const Array3<float>& projections, const ConeGeometry& g,
                              const ConeVolumeGrid& grid, int j);

/// The request for plane @p j of @p grid from @p projections ([view][v][u] of @p g): the
/// projections and detector cropped to planeRows(), the grid planeGrid(); FDK options and the
/// variant as given. InvalidArgument when @p j is outside the grid.
Result<ConeReconRequest> planeRequest(const Array3<float>& projections, const ConeGeometry& g,
                                      const ConeVolumeGrid& grid, int j, const FdkOptions& fdk);

/// The back-projector of a one-plane request on @p backend ("auto": the Engine's, as the
/// service resolves it): the device's general kernel on a GPU backend, else cpu.fdk.rows
/// (gather-free rows; the symmetric scheme has nothing to reuse in one plane).
std::string planeVariant(const Engine& engine, const std::string& backend);

/// The detector row where view 0 sees the centre of plane @p j of @p grid (nearest, clamped):
/// the row whose sinogram belongs to that plane (exactly for the orbit's plane).
int detectorRowOf(const ConeGeometry& g, const ConeVolumeGrid& grid, int j);
/// Row @p row of every view: a sinogram [view][u].
SliceImage sinogramOfRow(const Array3<float>& projections, int row);

struct ConePlane {
    SliceImage image;            ///< nz rows (z) x nx columns (x), as the planes of axialPlanes()
    int plane = 0;               ///< j in the grid
    int firstRow = 0, rows = 0;  ///< detector rows used
    std::string variant;
    FbpTimings timings;  ///< filtering, back-projection, total (seconds)
    std::vector<std::string> notes, warnings;
};

/// The central plane (centralPlane()) of @p data reconstructed with @p spec (its grid, filter,
/// tuning) through @p service.
Result<ConePlane> reconstructCentralPlane(const ReconService& service, const ConeDataset& data,
                                          const ConeJobSpec& spec, const ExecContext& ctx);

}  // namespace tomo::app
