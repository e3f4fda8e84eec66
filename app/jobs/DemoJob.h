#pragma once
/// @file DemoJob.h
/// @brief The bundled demo: an analytic modified Shepp-Logan sinogram with Poisson noise, its
/// rasterised ground truth, and an FBP reconstruction with error metrics. Used by
/// `tomo demo`, by the headless path of `tomostation` and by the GUI on first start.
/// Plain C++ (no Qt): progress and cancellation come through the ExecContext.

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/recon/ReconService.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/metrics/Metrics.h"
#include "core/recon/Fbp.h"

namespace tomo::app {

/// What the demo dataset is made of (defaults: 256x256 image, 360 angles over 180 degrees,
/// 368 detector pixels, 4 rays per bin, 2e5 incident photons).
struct DemoSpec {
    int size = 256;
    int angles = 360;
    int detectors = 368;
    int raysPerBin = 4;
    double incidentCount = 2e5;      ///< 0 = noiseless
    double attenuationScale = 0.02;  ///< line integral units per pixel -> photons attenuation
    std::string phantom = "shepp-logan";
    std::uint32_t seed = 1;
};

/// The demo spec scaled to an n x n image: angles n * 360/256, detectors ceil(n sqrt 2) + 5 to
/// cover the image diagonal (n = 256 gives the defaults above).
DemoSpec demoSpecForSize(int n);

/// A dataset with its geometry and (for synthetic data) ground truth.
struct Dataset {
    ParallelGeometry geometry;
    VolumeGeometry grid;
    Sinograms sinograms;  ///< [slice][angle][detector]
    Volume truth;         ///< empty when unknown
    /// What looked wrong when the data were read (SinogramCheck.h); shown to the user.
    std::vector<std::string> warnings;
    /// The preprocessing applied when it was read (core describe(); empty: none).
    std::string preprocessing;
    /// The angle subset and grid chosen for reconstruction (DatasetSampling.h; empty: all
    /// angles, the detector's grid).
    std::string sampling;
};

/// Generates the demo dataset (deterministic for a given spec).
Result<Dataset> makeDemoDataset(const DemoSpec& spec, const ExecContext& ctx);

/// Writes / reads a dataset as files in @p dir: sinogram.tif (or .raw), truth.tif, geometry.txt
/// (angles in degrees, detector pitch, centre, grid). Atomic per file.
Status saveDataset(const Dataset& data, const std::filesystem::path& dir);
Result<Dataset> loadDataset(const std::filesystem::path& dir);

/// A one-pass reconstruction method besides FBP's filter and back-projector: FBP itself (the
/// default) or gridrec (FBP in Fourier space) with its schema values (AlgorithmSchema.h, which
/// include its filter) and the backend it runs on.
struct AnalyticMethod {
    std::string algorithm = "fbp";                  ///< "fbp" or "gridrec"
    std::map<std::string, std::string> parameters;  ///< by ParameterSpec::name (FBP: projector)
    std::string backend = "auto";
    FrontEnd frontEnd = FrontEnd::Cli;  ///< ReconRequest::frontEnd (the GUI's Session: Gui)
    /// When set, the result is streamed to this file a slab at a time (ReconOutput::path), as
    /// `tomo recon ... -o FILE` does, and not held in memory.
    std::filesystem::path outputPath;
};

/// An FBP (or gridrec) reconstruction with its timings, variant and (when truth is known)
/// metrics.
struct ReconOutcome {
    Volume image;
    FbpTimings timings;
    std::string variant;
    std::string algorithm;  ///< "fbp" or "gridrec" (reconstructDataset); empty otherwise
    bool hasMetrics = false;
    ImageMetrics metrics;  ///< of slice 0 against the truth, over metricsOver
    /// Where the metrics were measured: "the field of view (disc of radius 128.0 px about the
    /// axis)" (FieldOfView.h) for the GUI's jobs; empty: the whole image.
    std::string metricsOver;
    /// What a writer stores with the result (ReconReport::provenance).
    std::map<std::string, std::string> provenance;
    /// AnalyticMethod::outputPath when the result went there (image is then empty), and its
    /// shape {slices, ny, nx}.
    std::filesystem::path written;
    std::array<std::size_t, 3> writtenShape{};
};

/// The reconstruction request of @p data (a stack in memory, its geometry and grid, its truth
/// as the reference when the shapes match) for @p algorithm, kept in memory.
ReconRequest datasetRequest(std::shared_ptr<const Dataset> data, const std::string& algorithm);

/// Measures @p outcome's slice 0 against @p data's truth over the field of view
/// (FieldOfView.h) when the truth has the result's shape: hasMetrics, metrics and metricsOver
/// set; otherwise @p outcome is unchanged.
void measureOverFieldOfView(ReconOutcome& outcome, const Dataset& data);

/// Reconstructs @p data with FBP through @p service (ReconService.h) using the back-projector
/// @p variantId ("" = the engine's default for the data's shape), or by @p method (gridrec: the
/// variant is not used), and compares slice 0 with the truth when present, over the field of
/// view (measureOverFieldOfView).
Result<ReconOutcome> reconstructDataset(const ReconService& service,
                                        std::shared_ptr<const Dataset> data,
                                        const FbpOptions& options, const std::string& variantId,
                                        const ExecContext& ctx, const AnalyticMethod& method = {});
/// @p request made to run @p method (FBP keeps @p variantId and takes its parameters, the
/// projector; gridrec takes its parameters and backend): the one place both the full
/// reconstruction and the live preview set it.
void applyMethod(ReconRequest& request, const std::string& variantId, const AnalyticMethod& method);

}  // namespace tomo::app
