// tomo tune: runs the variant selection sweep for a backend's device and stores the choice in
// the selection cache (app/Selection.h, docs/selection.md).
#include <cstdio>

#include "app/Backends.h"
#include "app/Engine.h"
#include "app/Selection.h"
#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/TuneArgs.h"

namespace tomo::cli {
namespace {

void printJson(const SelectionResult& r, const std::string& cachePath, const Status& saved) {
    std::printf(
        "{\"backend\": %s, \"device\": %s, \"family\": %s, \"seconds\": %s, \"cache\": %s, "
        "\"saved\": %s,\n \"choices\": {",
        jsonEscape(r.backend).c_str(), jsonEscape(r.traits.device).c_str(),
        jsonEscape(r.traits.family).c_str(), jsonNumber(r.seconds).c_str(),
        jsonEscape(cachePath).c_str(), saved.isOk() ? "true" : "false");
    bool first = true;
    for (const auto& [k, id] : r.choices()) {
        std::printf("%s%s: %s", first ? "" : ", ", jsonEscape(k).c_str(), jsonEscape(id).c_str());
        first = false;
    }
    std::printf("},\n \"classes\": [");
    for (std::size_t c = 0; c < r.classes.size(); ++c) {
        const ClassSelection& cls = r.classes[c];
        std::printf("%s\n  {\"class\": %s, \"image_size\": %d, \"slices\": %d, \"variants\": [",
                    c ? "," : "", jsonEscape(cls.workloadClass).c_str(), cls.shape.size,
                    cls.shape.slices);
        for (std::size_t i = 0; i < cls.table.size(); ++i) {
            const CandidateReport& v = cls.table[i];
            bool isDefault = false;
            for (const auto& [kind, id] : cls.defaults)
                isDefault = isDefault || id == v.info.id;
            std::printf(
                "%s\n   {\"id\": %s, \"exact\": %s, \"interp\": %s, \"default\": %s, "
                "\"predicted_gups\": %s, \"bottleneck\": %s, \"measured_gups\": %s, \"runs\": "
                "%d, \"projections\": %d, \"error\": %s, \"state\": %s, \"note\": %s}",
                i ? "," : "", jsonEscape(v.info.id).c_str(), v.info.exact ? "true" : "false",
                jsonEscape(interpolationName(v.info.interpolation)).c_str(),
                isDefault ? "true" : "false",
                v.hasModel ? jsonNumber(v.prediction.gups).c_str() : "null",
                jsonEscape(v.prediction.bottleneck).c_str(),
                v.state == CandidateState::Measured ? jsonNumber(v.measuredGups).c_str() : "null",
                v.runs, v.projections, v.error >= 0 ? jsonNumber(v.error).c_str() : "null",
                jsonEscape(candidateStateName(v.state)).c_str(), jsonEscape(v.note).c_str());
        }
        std::printf("]}");
    }
    std::printf("\n]}\n");
}

void printTable(const SelectionResult& r, const std::string& cachePath, const Status& saved) {
    std::printf("%s: %s (%s), %zu workload classes, %.1f s\n", r.backend.c_str(),
                r.traits.device.c_str(), r.traits.family.c_str(), r.classes.size(), r.seconds);
    for (const ClassSelection& cls : r.classes) {
        std::printf("class %s: %d^2 pixels x %d slices\n", cls.workloadClass.c_str(),
                    cls.shape.size, cls.shape.slices);
        std::printf("  %-36s %10s  %-12s %10s  %9s  %-9s %s\n", "variant", "predicted",
                    "bottleneck", "measured", "error", "state", "note");
        for (const CandidateReport& c : cls.table) {
            char pred[32] = "-", meas[32] = "-", err[32] = "-";
            if (c.hasModel) std::snprintf(pred, sizeof pred, "%.2f", c.prediction.gups);
            if (c.state == CandidateState::Measured)
                std::snprintf(meas, sizeof meas, "%.2f", c.measuredGups);
            if (c.error >= 0) std::snprintf(err, sizeof err, "%.1e", c.error);
            std::string note = c.note;
            for (const auto& [kind, id] : cls.defaults)
                if (id == c.info.id)
                    note = "model default (" + kind + ")" + (note.empty() ? "" : "; " + note);
            std::printf("  %-36s %10s  %-12s %10s  %9s  %-9s %s\n", c.info.id.c_str(), pred,
                        c.prediction.bottleneck.c_str(), meas, err, candidateStateName(c.state),
                        note.c_str());
        }
        for (const auto& [k, id] : cls.choices)
            std::printf("  chosen %-22s %s\n", k.c_str(), id.c_str());
    }
    std::printf(
        "(GU/s; a challenger replaces the model default only when measured >= 5%% faster "
        "on the class's shape)\n");
    if (saved.isOk())
        std::printf("stored in %s\n", cachePath.c_str());
    else
        std::printf("not stored: %s\n", saved.message().c_str());
}

Status tuneBody(const ArgParser& args) {
    InterruptToStop interrupt;  // before any device runtime starts a thread
    const app::Engine engine;   // the devices, owned once
    const bool json = args.has("json");
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    ProgressBar bar(json || args.has("quiet"));
    Progress progress(&bar);
    Status saved;
    TOMO_ASSIGN_OR_RETURN(
        SelectionResult result,
        tuneFromArgs(args, engine, {threads, interrupt.token(), &progress}, &saved));
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

ArgParser tuneParser() {
    ArgParser args(
        "tune",
        "Chooses the back-projector variant for a backend's device per workload class (one\n"
        "slice or many, image size): every variant gets a predicted rate from paper 002's\n"
        "performance model, is checked against the CPU reference and timed in a short sweep on\n"
        "the class's shape; the model's default is kept unless another variant of the same kind\n"
        "measures faster in the same run. The choices are stored in\n"
        "$XDG_CACHE_HOME/tomostation/selection.json and used when no --variant is given. By\n"
        "default the classes 1 and many slices at 256^2 and 1024^2 are tuned; --size and/or\n"
        "--slices tune one class (e.g. --size 4096 --slices 1).");
    args.option("backend", "B", "cpu, cuda or opencl", std::string("cpu"));
    args.option("budget", "S", "time budget of the whole sweep in seconds", std::string("10"));
    args.option("repeats", "N", "timed runs per variant (median)", std::string("3"));
    args.option("size", "N", "tune one class: image edge of its timing runs (0 = 1024)",
                std::string("0"));
    args.option("slices", "N", "tune one class: slices of its timing runs (0 = 16)",
                std::string("0"));
    args.option("threads", "N", "CPU threads (0 = all)", std::string("0"));
    args.flag("json", "print JSON");
    args.flag("quiet", "no progress bar");
    args.epilog("example: tomo tune --backend opencl --budget 20");
    return args;
}

Result<SelectionResult> tuneFromArgs(const ArgParser& args, const app::Engine& engine,
                                     const ExecContext& ctx, Status* saved) {
    const std::string backend = args.getOr("backend", "cpu");
    SelectorOptions options;
    TOMO_ASSIGN_OR_RETURN(options.budgetSeconds, args.getDouble("budget", 10.0, 0.1, 3600.0));
    TOMO_ASSIGN_OR_RETURN(options.repeats, args.getInt("repeats", 3, 1, 9));
    TOMO_ASSIGN_OR_RETURN(options.imageSize, args.getInt("size", 0, 0, 8192));
    TOMO_ASSIGN_OR_RETURN(options.slices, args.getInt("slices", 0, 0, 64));
    TOMO_RETURN_IF_ERROR(options.validate());
    return app::tuneBackend(engine.registry(), backend, options, ctx, saved);
}

int runTune(int argc, char** argv) {
    ArgParser args = tuneParser();
    return runCommand(args, argc, argv, [&] { return tuneBody(args); });
}

}  // namespace tomo::cli
