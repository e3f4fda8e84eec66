#include "app/jobs/DemoJob.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "app/jobs/FieldOfView.h"
#include "core/io/ImageIO.h"
#include "core/phantom/Phantom.h"

namespace tomo::app {
namespace fs = std::filesystem;

DemoSpec demoSpecForSize(int n) {
    DemoSpec spec;
    spec.size = n;
    spec.angles = static_cast<int>(std::lround(n * 360.0 / 256.0));
    spec.detectors = static_cast<int>(std::ceil(n * std::sqrt(2.0))) + 5;
    return spec;
}

Result<Dataset> makeDemoDataset(const DemoSpec& spec, const ExecContext& ctx) {
    if (spec.size < 8 || spec.angles < 2 || spec.detectors < 8 || spec.raysPerBin < 1)
        return invalidArgument("demo: size, angles and detectors must be at least 8, 2 and 8");
    TOMO_ASSIGN_OR_RETURN(Phantom phantom, Phantom::fromName(spec.phantom, 0.5 * spec.size));
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, spec.angles);
    params.detectorCount = spec.detectors;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    VolumeGeometry grid = VolumeGeometry::forDetector(geometry, spec.size);

    Progress projectScope = ctx.progress ? ctx.progress->child(0.0, 0.8, "projecting") : Progress();
    ExecContext pctx{ctx.threads, ctx.stop, ctx.progress ? &projectScope : nullptr};
    Sinograms sino;
    TOMO_RETURN_IF_ERROR(phantom.project(geometry, sino, spec.raysPerBin, pctx));
    if (spec.incidentCount > 0)
        TOMO_RETURN_IF_ERROR(
            addPoissonNoise(sino, spec.incidentCount, spec.seed, spec.attenuationScale));
    Progress rasterScope =
        ctx.progress ? ctx.progress->child(0.8, 1.0, "ground truth") : Progress();
    ExecContext rctx{ctx.threads, ctx.stop, ctx.progress ? &rasterScope : nullptr};
    Volume truth;
    TOMO_RETURN_IF_ERROR(phantom.rasterize(grid, truth, 4, rctx));
    return Dataset{std::move(geometry), grid, std::move(sino), std::move(truth)};
}

Status saveDataset(const Dataset& data, const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return ioError("cannot create " + dir.string() + ": " + ec.message());
    TOMO_RETURN_IF_ERROR(writeVolume(dir / "sinogram.tif", data.sinograms));
    if (!data.truth.empty()) TOMO_RETURN_IF_ERROR(writeVolume(dir / "truth.tif", data.truth));
    const ParallelGeometry& g = data.geometry;
    std::ostringstream os;
    os << std::setprecision(17);
    os << "# TomoStation dataset geometry (docs/geometry.md); angles in degrees\n";
    os << "detector_count = " << g.detectorCount() << "\n";
    os << "detector_pitch = " << g.detectorPitch() << "\n";
    os << "center_of_rotation = " << g.centerOfRotation() << "\n";
    os << "grid = " << data.grid.nx << " " << data.grid.ny << " " << data.grid.nz << "\n";
    os << "voxel_size = " << data.grid.voxelSize << "\n";
    os << "angles =";
    for (double a : g.angles())
        os << " " << a * 180.0 / kPi;
    os << "\n";
    const std::string text = os.str();
    return writeFileAtomic(dir / "geometry.txt", text.data(), text.size());
}

namespace {

Result<std::map<std::string, std::string>> readKeyValues(const fs::path& file) {
    std::ifstream in(file);
    if (!in) return notFound(file.string() + ": cannot open");
    std::map<std::string, std::string> kv;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        auto eq = line.find('=');
        if (eq == std::string::npos)
            return invalidData(file.string() + ":" + std::to_string(n) +
                               ": expected 'key = value'");
        auto trim = [](std::string s) {
            s.erase(0, s.find_first_not_of(" \t"));
            s.erase(s.find_last_not_of(" \t\r") + 1);
            return s;
        };
        kv[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
    }
    return kv;
}

}  // namespace

Result<Dataset> loadDataset(const fs::path& dir) {
    const fs::path geomFile = dir / "geometry.txt";
    TOMO_ASSIGN_OR_RETURN(auto kv, readKeyValues(geomFile));
    for (const char* key :
         {"detector_count", "detector_pitch", "center_of_rotation", "grid", "angles"})
        if (!kv.count(key)) return invalidData(geomFile.string() + ": missing '" + key + "'");
    ParallelGeometry::Params params;
    std::istringstream angles(kv["angles"]);
    for (double a; angles >> a;)
        params.angles.push_back(a * kPi / 180.0);
    VolumeGeometry grid;
    try {
        params.detectorCount = std::stoi(kv["detector_count"]);
        params.detectorPitch = std::stod(kv["detector_pitch"]);
        params.centerOfRotation = std::stod(kv["center_of_rotation"]);
        std::istringstream gs(kv["grid"]);
        gs >> grid.nx >> grid.ny >> grid.nz;
        grid.voxelSize =
            kv.count("voxel_size") ? std::stod(kv["voxel_size"]) : params.detectorPitch;
    } catch (...) {
        return invalidData(geomFile.string() + ": a numeric field does not parse");
    }
    TOMO_RETURN_IF_ERROR(grid.validate().withContext(geomFile.string()));
    TOMO_ASSIGN_OR_RETURN(Sinograms sino, readTiff(dir / "sinogram.tif"));
    params.rows = static_cast<int>(sino.dim(0));
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    if (sino.dim(1) != params.angles.size() ||
        sino.dim(2) != static_cast<std::size_t>(params.detectorCount))
        return invalidData((dir / "sinogram.tif").string() + ": pages of " +
                           std::to_string(sino.dim(1)) + "x" + std::to_string(sino.dim(2)) +
                           " do not match " + std::to_string(params.angles.size()) + " angles x " +
                           std::to_string(params.detectorCount) + " detectors in geometry.txt");
    grid.nz = static_cast<int>(sino.dim(0));
    Volume truth;
    if (fs::exists(dir / "truth.tif")) {
        TOMO_ASSIGN_OR_RETURN(truth, readTiff(dir / "truth.tif"));
    }
    return Dataset{std::move(geometry), grid, std::move(sino), std::move(truth)};
}

ReconRequest datasetRequest(std::shared_ptr<const Dataset> data, const std::string& algorithm) {
    ReconRequest request(memorySource(std::shared_ptr<const Sinograms>(data, &data->sinograms)),
                         data->geometry, data->grid);
    request.algorithm = algorithm;
    if (!data->truth.empty()) request.reference = std::shared_ptr<const Volume>(data, &data->truth);
    if (!data->preprocessing.empty())
        request.output.provenance["preprocessing"] = data->preprocessing;
    if (!data->sampling.empty()) request.output.provenance["sampling"] = data->sampling;
    return request;
}

void applyMethod(ReconRequest& request, const std::string& variantId,
                 const AnalyticMethod& method) {
    request.algorithm = method.algorithm;
    request.frontEnd = method.frontEnd;
    if (method.algorithm == "fbp") {
        request.variant = variantId;
        request.parameters = method.parameters;  // FBP's own: projector
        return;
    }
    request.parameters = method.parameters;
    request.backend = method.backend;
}

Result<ReconOutcome> reconstructDataset(const ReconService& service,
                                        std::shared_ptr<const Dataset> data,
                                        const FbpOptions& options, const std::string& variantId,
                                        const ExecContext& ctx, const AnalyticMethod& method) {
    ReconRequest request = datasetRequest(data, "fbp");
    request.fbp = options;
    applyMethod(request, variantId, method);
    request.output.path = method.outputPath;
    TOMO_ASSIGN_OR_RETURN(ReconReport report, service.run(request, {}, ctx));
    ReconOutcome outcome;
    outcome.image = std::move(report.image);
    outcome.timings = report.timings;
    outcome.variant = report.variant;
    outcome.algorithm = report.algorithm;
    outcome.provenance = std::move(report.provenance);
    if (report.metrics) {
        outcome.metrics = *report.metrics;
        outcome.hasMetrics = true;
    }
    if (!method.outputPath.empty()) {
        outcome.written = method.outputPath;
        outcome.writtenShape = report.shape;
        return outcome;
    }
    measureOverFieldOfView(outcome, *data);
    return outcome;
}

void measureOverFieldOfView(ReconOutcome& outcome, const Dataset& data) {
    if (data.truth.empty() || outcome.image.empty() || data.truth.dim(1) != outcome.image.dim(1) ||
        data.truth.dim(2) != outcome.image.dim(2))
        return;
    const FieldOfView fov = fieldOfView(data.geometry, data.grid);
    Result<ImageMetrics> m = fieldOfViewMetrics(outcome.image.plane(0), data.truth.plane(0), fov);
    if (!m) return;
    outcome.metrics = *m;
    outcome.hasMetrics = true;
    outcome.metricsOver = fov.describe();
}

}  // namespace tomo::app
