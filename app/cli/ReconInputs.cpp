// tomo recon's input: sinogram stacks, or acquisitions normalised and transposed to sinograms.
#include "app/cli/ReconInputs.h"

#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/DataFormats.h"
#include "app/cli/PreprocessArgs.h"
#include "app/data/AcquisitionLoader.h"
#include "core/dataset/ProjectionData.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::cli {

Result<Sinograms> readReconInput(const ArgParser& args, ReconInputInfo* info) {
    const std::string input = *args.get("INPUT");
    *info = {};
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
    auto format = registry.forPath(input);
    if (!format || !app::isAcquisitionFormat(**format)) {
        TOMO_ASSIGN_OR_RETURN(PreprocessOptions pre, preprocessOptionsFromArgs(args, 0));
        if (!pre.empty())
            return invalidArgument(input +
                                   ": preprocessing options need projections with flats "
                                   "(an HDF5 acquisition); this input holds sinograms");
        return readStack(input, args.get("shape"));
    }

    ReadOptions options;
    if (auto unit = args.get("angle-unit")) {
        TOMO_ASSIGN_OR_RETURN(options.angleUnit, parseAngleUnit(*unit));
    }
    // Flat/dark normalisation and -log whenever the file has flats, plus the options given
    // (app/data/AcquisitionLoader.h, shared with the GUI's File > Open).
    TOMO_ASSIGN_OR_RETURN(
        app::LoadedSinograms loaded,
        app::readAcquisitionSinograms(
            registry, input, options,
            [&args](std::size_t flatCount) { return acquisitionPreprocessing(args, flatCount); },
            ExecContext{}));
    info->angles = std::move(loaded.angles);
    info->preprocessing = loaded.preprocessing;
    return std::move(loaded.sinograms);
}

Result<PreprocessOptions> acquisitionPreprocessing(const ArgParser& args, std::size_t flatCount) {
    TOMO_ASSIGN_OR_RETURN(PreprocessOptions pre, preprocessOptionsFromArgs(args, flatCount));
    return app::acquisitionPreprocessing(std::move(pre), flatCount, !args.has("no-log"));
}

Result<std::vector<double>> reconAngles(const ArgParser& args,
                                        const std::vector<double>& fileAngles) {
    if (auto spec = args.get("angles")) return parseAngleSpec(*spec);
    if (!fileAngles.empty()) return fileAngles;
    return invalidArgument("--angles START:STOP:COUNT is required (degrees, STOP exclusive)");
}

}  // namespace tomo::cli
