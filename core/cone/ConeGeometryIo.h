#pragma once
/// @file ConeGeometryIo.h
/// @brief Cone-beam geometry files: RTK's ThreeDCircularProjectionGeometry XML (what RTK users
/// have: `rtksimulatedgeometry`, the vendor readers) and a TomoStation JSON file.
///
/// RTK XML (versions 2 and 3): elements before the first <Projection> set every view's value,
/// elements inside a <Projection> set that view's and, as in RTK's reader, stay for the views
/// that follow. Angles are in degrees. A <Matrix> given with a view must agree with the matrix
/// computed from its parameters within 0.001 (RTK's own check), else InvalidData. The detector
/// grid is not in the file (RTK takes it from the projections' spacing and origin).
///
/// TomoStation JSON:
/// @code
/// { "type": "tomostation-cone-geometry", "version": 1,
///   "sid": 1000, "sdd": 1500,                // defaults for every view; also projOffsetX,
///                                            // projOffsetY, sourceOffsetX, sourceOffsetY,
///                                            // outOfPlaneAngle, inPlaneAngle (degrees)
///   "angles": {"first": 0, "arc": 360, "count": 360},   // or
///   "views": [{"gantryAngle": 0.0, "projOffsetX": 0.1}, ...],   // or per-view matrices:
///   "views": [{"matrix": [12 numbers, row-major, world mm -> detector mm]}, ...],
///   "detector": {"size": [256, 256], "pitch": [1, 1], "origin": [-127.5, -127.5]},
///   "volume": {"size": [128, 128, 128], "spacing": [1, 1, 1], "origin": [-63.5, -63.5, -63.5]} }
/// @endcode
/// A matrix is decomposed into the nine parameters (coneViewFromMatrix, as RTK does), so a
/// calibrated per-view geometry goes through the same weights and kernels (the general kernel
/// when it breaks the symmetry). "detector" and "volume" are optional ("origin" too: centred). Unknown keys are errors, so a
/// misspelt "sdd" is not silently the default.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/cone/ConeGeometry.h"

namespace tomo {

struct ConeGeometryFile {
    std::vector<ConeView> views;
    std::optional<DetectorGrid> detector;
    std::optional<ConeVolumeGrid> volume;
    std::string format;  ///< "rtk-xml" or "json"
};

/// RTK XML from text / a file.
Result<ConeGeometryFile> parseRtkGeometryXml(const std::string& text);
/// TomoStation JSON from text.
Result<ConeGeometryFile> parseConeGeometryJson(const std::string& text);
/// Reads either format (by content: '<' starts XML, '{' JSON); NotFound / InvalidData name the
/// path.
Result<ConeGeometryFile> readConeGeometryFile(const std::filesystem::path& path);

/// RTK XML text of @p g (version 3, RTK's layout: constant parameters once, then per view the
/// gantry angle, the varying parameters and the matrix), readable by rtk::ReadGeometry.
std::string rtkGeometryXml(const ConeGeometry& g);
/// TomoStation JSON text of @p g (and @p volume when given).
std::string coneGeometryJson(const ConeGeometry& g, const ConeVolumeGrid* volume = nullptr);
/// Writes by extension: ".xml" RTK XML, ".json" TomoStation JSON (atomically).
Status writeConeGeometryFile(const std::filesystem::path& path, const ConeGeometry& g,
                             const ConeVolumeGrid* volume = nullptr);

}  // namespace tomo
