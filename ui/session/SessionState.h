#pragma once
/// @file SessionState.h
/// @brief Everything a saved session restores: where the data came from, the geometry setting
/// the user changes (the centre of rotation), the algorithm and every algorithm's parameters,
/// the FBP filter and back-projector variant, and the view state. Saved as JSON
/// (SessionFile.h); presets store one algorithm's parameters the same way.
///
/// JSON layout (version 2; version 1 files, without "sampling", still open):
///   { "format": "tomostation-session", "version": 2,
///     "data": { "path": "DIR or empty", "demo_size": 256, "center_of_rotation": 183.5,
///               "file": { "path": "FILE", "format": "raw", "shape": [1, 180, 256],
///                         "first_degrees": 0, "end_degrees": 180, "angle_unit": "auto",
///                         "preprocessing": { ... }, "minus_log": true },
///               "preprocessing": { "rings": "vo", "zingers": { ... }, ... },
///               "cone": { "projections": "FILE", "geometry": "FILE", "truth": "FILE or empty",
///                         "pitch": [1.5, 1.5] or null, "shape": [360, 256, 256] or null,
///                         "grid": [128, 128, 128] or null, "grid_spacing": 1.0 } },
///     "sampling": { "image_size": 64, "pixel_size": 0, "center_x": 0, "center_y": 0,
///                   "angle_step": 1 },
///     "algorithm": "sirt",
///     "parameters": { "sirt": { "iterations": "50", ... }, "cgls": { ... } },
///     "fbp": { "filter": "ramp", "cutoff": 1.0, "variant": "cpu.simd.lin" },
///     "view": { "color_map": "grey", "window": 0.04, "level": 0.02,
///               "panel": "convergence" } }
/// Parameter values are text keyed by ParameterSpec::name (AlgorithmSchema.h); numbers are
/// written with 17 significant digits so that they read back bit-identical.
/// "data.file" is present only for data opened from a file (File > Open data file): the file and
/// what the user stated for it (app::LoadRequest; "shape" [slices, angles, detectors] only for
/// raw files, else null). "data.cone" is present only for a cone-beam dataset (File > Open
/// cone-beam dataset): its files, the pitch stated when the files lack one, the raw shape, and the
/// Volume box's grid (null: the dataset's default grid). In the file, data paths under the session
/// file's folder are stored relative to it (SessionFile.h); in a SessionState they are as the
/// Session knows them.
/// "data.preprocessing" (a dataset folder's sinogram stack) and "data.file.preprocessing" /
/// "minus_log" (a data file) are the preprocessing applied (PreprocessJson.h); absent in
/// sessions saved before they were stored, which open with none applied.
/// "sampling" is the Region and sampling box as applied (app::Sampling: image size and pixel size,
/// 0 = the loaded grid's; the region centre; every N-th of the loaded angles); absent in version 1
/// files, which open with the defaults (all loaded angles on the loaded grid).

#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "app/jobs/ConeJob.h"
#include "app/jobs/DatasetSampling.h"
#include "app/jobs/LoadJob.h"

namespace tomo::ui {

/// A cone-beam dataset as a session records it.
struct ConeSession {
    std::string projections, geometry, truth;         ///< truth empty: none
    std::optional<std::array<double, 2>> pitch;       ///< stated detector pitch (u, v), mm
    std::optional<std::array<std::size_t, 3>> shape;  ///< raw projections [views][v][u]
    std::array<int, 3> grid{};  ///< the Volume box's nx, ny, nz; zeros: the default grid
    double gridSpacing = 0;     ///< mm, with grid
    bool operator==(const ConeSession&) const = default;
    /// The same files, pitch and shape (the grid aside).
    bool sameData(const ConeSession& o) const {
        return projections == o.projections && geometry == o.geometry && truth == o.truth &&
               pitch == o.pitch && shape == o.shape;
    }
    app::ConeOpenRequest request() const {
        app::ConeOpenRequest r;
        r.projections = projections;
        r.geometry = geometry;
        r.truth = truth;
        r.pitch = pitch;
        r.read.shape = shape;
        return r;
    }
    static ConeSession of(const app::ConeOpenRequest& r) {
        ConeSession c;
        c.projections = r.projections.string();
        c.geometry = r.geometry.string();
        c.truth = r.truth.string();
        c.pitch = r.pitch;
        c.shape = r.read.shape;
        return c;
    }
};

struct SessionState {
    std::string dataPath;  ///< dataset folder; empty = the demo or dataFile
    int demoSize = 0;      ///< demo image size when dataPath is empty (0 = the default demo)
    /// The data file and what the user stated for it; set = the data came from a file
    /// (dataPath empty, demoSize 0).
    std::optional<app::LoadRequest> dataFile;
    /// A cone-beam dataset; set = the data are cone beam (dataPath, demoSize, dataFile unset).
    std::optional<ConeSession> cone;
    /// The dataset folder's preprocessing (rings, zingers on its sinogram stack); a data file
    /// keeps its own in dataFile->preprocessing.
    PreprocessOptions folderPreprocessing;
    double centerOfRotation = std::nan("");  ///< pixels; NaN = the dataset's own
    app::Sampling sampling;  ///< the Region and sampling box as applied; default = all data
    std::string algorithm = "fbp";
    std::map<std::string, std::map<std::string, std::string>> parameters;  ///< per algorithm
    std::string fbpFilter = "ramp";
    double fbpCutoff = 1.0;
    std::string variant;  ///< back-projector id; empty = default
    std::string colorMap = "grey";
    double window = 0;  ///< of the reconstruction view; 0 = automatic window/level
    double level = 0;
    std::string panel;  ///< the dock shown in front ("convergence", "center", ...)

    bool operator==(const SessionState& other) const {
        auto sameReal = [](double a, double b) {
            return a == b || (std::isnan(a) && std::isnan(b));
        };
        return dataPath == other.dataPath && demoSize == other.demoSize &&
               dataFile == other.dataFile && cone == other.cone &&
               describe(folderPreprocessing) == describe(other.folderPreprocessing) &&
               sameReal(centerOfRotation, other.centerOfRotation) && sampling == other.sampling &&
               algorithm == other.algorithm && parameters == other.parameters &&
               fbpFilter == other.fbpFilter && fbpCutoff == other.fbpCutoff &&
               variant == other.variant && colorMap == other.colorMap && window == other.window &&
               level == other.level && panel == other.panel;
    }
};

}  // namespace tomo::ui
