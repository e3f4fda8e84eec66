// tomo center: the centre of rotation of one sinogram by the three estimators of core/centering.
#include <cstdio>

#include "app/cli/ArgParser.h"
#include "app/cli/CenterArgs.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ReadOptionsArgs.h"
#include "app/data/AcquisitionLoader.h"
#include "app/data/DataFormats.h"
#include "core/centering/CenterOfRotation.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::cli {
namespace {

void print(const Result<CenterEstimate>& e, const char* name) {
    if (e.isOk())
        std::printf("  %-18s centre %9.3f px   confidence %.2f\n", e->method.c_str(), e->center,
                    e->confidence);
    else
        std::printf("  %-18s n/a (%s)\n", name, e.status().message().c_str());
}

/// The input as sinograms: an acquisition (DXchange, NXtomo) with its angles, or a sinogram
/// stack (every other format, or an HDF5 file with --dataset) without.
Result<app::LoadedSinograms> readCenterInput(const ArgParser& args, const FormatRegistry& registry,
                                             const ReadOptions& options) {
    const std::string path = *args.get("SINO");
    if (!options.dataset.empty()) {
        app::LoadedSinograms loaded;
        TOMO_ASSIGN_OR_RETURN(loaded.sinograms, registry.readVolume(path, options));
        return loaded;
    }
    return app::readSinogramFile(registry, path, options, ExecContext{});
}

/// The angles (radians): --angles when given, else the file's; their count must match.
Result<std::vector<double>> centerAngles(const ArgParser& args,
                                         const app::LoadedSinograms& loaded) {
    const std::size_t rows = loaded.sinograms.dim(1);
    std::vector<double> angles = loaded.angles;
    if (const auto spec = args.get("angles")) {
        TOMO_ASSIGN_OR_RETURN(angles, parseAngleSpec(*spec));
    } else if (angles.empty()) {
        return invalidArgument(*args.get("SINO") +
                               " stores no angles: give them with --angles START:STOP:COUNT "
                               "(degrees, STOP exclusive), e.g. --angles 0:180:" +
                               std::to_string(rows));
    }
    if (angles.size() != rows)
        return invalidArgument(
            std::string(args.get("angles") ? "--angles gives " : "the file has ") +
            std::to_string(angles.size()) + " angles but each sinogram of " + *args.get("SINO") +
            " has " + std::to_string(rows) + " rows (views)");
    return angles;
}

}  // namespace

ArgParser centerParser() {
    ArgParser args("center",
                   "Estimates the centre of rotation of one sinogram (line integrals) by Vo's "
                   "Fourier metric, 0/180-degree phase correlation and an FBP sharpness sweep.");
    args.positional("SINO",
                    "sinogram stack [slice][angle][detector] (.tif, .raw with --shape, .h5 with "
                    "--dataset) or an HDF5 acquisition (DXchange or NXtomo: flat/dark "
                    "normalised, -log, angles read from the file)");
    args.option("shape", "ANGLESxDETECTORS[xSLICES]", "shape of a raw input");
    args.option("dataset", "PATH", "HDF5 dataset to read as a sinogram stack");
    args.option("angles", "START:STOP:COUNT",
                "projection angles in degrees, STOP exclusive (default: the file's own angles)");
    args.option("angle-unit", "UNIT", "auto | deg | rad: unit of an HDF5 input's angles", "auto");
    args.option("slice", "S", "slice of the stack (detector row of an acquisition) to use", "0");
    args.option("radius", "R", "search radius in pixels (0 = width / 8)", "0");
    args.option("method", "M", "vo-fourier | phase-correlation | sharpness | all", "all");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.epilog(
        "The centre is in detector pixels from the centre of pixel 0, as tomo recon "
        "--center takes it (docs/preprocessing.md).\nexamples:\n  tomo center "
        "sino.tif --angles 0:360:720\n  tomo center scan.h5 --slice 100");
    return args;
}

Result<CenterEstimates> centerFromArgs(const ArgParser& args, const Array3<float>& stack,
                                       const std::vector<double>& angles, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(int slice, args.getInt("slice", 0, 0, 1 << 30));
    if (static_cast<std::size_t>(slice) >= stack.dim(0))
        return invalidArgument("--slice " + std::to_string(slice) + ": the stack has " +
                               std::to_string(stack.dim(0)) + " slices");
    TOMO_ASSIGN_OR_RETURN(double radius, args.getDouble("radius", 0, 0, 1e6));
    const View2<const float> sino = stack.plane(static_cast<std::size_t>(slice));
    VoCenterOptions vo;
    vo.searchRadius = radius;
    SharpnessSweepOptions sweep;
    sweep.searchRadius = radius;
    const std::string method = args.getOr("method", "all");
    if (method != "all" && method != "vo-fourier" && method != "phase-correlation" &&
        method != "sharpness")
        return invalidArgument(
            "--method: expected vo-fourier, phase-correlation, sharpness or "
            "all, got '" +
            method + "'");
    auto run = [&](const std::string& name, auto estimate) -> Result<CenterEstimate> {
        if (method != "all" && method != name) return unsupported("not asked for (--method)");
        return estimate();
    };
    CenterEstimates e{
        run("vo-fourier", [&] { return estimateCenterVo(sino, angles, vo, ctx); }),
        run("phase-correlation",
            [&] { return estimateCenterPhaseCorrelation(sino, angles, {}, ctx); }),
        run("sharpness", [&] { return estimateCenterSharpness(sino, angles, sweep, ctx); })};
    TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
    return e;
}

int runCenter(int argc, char** argv) {
    ArgParser args = centerParser();
    return runCommand(args, argc, argv, [&]() -> Status {
        TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
        TOMO_ASSIGN_OR_RETURN(ReadOptions readOptions, readOptionsFromArgs(args));
        TOMO_ASSIGN_OR_RETURN(app::LoadedSinograms loaded,
                              readCenterInput(args, registry, readOptions));
        TOMO_ASSIGN_OR_RETURN(std::vector<double> angles, centerAngles(args, loaded));
        const Sinograms& stack = loaded.sinograms;
        TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
        InterruptToStop interrupt;
        ExecContext ctx{threads, interrupt.token(), nullptr};
        TOMO_ASSIGN_OR_RETURN(CenterEstimates e, centerFromArgs(args, stack, angles, ctx));
        const int slice = *args.getInt("slice", 0, 0, 1 << 30);
        const View2<const float> sino = stack.plane(static_cast<std::size_t>(slice));
        std::printf(
            "centre of rotation of slice %d (%zu angles x %zu pixels; detector centre %.1f):\n",
            slice, sino.rows(), sino.cols(), 0.5 * static_cast<double>(sino.cols() - 1));
        const std::string method = args.getOr("method", "all");
        if (method == "all" || method == "vo-fourier") print(e.vo, "vo-fourier");
        if (method == "all" || method == "phase-correlation")
            print(e.phaseCorrelation, "phase-correlation");
        if (method == "all" || method == "sharpness") print(e.sharpness, "sharpness-entropy");
        if (!e.vo.isOk() && !e.phaseCorrelation.isOk() && !e.sharpness.isOk())
            return (method == "phase-correlation" ? e.phaseCorrelation
                    : method == "sharpness"       ? e.sharpness
                                                  : e.vo)
                .status();
        return Status::ok();
    });
}

}  // namespace tomo::cli
