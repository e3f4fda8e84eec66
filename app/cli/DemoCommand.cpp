// tomo demo: the bundled demo dataset reconstructed headless, with its error against the phantom.
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/jobs/DemoJob.h"
#include "core/io/ImageIO.h"

namespace tomo::cli {
namespace {
namespace fs = std::filesystem;

/// <dir of this executable>/../share/tomostation/demo (build tree and installed tree alike).
fs::path bundledDemoDir() {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return exe.parent_path().parent_path() / "share" / "tomostation" / "demo";
}

Status demoBody(const ArgParser& args) {
    InterruptToStop interrupt;
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    TOMO_ASSIGN_OR_RETURN(int size, args.getInt("size", app::DemoSpec{}.size, 16, 8192));
    const bool customSize = args.has("size");
    const app::DemoSpec spec = app::demoSpecForSize(size);
    if (auto dir = args.get("write-data")) {
        ProgressBar bar(true);
        Progress progress(&bar);
        TOMO_ASSIGN_OR_RETURN(app::Dataset data,
                              app::makeDemoDataset(spec, {threads, interrupt.token(), &progress}));
        TOMO_RETURN_IF_ERROR(app::saveDataset(data, *dir));
        std::printf("wrote the demo dataset to %s\n", dir->c_str());
        return Status::ok();
    }

    const fs::path out = args.getOr("out", "out/demo");
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec) return ioError("cannot create " + out.string() + ": " + ec.message());
    if (access(out.c_str(), W_OK) != 0) return ioError("cannot write to " + out.string());

    ProgressBar bar(args.has("quiet"));
    Progress progress(&bar);
    const fs::path dataDir = args.getOr("data", bundledDemoDir().string());
    std::string source;
    Progress loadScope = progress.child(0.0, 0.3, "demo data");
    auto loadOrMake = [&]() -> Result<app::Dataset> {
        if (!customSize && !args.has("generate") && fs::exists(dataDir / "geometry.txt")) {
            source = "bundled dataset " + dataDir.string();
            return app::loadDataset(dataDir);
        }
        source = "generated " + std::to_string(spec.size) + "x" + std::to_string(spec.size) + " " +
                 spec.phantom;
        return app::makeDemoDataset(spec, {threads, interrupt.token(), &loadScope});
    };
    TOMO_ASSIGN_OR_RETURN(app::Dataset loaded, loadOrMake());
    auto data = std::make_shared<const app::Dataset>(std::move(loaded));

    FbpOptions options;
    TOMO_ASSIGN_OR_RETURN(options.filter.window, parseFilterWindow(args.getOr("filter", "ramp")));
    Progress reconScope = progress.child(0.3, 1.0, "reconstruction");
    const app::Engine engine;
    TOMO_ASSIGN_OR_RETURN(
        app::ReconOutcome outcome,
        app::reconstructDataset(app::ReconService(engine), data, options, args.getOr("variant", ""),
                                {threads, interrupt.token(), &reconScope}));
    bar.finish();

    TOMO_RETURN_IF_ERROR(writeVolume(
        out / (tiffSupported() ? "reconstruction.tif" : "reconstruction.raw"), outcome.image));
    // Previews share the truth's grey scale so that they can be compared by eye.
    double lo = 0, hi = 0;
    if (!data->truth.empty()) {
        lo = 0.0;
        hi = 0.5;
        TOMO_RETURN_IF_ERROR(writePngGray(out / "truth.png", data->truth.plane(0), lo, hi));
    }
    TOMO_RETURN_IF_ERROR(writePngGray(out / "reconstruction.png", outcome.image.plane(0), lo, hi));
    TOMO_RETURN_IF_ERROR(writePngGray(out / "sinogram.png", data->sinograms.plane(0)));

    const double updates =
        double(data->grid.nx) * data->grid.ny * data->grid.nz * data->geometry.angleCount();
    std::printf("TomoStation demo (headless): %s\n", source.c_str());
    std::printf(
        "  FBP (%s filter) with %s: %.3f s (filtering %.3f s, back-projection %.3f s, %.2f GU/s)\n",
        filterWindowName(options.filter.window), outcome.variant.c_str(), outcome.timings.total,
        outcome.timings.filtering, outcome.timings.backProjection,
        updates / std::max(outcome.timings.backProjection, 1e-9) * 1e-9);
    if (outcome.hasMetrics)
        std::printf(
            "  error against the phantom: RMSE %.5f  PSNR %.2f dB  SSIM %.4f  max error %.4f\n",
            outcome.metrics.rmse, outcome.metrics.psnr, outcome.metrics.ssim,
            outcome.metrics.maxAbsError);
    std::printf("  wrote %s/{reconstruction.%s,reconstruction.png,sinogram.png%s}\n", out.c_str(),
                tiffSupported() ? "tif" : "raw", data->truth.empty() ? "" : ",truth.png");
    return Status::ok();
}

}  // namespace

int runDemo(int argc, char** argv) {
    ArgParser args(
        "demo",
        "Reconstructs the bundled demo dataset (a modified Shepp-Logan phantom's analytic "
        "sinogram\n"
        "with Poisson noise) by FBP, writes the result and PNG previews, and prints the error\n"
        "against the phantom. This is what `tomostation` does when there is no display.");
    args.option("out", "DIR", "output folder", "out/demo");
    args.option(
        "data", "DIR",
        "dataset folder with sinogram.tif, geometry.txt, truth.tif (default: the bundled one in "
        "<bin>/../share/tomostation/demo)");
    args.option("size", "N", "generate an NxN demo instead of loading the bundled one");
    args.flag("generate", "generate the demo data instead of loading the bundled copy");
    args.option("write-data", "DIR", "only generate the demo dataset into DIR (used by the build)");
    args.option("filter", "NAME", "ramp | shepp-logan | cosine | hamming | hann", "ramp");
    args.option("variant", "ID", "back-projector variant");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.flag("quiet", "no progress bar");
    return runCommand(args, argc, argv, [&] { return demoBody(args); });
}

}  // namespace tomo::cli
