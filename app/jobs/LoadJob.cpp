#include "app/jobs/LoadJob.h"

#include <cmath>
#include <string>
#include <utility>

#include "app/data/AcquisitionLoader.h"
#include "app/data/DataFormats.h"
#include "app/jobs/SinogramCheck.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/preprocess/SinogramPreprocess.h"

namespace tomo::app {

Result<std::string> dataFileFormat(const std::filesystem::path& path) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
    TOMO_ASSIGN_OR_RETURN(const FileFormat* format, registry.forPath(path));
    return format->name;
}

bool LoadRequest::operator==(const LoadRequest& other) const {
    return path == other.path && shape == other.shape && firstDegrees == other.firstDegrees &&
           endDegrees == other.endDegrees && angleUnit == other.angleUnit &&
           format == other.format && minusLog == other.minusLog &&
           describe(preprocessing) == describe(other.preprocessing);
}

namespace {

/// The angles the request states for @p count projections (radians, uniform over [first, end)).
Result<std::vector<double>> statedAngles(const LoadRequest& request, std::size_t count) {
    if (!(std::isfinite(request.firstDegrees) && std::isfinite(request.endDegrees)) ||
        request.endDegrees == request.firstDegrees)
        return invalidArgument(request.path.string() + ": the angle range [" +
                               std::to_string(request.firstDegrees) + ", " +
                               std::to_string(request.endDegrees) + ") degrees is empty");
    return uniformAngles(request.firstDegrees * kPi / 180.0, request.endDegrees * kPi / 180.0,
                         static_cast<int>(count));
}

}  // namespace

Result<Dataset> loadDataFile(const LoadRequest& request, const ExecContext& ctx) {
    const std::string name = request.path.string();
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
    ReadOptions options;
    options.shape = request.shape;
    options.angleUnit = request.angleUnit;
    TOMO_ASSIGN_OR_RETURN(const FileFormat* format, registry.forPath(request.path));
    if (!request.format.empty() && format->name != request.format)
        return invalidArgument(name + ": this build reads it as " + format->name + ", not as " +
                               request.format);
    if (format->name == "raw" && !options.shape)
        return invalidArgument(name + ": a raw file needs its shape (slices, angles, detectors)");
    LoadedSinograms loaded;
    if (isAcquisitionFormat(*format)) {
        auto steps = [&](std::size_t flats) -> Result<PreprocessOptions> {
            PreprocessOptions all =
                acquisitionPreprocessing(request.preprocessing, flats, request.minusLog);
            TOMO_RETURN_IF_ERROR(all.validate());
            return all;
        };
        TOMO_ASSIGN_OR_RETURN(
            loaded, readAcquisitionSinograms(registry, request.path, options, steps, ctx));
    } else {
        TOMO_ASSIGN_OR_RETURN(loaded, readSinogramFile(registry, request.path, options, ctx));
        if (!request.preprocessing.empty()) {
            // The stack stores no angles: those stated, of which angle selection keeps a subset.
            loaded.preprocessing = forSinograms(request.preprocessing);
            TOMO_ASSIGN_OR_RETURN(loaded.angles, statedAngles(request, loaded.sinograms.dim(1)));
            TOMO_RETURN_IF_ERROR(
                preprocessSinograms(loaded.sinograms, loaded.angles, loaded.preprocessing, ctx)
                    .withContext(name));
        }
    }
    if (ctx.stop.stop_requested()) return cancelled("loading " + name + " cancelled");

    const Sinograms& sino = loaded.sinograms;
    if (sino.empty()) return invalidData(name + ": holds no sinogram values");
    TOMO_ASSIGN_OR_RETURN(std::vector<std::string> warnings, checkSinograms(sino, name));
    ParallelGeometry::Params params;
    if (!loaded.angles.empty()) {
        params.angles = std::move(loaded.angles);
    } else {
        TOMO_ASSIGN_OR_RETURN(params.angles, statedAngles(request, sino.dim(1)));
    }
    if (params.angles.size() != sino.dim(1))
        return invalidData(name + ": " + std::to_string(params.angles.size()) + " angles for " +
                           std::to_string(sino.dim(1)) + " projections");
    params.detectorCount = static_cast<int>(sino.dim(2));
    params.rows = static_cast<int>(sino.dim(0));
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    const VolumeGeometry grid = VolumeGeometry::forDetector(geometry, params.detectorCount);
    Dataset data{std::move(geometry), grid, std::move(loaded.sinograms), Volume(),
                 std::move(warnings)};
    if (!loaded.preprocessing.empty()) data.preprocessing = describe(loaded.preprocessing);
    return data;
}

Result<Dataset> loadDatasetFolder(const std::filesystem::path& folder,
                                  const PreprocessOptions& preprocessing, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(Dataset data, loadDataset(folder));
    if (preprocessing.empty()) return data;
    const PreprocessOptions steps = forSinograms(preprocessing);
    const std::string name = folder.string();
    if (!keepsShape(steps))
        return invalidArgument(name +
                               ": cropping, binning and angle selection of a dataset folder are "
                               "set in Region and sampling (it keeps the folder's geometry)");
    std::vector<double> angles = data.geometry.angles();
    TOMO_RETURN_IF_ERROR(preprocessSinograms(data.sinograms, angles, steps, ctx).withContext(name));
    if (ctx.stop.stop_requested()) return cancelled("loading " + name + " cancelled");
    data.preprocessing = describe(steps);
    return data;
}

}  // namespace tomo::app
