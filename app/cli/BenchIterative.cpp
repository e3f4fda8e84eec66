// tomo bench --suite sirt | ordering: the iterative projectors of paper 001 (W. J. Palenstijn,
// K. J. Batenburg, J. Sijbers, J. Struct. Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017) on
// the CPU (core/locality) or a device (--backend opencl|cuda: app::iterativeOperatorFactory):
// per-iteration, per-slice SIRT time (forward + back-projection + update) for the sizes of its
// Table 2, and the forward-projection ray-ordering ablation (a)-(d) of its Table 1.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/Backends.h"
#include "app/Engine.h"
#include "app/Selection.h"
#include "app/cli/ArgParser.h"
#include "app/cli/BenchTimeline.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "core/base/Parallel.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/locality/DeviceLocality.h"
#include "core/locality/LocalityOperator.h"
#include "core/phantom/Phantom.h"
#include "core/pipeline/Timeline.h"
#include "core/solvers/Sirt.h"

namespace tomo::cli {
namespace {

Result<std::vector<int>> parseList(const std::string& option, const std::string& text, int lo,
                                   int hi) {
    std::vector<int> out;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');) {
        char* end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < lo || v > hi)
            return invalidArgument("--" + option + ": '" + item + "' is not an integer in [" +
                                   std::to_string(lo) + ", " + std::to_string(hi) + "]");
        out.push_back(static_cast<int>(v));
    }
    return out;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Problem {
    ParallelGeometry geom;
    VolumeGeometry vol;
    std::vector<float> sino;  ///< dense [angle][detector]
};

/// One slice of N x N, @p angles over 180 degrees, N detectors; the analytic Shepp-Logan data.
Result<Problem> makeProblem(int size, int angles, const ExecContext& ctx) {
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, angles);
    params.detectorCount = size;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(params));
    const VolumeGeometry vol = VolumeGeometry::forDetector(geom, size);
    Sinograms s;
    TOMO_RETURN_IF_ERROR(Phantom::sheppLogan2d(0.5 * size).project(geom, s, 1, ctx));
    Problem p{std::move(geom), vol, std::vector<float>(std::size_t(angles) * std::size_t(size))};
    for (int a = 0; a < angles; ++a)
        std::copy_n(s.row(0, std::size_t(a)).data(), size,
                    p.sino.data() + std::size_t(a) * std::size_t(size));
    return p;
}

/// The name of @p backend's device for the report, or the one-line reason it cannot run here:
/// InvalidArgument for an unknown backend, Unsupported when it is not compiled in or has no
/// usable device.
Result<std::string> backendDevice(const std::string& backend) {
    if (backend != "cpu" && backend != "opencl" && backend != "cuda")
        return invalidArgument("--backend " + backend + ": expected cpu, opencl or cuda");
    if (backend != "cpu" && !app::iterativeOperatorFactory(backend))
        return unsupported("--backend " + backend + ": not compiled into this build");
    auto device = app::primaryDevice(backend);
    if (!device.isOk())
        return unsupported("--backend " + backend + ": no usable device (" +
                           device.status().message() + ")");
    return device->name;
}

/// Paper 001's operator pair on @p backend with the forward @p ordering: core/locality on the
/// CPU, else the device pair of app::iterativeOperatorFactory (host vectors in and out).
Result<std::unique_ptr<SubsetOperator>> makeOperator(const std::string& backend, const Problem& p,
                                                     RayOrdering ordering) {
    if (backend == "cpu") {
        TOMO_ASSIGN_OR_RETURN(auto op, LocalityOperator::create(p.geom, p.vol, ordering));
        return std::unique_ptr<SubsetOperator>(std::move(op));
    }
    TOMO_ASSIGN_OR_RETURN(AlgorithmSpec spec, findAlgorithm("sirt"));
    TOMO_ASSIGN_OR_RETURN(
        ParameterValues params,
        ParameterValues::resolve(spec, {{"ordering", rayOrderingName(ordering)}}));
    return app::iterativeOperatorFactory(backend)(p.geom, p.vol, params);
}

/// The median of @p repeat timed calls of @p call.
Result<double> medianSeconds(int repeat, const std::function<Status()>& call) {
    std::vector<double> t;
    for (int r = 0; r < repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        TOMO_RETURN_IF_ERROR(call());
        t.push_back(secondsSince(t0));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct SirtRow {
    int size = 0, angles = 0;
    double iteration = 0, forward = 0, back = 0;
    bool hasTimeline = false;  ///< a device operator on core's pipeline
    TimelineReport timeline;   ///< of the timed forward and back-projections
};

/// On a device backend, the pinned link measured on the queues of the backend's first FBP
/// variant (the same device) and each timed row's transfers at its rate beside the measured
/// ones (issue 27 item 2, as the FBP and FDK benches print them).
void printLink(const std::string& backend, const std::vector<SirtRow>& rows) {
    if (std::none_of(rows.begin(), rows.end(), [](const SirtRow& r) { return r.hasTimeline; }))
        return;
    const app::Engine engine;
    std::string first, why;
    for (const BackProjectorInfo& info : engine.registry().list())
        if (info.backend == backend && first.empty()) first = info.id;
    const std::optional<LinkBandwidth> link =
        first.empty() ? std::nullopt : measureBackendLink(engine.registry(), first, why);
    if (!link) {
        std::printf("link: not measured (%s)\n", why.empty() ? "no device variant" : why.c_str());
        return;
    }
    std::printf("%s\n", formatLink(*link).c_str());
    for (const SirtRow& r : rows)
        if (r.hasTimeline)
            std::printf("%s\n", linkRateLine(std::to_string(r.size) + "^2 x " +
                                                 std::to_string(r.angles) + " angles",
                                             r.timeline, *link)
                                    .c_str());
}

struct OrderingRow {
    int size = 0, angles = 0;
    std::string ordering;
    double seconds = 0;
};

Status benchIterativeBody(const ArgParser& args) {
    const std::string suite = args.getOr("suite", "sirt");
    if (suite != "sirt" && suite != "ordering")
        return invalidArgument("--suite " + suite + ": expected sirt or ordering here");
    const std::string backend = args.getOr("backend", "cpu");
    TOMO_ASSIGN_OR_RETURN(const std::string device, backendDevice(backend));
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    TOMO_ASSIGN_OR_RETURN(int iterations, args.getInt("iterations", 3, 2, 1000));
    TOMO_ASSIGN_OR_RETURN(int repeat, args.getInt("repeat", 3, 1, 1000));
    TOMO_ASSIGN_OR_RETURN(double budget, args.getDouble("max-seconds", 120, 0, 1e6));
    const bool quick = args.has("quick"), json = args.has("json");
    TOMO_ASSIGN_OR_RETURN(
        std::vector<int> sizes,
        parseList(
            "sizes",
            quick ? "64" : args.getOr("sizes", suite == "sirt" ? "512,1024,2048,4096" : "1024"), 8,
            16384));
    TOMO_ASSIGN_OR_RETURN(
        std::vector<int> angleCounts,
        parseList("angles", quick ? "32" : args.getOr("angles", "180,360"), 1, 100000));
    InterruptToStop interrupt;
    const ExecContext ctx{threads, interrupt.token(), nullptr};
    const int workers = resolveThreads(threads);
    if (!json)
        std::printf("%s benchmark on %s (%s), %d host threads (paper 001 %s)\n", suite.c_str(),
                    backend.c_str(), device.c_str(), workers,
                    suite == "sirt" ? "Table 2" : "Table 1");

    std::vector<SirtRow> sirtRows;
    std::vector<OrderingRow> orderingRows;
    std::vector<std::string> skipped;
    double voxelRate = 0;  // measured voxel-angle updates per second of one SIRT iteration
    for (int size : sizes)
        for (int angles : angleCounts) {
            const double updates = double(size) * size * angles;
            // SIRT: weights (2 projections) + iterations x 2 + repeat x 2 timed projections.
            const double projections =
                suite == "sirt" ? 2.0 * (iterations + repeat + 1) : 4.0 * (repeat + 1);
            if (voxelRate > 0 && projections * updates / (2.0 * voxelRate) > budget) {
                skipped.push_back(std::to_string(size) + "^2 x " + std::to_string(angles));
                continue;
            }
            TOMO_ASSIGN_OR_RETURN(Problem p, makeProblem(size, angles, ctx));
            if (suite == "sirt") {
                TOMO_ASSIGN_OR_RETURN(auto op,
                                      makeOperator(backend, p, RayOrdering::StripSegments));
                std::vector<float> x(op->domainSize(), 0.f), y(op->rangeSize());
                SirtOptions o;
                o.iterations = iterations;
                SolverSummary summary;
                TOMO_RETURN_IF_ERROR(solveSirt(*op, p.sino, x, o, {}, summary, ctx));
                // Iteration 1 includes the weights; the median of the others.
                std::vector<double> t;
                for (std::size_t k = 1; k < summary.history.size(); ++k)
                    t.push_back(summary.history[k].iterationSeconds);
                std::sort(t.begin(), t.end());
                SirtRow row{size, angles, t[t.size() / 2], 0, 0, false, {}};
                auto* pipelined = dynamic_cast<DeviceLocalityOperator*>(op.get());
                if (pipelined) pipelined->resetTimeline();
                TOMO_ASSIGN_OR_RETURN(
                    row.forward, medianSeconds(repeat, [&] { return op->forward(x, y, ctx); }));
                TOMO_ASSIGN_OR_RETURN(
                    row.back, medianSeconds(repeat, [&] { return op->adjoint(y, x, ctx); }));
                voxelRate = 2.0 * updates / row.iteration;
                if (pipelined) {
                    row.hasTimeline = true;
                    row.timeline = pipelined->timeline();
                }
                sirtRows.push_back(row);
                if (!json)
                    std::printf(
                        "  %5d^2 x %4d angles: SIRT iteration %8.3f s (forward %.3f s, "
                        "back %.3f s), %.2f GU/s per projection\n",
                        size, angles, row.iteration, row.forward, row.back, voxelRate * 1e-9);
                if (!json && row.hasTimeline)
                    std::printf("  %5s   %4s         timeline of the timed projections: %s\n", "",
                                "", formatTimeline(row.timeline).c_str());
            } else {
                std::vector<float> image(std::size_t(size) * std::size_t(size), 0.f);
                std::vector<float> y(std::size_t(angles) * std::size_t(size));
                for (int iy = 0; iy < size; ++iy)  // a disc: every ray does real work
                    for (int ix = 0; ix < size; ++ix)
                        image[std::size_t(iy) * std::size_t(size) + std::size_t(ix)] =
                            p.vol.x(ix) * p.vol.x(ix) + p.vol.y(iy) * p.vol.y(iy) <
                                    0.2 * size * size
                                ? 1.f
                                : 0.f;
                for (RayOrdering ord :
                     {RayOrdering::Unordered, RayOrdering::Strips,
                      RayOrdering::StripsConsecutiveAngles, RayOrdering::StripSegments}) {
                    TOMO_ASSIGN_OR_RETURN(auto op, makeOperator(backend, p, ord));
                    TOMO_RETURN_IF_ERROR(op->forward(image, y, ctx));  // warm-up
                    TOMO_ASSIGN_OR_RETURN(const double seconds, medianSeconds(repeat, [&] {
                                              return op->forward(image, y, ctx);
                                          }));
                    orderingRows.push_back({size, angles, rayOrderingName(ord), seconds});
                    voxelRate = updates / seconds / 2.0;
                    if (!json)
                        std::printf(
                            "  %5d^2 x %4d angles, ordering %-18s forward %8.4f s, "
                            "%7.2f Mrays/s, %.2f GU/s\n",
                            size, angles, rayOrderingName(ord), seconds,
                            double(angles) * size / seconds * 1e-6, updates / seconds * 1e-9);
                }
            }
        }
    if (json) {
        std::printf("[\n");
        bool first = true;
        for (const SirtRow& r : sirtRows) {
            std::printf(
                "%s  {\"suite\": \"sirt\", \"backend\": \"%s\", \"device\": %s, \"size\": %d, "
                "\"angles\": %d, \"threads\": %d, \"iteration_seconds\": %s, "
                "\"forward_seconds\": %s, \"back_seconds\": %s%s}",
                first ? "" : ",\n", backend.c_str(), jsonEscape(device).c_str(), r.size, r.angles,
                workers, jsonNumber(r.iteration).c_str(), jsonNumber(r.forward).c_str(),
                jsonNumber(r.back).c_str(),
                r.hasTimeline ? (", \"timeline\": " + timelineJson(r.timeline)).c_str() : "");
            first = false;
        }
        for (const OrderingRow& r : orderingRows) {
            std::printf(
                "%s  {\"suite\": \"ordering\", \"backend\": \"%s\", \"device\": %s, "
                "\"size\": %d, \"angles\": %d, \"threads\": %d, \"ordering\": \"%s\", "
                "\"forward_seconds\": %s, \"rays_per_second\": %s}",
                first ? "" : ",\n", backend.c_str(), jsonEscape(device).c_str(), r.size, r.angles,
                workers, r.ordering.c_str(), jsonNumber(r.seconds).c_str(),
                jsonNumber(double(r.angles) * r.size / r.seconds).c_str());
            first = false;
        }
        std::printf("\n]\n");
    }
    if (!json && backend != "cpu") printLink(backend, sirtRows);
    for (const std::string& s : skipped)
        std::fprintf(stderr, "skipped %s: estimated over --max-seconds %.0f\n", s.c_str(), budget);
    return Status::ok();
}

}  // namespace

int runBenchIterative(int argc, char** argv) {
    ArgParser args(
        "bench --suite sirt|ordering",
        "The projectors of paper 001 on the CPU or a device. sirt: per-iteration, "
        "per-slice SIRT\ntime (forward + back-projection + update; median over "
        "iterations 2..N) and the\nforward and back-projection times (median of "
        "--repeat) for each size and angle\ncount (Table 2). ordering: "
        "forward-projection time and rays/s for the ray orderings\n(a) unordered, "
        "(b) strips, (c) strips at consecutive angles, (d) strip segments\n(Table 1). "
        "--backend opencl|cuda runs the device operator pair; its vectors live in\n"
        "host memory, so every device time includes the host-to-device upload of the "
        "input\nand the download of the output of each projection (overlapped chunk by chunk;"
        " each device\nrow is followed by the timeline of its timed projections: "
        "wall, busy times, overlap\nefficiency). Sizes whose "
        "estimated time\nexceeds --max-seconds are skipped.");
    args.option("suite", "NAME", "sirt | ordering", "sirt");
    args.option("sizes", "LIST",
                "image sizes N (N x N, N detectors), comma separated (default: sirt "
                "512,1024,2048,4096; ordering 1024)");
    args.option("angles", "LIST", "projection counts over 180 degrees", "180,360");
    args.option("iterations", "N", "SIRT iterations per size (>= 2)", "3");
    args.option("repeat", "R",
                "timed projections per size and ordering (median; sirt: forward and back)", "3");
    args.option("backend", "NAME",
                "cpu | opencl | cuda (device times include host<->device transfers)", "cpu");
    args.option("max-seconds", "S", "skip a size whose estimated time exceeds S", "120");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.flag("json", "print a JSON array");
    args.flag("quick", "a tiny 64^2 x 32 problem, for tests");
    return runCommand(args, argc, argv, [&] { return benchIterativeBody(args); });
}

}  // namespace tomo::cli
