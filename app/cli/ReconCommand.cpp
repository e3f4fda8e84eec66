// tomo recon: filtered back-projection or an iterative method (IterativeRecon.h) on a sinogram
// stack read from raw, TIFF or HDF5 files.
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "app/Backends.h"
#include "app/cli/ArgParser.h"
#include "app/cli/ChunkedRecon.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/DataFormats.h"
#include "app/cli/IterativeRecon.h"
#include "app/cli/PreprocessArgs.h"
#include "app/cli/ReconInputs.h"
#include "core/io/ImageIO.h"
#include "core/metrics/Metrics.h"
#include "core/recon/Fbp.h"

namespace tomo::cli {

Result<Array3<float>> readStack(const std::string& path, const std::optional<std::string>& rawShape,
                                const std::string& shapeOption) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec)) return notFound(path + ": no such file");
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".tif" || ext == ".tiff") {
        if (!tiffSupported())
            return unsupported(path + ": this build has no TIFF support (libtiff)");
        return readTiff(path);
    }
    if (ext == ".raw" || ext == ".bin" || ext == ".f32") {
        if (!rawShape) return invalidArgument(path + ": raw input needs " + shapeOption);
        TOMO_ASSIGN_OR_RETURN(auto dims, parseShape(*rawShape));
        std::size_t planes = dims.size() == 3 ? dims[2] : 1;
        return readRawFloat32(path, {planes, dims[0], dims[1]});
    }
    return invalidArgument(path + ": unknown input format '" + ext + "' (expected .raw or .tif)");
}

namespace {

struct ReconSetup {
    ParallelGeometry geometry;
    VolumeGeometry grid;
    FbpOptions fbp;
    std::string variant;     ///< FBP: back-projector variant; iterative: the backend
    AlgorithmSpec spec;      ///< --algo
    ParameterValues params;  ///< --iterations and --param resolved against spec
};

/// --algo with its parameters: --param NAME=VALUE (repeatable) and --iterations N, checked
/// against the algorithm's schema.
Result<std::pair<AlgorithmSpec, ParameterValues>> algorithmFromArgs(const ArgParser& args, int argc,
                                                                    char** argv) {
    auto found = findAlgorithm(args.getOr("algo", "fbp"));
    if (!found) return invalidArgument("--algo: " + found.status().message());  // usage error
    AlgorithmSpec spec = std::move(*found);
    TOMO_ASSIGN_OR_RETURN(auto given, collectParams(argc, argv));
    if (auto iterations = args.get("iterations")) {
        if (!spec.iterative)
            return invalidArgument("--iterations applies to iterative algorithms, not --algo " +
                                   spec.id);
        given["iterations"] = *iterations;
    }
    if (args.has("lcurve") && !spec.iterative)
        return invalidArgument("--lcurve applies to iterative algorithms, not --algo " + spec.id);
    auto params = ParameterValues::resolve(spec, given);
    if (!params) return params.status().withContext("--algo " + spec.id);
    return std::pair{std::move(spec), std::move(*params)};
}

Result<ReconSetup> setupFromArgs(const ArgParser& args, const std::array<std::size_t, 3>& shape,
                                 const BackProjectorRegistry& registry, const ReconInputInfo& input,
                                 std::pair<AlgorithmSpec, ParameterValues> algorithm) {
    TOMO_ASSIGN_OR_RETURN(std::vector<double> angles, reconAngles(args, input.angles));
    if (angles.size() != shape[1])
        return invalidArgument("--angles gives " + std::to_string(angles.size()) +
                               " angles but the input has " + std::to_string(shape[1]) +
                               " projections");
    ParallelGeometry::Params params;
    params.angles = std::move(angles);
    params.detectorCount = static_cast<int>(shape[2]);
    params.rows = static_cast<int>(shape[0]);
    TOMO_ASSIGN_OR_RETURN(params.detectorPitch, args.getDouble("detector-pitch", 1.0, 1e-9, 1e9));
    if (args.has("center")) {
        TOMO_ASSIGN_OR_RETURN(double center, args.getDouble("center", 0, -1e7, 1e7));
        // --center is given on the detector as acquired; cropping and binning move it.
        params.centerOfRotation = input.preprocessing.centerAfter(center);
    }
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));

    VolumeGeometry grid;
    TOMO_ASSIGN_OR_RETURN(int size, args.getInt("size", static_cast<int>(shape[2]), 1, 65536));
    grid.nx = grid.ny = size;
    grid.nz = static_cast<int>(shape[0]);
    TOMO_ASSIGN_OR_RETURN(grid.voxelSize,
                          args.getDouble("pixel-size", params.detectorPitch, 1e-9, 1e9));

    FbpOptions fbp;
    // --param filter=... / cutoff=... (the fbp schema) stand for --filter / --cutoff.
    const ParameterValues& values = algorithm.second;
    const bool isFbp = algorithm.first.id == "fbp";
    TOMO_ASSIGN_OR_RETURN(fbp.filter.window, parseFilterWindow(isFbp && !args.has("filter")
                                                                   ? values.text("filter")
                                                                   : args.getOr("filter", "ramp")));
    TOMO_ASSIGN_OR_RETURN(fbp.filter.cutoff,
                          args.getDouble("cutoff", isFbp ? values.real("cutoff") : 1.0, 1e-6, 1.0));
    TOMO_ASSIGN_OR_RETURN(fbp.chunkSlices, args.getInt("chunk", 0, 0, 1 << 20));
    TOMO_ASSIGN_OR_RETURN(Interpolation interp, parseInterpolation(args.getOr("interp", "linear")));

    const std::string backend = args.getOr("backend", "auto");
    if (!isFbp) {
        // The SIRT family on the locality pair runs on a device operator with --backend cuda
        // or opencl (IterativeRecon.h); every other method on the CPU operators.
        if (backend != "auto" && backend != "cpu" && backend != "cuda" && backend != "opencl")
            return invalidArgument("--backend must be auto, cpu, cuda or opencl (got '" + backend +
                                   "')");
        return ReconSetup{std::move(geometry),
                          grid,
                          fbp,
                          backend == "auto" ? "cpu" : backend,
                          std::move(algorithm.first),
                          std::move(algorithm.second)};
    }
    const auto backends = app::compiledBackends();
    if (backend != "auto" && std::find(backends.begin(), backends.end(), backend) == backends.end())
        return backend == "cpu" || backend == "cuda" || backend == "opencl"
                   ? unsupported("--backend " + backend + ": not compiled into this build")
                   : invalidArgument("--backend must be auto, cpu, cuda or opencl (got '" +
                                     backend + "')");
    std::string variant = args.getOr("variant", "");
    if (variant.empty()) {
        // The cached choice for this job's workload class (slices, image size).
        const JobShape jobShape{std::max(grid.nx, grid.ny), grid.nz};
        variant = app::defaultVariant(registry, backend, interp, jobShape);
        if (variant.empty() && backend != "cpu" && backend != "auto") {
            // A compiled-in GPU backend without a usable device: say why, run on the CPU.
            std::string why = "no back-projector variants for it";
            for (const DeviceDiscovery& d : app::discoverAllDevices())
                if (d.backend == backend && !d.available && !d.message.empty()) why = d.message;
            std::cerr << "tomo recon: --backend " << backend << ": " << why
                      << "; falling back to the CPU\n";
            variant = app::defaultVariant(registry, "cpu", interp, jobShape);
        }
        if (variant.empty())
            return unsupported("--backend " + backend +
                               ": no back-projector variants for it in this build yet");
    } else if (registry.contains(variant)) {
        for (const auto& info : registry.list())
            if (info.id == variant && args.has("interp") && info.interpolation != interp)
                return invalidArgument("--variant " + variant + " uses " +
                                       interpolationName(info.interpolation) +
                                       " interpolation, not --interp " + interpolationName(interp));
    }
    return ReconSetup{std::move(geometry),        grid, fbp, variant, std::move(algorithm.first),
                      std::move(algorithm.second)};
}

/// Writes the reconstruction in the format of @p path's extension, with provenance where the
/// format holds attributes (HDF5).
Status writeReconstruction(const std::string& path, const Volume& image, const ReconSetup& setup,
                           const ReconInputInfo& input, const ArgParser& args) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, makeFormatRegistry());
    WriteOptions options;
    options.voxelSize = setup.grid.voxelSize;
    const ParallelGeometry& g = setup.geometry;
    char geometry[256];
    std::snprintf(geometry, sizeof geometry,
                  "parallel beam; %d angles from %.6g to %.6g deg; %d detectors, pitch %.6g; "
                  "centre %.6g px; grid %dx%dx%d, voxel %.6g",
                  g.angleCount(), g.angles().front() * 180 / kPi, g.angles().back() * 180 / kPi,
                  g.detectorCount(), g.detectorPitch(), g.centerOfRotation(), setup.grid.nx,
                  setup.grid.ny, setup.grid.nz, setup.grid.voxelSize);
    options.provenance["geometry"] = geometry;
    options.provenance["preprocessing"] = describe(input.preprocessing);
    options.provenance["algorithm"] = setup.spec.id;
    if (setup.spec.iterative) {
        std::string params;
        for (const auto& [name, value] : setup.params.all())
            params += (params.empty() ? "" : ", ") + name + " " + value;
        options.provenance["parameters"] = params;
    } else {
        options.provenance["parameters"] = std::string("filter ") +
                                           filterWindowName(setup.fbp.filter.window) + ", cutoff " +
                                           std::to_string(setup.fbp.filter.cutoff);
        options.provenance["variant"] = setup.variant;
    }
    options.provenance["input"] = *args.get("INPUT");
    return formats.writeVolume(path, image, options);
}

/// The iterative branch of runRecon: solve, write, report (IterativeRecon.h).
int runIterative(const ArgParser& args, const Sinograms& sino, const ReconSetup& setup,
                 const ReconInputInfo& input, const Volume& truth, int threads,
                 std::stop_token interrupt) {
    IterativeCliOptions options;
    options.spec = setup.spec;
    options.params = setup.params;
    options.chunkSlices = static_cast<std::size_t>(std::max(setup.fbp.chunkSlices, 0));
    options.quiet = args.has("quiet");
    options.lcurvePath = args.get("lcurve");
    options.backend = setup.variant;
    // Per-iteration errors need the reference of every slice; a single-slice reference of a
    // stack is still compared with slice 0 at the end.
    const bool fullReference = !truth.empty() && truth.dim(0) == sino.dim(0);
    Volume image;
    IterativeCliReport report;
    Status s =
        runIterativeRecon(sino, setup.geometry, setup.grid, options,
                          fullReference ? &truth : nullptr, interrupt, threads, image, report);
    if (!s) return reportError("recon", s);
    if (report.interrupted)
        std::cerr << "tomo recon: stopped by an interrupt after iteration " << report.iterations
                  << "; writing the current image\n";
    if (Status w = writeReconstruction(*args.get("output"), image, setup, input, args); !w)
        return reportError("recon", w);
    if (auto png = args.get("png")) {
        if (Status w = writePngGray(*png, image.plane(0)); !w) return reportError("recon", w);
    }
    std::printf(
        "reconstructed %d slice(s) of %dx%d from %d angles with %s, %d iteration(s) "
        "(%s) in %.3f s -> %s\n",
        setup.grid.nz, setup.grid.nx, setup.grid.ny, setup.geometry.angleCount(),
        setup.spec.id.c_str(), report.iterations, report.reason.c_str(), report.seconds,
        args.get("output")->c_str());
    if (options.lcurvePath) {
        if (report.corner)
            std::printf("L-curve: corner at iteration %.0f of %zu -> %s\n",
                        report.curve[*report.corner].parameter, report.curve.size(),
                        options.lcurvePath->c_str());
        else
            std::printf("L-curve: %zu point(s), no corner -> %s\n", report.curve.size(),
                        options.lcurvePath->c_str());
    }
    if (!truth.empty()) {
        auto m = compareImages(image.plane(0), truth.plane(0));
        if (!m) return reportError("recon", m.status());
        std::printf("against truth (slice 0): RMSE %.6g  PSNR %.2f dB  SSIM %.4f  max error %.6g\n",
                    m->rmse, m->psnr, m->ssim, m->maxAbsError);
    }
    return kExitOk;
}

}  // namespace

int runRecon(int argc, char** argv) {
    ArgParser args(
        "recon",
        "Reconstructs every slice of a parallel-beam sinogram stack by filtered back-projection\n"
        "or an iterative method (SIRT, OS-SIRT, SART, CGLS, TV, MemXCT; docs/algorithms.md).");
    args.positional("INPUT",
                    "sinogram stack: .raw (float32 little-endian, [slice][angle][detector], "
                    "needs --shape) or .tif (one page per slice), or an HDF5 acquisition "
                    "(.h5/.nxs: DXchange or NXtomo; flat/dark normalised, -log, angles read)");
    args.option("output", "OUTPUT", "reconstruction: .raw (float32 [slice][y][x]) or .tif",
                std::nullopt, "o");
    args.option("shape", "ANGLESxDETECTORS[xSLICES]", "shape of a .raw input");
    args.option("angles", "START:STOP:COUNT", "projection angles in degrees, STOP exclusive");
    args.option("angle-unit", "UNIT", "auto | deg | rad: unit of an HDF5 input's angles", "auto");
    args.option("algo", "ALGO", "fbp | sirt | os-sirt | sart | cgls | tv | memxct", "fbp");
    args.option("iterations", "N",
                "iterative algorithms: number of iterations (default per "
                "algorithm; Ctrl-C stops after the current one and keeps its image)");
    args.option("param", "NAME=VALUE",
                "algorithm parameter, repeatable or comma-separated (e.g. relaxation=0.5, "
                "lambda=0.1, subsets=10, projector=matched; docs/algorithms.md lists them)");
    args.option("lcurve", "FILE",
                "iterative algorithms: write the L-curve (one point per iteration) with its "
                "corner to FILE (.csv or .json)");
    args.option("filter", "NAME", "ramp | shepp-logan | cosine | hamming | hann", "ramp");
    args.option("cutoff", "F", "filter cutoff as a fraction of Nyquist, (0, 1]", "1");
    args.option("interp", "MODE", "linear | nearest", "linear");
    args.option("size", "N", "reconstruct an NxN image (default: detector count)");
    args.option("pixel-size", "S", "image pixel size (default: the detector pitch)");
    args.option("detector-pitch", "D", "detector pixel width", "1");
    args.option("center", "C",
                "rotation axis on the detector in pixels from the centre of pixel 0 "
                "(default: (DETECTORS-1)/2)");
    args.option("backend", "B", "auto | cpu | cuda | opencl", "auto");
    args.option("variant", "ID", "back-projector variant (see tomo devices --explain)");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.option("chunk", "N",
                "slices per chunk, 0 = automatic (iterative: slices per solve, 0 = all in one)",
                "0");
    args.option("truth", "FILE",
                "reference image (same shape as the output): print RMSE/PSNR/SSIM (and each "
                "iteration's error for iterative algorithms)");
    args.option("reference", "FILE", "same as --truth");
    args.option("truth-shape", "HEIGHTxWIDTH[xSLICES]", "shape of a .raw --truth");
    args.option("png", "FILE", "also write slice 0 as an 8-bit PNG preview");
    addPreprocessOptions(args);
    addChunkOptions(args);
    args.flag("quiet", "no progress bar");
    args.epilog(
        "example:\n  tomo phantom -o sino.raw --truth truth.raw --size 512 --angles 0:180:720 "
        "--detectors 768\n"
        "  tomo recon sino.raw --shape 720x768 --angles 0:180:720 --size 512 -o rec.raw --truth "
        "truth.raw --truth-shape 512x512");
    if (Status s = args.parse(argc, argv); !s) return reportError("recon", s);
    if (args.helpRequested()) {
        std::cout << args.help();
        return kExitOk;
    }
    auto output = args.get("output");
    if (!output) return reportError("recon", invalidArgument("-o OUTPUT is required"));
    if (Status s = checkWritableOutput(*output); !s) return reportError("recon", s);
    if (auto png = args.get("png")) {
        if (Status s = checkWritableOutput(*png); !s) return reportError("recon", s);
    }
    auto threads = args.getInt("threads", 0, 0, 4096);
    if (!threads) return reportError("recon", threads.status());
    // Before any thread starts (readers, device runtimes), so that every thread blocks the
    // signals and Ctrl-C reaches the watcher instead of terminating the process.
    InterruptToStop interrupt;
    auto algorithm = algorithmFromArgs(args, argc, argv);
    if (!algorithm) return reportError("recon", algorithm.status());
    const bool iterative = algorithm->first.iterative;
    // CUDA FBP filters on the device too (app::reconstructFbpOnBackend) and takes the whole stack.
    const bool deviceFbp = !iterative &&
                           (args.getOr("backend", "auto") == "cuda" ||
                            args.getOr("variant", "").rfind("cuda.", 0) == 0) &&
                           app::hasDeviceFbp("cuda");
    if (auto lcurve = args.get("lcurve")) {
        if (Status s = checkLCurvePath(*lcurve); !s) return reportError("recon", s);
        if (Status s = checkWritableOutput(*lcurve); !s) return reportError("recon", s);
    }

    // Iterative solves need whole slices in memory: they read the input whole (for HDF5
    // acquisitions too; --chunk N then bounds the slices per solve, IterativeRecon.h).
    ReconInputInfo input;
    Result<ReconSource> source = internalError("no input");
    Sinograms whole;
    if (iterative || deviceFbp) {
        if (args.has("chunk-rows"))
            std::cerr << "tomo recon: note: --chunk-rows applies to FBP; iterative methods read "
                         "the whole input (use --chunk N for slices per solve)\n";
        auto read = readReconInput(args, &input);
        if (!read) return reportError("recon", read.status());
        whole = std::move(*read);
    } else {
        source = ReconSource::open(args, &input);
        if (!source) return reportError("recon", source.status());
    }
    const BackProjectorRegistry registry = app::makeRegistry();
    auto setup = setupFromArgs(args, iterative || deviceFbp ? whole.dims() : source->shape(),
                               registry, input, std::move(*algorithm));
    if (!setup) return reportError("recon", setup.status());

    Volume truth;
    const std::string truthOption = args.has("truth") ? "--truth" : "--reference";
    if (auto truthPath = args.get(truthOption.substr(2))) {
        auto t = readStack(*truthPath, args.get("truth-shape"), "--truth-shape");
        if (!t) return reportError("recon", t.status().withContext(truthOption));
        if (t->dim(1) != static_cast<std::size_t>(setup->grid.ny) ||
            t->dim(2) != static_cast<std::size_t>(setup->grid.nx))
            return reportError(
                "recon", invalidArgument(truthOption + " is " + std::to_string(t->dim(1)) + "x" +
                                         std::to_string(t->dim(2)) + " but the reconstruction is " +
                                         std::to_string(setup->grid.ny) + "x" +
                                         std::to_string(setup->grid.nx)));
        truth = std::move(*t);
    }
    if (iterative)
        return runIterative(args, whole, *setup, input, truth, *threads, interrupt.token());
    auto backProjector = registry.make(setup->variant);
    if (!backProjector) return reportError("recon", backProjector.status());

    ProgressBar bar(args.has("quiet"));
    Progress progress(&bar);
    ExecContext ctx{*threads, interrupt.token(), &progress};
    Volume image;
    FbpTimings timings;
    Status s = deviceFbp
                   ? app::reconstructFbpOnBackend(whole, setup->geometry, setup->grid,
                                                  **backProjector, setup->fbp, image, ctx, &timings)
                   : source->reconstruct(setup->geometry, setup->grid, **backProjector, setup->fbp,
                                         image, ctx, &timings);
    bar.finish();
    if (!s) return reportError("recon", s);
    if (Status w = writeReconstruction(*output, image, *setup, input, args); !w)
        return reportError("recon", w);
    if (auto png = args.get("png")) {
        if (Status w = writePngGray(*png, image.plane(0)); !w) return reportError("recon", w);
    }
    const double updates =
        double(setup->grid.nx) * setup->grid.ny * setup->grid.nz * setup->geometry.angleCount();
    std::printf(
        "reconstructed %d slice(s) of %dx%d from %d angles with %s in %.3f s "
        "(filtering %.3f s, back-projection %.3f s, %.2f GU/s) -> %s\n",
        setup->grid.nz, setup->grid.nx, setup->grid.ny, setup->geometry.angleCount(),
        setup->variant.c_str(), timings.total, timings.filtering, timings.backProjection,
        updates / std::max(timings.backProjection, 1e-9) * 1e-9, output->c_str());
    if (!truth.empty()) {
        auto m = compareImages(image.plane(0), truth.plane(0));
        if (!m) return reportError("recon", m.status());
        std::printf("against truth (slice 0): RMSE %.6g  PSNR %.2f dB  SSIM %.4f  max error %.6g\n",
                    m->rmse, m->psnr, m->ssim, m->maxAbsError);
    }
    return kExitOk;
}

}  // namespace tomo::cli
