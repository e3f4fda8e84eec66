// tomo bench --suite fdk: cone-beam FDK per stage (read, filter, back-projection, store) for
// every cone back-projector of a backend, GUPS = Nx Ny Nz Np / (T 2^30), beside paper 003's
// performance model (Eqs. 8-19) fed with micro-benchmarked constants.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/Engine.h"
#include "app/cli/ArgParser.h"
#include "app/cli/BenchTimeline.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/recon/Preflight.h"
#include "core/base/Parallel.h"
#include "core/cone/Fdk.h"
#include "core/pipeline/LinkBandwidth.h"

namespace tomo::cli {
namespace {

struct Workload {
    int n = 128, views = 180, detector = 192;
};

struct Row {
    std::string variant;
    Workload w;
    FdkTimings t;       ///< median run
    double gups = 0;    ///< whole FDK
    double bpGups = 0;  ///< back-projection stage only
    FdkTimings model;   ///< paper 003's prediction
    double modelTotal = 0;
    int slabs = 0;  ///< of the median run
};

Result<std::vector<Workload>> parseWorkloads(const std::string& text) {
    std::vector<Workload> out;
    for (const std::string& item : split(text, ',')) {
        const auto p = split(item, ':');
        if (p.size() != 3) return invalidArgument("--workload N:VIEWS:DETECTOR ('" + item + "')");
        Workload w;
        TOMO_ASSIGN_OR_RETURN(double n, number(p[0], "--workload"));
        TOMO_ASSIGN_OR_RETURN(double v, number(p[1], "--workload"));
        TOMO_ASSIGN_OR_RETURN(double d, number(p[2], "--workload"));
        if (n < 4 || v < 1 || d < 4 || n > 8192 || v > 100000 || d > 16384)
            return invalidArgument("--workload sizes out of range ('" + item + "')");
        w.n = static_cast<int>(n), w.views = static_cast<int>(v), w.detector = static_cast<int>(d);
        out.push_back(w);
    }
    return out;
}

/// A circular scan whose detector (at magnification 1.5) sees the N^3 volume of 1 mm voxels.
Result<ConeGeometry> geometryFor(const Workload& w) {
    const double pitch = 1.5 * w.n * 1.2 / w.detector;
    return ConeGeometry::circular(1000, 1500, w.views, 0, 360,
                                  DetectorGrid::centred(w.detector, w.detector, pitch, pitch));
}

/// One FDK run from memory into a discarding sink.
Result<FdkReport> runOnce(const ConeGeometry& g, const ConeVolumeGrid& grid,
                          const Array3<float>& views, ConeBackProjector& bp,
                          const FdkOptions& options, int threads) {
    // A copy from memory, as a reader of projections held in memory does; the views held
    // repeat every views.dim(0).
    auto read = [&](int first, int count, View2<float> out) -> Status {
        const std::size_t held = views.dim(0), nv = views.dim(1);
        for (std::size_t p = 0; p < std::size_t(count);) {
            const std::size_t from = (std::size_t(first) + p) % held;
            const std::size_t n = std::min(std::size_t(count) - p, held - from);
            TOMO_RETURN_IF_ERROR(copyHeldViews(views, from, out.rowRange(p * nv, n * nv), threads));
            p += n;
        }
        return Status::ok();
    };
    auto sink = [](int, Volume&&) { return Status::ok(); };
    return runFdk(g, grid, options, bp, read, sink, ExecContext{threads, {}, nullptr});
}

/// Paper 003's model on one node: T_flt = Np / TH_flt, T_bp = Np / TH_bp (+ H2D on devices),
/// T_post = store; on the CPU the stages add up, on a device filtering hides behind
/// back-projection (Eq. 17).
void applyModel(Row& r, const FdkReport& micro, int microViews, bool device) {
    const double np = r.w.views;
    const double thFlt = microViews / std::max(micro.timings.filter, 1e-9);
    const double thRead = microViews / std::max(micro.timings.read, 1e-9);
    const double thBp = microViews / std::max(micro.timings.backProject, 1e-9);
    r.model.read = np / thRead;
    r.model.filter = np / thFlt;
    r.model.backProject = np / thBp;
    r.model.store = micro.timings.store;
    r.modelTotal =
        device ? std::max({r.model.read + r.model.filter, r.model.backProject}) + r.model.store
               : r.model.read + r.model.filter + r.model.backProject + r.model.store;
}

Result<Row> benchVariant(const app::Engine& engine, const std::string& id, const Workload& w,
                         int repeat, int threads, std::size_t budget) {
    TOMO_ASSIGN_OR_RETURN(ConeGeometry g, geometryFor(w));
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(w.n, w.n, w.n, 1.0);
    TOMO_ASSIGN_OR_RETURN(Array3<float> views,
                          Array3<float>::create(std::size_t(std::min(w.views, 64)),
                                                std::size_t(w.detector), std::size_t(w.detector)));
    for (std::size_t r = 0; r < views.dim(0) * views.dim(1); ++r)  // content does not matter
        for (std::size_t i = 0; i < views.dim(2); ++i)
            views.rows().row(r)[i] = float((r * 31 + i * 17) % 97) * 0.01f;
    TOMO_ASSIGN_OR_RETURN(auto bp, engine.coneRegistry().create(id));
    Row row{id, w, {}, 0, 0, {}, 0};
    // Micro-benchmark: the first batch alone (paper 003's measured constants).
    const int microViews = std::min(w.views, bp->preferredBatch());
    TOMO_ASSIGN_OR_RETURN(ConeGeometry microG,
                          ConeGeometry::circular(1000, 1500, microViews, 0, 360, g.detector()));
    // Twice: the first run also builds device programs and fills caches (a warm-up).
    // The ramp on the device where the backend filters there (the reconstruction service's
    // choice, app/Backends.h rowFilterStage).
    FdkOptions options;
    options.memoryBudget = budget;  // slabs as `tomo recon` cuts them on this machine
    options.rowFilter = engine.rowFilter(bp->info().backend);
    TOMO_RETURN_IF_ERROR(runOnce(microG, grid, views, *bp, options, threads).status());
    TOMO_ASSIGN_OR_RETURN(FdkReport micro, runOnce(microG, grid, views, *bp, options, threads));
    std::vector<FdkReport> runs;
    for (int i = 0; i < repeat; ++i) {
        TOMO_ASSIGN_OR_RETURN(FdkReport r, runOnce(g, grid, views, *bp, options, threads));
        runs.push_back(std::move(r));
    }
    std::sort(runs.begin(), runs.end(), [](const FdkReport& a, const FdkReport& b) {
        return a.timings.total < b.timings.total;
    });
    const FdkReport& median = runs[runs.size() / 2];
    row.t = median.timings;
    row.slabs = median.slabs;
    const double updates = double(w.n) * w.n * w.n * w.views / 1073741824.0;
    row.gups = updates / std::max(row.t.total, 1e-9);
    row.bpGups = updates / std::max(row.t.backProject, 1e-9);
    applyModel(row, micro, microViews, bp->info().backend != "cpu");
    return row;
}

void printRows(const std::vector<Row>& rows, bool json) {
    if (json) {
        std::printf("[\n");
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Row& r = rows[i];
            std::printf(
                "  {\"variant\": %s, \"n\": %d, \"views\": %d, \"detector\": %d, "
                "\"read_s\": %s, \"filter_s\": %s, \"backprojection_s\": %s, \"store_s\": %s, "
                "\"total_s\": %s, \"gups\": %s, \"bp_gups\": %s, \"model\": {\"read_s\": %s, "
                "\"filter_s\": %s, \"backprojection_s\": %s, \"store_s\": %s, \"total_s\": "
                "%s}, \"device\": {\"upload_s\": %s, \"kernel_s\": %s, \"transpose_s\": %s, "
                "\"download_s\": %s}, \"timeline\": %s}%s\n",
                jsonEscape(r.variant).c_str(), r.w.n, r.w.views, r.w.detector,
                jsonNumber(r.t.read).c_str(), jsonNumber(r.t.filter).c_str(),
                jsonNumber(r.t.backProject).c_str(), jsonNumber(r.t.store).c_str(),
                jsonNumber(r.t.total).c_str(), jsonNumber(r.gups).c_str(),
                jsonNumber(r.bpGups).c_str(), jsonNumber(r.model.read).c_str(),
                jsonNumber(r.model.filter).c_str(), jsonNumber(r.model.backProject).c_str(),
                jsonNumber(r.model.store).c_str(), jsonNumber(r.modelTotal).c_str(),
                jsonNumber(r.t.device.upload).c_str(), jsonNumber(r.t.device.kernel).c_str(),
                jsonNumber(r.t.device.transpose).c_str(), jsonNumber(r.t.device.download).c_str(),
                timelineJson(fdkTimeline(r.t)).c_str(), i + 1 < rows.size() ? "," : "");
        }
        std::printf("]\n");
        return;
    }
    std::printf("%-22s %-16s %8s %8s %8s %8s %8s %7s %7s %9s\n", "variant", "N^3 x P, det",
                "read s", "filter s", "bp s", "store s", "total s", "GUPS", "bpGUPS", "model s");
    for (const Row& r : rows) {
        char shape[40];
        std::snprintf(shape, sizeof shape, "%d^3 x %d, %d^2", r.w.n, r.w.views, r.w.detector);
        std::printf("%-22s %-16s %8.3f %8.3f %8.3f %8.3f %8.3f %7.2f %7.2f %9.3f\n",
                    r.variant.c_str(), shape, r.t.read, r.t.filter, r.t.backProject, r.t.store,
                    r.t.total, r.gups, r.bpGups, r.modelTotal);
        std::printf("%-22s %-16s %8.3f %8.3f %8.3f %8.3f %8s (model, paper 003 Eqs. 8-19)\n", "",
                    "", r.model.read, r.model.filter, r.model.backProject, r.model.store, "");
        const ConeDeviceTimes& d = r.t.device;
        if (d.upload + d.kernel + d.transpose + d.download > 0)
            std::printf(
                "%-22s device: upload %.3f s, kernels %.3f s, transpose %.3f s, "
                "download %.3f s; %d slab%s\n",
                "", d.upload, d.kernel, d.transpose, d.download, r.slabs, r.slabs == 1 ? "" : "s");
        std::printf("%-22s timeline: %s\n", "", formatTimeline(fdkTimeline(r.t)).c_str());
    }
}

/// On a GPU backend, the host-device link measured on the first device variant's queues, and
/// each row's transfers at the link's rate (its projections up, its volume down) beside the
/// times measured (issue 27 item 2: the bench prints H2D and D2H bandwidth beside the model).
void printLink(const app::Engine& engine, const std::vector<Row>& rows) {
    const auto gpu = std::find_if(rows.begin(), rows.end(),
                                  [](const Row& r) { return r.variant.rfind("cpu.", 0) != 0; });
    if (gpu == rows.end()) return;
    auto bp = engine.coneRegistry().create(gpu->variant);
    ConeDeviceBackProjection* device = bp.isOk() ? (*bp)->device() : nullptr;
    if (!device) return;
    Result<LinkBandwidth> link = [&]() -> Result<LinkBandwidth> {
        TOMO_ASSIGN_OR_RETURN(std::unique_ptr<DeviceQueues> queues, device->openQueues());
        return measureLink(*queues);
    }();
    if (!link.isOk()) {
        std::printf("link: not measured (%s)\n", link.status().message().c_str());
        return;
    }
    std::printf("%s\n", formatLink(*link).c_str());
    for (const Row& r : rows) {
        if (r.variant.rfind("cpu.", 0) == 0) continue;
        const double up = 4.0 * r.w.views * r.w.detector * r.w.detector;
        const double down = 4.0 * r.w.n * r.w.n * r.w.n;
        std::printf("%s\n", linkRateLine(r.variant + " " + std::to_string(r.w.n) + "^3", up, down,
                                         r.t.device.upload, r.t.device.download, *link)
                                .c_str());
    }
}

Status benchFdkBody(const ArgParser& args) {
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    TOMO_ASSIGN_OR_RETURN(int repeat, args.getInt("repeat", 3, 1, 1000));
    const int defaultMiB =  // as tomo recon: half the memory available now
        static_cast<int>(std::min<std::size_t>(app::defaultMemoryBudget() >> 20, 1 << 24));
    TOMO_ASSIGN_OR_RETURN(int budgetMiB, args.getInt("memory-budget", defaultMiB, 1, 1 << 24));
    TOMO_ASSIGN_OR_RETURN(
        std::vector<Workload> workloads,
        parseWorkloads(args.has("quick") ? std::string("24:20:32") : args.getOr("workload", "")));
    const std::string backend = args.getOr("backend", "cpu");
    const app::Engine engine;
    std::vector<std::string> only;
    if (auto list = args.get("variants")) only = split(*list, ',');
    for (const std::string& id : only)
        if (!engine.coneRegistry().contains(id))
            return notFound("no cone-beam back-projector '" + id + "' with a device");
    std::vector<Row> rows;
    for (const ConeBackProjectorInfo& info : engine.coneRegistry().list()) {
        if (backend != "all" && info.backend != backend) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), info.id) == only.end()) continue;
        for (const Workload& w : workloads) {
            TOMO_ASSIGN_OR_RETURN(
                Row r, benchVariant(engine, info.id, w, args.has("quick") ? 1 : repeat, threads,
                                    std::size_t(budgetMiB) << 20));
            rows.push_back(std::move(r));
        }
    }
    if (rows.empty())
        return notFound("no cone-beam back-projector for backend '" + backend + "' with a device");
    if (!args.has("json"))
        std::printf(
            "FDK benchmark, %d CPU threads, memory budget %d MiB (no file I/O: read = copy from "
            "memory)\n",
            resolveThreads(threads), budgetMiB);
    printRows(rows, args.has("json"));
    if (!args.has("json")) printLink(engine, rows);
    return Status::ok();
}

}  // namespace

int runBenchFdk(int argc, char** argv) {
    ArgParser args(
        "bench --suite fdk",
        "Cone-beam FDK (paper 003) per stage for every cone back-projector of a backend:\n"
        "read (copy), filter (weights + ramp), back-projection, store (transposition + sink),\n"
        "GUPS = Nx Ny Nz Np / (T 2^30) of the whole run and of back-projection alone, and the\n"
        "paper's performance model (Eqs. 8-19) from a one-batch micro-benchmark beside it;\n"
        "on a GPU backend, the pinned host-device link (H2D, D2H) and each run's transfers at\n"
        "its rate beside the measured ones.");
    args.option("suite", "NAME", "benchmark suite", "fdk");
    args.option("backend", "B", "cpu | cuda | opencl | all", "cpu");
    args.option("variants", "ID,ID", "only these variants (of the backend)");
    args.option("workload", "N:VIEWS:DETECTOR,...", "volume N^3, views, detector DxD",
                "128:180:192,256:360:384");
    args.option("repeat", "R", "runs per variant; the median is reported", "3");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.option("memory-budget", "MIB",
                "host memory for a slab and its views, in MiB, as tomo recon's (default: half of "
                "the memory available now)");
    args.flag("quick", "a tiny workload (24^3 from 20 views of 32^2), for tests");
    args.flag("json", "print a JSON array");
    return runCommand(args, argc, argv, [&] { return benchFdkBody(args); });
}

}  // namespace tomo::cli
