// tomo recon: a request of the reconstruction service (app/recon/ReconService.h) from the
// command line, its progress and result printed.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <thread>

#include "app/Engine.h"
#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ConeArgs.h"
#include "app/cli/ReconArgs.h"
#include "core/dist/MpiSession.h"
#include "core/dist/RankAgreement.h"
#include "core/io/ImageIO.h"

namespace tomo::cli {
namespace {

std::string formatValue(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

/// One line per iteration on stderr; Ctrl-C turns into StopAndKeep.
/// @p told collects the notes printed as they came, so that the report's others are printed
/// once at the end (ReconReport::notes).
app::ReconCallbacks iterationPrinter(const app::ReconRequest& request, bool quiet,
                                     std::stop_token interrupt,
                                     std::shared_ptr<std::vector<std::string>> told) {
    app::ReconCallbacks callbacks;
    callbacks.onNote = [told](const std::string& note) {
        std::cerr << "tomo recon: note: " << note << "\n";
        told->push_back(note);
    };
    const std::string algorithm = request.algorithm;
    auto total = request.parameters.count("iterations")
                     ? request.parameters.at("iterations")
                     : ParameterValues::resolve(*findAlgorithm(algorithm), {})->text("iterations");
    callbacks.onIteration = [=](const IterationInfo& info, const app::SlabInfo& slab) {
        if (!quiet) {
            const std::string prefix = slab.count > 1 ? "chunk " + std::to_string(slab.index + 1) +
                                                            "/" + std::to_string(slab.count) + " "
                                                      : "";
            const std::string cost = info.cost ? ", cost " + formatValue(*info.cost) + ", " +
                                                     formatValue(info.equits) + " equits"
                                               : "";
            std::fprintf(stderr,
                         "%s%s iteration %d/%s: residual %s, solution norm %s, regulariser %s%s, "
                         "error %s, %.3f s (%.2f s total)\n",
                         prefix.c_str(), algorithm.c_str(), info.iteration, total.c_str(),
                         formatValue(info.residualNorm).c_str(),
                         formatValue(info.solutionNorm).c_str(),
                         formatValue(info.regularizer).c_str(), cost.c_str(),
                         info.error ? formatValue(*info.error).c_str() : "-", info.iterationSeconds,
                         info.seconds);
            std::fflush(stderr);
        }
        return interrupt.stop_requested() ? IterationAction::StopAndKeep
                                          : IterationAction::Continue;
    };
    return callbacks;
}

void printIterative(const app::ReconReport& report, const app::ReconRequest& request,
                    const ArgParser& args) {
    if (report.stoppedEarly)
        std::cerr << "tomo recon: stopped by an interrupt after iteration " << report.iterations
                  << "; the current image was written\n";
    std::printf(
        "reconstructed %d slice(s) of %dx%d from %d angles with %s on %s, %d iteration(s) (%s) "
        "in %.3f s -> %s\n",
        request.grid.nz, request.grid.nx, request.grid.ny, request.geometry.angleCount(),
        report.algorithm.c_str(), report.variant.c_str(), report.iterations, report.reason.c_str(),
        report.timings.total, args.get("output")->c_str());
    if (!report.stopNote.empty()) {
        std::string kept;
        for (int k : report.keptIterations)
            kept += (kept.empty() ? "" : ", ") + std::to_string(k);
        std::printf("stopping rule %s: result is iteration %s%s; %s\n",
                    report.lastSummary.stopRule.c_str(), kept.c_str(),
                    report.keptIterations.size() > 1 ? " (per chunk)" : "",
                    report.stopNote.c_str());
    }
    if (auto lcurve = args.get("lcurve")) {
        if (report.corner)
            std::printf("L-curve: corner at iteration %.0f of %zu -> %s\n",
                        report.curve[*report.corner].parameter, report.curve.size(),
                        lcurve->c_str());
        else
            std::printf("L-curve: %zu point(s) -> %s; %s\n", report.curve.size(), lcurve->c_str(),
                        report.cornerNote.c_str());
    }
}

/// The error against --truth, when given (slice 0: ReconReport::metrics).
void printMetrics(const app::ReconReport& report) {
    if (report.metrics)
        std::printf("against truth (slice 0): RMSE %.6g  PSNR %.2f dB  SSIM %.4f  max error %.6g\n",
                    report.metrics->rmse, report.metrics->psnr, report.metrics->ssim,
                    report.metrics->maxAbsError);
}

void printFbp(const app::ReconReport& report, const app::ReconRequest& request,
              const ArgParser& args) {
    const double updates =
        double(request.grid.nx) * request.grid.ny * request.grid.nz * request.geometry.angleCount();
    std::printf(
        "reconstructed %d slice(s) of %dx%d from %d angles with %s in %.3f s "
        "(filtering %.3f s, back-projection %.3f s, %.2f GU/s) -> %s\n",
        request.grid.nz, request.grid.nx, request.grid.ny, request.geometry.angleCount(),
        report.variant.c_str(), report.timings.total, report.timings.filtering,
        report.timings.backProjection,
        updates / std::max(report.timings.backProjection, 1e-9) * 1e-9,
        args.get("output")->c_str());
}

/// The ranks of the run and whether this rank has entered the service (whose failures every
/// rank already agrees on); rank 0 prints and writes the extras (PNG, L-curve).
struct Ranks {
    Communicator* comm = nullptr;
    int threads = 0;  ///< worker threads when --threads is not given (0: all cores)
    bool inService = false;
    bool root() const { return !comm || comm->rank() == 0; }
};

Status coneBody(const ArgParser& args, InterruptToStop& interrupt, Ranks& ranks) {
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", ranks.threads, 0, 4096));
    std::vector<std::string> notes;
    TOMO_ASSIGN_OR_RETURN(app::ConeReconRequest request, coneRequestFromArgs(args, notes));
    for (const std::string& note : notes)
        std::cerr << "tomo recon: note: " << note << "\n";
    const app::Engine engine;
    const app::ReconService service(engine, ranks.comm);
    app::ReconCallbacks callbacks;
    callbacks.onNote = [](const std::string& note) {
        std::cerr << "tomo recon: note: " << note << "\n";
    };
    ProgressBar bar(args.has("quiet") || !ranks.root());
    Progress progress(&bar);
    ExecContext ctx{threads, interrupt.token(), &progress};
    ranks.inService = true;
    auto report = service.run(request, callbacks, ctx);
    bar.finish();
    if (!report) return report.status();
    if (!ranks.root()) return Status::ok();
    const FdkReport& f = *report->fdk;
    const ConeVolumeGrid& g = request.grid;
    std::printf(
        "reconstructed %d x %d x %d from %d projections by FDK with %s in %.3f s (%.2f GU/s; "
        "read %.3f s, filter %.3f s, back-projection %.3f s, store %.3f s; %d slab(s)) -> %s\n",
        g.nx, g.ny, g.nz, request.geometry.viewCount(), report->variant.c_str(), f.timings.total,
        f.gups, f.timings.read, f.timings.filter, f.timings.backProject, f.timings.store, f.slabs,
        args.get("output")->c_str());
    printMetrics(*report);
    if (auto png = args.get("png"))
        TOMO_RETURN_IF_ERROR(writePngGray(*png, report->firstSlice.plane(0)));
    return Status::ok();
}

Status reconBody(const ArgParser& args, int argc, char** argv, InterruptToStop& interrupt,
                 Ranks& ranks) {
    if (isConeRequest(args)) {
        TOMO_RETURN_IF_ERROR(checkWritableOutput(*args.get("output")));
        return coneBody(args, interrupt, ranks);
    }
    const std::string output = *args.get("output");
    TOMO_RETURN_IF_ERROR(checkWritableOutput(output));
    if (auto png = args.get("png")) TOMO_RETURN_IF_ERROR(checkWritableOutput(*png));
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", ranks.threads, 0, 4096));
    if (auto lcurve = args.get("lcurve")) {
        TOMO_RETURN_IF_ERROR(app::checkLCurvePath(*lcurve));
        TOMO_RETURN_IF_ERROR(checkWritableOutput(*lcurve));
    }
    std::vector<std::string> notes;
    TOMO_ASSIGN_OR_RETURN(
        app::ReconRequest request,
        reconRequestFromArgs(args, argc, argv, notes, ranks.comm ? ranks.comm->size() : 1));
    for (const std::string& note : notes)
        std::cerr << "tomo recon: note: " << note << "\n";

    const app::Engine engine;
    const app::ReconService service(engine, ranks.comm);
    const bool quiet = args.has("quiet") || !ranks.root();
    auto told = std::make_shared<std::vector<std::string>>();
    app::ReconCallbacks callbacks = iterationPrinter(request, quiet, interrupt.token(), told);
    const bool iterative = findAlgorithm(request.algorithm)->iterative;
    ProgressBar bar(quiet || iterative);
    Progress progress(&bar);
    // Iterative: Ctrl-C stops and keeps (above); FBP: Ctrl-C cancels.
    ExecContext ctx{threads, iterative ? std::stop_token{} : interrupt.token(), &progress};
    ranks.inService = true;
    auto report = service.run(request, callbacks, ctx);
    bar.finish();
    if (!report) return report.status();
    if (!ranks.root()) return Status::ok();
    for (const std::string& note : report->notes)  // the notes not told as they came
        if (std::find(told->begin(), told->end(), note) == told->end())
            std::cerr << "tomo recon: note: " << note << "\n";
    if (auto png = args.get("png"))
        TOMO_RETURN_IF_ERROR(writePngGray(*png, report->firstSlice.plane(0)));
    if (iterative) {
        if (auto lcurve = args.get("lcurve")) {
            if (report->curve.size() < 3)
                std::cerr << "tomo recon: note: " << report->curve.size()
                          << " iteration(s) give no L-curve corner (3 or more needed); " << *lcurve
                          << " written without one\n";
            TOMO_RETURN_IF_ERROR(app::writeLCurve(*lcurve, *report));
        }
        printIterative(*report, request, args);
    } else {
        printFbp(*report, request, args);
    }
    printMetrics(*report);
    return Status::ok();
}

}  // namespace

int runRecon(int argc, char** argv, Communicator* comm) {
    ArgParser args(
        "recon",
        "Reconstructs every slice of a parallel-beam sinogram stack by filtered back-projection\n"
        "or an iterative method (SIRT, OS-SIRT, SART, CGLS, TV, MemXCT; docs/algorithms.md),\n"
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
    if (Status s = args.parse(argc, argv); !s) return reportError("recon", s);
    if (args.helpRequested()) {
        std::cout << args.help();
        return kExitOk;
    }
    if (!args.get("output")) return reportError("recon", invalidArgument("-o OUTPUT is required"));
    // Before any thread starts (readers, device runtimes), so that every thread blocks the
    // signals and Ctrl-C reaches the watcher instead of terminating the process.
    InterruptToStop interrupt;
    Ranks ranks{comm};
    if (comm && comm->size() > 1 && !args.has("threads"))  // the node's cores among its ranks
        ranks.threads = std::max(1, int(std::thread::hardware_concurrency()) / launchedLocalSize());
    Status s = reconBody(args, argc, argv, interrupt, ranks);
    // A rank that failed before the service tells the others, which wait in its first round.
    if (comm && comm->size() > 1 && !ranks.inService) s = RankAgreement(*comm).agree(s);
    if (!s) return ranks.root() ? reportError("recon", s) : exitCodeFor(s);
    return kExitOk;
}

}  // namespace tomo::cli
