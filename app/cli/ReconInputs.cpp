// tomo recon's input: sinogram stacks, or acquisitions normalised and transposed to sinograms.
#include "app/cli/ReconInputs.h"

#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/cli/DataFormats.h"
#include "app/cli/PreprocessArgs.h"
#include "core/dataset/ProjectionData.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::cli {

Result<Sinograms> readReconInput(const ArgParser& args, ReconInputInfo* info) {
    const std::string input = *args.get("INPUT");
    *info = {};
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
    auto format = registry.forPath(input);
    if (!format || (*format)->name != "hdf5") {
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
    TOMO_ASSIGN_OR_RETURN(auto reader, registry.openAcquisition(input, options));
    TOMO_ASSIGN_OR_RETURN(ProjectionData data, reader->read());
    // Flat/dark normalisation and -log whenever the file has flats, plus the options given.
    TOMO_ASSIGN_OR_RETURN(PreprocessOptions pre, acquisitionPreprocessing(args, data.flats.dim(0)));
    TOMO_RETURN_IF_ERROR(preprocess(data, pre, ExecContext{}).withContext(input));
    info->angles = data.angles;
    info->preprocessing = pre;
    return toSinograms(data.projections);
}

Result<PreprocessOptions> acquisitionPreprocessing(const ArgParser& args, std::size_t flatCount) {
    TOMO_ASSIGN_OR_RETURN(PreprocessOptions pre, preprocessOptionsFromArgs(args, flatCount));
    if (flatCount > 0) {
        pre.flatDark = true;
        pre.minusLog = !args.has("no-log");
    }
    return pre;
}

Result<std::vector<double>> reconAngles(const ArgParser& args,
                                        const std::vector<double>& fileAngles) {
    if (auto spec = args.get("angles")) return parseAngleSpec(*spec);
    if (!fileAngles.empty()) return fileAngles;
    return invalidArgument("--angles START:STOP:COUNT is required (degrees, STOP exclusive)");
}

}  // namespace tomo::cli
