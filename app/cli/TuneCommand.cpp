// tomo tune: runs the variant selection sweep for a backend's device and stores the choice in
// the selection cache (app/Selection.h, docs/selection.md).
#include <cstdio>

#include "app/Backends.h"
#include "app/Selection.h"
#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"

namespace tomo::cli {
namespace {

void printJson(const SelectionResult& r, const std::string& cachePath, const Status& saved) {
    std::printf(
        "{\"backend\": %s, \"device\": %s, \"family\": %s, \"image_size\": %d, "
        "\"slices\": %d, \"seconds\": %s, \"cache\": %s, \"saved\": %s,\n \"choices\": {",
        jsonEscape(r.backend).c_str(), jsonEscape(r.traits.device).c_str(),
        jsonEscape(r.traits.family).c_str(), r.imageSize, r.slices, jsonNumber(r.seconds).c_str(),
        jsonEscape(cachePath).c_str(), saved.isOk() ? "true" : "false");
    bool first = true;
    for (const auto& [k, id] : r.choices) {
        std::printf("%s%s: %s", first ? "" : ", ", jsonEscape(k).c_str(), jsonEscape(id).c_str());
        first = false;
    }
    std::printf("},\n \"variants\": [");
    for (std::size_t i = 0; i < r.table.size(); ++i) {
        const CandidateReport& c = r.table[i];
        std::printf(
            "%s\n  {\"id\": %s, \"exact\": %s, \"interp\": %s, \"predicted_gups\": %s, "
            "\"bottleneck\": %s, \"measured_gups\": %s, \"runs\": %d, \"projections\": "
            "%d, \"error\": %s, \"state\": %s, \"note\": %s}",
            i ? "," : "", jsonEscape(c.info.id).c_str(), c.info.exact ? "true" : "false",
            jsonEscape(interpolationName(c.info.interpolation)).c_str(),
            c.hasModel ? jsonNumber(c.prediction.gups).c_str() : "null",
            jsonEscape(c.prediction.bottleneck).c_str(),
            c.state == CandidateState::Measured ? jsonNumber(c.measuredGups).c_str() : "null",
            c.runs, c.projections, c.error >= 0 ? jsonNumber(c.error).c_str() : "null",
            jsonEscape(candidateStateName(c.state)).c_str(), jsonEscape(c.note).c_str());
    }
    std::printf("\n]}\n");
}

void printTable(const SelectionResult& r, const std::string& cachePath, const Status& saved) {
    std::printf("%s: %s (%s), %d^2 pixels x %d slices, %.1f s\n", r.backend.c_str(),
                r.traits.device.c_str(), r.traits.family.c_str(), r.imageSize, r.slices, r.seconds);
    std::printf("  %-36s %10s  %-12s %10s  %9s  %-9s %s\n", "variant", "predicted", "bottleneck",
                "measured", "error", "state", "note");
    for (const CandidateReport& c : r.table) {
        char pred[32] = "-", meas[32] = "-", err[32] = "-";
        if (c.hasModel) std::snprintf(pred, sizeof pred, "%.2f", c.prediction.gups);
        if (c.state == CandidateState::Measured)
            std::snprintf(meas, sizeof meas, "%.2f", c.measuredGups);
        if (c.error >= 0) std::snprintf(err, sizeof err, "%.1e", c.error);
        std::printf("  %-36s %10s  %-12s %10s  %9s  %-9s %s\n", c.info.id.c_str(), pred,
                    c.prediction.bottleneck.c_str(), meas, err, candidateStateName(c.state),
                    c.note.c_str());
    }
    std::printf("  (GU/s)\nchoices:\n");
    for (const auto& [k, id] : r.choices)
        std::printf("  %-20s %s\n", k.c_str(), id.c_str());
    if (saved.isOk())
        std::printf("stored in %s\n", cachePath.c_str());
    else
        std::printf("not stored: %s\n", saved.message().c_str());
}

Status tuneBody(const ArgParser& args) {
    const std::string backend = args.getOr("backend", "cpu");
    SelectorOptions options;
    TOMO_ASSIGN_OR_RETURN(options.budgetSeconds, args.getDouble("budget", 10.0, 0.1, 3600.0));
    TOMO_ASSIGN_OR_RETURN(options.repeats, args.getInt("repeats", 3, 1, 9));
    TOMO_ASSIGN_OR_RETURN(options.imageSize, args.getInt("size", 0, 0, 8192));
    TOMO_ASSIGN_OR_RETURN(options.slices, args.getInt("slices", 0, 0, 64));
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    TOMO_RETURN_IF_ERROR(options.validate());
    InterruptToStop interrupt;  // before any device runtime starts a thread
    const BackProjectorRegistry registry = app::makeRegistry();
    const bool json = args.has("json");
    ProgressBar bar(json || args.has("quiet"));
    Progress progress(&bar);
    Status saved;
    TOMO_ASSIGN_OR_RETURN(SelectionResult result,
                          app::tuneBackend(registry, backend, options,
                                           {threads, interrupt.token(), &progress}, &saved));
    bar.finish();
    const std::string cachePath = app::selectionCachePath().string();
    if (json)
        printJson(result, cachePath, saved);
    else
        printTable(result, cachePath, saved);
    if (!saved.isOk()) std::fprintf(stderr, "tomo tune: %s\n", saved.message().c_str());
    return Status::ok();
}

}  // namespace

int runTune(int argc, char** argv) {
    ArgParser args(
        "tune",
        "Chooses the back-projector variant for a backend's device: every variant gets a\n"
        "predicted rate from paper 002's performance model, is checked against the CPU\n"
        "reference and timed in a short sweep; the fastest exact and approximate variants per\n"
        "interpolation are stored in $XDG_CACHE_HOME/tomostation/selection.json and used when\n"
        "no --variant is given.");
    args.option("backend", "B", "cpu, cuda or opencl", std::string("cpu"));
    args.option("budget", "S", "time budget of the whole sweep in seconds", std::string("10"));
    args.option("repeats", "N", "timed runs per variant (median)", std::string("3"));
    args.option("size", "N", "image edge of the timing runs (0 = scaled to the device)",
                std::string("0"));
    args.option("slices", "N", "slices of the timing runs (0 = largest slices per pass)",
                std::string("0"));
    args.option("threads", "N", "CPU threads (0 = all)", std::string("0"));
    args.flag("json", "print JSON");
    args.flag("quiet", "no progress bar");
    args.epilog("example: tomo tune --backend opencl --budget 20");
    return runCommand(args, argc, argv, [&] { return tuneBody(args); });
}

}  // namespace tomo::cli
