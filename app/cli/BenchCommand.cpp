// tomo bench: back-projection throughput of every variant on analytic data, split into filtering
// and back-projection, with the error of each variant against the double-precision reference.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

#include "app/Backends.h"
#include "app/Engine.h"
#include "app/Selection.h"
#include "app/cli/ArgParser.h"
#include "app/cli/BenchTimeline.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/recon/ReconService.h"
#include "core/base/Parallel.h"
#include "core/devices/DeviceInfo.h"
#include "core/phantom/Phantom.h"
#include "core/recon/Fbp.h"

namespace tomo::cli {
namespace {

struct Workload {
    int projections = 0, size = 0, slices = 0;  ///< detectors = size
};

Result<Workload> parseWorkload(const std::string& text) {
    TOMO_ASSIGN_OR_RETURN(auto dims, parseShape(text));
    Workload w{static_cast<int>(dims[0]), static_cast<int>(dims[1]),
               dims.size() == 3 ? static_cast<int>(dims[2]) : 8};
    return w;
}

struct Row {
    BackProjectorInfo info;
    Workload workload;
    double filterSeconds = 0, bpSeconds = 0, totalSeconds = 0, gups = 0, maxRelError = 0;
    double e2eGups = 0;  ///< updates / whole FBP seconds (filtering and transfers included)
    bool selected = false;
    TimelineReport timeline;  ///< of the median run
};

/// Error of slice 0 of @p image against the double-precision reference variant on a 48x48 region
/// (the reference is too slow for whole images): max |a - b| / max |b| over the region.
Result<double> referenceError(const Sinograms& sino, const ParallelGeometry& geom,
                              const VolumeGeometry& grid, const BackProjectorInfo& info,
                              const BackProjectorRegistry& registry, const FbpOptions& options,
                              const Volume& image, int threads) {
    const std::string refId =
        info.interpolation == Interpolation::Linear ? "cpu.reference.lin" : "cpu.reference.nn";
    TOMO_ASSIGN_OR_RETURN(auto reference, registry.make(refId));
    Sinograms one;
    TOMO_ASSIGN_OR_RETURN(one, Sinograms::create(1, sino.dim(1), sino.dim(2)));
    for (std::size_t a = 0; a < sino.dim(1); ++a)
        std::copy_n(sino.row(0, a).data(), sino.dim(2), one.row(0, a).data());
    TOMO_ASSIGN_OR_RETURN(
        RampFilter filter,
        RampFilter::create(geom.detectorCount(), geom.detectorPitch(), options.filter));
    TOMO_RETURN_IF_ERROR(filter.apply(one.rows(), {threads, {}, nullptr}));
    const int kx = grid.nx / 3, ky = grid.ny / 4;  // region origin in the image
    const int n = std::min({48, grid.nx - kx, grid.ny - ky});
    VolumeGeometry roi = grid;
    roi.nx = roi.ny = n;
    roi.nz = 1;
    roi.offsetX = grid.offsetX + (kx + 0.5 * (n - 1) - 0.5 * (grid.nx - 1)) * grid.voxelSize;
    roi.offsetY = grid.offsetY + (0.5 * (grid.ny - 1) - ky - 0.5 * (n - 1)) * grid.voxelSize;
    const std::vector<double> w = geom.angularWeights();
    const std::vector<float> weights(w.begin(), w.end());
    Volume ref;
    TOMO_RETURN_IF_ERROR(
        reference->backProject(one, geom, roi, weights, ref, {threads, {}, nullptr}));
    double maxDiff = 0, maxRef = 0;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            double b = ref(0, static_cast<std::size_t>(y), static_cast<std::size_t>(x));
            double a = image(0, static_cast<std::size_t>(ky + y), static_cast<std::size_t>(kx + x));
            maxDiff = std::max(maxDiff, std::abs(a - b));
            maxRef = std::max(maxRef, std::abs(b));
        }
    return maxRef > 0 ? maxDiff / maxRef : maxDiff;
}

/// A workload sized for @p backend's default variant (see benchBody).
Result<std::string> scaledWorkload(const BackProjectorRegistry& registry,
                                   const std::string& backend, int threads) {
    const std::string id = app::defaultVariant(registry, backend, Interpolation::Linear);
    if (id.empty()) return unsupported("no back-projector variants for backend '" + backend + "'");
    TOMO_ASSIGN_OR_RETURN(auto bp, registry.make(id));
    constexpr int kProbe = 128, kSlices = 4;
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, kProbe);
    params.detectorCount = kProbe;
    params.rows = kSlices;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(params));
    Sinograms sino(kSlices, kProbe, kProbe);
    sino.fill(1.0f);
    const std::vector<float> weights(kProbe, 1.0f);
    Volume out;
    double seconds = 1e30;
    for (int run = 0; run < 2; ++run) {  // the first run builds and caches the kernels
        const auto t0 = std::chrono::steady_clock::now();
        TOMO_RETURN_IF_ERROR(bp->backProject(sino, geom, VolumeGeometry::forDetector(geom, kProbe),
                                             weights, out, {threads, {}, nullptr}));
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    const double rate = double(kProbe) * kProbe * kProbe * kSlices / std::max(seconds, 1e-9);
    for (int n : {2048, 1024, 512, 256}) {
        const double perSlice = double(n) * n * n / rate;
        if (perSlice <= 2.0 || n == 256) {
            const int slices = std::clamp(static_cast<int>(2.0 / perSlice), 1, 64);
            return std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(slices);
        }
    }
    return std::string("256x256x1");
}

/// The workloads of --workload / --quick, or the backend's default; CUDA also raises --repeat.
Result<std::vector<Workload>> workloadsFromArgs(const ArgParser& args,
                                                const BackProjectorRegistry& registry,
                                                const std::string& backend, int threads,
                                                int& repeat) {
    std::string spec =
        args.has("quick") ? "64x64x8" : args.getOr("workload", "1024x1024x16,2048x2048x16");
    // CUDA: paper 002's workload (2048 projections, 2048^2 slices, 64 slices per run) and the
    // median of 3 runs after a warm-up run, unless chosen otherwise.
    if (backend == "cuda" && !args.has("quick") && !args.has("workload")) spec = "2048x2048x64";
    if (backend == "cuda" && !args.has("repeat")) repeat = 3;
    if (backend != "cpu" && backend != "cuda" && !args.has("quick") && !args.has("workload")) {
        // The paper's workload scaled to the device: time the default variant on a small probe,
        // then take the largest N of 256..2048 (N projections x N^2) and the slices that would
        // keep it to ~2 s at the probe's rate (larger sizes usually run slower than the probe,
        // and slower variants take proportionally longer).
        TOMO_ASSIGN_OR_RETURN(spec, scaledWorkload(registry, backend, threads));
        std::fprintf(stderr, "workload scaled to the device: %s (set --workload to choose)\n",
                     spec.c_str());
    }
    std::vector<Workload> workloads;
    std::stringstream ss(spec);
    for (std::string item; std::getline(ss, item, ',');) {
        TOMO_ASSIGN_OR_RETURN(Workload w, parseWorkload(item));
        workloads.push_back(w);
    }
    return workloads;
}

/// The variants of --variants, or every non-reference variant of @p backend.
Result<std::vector<BackProjectorInfo>> variantsFromArgs(const ArgParser& args,
                                                        const BackProjectorRegistry& registry,
                                                        const std::string& backend) {
    std::vector<BackProjectorInfo> variants;
    if (auto list = args.get("variants")) {
        std::stringstream vs(*list);
        for (std::string id; std::getline(vs, id, ',');) {
            if (!registry.contains(id)) TOMO_RETURN_IF_ERROR(registry.make(id).status());
            for (const auto& info : registry.list())
                if (info.id == id) variants.push_back(info);
        }
    } else {
        for (const auto& info : registry.list(backend))
            if (info.family != "reference") variants.push_back(info);
    }
    if (variants.empty())
        return unsupported("no back-projector variants for backend '" + backend +
                           "' in this build");
    return variants;
}

/// One workload's data and what every variant's run shares.
struct BenchRun {
    const app::ReconService& service;
    const std::string& backend;
    int threads = 0, repeat = 1;
    std::stop_token stop;
};

/// FBP of @p sinograms with @p info through the front door (app/recon/ReconService.h), kept
/// in memory: the median of the runs (GPU backends: after an untimed warm-up run for module
/// loading, FFT plans and clocks) and the error against the double-precision reference.
Result<Row> measureVariant(const BenchRun& run, const BackProjectorInfo& info, const Workload& w,
                           std::shared_ptr<const Sinograms> sinograms, const ParallelGeometry& geom,
                           const VolumeGeometry& grid) {
    app::ReconRequest request(app::memorySource(sinograms), geom, grid);
    request.variant = info.id;
    Row row{info, w};
    std::vector<FbpTimings> runs;
    Volume image;
    for (int r = run.backend == "cpu" ? 0 : -1; r < run.repeat; ++r) {
        TOMO_ASSIGN_OR_RETURN(app::ReconReport report,
                              run.service.run(request, {}, {run.threads, run.stop, nullptr}));
        image = std::move(report.image);
        if (r >= 0) runs.push_back(report.timings);
    }
    std::sort(runs.begin(), runs.end(),
              [](auto& a, auto& b) { return a.backProjection < b.backProjection; });
    const FbpTimings& median = runs[runs.size() / 2];
    row.timeline = median.timeline;
    row.filterSeconds = median.filtering;
    row.bpSeconds = median.backProjection;
    row.totalSeconds = median.total;
    const double updates = double(w.projections) * w.size * w.size * w.slices;
    row.gups = updates / std::max(row.bpSeconds, 1e-12) * 1e-9;
    row.e2eGups = updates / std::max(row.totalSeconds, 1e-12) * 1e-9;
    TOMO_ASSIGN_OR_RETURN(row.maxRelError, referenceError(*sinograms, geom, grid, info,
                                                          run.service.engine().registry(),
                                                          request.fbp, image, run.threads));
    return row;
}

/// The rows of every variant on workload @p w.
Status benchWorkload(const BenchRun& run, const Workload& w,
                     const std::vector<BackProjectorInfo>& variants, const std::string& device,
                     bool json, std::vector<Row>& rows) {
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, w.projections);
    params.detectorCount = w.size;
    params.rows = w.slices;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(params));
    VolumeGeometry grid = VolumeGeometry::forDetector(geom, w.size);
    Sinograms projected;
    TOMO_RETURN_IF_ERROR(Phantom::sheppLogan2d(0.5 * w.size)
                             .project(geom, projected, 1, {run.threads, run.stop, nullptr}));
    const auto sinograms = std::make_shared<const Sinograms>(std::move(projected));
    if (!json)
        std::fprintf(stderr, "workload %d projections x %dx%d x %d slices on %s\n", w.projections,
                     w.size, w.size, w.slices, device.c_str());
    // The variants a job of this shape gets by default (its workload class's choice).
    const app::Engine& engine = run.service.engine();
    const JobShape shape{w.size, w.slices};
    const std::string selectedLin =
        engine.defaultVariant(run.backend, Interpolation::Linear, shape);
    const std::string selectedNn =
        engine.defaultVariant(run.backend, Interpolation::Nearest, shape);
    for (const BackProjectorInfo& info : variants) {
        TOMO_ASSIGN_OR_RETURN(Row row, measureVariant(run, info, w, sinograms, geom, grid));
        row.selected = info.id == selectedLin || info.id == selectedNn;
        if (!json)
            std::fprintf(stderr,
                         "  %-20s %8.3f GU/s kernel, %8.3f GU/s end to end  (back-projection "
                         "%.3f s, filtering %.3f s)\n",
                         info.id.c_str(), row.gups, row.e2eGups, row.bpSeconds, row.filterSeconds);
        rows.push_back(row);
    }
    return Status::ok();
}

void printJson(const std::vector<Row>& rows, const std::string& device) {
    std::printf("[\n");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        std::printf(
            "  {\"backend\": %s, \"device\": %s, \"variant\": %s, \"family\": %s, \"interp\": "
            "%s, "
            "\"slices\": %d, \"precision\": %s, \"exact\": %s, \"workload\": {\"projections\": "
            "%d, "
            "\"detectors\": %d, \"image\": %d, \"slices\": %d}, \"gups\": %s, \"seconds\": %s, "
            "\"filter_seconds\": %s, \"total_seconds\": %s, \"max_rel_error\": %s, "
            "\"selected\": %s, \"kernel_gups\": %s, \"e2e_gups\": %s, %s}%s\n",
            jsonEscape(r.info.backend).c_str(), jsonEscape(device).c_str(),
            jsonEscape(r.info.id).c_str(), jsonEscape(r.info.family).c_str(),
            jsonEscape(interpolationName(r.info.interpolation)).c_str(), r.info.slicesPerPass,
            jsonEscape(r.info.precision).c_str(), r.info.exact ? "true" : "false",
            r.workload.projections, r.workload.size, r.workload.size, r.workload.slices,
            jsonNumber(r.gups).c_str(), jsonNumber(r.bpSeconds).c_str(),
            jsonNumber(r.filterSeconds).c_str(), jsonNumber(r.totalSeconds).c_str(),
            jsonNumber(r.maxRelError).c_str(), r.selected ? "true" : "false",
            jsonNumber(r.gups).c_str(), jsonNumber(r.e2eGups).c_str(),
            timelineJsonMembers(r.timeline).c_str(), i + 1 < rows.size() ? "," : "");
    }
    std::printf("]\n");
}

/// The timeline of every row (the median run's), then the link of a GPU backend.
void printTimelines(const std::vector<Row>& rows, const std::optional<LinkBandwidth>& link,
                    const std::string& linkWhy) {
    std::vector<TimelineRow> lines;
    for (const Row& r : rows) {
        char wl[64];
        std::snprintf(wl, sizeof wl, "%dx%dx%d x%d", r.workload.projections, r.workload.size,
                      r.workload.size, r.workload.slices);
        lines.push_back({r.info.id, wl, r.timeline});
    }
    cli::printTimelines(lines, link, linkWhy);
}

void printTable(const std::vector<Row>& rows, const std::string& device, int threads,
                double processSeconds) {
    std::printf("%-20s %-22s %9s %9s %10s %10s %10s %12s %s\n", "variant", "workload (PxNxN xS)",
                "GU/s", "e2e GU/s", "bp [s]", "filter [s]", "total [s]", "max rel err", "selected");
    for (const Row& r : rows) {
        char wl[64];
        std::snprintf(wl, sizeof wl, "%dx%dx%d x%d", r.workload.projections, r.workload.size,
                      r.workload.size, r.workload.slices);
        std::printf("%-20s %-22s %9.3f %9.3f %10.3f %10.3f %10.3f %12.2e %s\n", r.info.id.c_str(),
                    wl, r.gups, r.e2eGups, r.bpSeconds, r.filterSeconds, r.totalSeconds,
                    r.maxRelError, r.selected ? "yes" : "");
    }
    std::printf("device: %s, threads: %d; whole process: %.2f s\n", device.c_str(),
                resolveThreads(threads), processSeconds);
}

Status benchBody(const ArgParser& args) {
    const auto processStart = std::chrono::steady_clock::now();
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    TOMO_ASSIGN_OR_RETURN(int repeat, args.getInt("repeat", 1, 1, 100));
    // Before any thread starts (device runtimes start some), so that every thread blocks
    // SIGINT/SIGTERM and the watcher turns them into a stop request.
    InterruptToStop interrupt;
    const app::Engine engine;  // the devices, owned once
    const BackProjectorRegistry& registry = engine.registry();
    const app::ReconService service(engine);
    const std::string backend = args.getOr("backend", "cpu");
    if (registry.list(backend).empty() && !app::compiledVariants(backend, registry).empty()) {
        const auto device = app::primaryDevice(backend);
        return unsupported(
            "backend '" + backend +
            "': " + std::to_string(app::compiledVariants(backend, registry).size()) +
            " variants compiled into this build, none usable (" +
            (device.isOk() ? "its device opened no variant" : device.status().message()) + ")");
    }
    TOMO_ASSIGN_OR_RETURN(auto workloads,
                          workloadsFromArgs(args, registry, backend, threads, repeat));
    TOMO_ASSIGN_OR_RETURN(auto variants, variantsFromArgs(args, registry, backend));
    const auto primary = app::primaryDevice(backend);
    const std::string device = primary.isOk() ? primary->name : backend;
    const bool json = args.has("json");
    const BenchRun run{service, backend, threads, repeat, interrupt.token()};
    std::vector<Row> rows;
    for (const Workload& w : workloads)
        TOMO_RETURN_IF_ERROR(benchWorkload(run, w, variants, device, json, rows));
    const double processSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - processStart).count();
    if (json) {
        printJson(rows, device);
    } else {
        printTable(rows, device, threads, processSeconds);
        std::string why;
        const auto link = backend == "cpu" || args.has("no-link")
                              ? std::nullopt
                              : measureBackendLink(registry, variants.front().id, why);
        printTimelines(rows, link, why);
    }
    return Status::ok();
}

}  // namespace

int runBench(int argc, char** argv) {
    for (int i = 2; i + 1 < argc; ++i)  // other suites have their own options
        if (std::string(argv[i]) == "--suite" && std::string(argv[i + 1]) == "memxct")
            return runBenchMemxct(argc, argv);
        else if (std::string(argv[i]) == "--suite" && std::string(argv[i + 1]) == "fdk")
            return runBenchFdk(argc, argv);
        else if (std::string(argv[i]) == "--suite" && std::string(argv[i + 1]) == "gridrec")
            return runBenchGridrec(argc, argv);
        else if (std::string(argv[i]) == "--suite" && std::string(argv[i + 1]) == "preview")
            return runBenchPreview(argc, argv);
        else if (std::string(argv[i]) == "--suite" &&
                 (std::string(argv[i + 1]) == "sirt" || std::string(argv[i + 1]) == "ordering"))
            return runBenchIterative(argc, argv);
    ArgParser args(
        "bench",
        "Times FBP with every back-projector variant of a backend on an analytic Shepp-Logan\n"
        "sinogram (no I/O): GU/s = projections x N^2 x slices / back-projection seconds (10^9\n"
        "pixel updates per second), with the filtering time, the whole FBP time and each\n"
        "variant's maximum relative error against the double-precision reference on a region.\n"
        "GU/s counts the back-projection stage's busy time (on a GPU its kernels, measured by\n"
        "device events; transfers overlap them); e2e GU/s the whole FBP, filtering included.\n"
        "CUDA filters by cuFFT on the device; its default workload is paper 002's\n"
        "2048x2048x64, median of 3 after a warm-up. After the table: each variant's timeline\n"
        "(wall, busy time of upload, filter, kernels, download and host work, overlap\n"
        "efficiency, the busiest queue as the bound) and, on a GPU backend, the pinned\n"
        "host-device link (H2D, D2H) beside the transfers of the run.");
    args.option("backend", "B", "cpu | cuda | opencl", "cpu");
    args.option("variants", "ID,ID", "only these variants");
    args.option("workload", "PxN[xS],...", "projections x image size (= detectors) x slices",
                "1024x1024x16,2048x2048x16");
    args.flag("quick", "a tiny workload (64x64x8), for tests");
    args.option("repeat", "R", "runs per variant; the median is reported", "1");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.flag("json", "print a JSON array (fields as in docs/performance.md)");
    args.flag("no-link", "skip the host-device link measurement of a GPU backend");
    return runCommand(args, argc, argv, [&] { return benchBody(args); });
}

}  // namespace tomo::cli
