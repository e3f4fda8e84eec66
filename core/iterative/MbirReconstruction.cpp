#include "core/iterative/MbirReconstruction.h"

#include <cstdio>

#include "core/iterative/WarmStart.h"
#include "core/pipeline/Timeline.h"

namespace tomo {
namespace {

ParameterSpec real(std::string name, std::string label, std::string def, double lo, double hi,
                   std::string units, std::string description, bool logScale = false) {
    return {.name = std::move(name),
            .label = std::move(label),
            .type = ParameterType::Real,
            .defaultValue = std::move(def),
            .minimum = lo,
            .maximum = hi,
            .logScale = logScale,
            .choices = {},
            .units = std::move(units),
            .description = std::move(description)};
}

ParameterSpec integer(std::string name, std::string label, int def, int lo, int hi,
                      std::string description) {
    return {.name = std::move(name),
            .label = std::move(label),
            .type = ParameterType::Integer,
            .defaultValue = std::to_string(def),
            .minimum = double(lo),
            .maximum = double(hi),
            .logScale = false,
            .choices = {},
            .units = "",
            .description = std::move(description)};
}

ParameterSpec choice(std::string name, std::string label, std::vector<std::string> choices,
                     std::string description) {
    std::string def = choices.front();
    return {.name = std::move(name),
            .label = std::move(label),
            .type = ParameterType::Choice,
            .defaultValue = std::move(def),
            .minimum = 0,
            .maximum = 0,
            .logScale = false,
            .choices = std::move(choices),
            .units = "",
            .description = std::move(description)};
}

/// MBIR on the grid of half the pixels (twice the voxel size, same centre), started from its
/// FBP and stopped at the same threshold, at least 0.2 % (at most 20 iterations), then each
/// coarse pixel copied into its 2 x 2 fine ones: the multi-resolution start. (At ten times the
/// threshold the 512^2 discs of the defaults study ended at 1.11x the best iterate.) The coarse
/// solve's report into @p coarseReport, the FBP and the copy as host steps into @p steps.
Result<Volume> coarseStart(const Sinograms& sino, const ParallelGeometry& geom,
                           const VolumeGeometry& vol, const MbirOptions& options,
                           const IterativeRequest& request, const ExecContext& ctx,
                           MbirReport& coarseReport, MbirHostSteps& steps) {
    VolumeGeometry coarse = vol;
    coarse.nx = (vol.nx + 1) / 2;
    coarse.ny = (vol.ny + 1) / 2;
    coarse.voxelSize = 2 * vol.voxelSize;
    // Coarse pixel (cx, cy) covers fine pixels 2cx..2cx+1, 2cy..2cy+1 (odd sizes: the last
    // coarse pixel hangs half a pixel over): its centre is their centre.
    coarse.offsetX = vol.offsetX + (coarse.nx - 0.5 * vol.nx) * vol.voxelSize;
    coarse.offsetY = vol.offsetY + (0.5 * vol.ny - coarse.ny) * vol.voxelSize;
    double t0 = timelineNow();
    TOMO_ASSIGN_OR_RETURN(Volume fbp, fbpStart(sino, geom, coarse, ctx));
    addHostStep(steps, nullptr, "warm start FBP", t0, timelineNow());
    MbirOptions o = options;
    o.iterations = std::min(options.iterations, 20);
    o.stopThreshold = std::max(options.stopThreshold, 0.2);
    o.stopHu = 0;
    ExecContext quiet = ctx;
    quiet.progress = nullptr;
    Volume image;
    SolverSummary summary;
    TOMO_RETURN_IF_ERROR(solveMbir(sino, geom, coarse, o, &fbp, nullptr, {}, image, summary,
                                   coarseReport, quiet, request.mbirCache));
    t0 = timelineNow();
    TOMO_ASSIGN_OR_RETURN(
        Volume out, Volume::create(std::size_t(vol.nz), std::size_t(vol.ny), std::size_t(vol.nx)));
    for (std::size_t z = 0; z < out.dim(0); ++z)
        for (std::size_t iy = 0; iy < out.dim(1); ++iy)
            for (std::size_t ix = 0; ix < out.dim(2); ++ix)
                out.row(z, iy)[ix] = image.row(z, iy / 2)[ix / 2];
    addHostStep(steps, nullptr, "coarse to fine", t0, timelineNow());
    return out;
}

/// "3.35 1.85 0.45 % (stop below 0.5 %)": the stop rule's measure per iteration, so that a run
/// shows why it stopped where it did.
std::string relativeUpdatesText(const MbirReport& report, const MbirOptions& options) {
    std::string out;
    char text[48];
    for (double value : report.relativeUpdates) {
        std::snprintf(text, sizeof text, "%s%.3g", out.empty() ? "" : " ", value);
        out += text;
    }
    std::snprintf(text, sizeof text, " %% (stop below %g %%)", options.stopThreshold);
    return out + (options.stopThreshold > 0 ? text : " % (no threshold)");
}

}  // namespace

AlgorithmSpec mbirAlgorithmSpec() {
    AlgorithmSpec s;
    s.id = "mbir";
    s.label = "MBIR";
    s.description =
        "Model-based iterative reconstruction (ICD with a q-GGMRF prior): the best images from "
        "few or noisy projections; sharpness and SNR set the regularisation.";
    s.reference =
        "A. Sabne et al., Model-based Iterative CT Image Reconstruction on GPUs, PPoPP'17, "
        "doi:10.1145/3018743.3018765; J.-B. Thibault et al., Med. Phys. 34(11), 2007, "
        "doi:10.1118/1.2789499";
    s.cornerWhyNot =
        "no L-curve corner for MBIR: ICD minimises its cost (data term + q-GGMRF prior) to "
        "convergence instead of semi-converging, so the curve of its iterates has no corner "
        "that picks an image; sharpness and snr_db set its regularisation";
    s.parameters = {
        integer("iterations", "Iterations", 100, 1, 100000,
                "Iterations at most, each about one equit (every SV, or five passes of 20%)."),
        real("sharpness", "Sharpness", "0", -10, 10, "",
             "sigma_x = 0.2 x 2^sharpness x typical attenuation: > 0 sharper, < 0 smoother."),
        real("snr_db", "SNR", "30", -20, 120, "dB",
             "Assumed signal-to-noise ratio of the data, setting sigma_y."),
        choice("noise_adapt", "Noise adaptation", {"on", "off"},
               "on: where the data's own noise (estimated) exceeds the sigma_y of snr_db, a "
               "stronger prior: sigma_x x (noise / sigma_y)^-0.5; off: svmbir's rules."),
        choice("view_adapt", "View adaptation", {"on", "off"},
               "on: where the views give more than one ray per pixel (views x image diagonal / "
               "pixels), a stronger prior: sigma_x x rays^-0.1875; off: svmbir's rules."),
        real("sigma_x", "sigma_x", "0", 0, 1e9, "1/length", "Prior scale; 0: from the sharpness.",
             true),
        real("sigma_y", "sigma_y", "0", 0, 1e9, "", "Noise scale; 0: from the SNR.", true),
        real("p", "p (near 0)", "2", 1, 2, "", "q-GGMRF exponent for small differences."),
        real("q", "q (edges)", "1.2", 1, 2, "",
             "q-GGMRF exponent for large differences (svmbir calls it p)."),
        real("T", "T", "1", 1e-6, 1e6, "", "Threshold between the two regimes, in sigma_x."),
        choice("weights", "Noise weights", {"none", "transmission", "counts"},
               "none: w = 1; transmission: w = exp(-y); counts: w = N0 exp(-y)."),
        real("counts", "Incident counts", "0", 0, 1e12, "photons", "N0 for weights=counts."),
        choice("positivity", "Positivity", {"on", "off"}, "Constrain the image to x >= 0."),
        // 0.5, not svmbir's 0.02: from the FBP start the update falls slowly once the error has
        // settled (docs/mbir.md, "Stopping and reporting").
        real("stop_threshold", "Stop threshold", "0.5", 0, 100, "%",
             "Stop when the mean update falls below this percentage of the mean value (0: off)."),
        real("stop_hu", "Stop at HU", "0", 0, 1e6, "HU",
             "With a reference (golden) image: stop when the RMSE falls below this (0: off)."),
        real("mu_water", "mu water", "0.02", 1e-9, 1e9, "1/length",
             "Attenuation of water in the data's units, for Hounsfield units."),
        choice("method", "Method", {"psv-icd", "icd"},
               "psv-icd: SuperVoxels in parallel (paper 004); icd: plain sequential ICD."),
        integer("sv_side", "SuperVoxel side", 13, 1, 4096, "SuperVoxel side in voxels."),
        integer("batch", "SV batch", 16, 1, 4096,
                "SuperVoxels updated together before their write-back."),
        choice("matrix", "Matrix entries", {"uint8", "float"},
               "uint8: 8-bit entries with a per-voxel maximum (paper 004); float: full."),
        choice("init", "Initial image", {"multires", "fbp", "zero"},
               "Warm start: MBIR on a half-resolution grid (from its FBP), FBP (CPU), or zeros."),
        choice("simd", "SIMD theta sums", {"on", "off"},
               "on: vector theta sums and write-back where the CPU has AVX2; off: scalar "
               "(ablation)."),
        integer("gpu_sv_side", "GPU SV side", 0, 0, 4096,
                "GPU-ICD (--backend cuda|opencl): SuperVoxel side in voxels; 0: 33 for one "
                "slice (paper 004), 17 for a stack."),
        integer("gpu_batch", "GPU SV batch", 0, 0, 4096,
                "GPU-ICD: SuperVoxels per launch (deferred write-back after each); 0: an eighth "
                "of a colour's."),
        integer("gpu_blocks", "GPU blocks per SV", 40, 1, 4096,
                "GPU-ICD: work-groups sharing one SuperVoxel's voxels."),
        integer("gpu_threads", "GPU threads per block", 256, 32, 1024,
                "GPU-ICD: work-items sharing one voxel's update (a power of two)."),
    };
    return s;
}

int automaticGpuSvSide(int requested, int slices) {
    if (requested > 0) return requested;
    return slices > 1 ? 17 : 33;
}

Result<MbirOptions> mbirOptionsFrom(const ParameterValues& params) {
    MbirOptions o;
    o.iterations = params.integer("iterations");
    o.model.sharpness = params.real("sharpness");
    o.model.snrDb = params.real("snr_db");
    o.model.noiseAdapt = params.text("noise_adapt") == "on";
    o.model.viewAdapt = params.text("view_adapt") == "on";
    o.model.prior.sigmaX = params.real("sigma_x");
    o.model.sigmaY = params.real("sigma_y");
    o.model.prior.p = params.real("p");
    o.model.prior.q = params.real("q");
    o.model.prior.T = params.real("T");
    TOMO_ASSIGN_OR_RETURN(o.model.weighting, parseMbirWeighting(params.text("weights")));
    o.model.incidentCount = params.real("counts");
    if (o.model.weighting == MbirWeighting::Counts && !(o.model.incidentCount > 0))
        return invalidArgument("weights=counts needs counts=N0 (the incident photon count)");
    o.model.positivity = params.text("positivity") == "on";
    o.stopThreshold = params.real("stop_threshold");
    o.stopHu = params.real("stop_hu");
    o.muWater = params.real("mu_water");
    o.psv.sequential = params.text("method") == "icd";
    o.psv.side = params.integer("sv_side");
    o.psv.batch = params.integer("batch");
    o.entries = params.text("matrix") == "float" ? MbirEntryType::Float : MbirEntryType::Uint8;
    o.vectorised = params.text("simd") == "on";
    o.gpu.side = automaticGpuSvSide(params.integer("gpu_sv_side"), 1);
    o.gpu.batch = params.integer("gpu_batch");
    o.gpu.blocksPerSv = params.integer("gpu_blocks");
    o.gpu.groupSize = params.integer("gpu_threads");
    TOMO_RETURN_IF_ERROR(o.gpu.validate());
    QggmrfParams check = o.model.prior;
    check.sigmaX = 1;  // validated once derived
    TOMO_RETURN_IF_ERROR(check.validate());
    TOMO_RETURN_IF_ERROR(o.validate());
    return o;
}

Status reconstructMbir(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, const IterativeRequest& request,
                       const ParameterValues& params, const IterationCallback& onIteration,
                       Volume& out, SolverSummary& summary, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(MbirOptions options, mbirOptionsFrom(params));
    options.gpu.side = automaticGpuSvSide(params.integer("gpu_sv_side"), int(sino.dim(0)));
    if (request.memoryBudget > 0) options.memoryBudget = request.memoryBudget;
    options.device = request.makeIcdDevice;
    auto note = [&](const std::string& text) {
        if (request.onNote) request.onNote(text);
    };
    Volume warm;
    const Volume* initial = request.initial;
    // The warm start before the solve's own timeline: the coarse solve's stages, and the FBP and
    // the copy to the fine grid as host work (named steps, MbirHostSteps.h).
    MbirReport coarse;
    MbirHostSteps steps;
    const double startBegin = timelineNow();
    if (!initial && params.text("init") != "zero") {
        const bool multires = params.text("init") == "multires";
        if (multires) {
            TOMO_ASSIGN_OR_RETURN(
                warm, coarseStart(sino, geom, vol, options, request, ctx, coarse, steps));
            options.minIterations = 3;
        } else {
            TOMO_ASSIGN_OR_RETURN(warm, fbpStart(sino, geom, vol, ctx));
            addHostStep(steps, nullptr, "warm start FBP", startBegin, timelineNow());
        }
        initial = &warm;
        note("MBIR warm start: " +
             std::string(multires ? "MBIR on the half-resolution grid" : "FBP (ramp)"));
    }
    TimelineReport startTimeline = coarse.timeline;  // plus the start's own host steps
    startTimeline.wall = timelineNow() - startBegin;
    startTimeline.busy[std::size_t(TimelineStage::Host)] += hostStepsSeconds(steps);
    startTimeline.spans[std::size_t(TimelineStage::Host)] += int(steps.size());
    addHostSteps(steps, coarse.hostSteps, "coarse ");
    MbirReport report;
    TOMO_RETURN_IF_ERROR(solveMbir(sino, geom, vol, options, initial, request.reference,
                                   onIteration, out, summary, report, ctx, request.mbirCache,
                                   [&](const std::string& text) { note("MBIR " + text); }));
    note("MBIR: " + std::to_string(report.equits).substr(0, 5) + " equits, matrix " +
         std::to_string(report.matrixSeconds).substr(0, 5) + " s");
    note("MBIR relative update per iteration: " + relativeUpdatesText(report, options));
    startTimeline += report.timeline;  // issue 27 item 5: as `tomo bench` prints FBP's
    addHostSteps(steps, report.hostSteps, "");
    note("MBIR timeline: " + formatTimeline(startTimeline));
    note("MBIR host: " + formatHostSteps(steps, startTimeline));
    return Status::ok();
}

}  // namespace tomo
