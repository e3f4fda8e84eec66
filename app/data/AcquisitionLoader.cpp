// Files to sinograms: acquisitions normalised and transposed, sinogram stacks as stored.
#include "app/data/AcquisitionLoader.h"

#include <utility>

#include "core/dataset/ProjectionData.h"

namespace tomo::app {

namespace {

Status checkStop(const ExecContext& ctx, const std::filesystem::path& path) {
    if (ctx.stop.stop_requested()) return cancelled("loading " + path.string() + " cancelled");
    return Status::ok();
}

}  // namespace

bool isAcquisitionFormat(const FileFormat& format) {
    return format.name == "hdf5";
}

PreprocessOptions acquisitionPreprocessing(PreprocessOptions requested, std::size_t flatCount,
                                           bool minusLog) {
    if (flatCount > 0) {
        requested.flatDark = true;
        requested.minusLog = minusLog;
        // Zingers are removed before flat/dark, on raw counts, where they are bright.
        if (requested.zingers) requested.zingers->sign = OutlierSign::Bright;
    }
    return requested;
}

Result<LoadedSinograms> readAcquisitionSinograms(const FormatRegistry& registry,
                                                 const std::filesystem::path& path,
                                                 const ReadOptions& options,
                                                 const PreprocessingFor& preprocessingFor,
                                                 const ExecContext& ctx) {
    Progress reading = ctx.progress ? ctx.progress->child(0.0, 0.6, "reading") : Progress();
    TOMO_ASSIGN_OR_RETURN(const FileFormat* format, registry.forPath(path));
    TOMO_ASSIGN_OR_RETURN(auto reader, registry.openAcquisition(path, options));
    TOMO_ASSIGN_OR_RETURN(ProjectionData data, reader->read());
    reading.done();
    TOMO_RETURN_IF_ERROR(checkStop(ctx, path));

    // Flat/dark normalisation and -log whenever the file has flats, plus the options given.
    LoadedSinograms out;
    const std::size_t flatCount = data.flats.dim(0);
    if (preprocessingFor) {
        TOMO_ASSIGN_OR_RETURN(out.preprocessing, preprocessingFor(flatCount));
    } else {
        out.preprocessing = acquisitionPreprocessing({}, flatCount, true);
    }
    Progress pre = ctx.progress ? ctx.progress->child(0.6, 0.9, "preprocessing") : Progress();
    ExecContext preCtx{ctx.threads, ctx.stop, ctx.progress ? &pre : nullptr};
    TOMO_RETURN_IF_ERROR(preprocess(data, out.preprocessing, preCtx).withContext(path.string()));
    TOMO_RETURN_IF_ERROR(checkStop(ctx, path));
    out.angles = std::move(data.angles);
    out.format = format->name;
    TOMO_ASSIGN_OR_RETURN(out.sinograms, toSinograms(data.projections));
    if (ctx.progress) ctx.progress->done();
    return out;
}

Result<LoadedSinograms> readSinogramFile(const FormatRegistry& registry,
                                         const std::filesystem::path& path,
                                         const ReadOptions& options, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(const FileFormat* format, registry.forPath(path));
    if (isAcquisitionFormat(*format))
        return readAcquisitionSinograms(registry, path, options, nullptr, ctx);
    LoadedSinograms out;
    out.format = format->name;
    Progress reading = ctx.progress ? ctx.progress->child(0.0, 1.0, "reading") : Progress();
    auto volume = registry.readVolume(path, options);
    if (!volume) {
        const std::string message = volume.status().message();
        // Name the file once: readers usually do, some do not.
        if (message.find(path.string()) != std::string::npos) return volume.status();
        return volume.status().withContext(path.string());
    }
    out.sinograms = std::move(*volume);
    reading.done();
    return out;
}

}  // namespace tomo::app
