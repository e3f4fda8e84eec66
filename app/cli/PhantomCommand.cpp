// tomo phantom: analytic parallel-beam sinograms of a phantom, and its rasterised ground truth.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ConeArgs.h"
#include "app/cli/PhantomArgs.h"
#include "core/io/ImageIO.h"
#include "core/phantom/Phantom.h"

namespace tomo::cli {
namespace {

/// The parallel-beam sinograms (and truth) of @p args.
Result<PhantomResult> parallelPhantom(const ArgParser& args, bool withTruth,
                                      const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(int size, args.getInt("size", 256, 4, 1 << 16));
    const int defaultDetectors = (static_cast<int>(std::ceil(size * std::sqrt(2.0))) + 2) | 1;
    TOMO_ASSIGN_OR_RETURN(int detectors, args.getInt("detectors", defaultDetectors, 1, 1 << 20));
    TOMO_ASSIGN_OR_RETURN(int slices, args.getInt("slices", 1, 1, 1 << 16));
    TOMO_ASSIGN_OR_RETURN(int rays, args.getInt("rays", 4, 1, 64));
    TOMO_ASSIGN_OR_RETURN(int supersample, args.getInt("supersample", 4, 1, 16));
    TOMO_ASSIGN_OR_RETURN(double noise, args.getDouble("noise", 0, 0, 1e15));
    TOMO_ASSIGN_OR_RETURN(double attenuation, args.getDouble("attenuation-scale", 0.02, 1e-9, 1e9));
    TOMO_ASSIGN_OR_RETURN(int seed, args.getInt("seed", 1, 0, 2147483647));
    const int defaultAngles = static_cast<int>(std::ceil(size * kPi / 2));
    PhantomResult out;
    out.size = size;
    out.angleSpec = args.getOr("angles", "0:180:" + std::to_string(defaultAngles));

    ParallelGeometry::Params params;
    TOMO_ASSIGN_OR_RETURN(params.angles, parseAngleSpec(out.angleSpec));
    params.detectorCount = detectors;
    params.rows = slices;
    if (args.has("center")) {
        TOMO_ASSIGN_OR_RETURN(params.centerOfRotation, args.getDouble("center", 0, -1e7, 1e7));
    }
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    TOMO_ASSIGN_OR_RETURN(Phantom phantom,
                          Phantom::fromName(args.getOr("phantom", "shepp-logan"), 0.5 * size));
    Progress projectScope, rasterScope;
    ExecContext pctx = ctx, rctx = ctx;
    if (ctx.progress) {
        projectScope = ctx.progress->child(0.0, withTruth ? 0.8 : 1.0, "projecting");
        rasterScope = ctx.progress->child(0.8, 1.0, "ground truth");
        pctx.progress = &projectScope;
        rctx.progress = &rasterScope;
    }
    TOMO_RETURN_IF_ERROR(phantom.project(geometry, out.data, rays, pctx));
    if (noise > 0)
        TOMO_RETURN_IF_ERROR(addPoissonNoise(out.data, noise, static_cast<std::uint32_t>(seed),
                                             attenuation, &out.clamped));
    if (withTruth) {
        VolumeGeometry grid = VolumeGeometry::forDetector(geometry, size);
        TOMO_RETURN_IF_ERROR(phantom.rasterize(grid, out.truth, supersample, rctx));
    }
    out.parallel = std::move(geometry);
    return out;
}

Status phantomBody(const ArgParser& args) {
    if (args.has("cone")) return conePhantom(args);
    auto output = args.get("output");
    if (!output) return invalidArgument("-o SINO is required");
    TOMO_RETURN_IF_ERROR(checkWritableOutput(*output));
    auto truthPath = args.get("truth");
    if (truthPath) TOMO_RETURN_IF_ERROR(checkWritableOutput(*truthPath));
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));

    InterruptToStop interrupt;
    ProgressBar bar(args.has("quiet"));
    Progress progress(&bar);
    TOMO_ASSIGN_OR_RETURN(
        PhantomResult p,
        phantomFromArgs(args, truthPath.has_value(), {threads, interrupt.token(), &progress}));
    bar.finish();
    TOMO_RETURN_IF_ERROR(writeVolume(*output, p.data));
    if (truthPath) TOMO_RETURN_IF_ERROR(writeVolume(*truthPath, p.truth));

    const ParallelGeometry& geometry = *p.parallel;
    const int detectors = geometry.detectorCount(), slices = geometry.rows();
    std::printf(
        "wrote %s: %d angles x %d detectors x %d slice(s), float32 [slice][angle][detector]\n",
        output->c_str(), geometry.angleCount(), detectors, slices);
    if (p.clamped)
        std::printf("noise: %zu rays had zero counts (clamped to 0.5 photons)\n", p.clamped);
    if (truthPath)
        std::printf("wrote %s: %dx%d x %d slice(s) ground truth\n", truthPath->c_str(), p.size,
                    p.size, slices);
    std::string shape = std::to_string(geometry.angleCount()) + "x" + std::to_string(detectors);
    if (slices > 1) shape += 'x' + std::to_string(slices);
    // An axis off the detector's centre must reach tomo recon too, or the hint reconstructs
    // with the wrong centre.
    const std::string center = args.has("center") ? " --center " + *args.get("center") : "";
    std::printf("reconstruct with: tomo recon %s --shape %s --angles %s --size %d%s -o rec.raw\n",
                output->c_str(), shape.c_str(), p.angleSpec.c_str(), p.size, center.c_str());
    return Status::ok();
}

}  // namespace

ArgParser phantomParser() {
    ArgParser args(
        "phantom",
        "Computes the exact parallel-beam line integrals of an analytic phantom (closed form per\n"
        "ellipse, averaged over several rays per detector bin) and its supersampled ground truth.\n"
        "Units: pixels of the NxN image (detector pitch = pixel size = 1).");
    args.option("output", "SINO",
                "sinogram stack to write (.raw float32 [slice][angle][detector], or .tif)",
                std::nullopt, "o");
    args.option("truth", "FILE", "ground truth image to write (.raw [slice][y][x] or .tif)");
    args.option(
        "phantom", "NAME",
        "shepp-logan | shepp-logan-3d | ellipses[:COUNT[:SEED]] | disc | discs (a low-contrast "
        "disc set)",
        "shepp-logan");
    args.option("size", "N", "image size; the phantom spans the NxN grid", "256");
    args.option("angles", "START:STOP:COUNT",
                "angles in degrees, STOP exclusive (default 0:180:ceil(N*pi/2))");
    args.option("detectors", "D", "detector pixels (default: ceil(N*sqrt(2)) + 2, odd)");
    args.option("slices", "S", "detector rows / slices (3-D phantoms vary with z)", "1");
    args.option("rays", "R", "rays per detector bin", "4");
    args.option("center", "C", "rotation axis on the detector in pixels (default: (D-1)/2)");
    args.option("noise", "N0", "incident photons per ray for Poisson noise, 0 = none", "0");
    args.option("attenuation-scale", "K",
                "attenuation per unit density and pixel for the noise model", "0.02");
    args.option("seed", "S", "noise seed", "1");
    args.option("supersample", "K", "ground-truth samples per pixel axis", "4");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.flag("quiet", "no progress bar");
    addConePhantomOptions(args);
    args.epilog(
        "cone beam (RTK's frame, docs/cone-beam.md):\n"
        "  tomo phantom --cone -o proj.mha --geometry geometry.xml --truth truth.mha --size 128 "
        "--views 180");
    return args;
}

Result<PhantomResult> phantomFromArgs(const ArgParser& args, bool withTruth,
                                      const ExecContext& ctx) {
    return args.has("cone") ? conePhantomFromArgs(args, withTruth, ctx)
                            : parallelPhantom(args, withTruth, ctx);
}

int runPhantom(int argc, char** argv) {
    ArgParser args = phantomParser();
    return runCommand(args, argc, argv, [&] { return phantomBody(args); });
}

}  // namespace tomo::cli
