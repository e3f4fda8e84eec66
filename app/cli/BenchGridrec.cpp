// tomo bench --suite gridrec: Fourier-domain reconstruction (gridrec) against direct FBP on the
// same analytic data through the front door, side by side in one run: seconds per run and per
// slice, the speed-up, and each method's RMSE against the phantom (docs/performance.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "app/Engine.h"
#include "app/cli/ArgParser.h"
#include "app/cli/BenchTimeline.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ReconArgs.h"
#include "app/recon/ReconService.h"
#include "core/base/Parallel.h"
#include "core/data/AlignedBuffer.h"
#include "core/metrics/Metrics.h"
#include "core/phantom/Phantom.h"

namespace tomo::cli {
namespace {

struct Workload {
    int views = 0, size = 0, slices = 1;  ///< detectors = size
};

struct Row {
    Workload w;
    std::string method, variant, plan;
    double seconds = 0;       ///< median run: the reconstruction, host to host on a GPU
    double rmse = 0;          ///< slice 0 against the phantom, inside the inscribed circle
    double gridding = -1;     ///< --gridding-error: max |image - accurate gridrec| / max (slice 0)
    TimelineReport timeline;  ///< of the median run (core/pipeline/Timeline.h)
};

/// How the data are acquired: Poisson noise (photons; 0: none) and the axis off the detector's
/// centre (pixels).
struct Acquisition {
    double photons = 0, shift = 0;
};

/// A stack of @p w.slices copies of the Shepp-Logan sinogram and the phantom on the grid.
struct Data {
    std::shared_ptr<const Sinograms> sino;
    ParallelGeometry geom;
    VolumeGeometry grid;
    Volume truth, circle;
};

Result<Data> makeData(const Workload& w, const Acquisition& a, int threads) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.0, kPi, w.views);
    p.detectorCount = w.size;
    p.centerOfRotation = 0.5 * (w.size - 1) + a.shift;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry one, ParallelGeometry::create(p));
    const Phantom phantom = Phantom::sheppLogan2d(0.5 * w.size);
    Sinograms single;
    TOMO_RETURN_IF_ERROR(phantom.project(one, single, 2, {threads, {}, nullptr}));
    // Attenuation 5 / N per pixel length: the longest path keeps ~e^-1.5 of the photons.
    if (a.photons > 0) TOMO_RETURN_IF_ERROR(addPoissonNoise(single, a.photons, 1, 5.0 / w.size));
    p.rows = w.slices;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(p));
    // Written in full (rows with their padding) by the threads below, which touch its pages
    // first: 2048^3 is 32 GiB, 25 s of one thread's zeroing in a VM.
    TOMO_ASSIGN_OR_RETURN(
        Sinograms stack,
        Sinograms::createUninitialised(std::size_t(w.slices), single.dim(1), single.dim(2)));
    const std::size_t plane = single.dim(1) * single.pitch();
    TOMO_RETURN_IF_ERROR(parallelFor(std::size_t(w.slices), threads, {}, [&](std::size_t s, int) {
        std::copy_n(single.data(), plane, stack.plane(s).data());
    }));
    Data d{std::make_shared<const Sinograms>(std::move(stack)),
           geom,
           VolumeGeometry::forDetector(one, w.size),
           {},
           {}};
    TOMO_RETURN_IF_ERROR(phantom.rasterize(d.grid, d.truth, 2, {threads, {}, nullptr}));
    TOMO_ASSIGN_OR_RETURN(d.circle, Volume::create(1, std::size_t(w.size), std::size_t(w.size)));
    const double r = 0.5 * w.size - 2, c = 0.5 * (w.size - 1);
    for (int y = 0; y < w.size; ++y)
        for (int x = 0; x < w.size; ++x)
            d.circle(0, std::size_t(y), std::size_t(x)) =
                (x - c) * (x - c) + (y - c) * (y - c) < r * r ? 1.f : 0.f;
    d.grid.nz = w.slices;
    return d;
}

/// How each method runs.
struct Runs {
    std::string backend = "cpu";
    FilterOptions filter;  ///< both methods' filter
    int repeat = 3;
    bool warmup = false;  ///< an untimed run first (GPU: module loading, plans, clocks)
};

/// The median of the runs of @p algorithm, its RMSE; its image in @p image.
Result<Row> measure(const app::ReconService& service, const Data& d, const Workload& w,
                    const std::string& algorithm, const std::map<std::string, std::string>& params,
                    const Runs& runs, const ExecContext& ctx, Volume& image) {
    app::ReconRequest request(app::memorySource(d.sino), d.geom, d.grid);
    request.algorithm = algorithm;
    request.backend = runs.backend;
    request.fbp.filter = runs.filter;
    request.parameters = params;
    // One slab, the stack reconstructed in place: the timing is the method's. A budget alone
    // does not ensure it: the stack, already allocated, is both held and missing from the
    // memory available, so 2048^3 on a 128 GB machine ran in slabs of 896 slices, each copied.
    request.memoryBudget = std::size_t(1) << 40;
    request.slabSlices = std::size_t(w.slices);
    Row row{w, algorithm, "", "", 0, 0};
    std::vector<std::pair<double, TimelineReport>> timed;
    for (int r = runs.warmup ? -1 : 0; r < runs.repeat; ++r) {
        image = Volume{};  // the previous run's image freed first (2048^3: 32 GiB each)
        const auto t0 = std::chrono::steady_clock::now();
        TOMO_ASSIGN_OR_RETURN(app::ReconReport report, service.run(request, {}, ctx));
        if (r >= 0)
            timed.emplace_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                report.timings.timeline);
        row.variant = report.variant;
        for (const std::string& n : report.notes)
            if (n.rfind("gridrec: ", 0) == 0) row.plan = n.substr(9);
        image = std::move(report.image);
    }
    std::sort(timed.begin(), timed.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::tie(row.seconds, row.timeline) = timed[timed.size() / 2];
    TOMO_ASSIGN_OR_RETURN(row.rmse, rmse(image.plane(0), d.truth.plane(0), d.circle.plane(0)));
    return row;
}

/// max |a - b| / max |b| over slice 0.
double relativeMax(const Volume& a, const Volume& b) {
    double diff = 0, peak = 0;
    for (std::size_t y = 0; y < b.dim(1); ++y)
        for (std::size_t x = 0; x < b.dim(2); ++x) {
            diff = std::max(diff, double(std::abs(a(0, y, x) - b(0, y, x))));
            peak = std::max(peak, double(std::abs(b(0, y, x))));
        }
    return peak > 0 ? diff / peak : diff;
}

Result<std::vector<Workload>> parseWorkloads(const std::string& text) {
    std::vector<Workload> out;
    for (const std::string& item : split(text, ',')) {
        TOMO_ASSIGN_OR_RETURN(auto dims, parseShape(item));
        Workload w{int(dims[0]), int(dims[1]), dims.size() == 3 ? int(dims[2]) : 1};
        if (w.views < 2 || w.size < 16 || w.slices < 1 || w.size > 16384)
            return invalidArgument("--workload VIEWSxN[xSLICES] out of range ('" + item + "')");
        out.push_back(w);
    }
    return out;
}

void printRows(const std::vector<Row>& rows, bool json, const std::string& load) {
    if (json) std::printf("[\n");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        // Against the workload's direct FBP row when there is one (it comes first).
        const Row& direct = i > 0 && rows[i - 1].w.views == r.w.views &&
                                    rows[i - 1].w.size == r.w.size &&
                                    rows[i - 1].w.slices == r.w.slices
                                ? rows[i - 1]
                                : r;
        const double speedup = direct.seconds / std::max(r.seconds, 1e-12);
        if (json) {
            std::printf(
                "  {\"method\": %s, \"variant\": %s, \"workload\": {\"views\": %d, "
                "\"image\": %d, \"slices\": %d}, \"seconds\": %s, \"seconds_per_slice\": "
                "%s, \"speedup\": %s, \"rmse\": %s, \"rmse_over_direct\": %s, "
                "\"gridding_error\": %s, \"plan\": %s, %s}%s\n",
                jsonEscape(r.method).c_str(), jsonEscape(r.variant).c_str(), r.w.views, r.w.size,
                r.w.slices, jsonNumber(r.seconds).c_str(),
                jsonNumber(r.seconds / r.w.slices).c_str(), jsonNumber(speedup).c_str(),
                jsonNumber(r.rmse).c_str(), jsonNumber(r.rmse / direct.rmse).c_str(),
                r.gridding < 0 ? "null" : jsonNumber(r.gridding).c_str(),
                jsonEscape(r.plan).c_str(), timelineJsonMembers(r.timeline).c_str(),
                i + 1 < rows.size() ? "," : "");
            continue;
        }
        if (i == 0)
            std::printf("%-22s %-14s %9s %10s %9s %9s %10s %9s  %s\n", "workload (PxNxN xS)",
                        "variant", "seconds", "per slice", "speed-up", "RMSE", "RMSE/FBP",
                        "gridding", "plan");
        char wl[64];
        std::snprintf(wl, sizeof wl, "%dx%dx%d x%d", r.w.views, r.w.size, r.w.size, r.w.slices);
        char gridding[16] = "-";
        if (r.gridding >= 0) std::snprintf(gridding, sizeof gridding, "%.1e", r.gridding);
        std::printf("%-22s %-14s %9.3f %10.4f %9.2f %9.5f %10.3f %9s  %s\n",
                    &direct != &r ? "" : wl, r.variant.c_str(), r.seconds, r.seconds / r.w.slices,
                    speedup, r.rmse, r.rmse / direct.rmse, gridding, r.plan.c_str());
    }
    if (json) {
        std::printf("]\n");
        return;
    }
    std::printf("%s\n", load.c_str());
}

/// After the table: every row's timeline, and on a GPU backend the link measured on its queues
/// beside each row's transfers (as `tomo bench`'s FBP report).
void printTimelines(const std::vector<Row>& rows, const app::Engine& engine,
                    const std::string& backend) {
    std::vector<TimelineRow> lines;
    for (const Row& r : rows) {
        char wl[64];
        std::snprintf(wl, sizeof wl, "%dx%dx%d x%d", r.w.views, r.w.size, r.w.size, r.w.slices);
        lines.push_back({r.variant, wl, r.timeline});
    }
    std::optional<LinkBandwidth> link;
    std::string why;
    if (backend != "cpu") {
        const auto variants = engine.registry().list(backend);
        if (variants.empty())
            why = "no " + backend + " back-projector to open the device's queues";
        else
            link = measureBackendLink(engine.registry(), variants.front().id, why);
    }
    cli::printTimelines(lines, link, why);
}

/// GB/s of the first touch (writing fresh pages: the system faults and zeroes them) of 1 GiB
/// on @p threads threads, with or without transparent huge pages advised (AlignedBuffer.h):
/// what writing a device path's image into fresh memory costs at least.
Result<double> firstTouchRate(int threads, bool hugePages) {
    constexpr std::size_t kBlock = std::size_t(1) << 20, kBlocks = 256;  // 256 blocks of 4 MiB
    AlignedBuffer<float> fresh;
    if (!fresh.tryAllocate(kBlocks * kBlock, hugePages, false))
        return outOfMemory("1 GiB to measure the first touch of fresh memory");
    const auto t0 = std::chrono::steady_clock::now();
    TOMO_RETURN_IF_ERROR(parallelFor(kBlocks, threads, {}, [&](std::size_t b, int) {
        std::fill_n(fresh.data() + b * kBlock, kBlock, 0.f);
    }));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return double(kBlocks * kBlock * sizeof(float)) / std::max(s, 1e-9) / 1e9;
}

/// On a GPU backend: the host's first-touch rate on one thread and on the pipeline's unpacking
/// threads (half of @p threads, core/pipeline/ChunkPipeline.cpp), which write the image, with
/// 4 KiB pages (as Array3::createUninitialised allocates the image) and with huge pages advised
/// (on the 2-core VM of development slower and erratic: 0.3-2.9 GB/s against 1.2-1.5).
void printFirstTouch(int threads) {
    const int unpacking = std::max(1, resolveThreads(threads) / 2);
    const Result<double> one = firstTouchRate(1, false), many = firstTouchRate(unpacking, false),
                         huge = firstTouchRate(unpacking, true);
    for (const Result<double>* r : {&one, &many, &huge})
        if (!r->isOk()) {
            std::printf("host memory: first touch not measured (%s)\n",
                        r->status().message().c_str());
            return;
        }
    std::printf(
        "host memory: first touch of fresh pages %.2f GB/s on 1 thread, %.2f GB/s on the %d "
        "unpacking thread(s), which write the image (%.2f GB/s there with huge pages "
        "advised)\n",
        *one, *many, unpacking, *huge);
}

constexpr const char* kWorkloads =
    "1024x1024x1,1024x1024x16,2048x2048x1,2048x2048x16,4096x4096x1,4096x4096x16";

Status benchGridrecBody(const ArgParser& args, int argc, char** argv) {
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    TOMO_ASSIGN_OR_RETURN(int repeat, args.getInt("repeat", 3, 1, 100));
    TOMO_ASSIGN_OR_RETURN(
        auto workloads,
        parseWorkloads(args.has("quick") ? "64x64x1,64x64x3" : args.getOr("workload", kWorkloads)));
    TOMO_ASSIGN_OR_RETURN(auto params, collectParams(argc, argv));
    Runs runs;
    runs.backend = args.getOr("backend", "cpu");
    runs.repeat = repeat;
    TOMO_ASSIGN_OR_RETURN(int warmup, args.getInt("warmup", runs.backend == "cpu" ? 0 : 1, 0, 1));
    runs.warmup = warmup == 1;
    TOMO_ASSIGN_OR_RETURN(runs.filter.window, parseFilterWindow(args.getOr("filter", "ramp")));
    Acquisition acquisition;
    TOMO_ASSIGN_OR_RETURN(acquisition.photons, args.getDouble("noise", 0, 0, 1e12));
    TOMO_ASSIGN_OR_RETURN(acquisition.shift, args.getDouble("shift", 0, -1e4, 1e4));
    const std::string methods = args.getOr("methods", "direct,gridrec");
    const bool direct = methods.find("direct") != std::string::npos;
    if (!direct && methods != "gridrec")
        return invalidArgument("--methods: direct,gridrec or gridrec (got '" + methods + "')");
    InterruptToStop interrupt;
    const app::Engine engine;
    const app::ReconService service(engine);
    const ExecContext ctx{threads, interrupt.token(), nullptr};
    std::vector<Row> rows;
    for (const Workload& w : workloads) {
        if (!args.has("json"))
            std::fprintf(stderr, "workload %d views x %dx%d x %d slices on %s\n", w.views, w.size,
                         w.size, w.slices, runs.backend.c_str());
        TOMO_ASSIGN_OR_RETURN(Data d, makeData(w, acquisition, threads));
        Volume image;
        if (direct) {
            TOMO_ASSIGN_OR_RETURN(Row row, measure(service, d, w, "fbp", {}, runs, ctx, image));
            rows.push_back(row);
        }
        TOMO_ASSIGN_OR_RETURN(Row fourier,
                              measure(service, d, w, "gridrec", params, runs, ctx, image));
        if (args.has("gridding-error")) {  // against gridrec at tolerance 1e-6, one run
            Volume accurate;
            Runs once = runs;
            once.repeat = 1;
            auto exact = params;
            exact["tolerance"] = "1e-6";
            exact.erase("oversampling");
            exact.erase("kernel-width");
            TOMO_RETURN_IF_ERROR(
                measure(service, d, w, "gridrec", exact, once, ctx, accurate).status());
            fourier.gridding = relativeMax(image, accurate);
        }
        rows.push_back(fourier);
    }
    char load[160] = "";
    if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
        char avg[64] = "";
        if (std::fgets(avg, sizeof avg, f))
            std::snprintf(load, sizeof load, "threads: %d; load average at the end: %.40s",
                          resolveThreads(threads), avg);
        std::fclose(f);
    }
    printRows(rows, args.has("json"), load);
    if (args.has("json")) return Status::ok();
    printTimelines(rows, engine, runs.backend);
    if (runs.backend != "cpu") printFirstTouch(threads);
    return Status::ok();
}

}  // namespace

int runBenchGridrec(int argc, char** argv) {
    ArgParser args(
        "bench --suite gridrec",
        "Times gridrec (FBP in Fourier space) against direct FBP (the backend's default\n"
        "variant) through the front door on the same analytic Shepp-Logan sinograms\n"
        "(N views of N detectors, the slices identical), in one run: the median of the\n"
        "runs in seconds (a GPU backend host to host, after an untimed warm-up), per\n"
        "slice, gridrec's speed-up and both RMSEs against the phantom (slice 0, inside\n"
        "the inscribed circle); with --gridding-error its measured gridding error.\n"
        "After the table: each run's timeline (busy seconds of upload, filter = spectra,\n"
        "kernels = gridding, download, host) and, on a GPU backend, the host-device link\n"
        "measured on its queues beside each run's transfers and the host's rate of first\n"
        "touch of fresh memory (what writing the image into new pages costs at least).");
    args.option("suite", "gridrec", "this suite");
    args.option("backend", "B", "cpu | cuda", "cpu");
    args.option("workload", "PxN[xS],...", "views x image size (= detectors) x slices", kWorkloads);
    args.option("param", "NAME=VALUE,...",
                "gridrec's parameters (tolerance, oversampling, kernel-width, precision)");
    args.option("methods", "LIST", "direct,gridrec or gridrec alone", "direct,gridrec");
    args.option("filter", "NAME",
                "both methods' filter: ramp | shepp-logan | cosine | hamming | hann", "ramp");
    args.option("noise", "PHOTONS", "Poisson noise with this many incident photons (0: none)", "0");
    args.option("shift", "PIXELS", "rotation axis this far right of the detector centre", "0");
    args.flag("gridding-error",
              "also gridrec's largest difference from gridrec at tolerance 1e-6 (slice 0)");
    args.option("repeat", "R", "runs per method; the median is reported", "3");
    args.option("warmup", "0|1", "an untimed run first (default 1 on a GPU backend)");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.flag("quick", "tiny workloads (64x64x1, 64x64x3), for tests");
    args.flag("json", "print a JSON array");
    return runCommand(args, argc, argv, [&] { return benchGridrecBody(args, argc, argv); });
}

}  // namespace tomo::cli
