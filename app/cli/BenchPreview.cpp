// tomo bench --suite preview: the first FBP preview of a process as the GUI makes it (issue 27
// item 4, "no first-call penalty"): the engine made (device discovery), an analytic sinogram
// in memory, ReconService::prepare when asked (what the GUI does once data are loaded: plans,
// programs, constants and buffers made before the first preview), then the first FBP through
// the front door and a second of the same request, each timed on the host's clock.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "app/Engine.h"
#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/recon/ReconService.h"
#include "core/phantom/Phantom.h"

namespace tomo::cli {
namespace {

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The seconds of each step of the process.
struct Steps {
    double engine = 0, data = 0, prepare = 0, first = 0, second = 0;
    std::string variant;
};

/// @p slices copies of the analytic Shepp-Logan sinogram of @p views x @p size, on a grid of
/// @p size^2.
Result<app::ReconRequest> previewRequest(int views, int size, int slices, int threads) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.0, kPi, views);
    p.detectorCount = size;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry one, ParallelGeometry::create(p));
    Sinograms single;
    TOMO_RETURN_IF_ERROR(
        Phantom::sheppLogan2d(0.5 * size).project(one, single, 2, {threads, {}, nullptr}));
    p.rows = slices;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(p));
    TOMO_ASSIGN_OR_RETURN(Sinograms stack,
                          Sinograms::create(std::size_t(slices), single.dim(1), single.dim(2)));
    for (std::size_t s = 0; s < stack.dim(0); ++s)
        std::copy_n(single.data(), single.dim(1) * single.pitch(), stack.plane(s).data());
    VolumeGeometry grid = VolumeGeometry::forDetector(one, size);
    grid.nz = slices;
    return app::ReconRequest(app::memorySource(std::make_shared<const Sinograms>(std::move(stack))),
                             geom, grid);
}

Status benchPreviewBody(const ArgParser& args) {
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    TOMO_ASSIGN_OR_RETURN(int prepare, args.getInt("prepare", 1, 0, 1));
    TOMO_ASSIGN_OR_RETURN(int slices, args.getInt("slices", 1, 1, 4096));
    TOMO_ASSIGN_OR_RETURN(auto dims, parseShape(args.getOr("workload", "720x1024")));
    const int views = int(dims[0]), size = int(dims[1]);
    if (views < 2 || size < 16) return invalidArgument("--workload VIEWSxN: at least 2x16");
    Steps s;
    auto t0 = std::chrono::steady_clock::now();
    const app::Engine engine;
    const app::ReconService service(engine);
    s.engine = since(t0);
    t0 = std::chrono::steady_clock::now();
    TOMO_ASSIGN_OR_RETURN(app::ReconRequest request, previewRequest(views, size, slices, threads));
    request.backend = args.getOr("backend", "opencl");
    request.variant = args.getOr("variant", "");
    s.data = since(t0);
    if (prepare == 1) {
        t0 = std::chrono::steady_clock::now();
        TOMO_RETURN_IF_ERROR(service.prepare(request));
        s.prepare = since(t0);
    }
    const ExecContext ctx{threads, {}, nullptr};
    for (double* seconds : {&s.first, &s.second}) {
        t0 = std::chrono::steady_clock::now();
        TOMO_ASSIGN_OR_RETURN(app::ReconReport report, service.run(request, {}, ctx));
        *seconds = since(t0);
        s.variant = report.variant;
    }
    std::printf(
        "preview %dx%dx%d x%d on %s (prepare %s): engine %.3f s | data %.3f s | "
        "prepare %.3f s | first FBP %.3f s | second FBP %.3f s | first/second %.2f\n",
        views, size, size, slices, s.variant.c_str(), prepare ? "on" : "off", s.engine, s.data,
        s.prepare, s.first, s.second, s.first / std::max(s.second, 1e-9));
    return Status::ok();
}

}  // namespace

int runBenchPreview(int argc, char** argv) {
    ArgParser args(
        "bench --suite preview",
        "Times the first FBP preview of a process as the GUI makes it: the engine made (device\n"
        "discovery), an analytic Shepp-Logan sinogram in memory, ReconService::prepare (with\n"
        "--prepare 1, as the GUI once data are loaded: FFT plans, programs, constants and\n"
        "buffers made before the first preview), then the first FBP through the front door\n"
        "and a second of the same request. Run it once with --prepare 0 and once with 1 to\n"
        "see what the first preview pays for and what the preparation moves before it.");
    args.option("suite", "preview", "this suite");
    args.option("backend", "B", "cpu | cuda | opencl", "opencl");
    args.option("variant", "ID", "the back-projector (default: the backend's selection)");
    args.option("workload", "PxN", "views x image size (= detectors)", "720x1024");
    args.option("slices", "S", "slices of the preview", "1");
    args.option("prepare", "0|1", "ReconService::prepare before the first FBP", "1");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    return runCommand(args, argc, argv, [&] { return benchPreviewBody(args); });
}

}  // namespace tomo::cli
