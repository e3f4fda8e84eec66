#pragma once
/// @file ConeJob.h
/// @brief The GUI's cone-beam work as plain C++ jobs (no Qt): open a cone-beam dataset
/// (projections of any readable format and an RTK XML or TomoStation JSON geometry file), tune
/// its geometry, and reconstruct it by FDK through the front door
/// (ReconService::run(ConeReconRequest)).
///
/// Detector grid (as `tomo recon`, app/cli/ConeReconArgs.cpp): the geometry file's detector
/// (JSON) when it has one, else the projection file's spacing and origin (MetaImage, NRRD:
/// RTK's convention), else the pitch the user states, centred. Volume grid: the geometry file's
/// volume (JSON) when it has one, else nu x nv x nu voxels of the detector pitch at the
/// isocentre, centred on it (RTK's and `tomo recon`'s default).
///
/// Orientation: results are kept as **axial planes** [y][z][x] (the rotation axis y slowest):
/// plane j is the plane of constant y = originY + j spacingY, x along its columns and z along
/// its rows, so that a cone-beam result steps through its slices (planes perpendicular to the
/// rotation axis) like every other result of the GUI. rtkOrder() gives RTK's [z][y][x] back
/// for saving.
///
/// Threading: the load and the reconstruction run on a worker (JobRunner); probeCone is cheap
/// (the geometry file and the projection file's header) and may run on the GUI thread.

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/jobs/DemoJob.h"
#include "app/recon/ReconService.h"
#include "core/cone/ConeGeometryIo.h"

namespace tomo::app {

/// What File > Open cone-beam dataset states.
struct ConeOpenRequest {
    std::filesystem::path projections;  ///< [view][v][u], any readable stack format
    std::filesystem::path geometry;     ///< RTK XML or TomoStation JSON
    /// Detector pitch (u, v) in mm, used only when neither file gives one.
    std::optional<std::array<double, 2>> pitch;
    std::filesystem::path truth;  ///< optional ground truth [z][y][x]: it sets the volume grid
    ReadOptions read;             ///< raw projections: their shape
};

/// What the files say before anything is loaded (for the dialog).
struct ConeProbe {
    std::array<std::size_t, 3> shape{};  ///< projections {views, rows (v), columns (u)}
    ConeGeometryFile file;
    /// Where the detector pitch comes from: "geometry" (JSON detector), "projections" (the
    /// file's spacing), or "" (neither: it must be stated).
    std::string pitchSource;
    std::array<double, 2> pitch{1.0, 1.0};  ///< the files' pitch when known
};

/// Reads the geometry file and the projection file's header and checks that they agree (view
/// count, the JSON detector's size). InvalidArgument / InvalidData / NotFound with one line
/// naming the file and what is wrong.
Result<ConeProbe> probeCone(const ConeOpenRequest& request);
/// "180 views of 128 x 128 px; sid 1000 mm, sdd 1500 mm; detector pitch 1.5 mm from the
/// projection file's spacing".
std::string describe(const ConeProbe& probe);

/// A cone-beam dataset in memory.
struct ConeDataset {
    std::shared_ptr<const Array3<float>> projections;  ///< [view][v][u]
    ConeGeometry geometry;                             ///< as the files give it
    ConeVolumeGrid grid;                               ///< the default volume grid
    Volume truth;                    ///< axial planes [y][z][x] of the truth; empty when none
    ConeVolumeGrid truthGrid;        ///< the grid of the truth (= grid)
    std::vector<std::string> notes;  ///< where the detector pitch came from, ...
    ConeOpenRequest request;
    /// What was done to the projections when read (HDF5 acquisitions: flat/dark, -log).
    std::string preprocessing = "none";
};

/// Loads @p request: probe, projections read whole, the detector grid (file comment), the
/// truth when named. A truth of another shape than the default grid sets the grid: its shape,
/// with its spacing and origin where the file has them (as `tomo phantom --cone --truth` writes
/// it), else centred with the default spacing. Cancelled on ctx.stop.
Result<ConeDataset> loadConeDataset(const ConeOpenRequest& request, const ExecContext& ctx);

/// What the Cone geometry panel tunes, as view 0's values; tunedGeometry() moves every view by
/// the difference from view 0 of the file, so per-view calibrations are kept.
struct ConeTuning {
    double sid = 0, sdd = 0;
    double offsetU = 0, offsetV = 0;  ///< RTK's ProjectionOffsetX / Y, mm
    double inPlaneDeg = 0;            ///< in-plane detector tilt, degrees
    bool operator==(const ConeTuning&) const = default;
};
ConeTuning tuningOf(const ConeGeometry& g);
/// InvalidArgument when a tuned value is not a valid geometry (sid or sdd not positive).
Result<ConeGeometry> tunedGeometry(const ConeGeometry& g, const ConeTuning& t);

/// A cone-beam reconstruction's settings.
struct ConeJobSpec {
    ConeVolumeGrid grid;
    FilterOptions filter;
    ShortScanMode shortScan = ShortScanMode::Auto;
    std::string backend = "auto";
    std::string variant;                               ///< cone back-projector id; empty: automatic
    std::optional<ConeTuning> tuning;                  ///< none: the file's geometry
    std::size_t memoryBudget = defaultMemoryBudget();  ///< half of the memory available now
};

/// FDK's options of @p spec (filter, short scan, memory budget).
FdkOptions fdkOptions(const ConeJobSpec& spec);
/// The geometry @p spec reconstructs: @p data's, tuned when the spec says so.
Result<ConeGeometry> specGeometry(const ConeDataset& data, const ConeJobSpec& spec);

struct ConeOutcome {
    ReconOutcome recon;  ///< image: axial planes [y][z][x]; metrics of the central plane
    ConeVolumeGrid grid;
    int centralPlane = 0;                      ///< the plane of the source orbit (nearest y = 0)
    std::string geometry;                      ///< describe() of the geometry used
    std::vector<std::string> notes, warnings;  ///< scan kind, fallbacks; insufficient data
};

/// Reconstructs @p data by FDK with @p spec through @p service; metrics of the central plane
/// against the truth when the grid is the truth's.
Result<ConeOutcome> runConeJob(const ReconService& service, std::shared_ptr<const ConeDataset> data,
                               const ConeJobSpec& spec, const ExecContext& ctx);

/// The plane nearest y = 0 (the source orbit's plane) of @p grid.
int centralPlane(const ConeVolumeGrid& grid);
/// RTK's [z][y][x] as axial planes [y][z][x], and back.
Result<Volume> axialPlanes(const Volume& rtk);
Result<Volume> rtkOrder(const Volume& axial);

}  // namespace tomo::app
