// tomo recon's options as a reconstruction request (ReconArgs.h).
#include "app/cli/ReconArgs.h"

#include <algorithm>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ConeArgs.h"
#include "app/cli/PreprocessArgs.h"
#include "app/cli/ReadOptionsArgs.h"
#include "app/data/AcquisitionLoader.h"
#include "app/recon/Preflight.h"
#include "app/recon/ReconGrid.h"

namespace tomo::cli {
namespace {

/// --memory-budget's default: half of the memory available now (app/recon/Preflight.h).
int defaultBudgetMiB() {
    return static_cast<int>(std::min<std::size_t>(app::defaultMemoryBudget() >> 20, 1 << 24));
}

Status addPairs(const std::string& text, std::map<std::string, std::string>& out) {
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string pair = text.substr(start, comma - start);
        const std::size_t eq = pair.find('=');
        if (eq == std::string::npos || eq == 0)
            return invalidArgument("--param '" + pair + "': expected NAME=VALUE");
        out[pair.substr(0, eq)] = pair.substr(eq + 1);
        start = comma + 1;
    }
    return Status::ok();
}

/// --algo with --param NAME=VALUE and --iterations N into the request (checked by the service
/// against the algorithm's schema); --filter/--cutoff win over --param filter/cutoff.
Status algorithmFromArgs(const ArgParser& args, int argc, char** argv, app::ReconRequest& r) {
    auto found = findAlgorithm(args.getOr("algo", "fbp"));
    if (!found) return invalidArgument("--algo: " + found.status().message());
    r.algorithm = found->id;
    TOMO_ASSIGN_OR_RETURN(r.parameters, collectParams(argc, argv));
    if (auto iterations = args.get("iterations")) {
        if (!found->iterative)
            return invalidArgument("--iterations applies to iterative algorithms, not --algo " +
                                   found->id);
        r.parameters["iterations"] = *iterations;
    }
    if (auto stop = args.get("stop")) {
        if (!found->iterative)
            return invalidArgument("--stop applies to iterative algorithms, not --algo " +
                                   found->id);
        r.parameters["stop"] = *stop;
    }
    if (args.has("lcurve") && !found->iterative)
        return invalidArgument("--lcurve applies to iterative algorithms, not --algo " + found->id);
    if (auto params = ParameterValues::resolve(*found, r.parameters); !params)
        return params.status().withContext("--algo " + found->id);
    if (args.has("filter")) r.parameters.erase("filter");
    if (args.has("cutoff")) r.parameters.erase("cutoff");
    TOMO_ASSIGN_OR_RETURN(r.fbp.filter.window, parseFilterWindow(args.getOr("filter", "ramp")));
    TOMO_ASSIGN_OR_RETURN(r.fbp.filter.cutoff, args.getDouble("cutoff", 1.0, 1e-6, 1.0));
    return Status::ok();
}

/// Opens INPUT: acquisitions by blocks of rows unless they fit half the budget (or --chunk-rows),
/// sinogram stacks by planes where the format can.
Result<app::OpenedSource> openInput(const ArgParser& args, std::size_t budget, int ranks) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, makeFormatRegistry());
    app::SourceSpec spec;
    spec.path = *args.get("INPUT");
    TOMO_ASSIGN_OR_RETURN(spec.read, readOptionsFromArgs(args));
    // A sinogram stack's angles are those stated; angle selection keeps their subset.
    if (auto angles = args.get("angles")) {
        TOMO_ASSIGN_OR_RETURN(spec.statedAngles, parseAngleSpec(*angles));
    }
    spec.preprocessing = [&args](std::size_t flats) -> Result<PreprocessOptions> {
        TOMO_ASSIGN_OR_RETURN(PreprocessOptions pre, preprocessOptionsFromArgs(args, flats));
        return app::acquisitionPreprocessing(std::move(pre), flats, !args.has("no-log"));
    };
    // Across ranks each reads only its own slices' rows.
    // Whole when the input takes at most half the budget: the other half for the slabs.
    spec.wholeBelowBytes = args.has("chunk-rows") || ranks > 1 ? 0 : budget / 2;
    auto ext = spec.path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
    if ((ext == ".raw" || ext == ".bin" || ext == ".f32") && !spec.read.shape)
        return invalidArgument(spec.path.string() + ": raw input needs --shape");
    return app::openSinogramSource(formats, spec);
}

}  // namespace

void addGridOptions(ArgParser& args) {
    args.option("pixel-size", "S", "image pixel size (default: the detector pitch)");
    args.option("roi-center", "X,Y",
                "centre of the image region relative to the rotation axis, in detector pitch "
                "units (default 0,0)");
    args.option("detector-pitch", "D", "detector pixel width", "1");
    args.option("center", "C",
                "rotation axis on the detector in pixels from the centre of pixel 0 "
                "(default: (DETECTORS-1)/2)");
}

Status roiCenterFromArgs(const ArgParser& args, app::GridChoice& choice) {
    const auto roi = args.get("roi-center");
    if (!roi) return Status::ok();
    const std::vector<std::string> xy = split(*roi, ',');
    Result<double> x = number(xy.size() == 2 ? xy[0] : "", "--roi-center");
    Result<double> y = number(xy.size() == 2 ? xy[1] : "", "--roi-center");
    if (!x || !y)
        return invalidArgument("--roi-center: expected X,Y (detector pitch units), got '" + *roi +
                               "'");
    choice.centerX = *x;
    choice.centerY = *y;
    return Status::ok();
}

namespace {

/// The request for @p input with the geometry and grid of @p args.
Result<app::ReconRequest> requestFor(const ArgParser& args, app::OpenedSource& input) {
    const auto shape = input.source->shape();
    ParallelGeometry::Params params;
    if (input.anglesSelected) {
        params.angles = input.angles;  // the subset of --angles that the selection kept
    } else if (auto spec = args.get("angles")) {
        TOMO_ASSIGN_OR_RETURN(params.angles, parseAngleSpec(*spec));
    } else if (!input.angles.empty()) {
        params.angles = input.angles;
    } else {
        return invalidArgument("--angles START:STOP:COUNT is required (degrees, STOP exclusive)");
    }
    if (params.angles.size() != shape[1])
        return invalidArgument("--angles gives " + std::to_string(params.angles.size()) +
                               " angles but the input has " + std::to_string(shape[1]) +
                               " projections");
    params.detectorCount = static_cast<int>(shape[2]);
    params.rows = static_cast<int>(shape[0]);
    TOMO_ASSIGN_OR_RETURN(params.detectorPitch, args.getDouble("detector-pitch", 1.0, 1e-9, 1e9));
    if (args.has("center")) {
        TOMO_ASSIGN_OR_RETURN(double center, args.getDouble("center", 0, -1e7, 1e7));
        // --center is given on the detector as acquired; cropping and binning move it.
        params.centerOfRotation = input.preprocessing.centerAfter(center);
    }
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    app::GridChoice choice;
    TOMO_ASSIGN_OR_RETURN(choice.size, args.getInt("size", 0, 0, 65536));
    TOMO_ASSIGN_OR_RETURN(choice.pixelSize, args.getDouble("pixel-size", 0, 1e-9, 1e9));
    TOMO_RETURN_IF_ERROR(roiCenterFromArgs(args, choice));
    Result<VolumeGeometry> grid = app::gridFor(geometry, static_cast<int>(shape[0]), choice);
    if (!grid) return grid.status().withContext("--size/--pixel-size/--roi-center");
    return app::ReconRequest(std::move(input.source), std::move(geometry), *grid);
}

/// --memory-budget (MiB, as bytes), --chunk and --chunk-rows.
struct SlabArgs {
    std::size_t budget = 0;
    int chunk = 0, chunkRows = 0;
};

Result<SlabArgs> slabArgs(const ArgParser& args) {
    SlabArgs s;
    TOMO_ASSIGN_OR_RETURN(int budgetMiB,
                          args.getInt("memory-budget", defaultBudgetMiB(), 1, 1 << 24));
    s.budget = static_cast<std::size_t>(budgetMiB) << 20;
    TOMO_ASSIGN_OR_RETURN(s.chunk, args.getInt("chunk", 0, 0, 1 << 20));
    TOMO_ASSIGN_OR_RETURN(s.chunkRows, args.getInt("chunk-rows", 0, 1, 1 << 30));
    return s;
}

Status referenceFromArgs(const ArgParser& args, app::ReconRequest& r) {
    const std::string option = args.has("truth") ? "--truth" : "--reference";
    auto path = args.get(option.substr(2));
    if (!path) return Status::ok();
    auto t = readStack(*path, args.get("truth-shape"), "--truth-shape");
    if (!t) return t.status().withContext(option);
    if (t->dim(1) != static_cast<std::size_t>(r.grid.ny) ||
        t->dim(2) != static_cast<std::size_t>(r.grid.nx))
        return invalidArgument(option + " is " + std::to_string(t->dim(1)) + "x" +
                               std::to_string(t->dim(2)) + " but the reconstruction is " +
                               std::to_string(r.grid.ny) + "x" + std::to_string(r.grid.nx));
    r.reference = std::make_shared<const Volume>(std::move(*t));
    return Status::ok();
}

}  // namespace

void addReconOptions(ArgParser& args) {
    args.positional("INPUT",
                    "sinogram stack: .raw (float32 little-endian, [slice][angle][detector], "
                    "needs --shape) or .tif (one page per slice), or an HDF5 acquisition "
                    "(.h5/.nxs: DXchange or NXtomo; flat/dark normalised, -log, angles read)");
    args.option("output", "OUTPUT",
                "reconstruction: .raw (float32 [slice][y][x]), .tif, .h5, .mha, .nrrd, ...",
                std::nullopt, "o");
    args.option("shape", "ANGLESxDETECTORS[xSLICES]", "shape of a .raw input");
    args.option("angles", "START:STOP:COUNT", "projection angles in degrees, STOP exclusive");
    args.option("angle-unit", "UNIT", "auto | deg | rad: unit of an HDF5 input's angles", "auto");
    args.option("algo", "ALGO",
                "fbp | gridrec | sirt | os-sirt | sart | cgls | tv | memxct | mbir (gridrec: FBP "
                "in Fourier space, --param tolerance=1e-3,oversampling=0,kernel-width=0)",
                "fbp");
    args.option("iterations", "N",
                "iterative algorithms: number of iterations (default per "
                "algorithm; Ctrl-C stops after the current one and keeps its image)");
    args.option("param", "NAME=VALUE",
                "algorithm parameter, repeatable or comma-separated (e.g. relaxation=0.5, "
                "lambda=0.1, subsets=10, projector=matched, FBP's projector=joseph; "
                "docs/algorithms.md lists them)");
    args.option("stop", "RULE",
                "iterative algorithms: stopping rule none | corner | discrepancy | rel-change "
                "(the parameter 'stop'; corner returns the iterate at the L-curve corner, "
                "discrepancy stops at ||Ax - b|| = stop-tau x the noise norm, estimated unless "
                "--param noise-sigma=S, rel-change at --param stop-tol; default per algorithm)");
    args.option("lcurve", "FILE",
                "iterative algorithms: write the L-curve (one point per iteration) with its "
                "corner to FILE (.csv or .json)");
    args.option("filter", "NAME", "ramp | shepp-logan | cosine | hamming | hann", "ramp");
    args.option("cutoff", "F", "filter cutoff as a fraction of Nyquist, (0, 1]", "1");
    args.option("interp", "MODE", "linear | nearest", "linear");
    args.option("size", "N", "reconstruct an NxN image (default: detector count)");
    addGridOptions(args);
    args.option("backend", "B", "auto | cpu | cuda | opencl", "auto");
    args.option("variant", "ID",
                "back-projector variant (see tomo devices --explain); gridrec: cpu.gridrec or "
                "cuda.gridrec");
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
    args.option("chunk-rows", "N",
                "reconstruct N slices (detector rows after --crop/--bin) per slab: read, "
                "reconstruct and write a slab, then the next, rounded up to whole FBP batches "
                "(--chunk) so that the result is bit-identical (default: as many as fit in "
                "--memory-budget)");
    args.option("memory-budget", "MIB",
                "memory for one step (an FBP slab's input, sinograms and output, an iterative "
                "solve), in MiB; outputs of .raw, .tif, .h5 and TIFF folders are written a slab "
                "at a time, so volumes larger than memory complete; the run checks before it "
                "starts that a step, its output and the disk fit (default: half of the memory "
                "available now, " +
                    std::to_string(defaultBudgetMiB()) + " MiB)");
    args.flag("quiet", "no progress bar");
}

ArgParser reconParser() {
    ArgParser args(
        "recon",
        "Reconstructs every slice of a parallel-beam sinogram stack by filtered back-projection\n"
        "(direct, or gridrec in Fourier space) or an iterative method (SIRT, OS-SIRT, SART,\n"
        "CGLS, TV, MemXCT, MBIR; docs/algorithms.md),\n"
        "or a cone-beam projection stack by FDK (with --geometry, or --sid/--sdd/--angles).");
    addReconOptions(args);
    addConeReconOptions(args);
    args.epilog(
        "example:\n  tomo phantom -o sino.raw --truth truth.raw --size 512 --angles 0:180:720 "
        "--detectors 768\n"
        "  tomo recon sino.raw --shape 720x768 --angles 0:180:720 --size 512 -o rec.raw --truth "
        "truth.raw --truth-shape 512x512\n"
        "cone beam (FDK; RTK's geometry and frame, docs/cone-beam.md):\n"
        "  tomo phantom --cone -o proj.mha --geometry geometry.xml --truth truth.mha --size 128\n"
        "  tomo recon proj.mha --geometry geometry.xml --size 128 -o rec.mha --filter hann");
    return args;
}

Result<std::map<std::string, std::string>> collectParams(int argc, char** argv) {
    std::map<std::string, std::string> params;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--param") {
            if (i + 1 >= argc) return invalidArgument("--param needs NAME=VALUE");
            TOMO_RETURN_IF_ERROR(addPairs(argv[++i], params));
        } else if (arg.rfind("--param=", 0) == 0) {
            TOMO_RETURN_IF_ERROR(addPairs(arg.substr(8), params));
        }
    }
    return params;
}

Result<app::ReconRequest> reconRequestFromArgs(const ArgParser& args, int argc, char** argv,
                                               std::vector<std::string>& notes, int ranks) {
    TOMO_ASSIGN_OR_RETURN(SlabArgs slab, slabArgs(args));
    auto algo = findAlgorithm(args.getOr("algo", "fbp"));
    if (!algo) return invalidArgument("--algo: " + algo.status().message());
    TOMO_ASSIGN_OR_RETURN(app::OpenedSource input, openInput(args, slab.budget, ranks));
    return reconRequestFromArgs(args, argc, argv, std::move(input), notes);
}

Result<app::ReconRequest> reconRequestFromArgs(const ArgParser& args, int argc, char** argv,
                                               app::OpenedSource input,
                                               std::vector<std::string>& notes) {
    TOMO_ASSIGN_OR_RETURN(SlabArgs slab, slabArgs(args));
    auto algo = findAlgorithm(args.getOr("algo", "fbp"));
    if (!algo) return invalidArgument("--algo: " + algo.status().message());
    const bool iterative = algo->iterative;
    notes.insert(notes.end(), input.notes.begin(), input.notes.end());
    const std::string preprocessing = describe(input.preprocessing);
    TOMO_ASSIGN_OR_RETURN(app::ReconRequest r, requestFor(args, input));
    TOMO_RETURN_IF_ERROR(algorithmFromArgs(args, argc, argv, r));
    r.memoryBudget = slab.budget;
    if (iterative) {
        r.slabSlices = static_cast<std::size_t>(slab.chunk);  // slices per solve
        if (args.has("chunk-rows"))
            notes.push_back(
                "--chunk-rows applies to FBP; iterative methods solve --chunk N "
                "slices at a time (default: all in one solve)");
    } else {
        r.fbp.chunkSlices = slab.chunk;
        r.slabSlices = args.has("chunk-rows") ? static_cast<std::size_t>(slab.chunkRows) : 0;
    }
    r.backend = args.getOr("backend", "auto");
    r.variant = args.getOr("variant", "");
    TOMO_ASSIGN_OR_RETURN(r.interpolation, parseInterpolation(args.getOr("interp", "linear")));
    r.interpolationGiven = args.has("interp");
    TOMO_RETURN_IF_ERROR(referenceFromArgs(args, r));
    r.output.path = *args.get("output");
    r.output.provenance["preprocessing"] = preprocessing;
    r.output.provenance["input"] = *args.get("INPUT");
    return r;
}

}  // namespace tomo::cli
