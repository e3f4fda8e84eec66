// tomo project: parallel-beam sinograms of an image or a stack of slices (Joseph's projector).
#include <cmath>
#include <cstdio>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ProjectArgs.h"
#include "app/cli/ReadOptionsArgs.h"
#include "app/cli/ReconArgs.h"
#include "app/data/DataFormats.h"
#include "app/recon/ReconGrid.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/projectors/ForwardProjector.h"

namespace tomo::cli {

ArgParser projectParser() {
    ArgParser args("project",
                   "Parallel-beam sinograms of an image or a stack of slices: line integrals by "
                   "Joseph's method (linear interpolation along each pixel row the ray crosses; "
                   "ASTRA's \"linear\" projector), in the length unit of the detector pitch.");
    args.positional("IMAGE",
                    "square image or stack [slice][row][column] (.tif, .h5, .mha, .raw with "
                    "--shape, ...), as tomo recon writes it (row 0 at the top)");
    args.option("output", "OUTPUT",
                "sinograms [slice][angle][detector]: .raw (float32), .tif, .h5, ...", std::nullopt,
                "o");
    args.option("shape", "ROWSxCOLUMNS[xSLICES]", "shape of a raw input");
    args.option("dataset", "PATH", "HDF5 dataset to read (default /reconstruction/data)");
    args.option("angles", "START:STOP:COUNT", "projection angles in degrees, STOP exclusive");
    args.option("detectors", "N",
                "detector pixels (default: enough to span the image's width, so that tomo recon "
                "with the same options rebuilds the same grid)");
    addGridOptions(args);
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.flag("quiet", "print nothing but errors");
    args.epilog(
        "example:\n  tomo project slice.tif -o sino.tif --angles 0:180:360\n"
        "  tomo recon sino.tif --angles 0:180:360 -o back.tif");
    return args;
}

namespace {

/// The detector of @p args for @p angles and an image @p width pixels of @p pixel wide.
Result<ParallelGeometry> projectGeometry(const ArgParser& args, std::vector<double> angles,
                                         std::size_t width, std::size_t slices, double pixel) {
    ParallelGeometry::Params p;
    p.angles = std::move(angles);
    p.rows = static_cast<int>(slices);
    TOMO_ASSIGN_OR_RETURN(p.detectorPitch, args.getDouble("detector-pitch", 1.0, 1e-9, 1e9));
    const double span = static_cast<double>(width) * (pixel > 0 ? pixel : p.detectorPitch);
    const int spanning = static_cast<int>(std::ceil(span / p.detectorPitch - 1e-9));
    TOMO_ASSIGN_OR_RETURN(p.detectorCount, args.getInt("detectors", spanning, 1, 1 << 20));
    if (args.has("center")) {
        TOMO_ASSIGN_OR_RETURN(p.centerOfRotation, args.getDouble("center", 0, -1e7, 1e7));
    }
    return ParallelGeometry::create(std::move(p));
}

}  // namespace

Result<Sinograms> projectFromArgs(const ArgParser& args, const Volume& image,
                                  std::optional<std::vector<double>> angles,
                                  const ExecContext& ctx) {
    if (image.empty() || image.dim(1) != image.dim(2))
        return invalidArgument("project: the image must be square (N x N per slice), got " +
                               std::to_string(image.dim(1)) + " rows x " +
                               std::to_string(image.dim(2)) + " columns");
    if (!angles) {
        const auto spec = args.get("angles");
        if (!spec)
            return invalidArgument(
                "--angles START:STOP:COUNT is required (degrees, STOP "
                "exclusive)");
        TOMO_ASSIGN_OR_RETURN(angles, parseAngleSpec(*spec));
    }
    app::GridChoice choice;
    choice.size = static_cast<int>(image.dim(2));
    TOMO_ASSIGN_OR_RETURN(choice.pixelSize, args.getDouble("pixel-size", 0, 1e-9, 1e9));
    TOMO_RETURN_IF_ERROR(roiCenterFromArgs(args, choice));
    TOMO_ASSIGN_OR_RETURN(
        ParallelGeometry geometry,
        projectGeometry(args, std::move(*angles), image.dim(2), image.dim(0), choice.pixelSize));
    Result<VolumeGeometry> grid = app::gridFor(geometry, static_cast<int>(image.dim(0)), choice);
    if (!grid) return grid.status().withContext("--pixel-size/--roi-center");
    Sinograms out;
    TOMO_RETURN_IF_ERROR(forwardProjectJoseph(image, *grid, geometry, out, ctx));
    return out;
}

int runProject(int argc, char** argv) {
    ArgParser args = projectParser();
    return runCommand(args, argc, argv, [&]() -> Status {
        TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
        TOMO_ASSIGN_OR_RETURN(ReadOptions options, readOptionsFromArgs(args));
        const std::string input = *args.get("IMAGE");
        const auto output = args.get("output");
        if (!output) return invalidArgument("-o OUTPUT is required");
        TOMO_RETURN_IF_ERROR(checkWritableOutput(*output));
        TOMO_ASSIGN_OR_RETURN(const FileFormat* format, registry.forPath(*output));
        if (!format->writeVolume)
            return unsupported(*output + ": the " + format->name + " format cannot be written");
        TOMO_ASSIGN_OR_RETURN(Volume image, registry.readVolume(input, options));
        TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
        InterruptToStop interrupt;
        ExecContext ctx{threads, interrupt.token(), nullptr};
        TOMO_ASSIGN_OR_RETURN(Sinograms sino, projectFromArgs(args, image, std::nullopt, ctx));
        WriteOptions write;
        write.provenance["input"] = input;
        write.provenance["projected_by"] = "tomo project (Joseph)";
        write.provenance["angles"] = args.getOr("angles", "");
        TOMO_RETURN_IF_ERROR(registry.writeVolume(*output, sino, write));
        if (!args.has("quiet"))
            std::printf("projected %zu slice(s) of %zux%zu -> %zu angles x %zu detectors: %s\n",
                        image.dim(0), image.dim(1), image.dim(2), sino.dim(1), sino.dim(2),
                        output->c_str());
        return Status::ok();
    });
}

}  // namespace tomo::cli
