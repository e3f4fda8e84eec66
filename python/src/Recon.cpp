// reconstruct() and fdk(): a request of the reconstruction service (app/recon/ReconService.h)
// from an array and `tomo recon`'s keywords, run by a Runner (GIL released, Ctrl-C, callbacks).
#include <pybind11/stl.h>

#include <mutex>

#include "app/cli/CliSupport.h"
#include "app/cli/ConeArgs.h"
#include "app/cli/ReconArgs.h"
#include "core/io/ImageIO.h"
#include "python/src/Arrays.h"
#include "python/src/Bindings.h"
#include "python/src/Errors.h"
#include "python/src/Flags.h"
#include "python/src/Report.h"
#include "python/src/Runner.h"

namespace tomo::python {
namespace {

std::string describeArray(const Float3& a) {
    std::string s = "<numpy array ";
    for (int i = 3 - a.ndim; i < 3; ++i) {
        if (i > 3 - a.ndim) s += 'x';
        s += std::to_string(a.shape[static_cast<std::size_t>(i)]);
    }
    s += '>';
    return s;
}

/// A reference or initial image given as an array, checked against the grid
/// {nz, ny, nx} as `tomo recon --truth` checks a file.
std::shared_ptr<const Volume> volumeFor(py::handle obj, const std::string& what,
                                        const std::array<std::size_t, 3>& grid) {
    if (obj.is_none()) return nullptr;
    const Float3 a = borrowFloat3(obj, what, "[y][x] or [slices][y][x]", true);
    if (a.shape[1] != grid[1] || a.shape[2] != grid[2] || (a.ndim == 3 && a.shape[0] != grid[0]))
        raise(invalidArgument(what + " is " + std::to_string(a.shape[1]) + "x" +
                              std::to_string(a.shape[2]) + " but the reconstruction is " +
                              std::to_string(grid[1]) + "x" + std::to_string(grid[2]) +
                              (a.ndim == 3 ? " x " + std::to_string(grid[0]) + " slices" : "")));
    return std::make_shared<const Volume>(copyToArray3(a));
}

/// Runs @p request (either kind) and returns (image or None, report dict); the per-iteration
/// callback gets (iteration, metrics) or (iteration, metrics, iterate).
template <class Request>
py::tuple runRequest(const app::Engine& engine, const Request& request, int threads, int ndim,
                     std::vector<std::string> notes, py::object progress, py::object callback,
                     bool callbackIterate,
                     const std::function<void(const app::ReconReport&)>& after) {
    Runner runner(std::move(progress));
    std::mutex notesMutex;
    app::ReconCallbacks callbacks;
    callbacks.onNote = [&](const std::string& note) {
        std::lock_guard lock(notesMutex);
        notes.push_back(note);
    };
    if (!callback.is_none())
        callbacks.onIteration = [&](const IterationInfo& info, const app::SlabInfo& slab) {
            IterationAction action = IterationAction::Continue;
            const bool ran = runner.callInPython([&] {
                py::dict metrics = iterationDict(info, slab);
                py::object answer =
                    callbackIterate && info.iterate
                        ? callback(info.iteration, metrics, copyToNumpy(*info.iterate, ndim))
                        : callback(info.iteration, metrics);
                if (!answer.is_none() && !answer.cast<bool>())
                    action = IterationAction::StopAndKeep;
            });
            return ran ? action : IterationAction::Cancel;
        };
    const app::ReconService service(engine);
    std::optional<app::ReconReport> report;
    check(runner.run(threads, [&](const ExecContext& ctx) -> Status {
        auto r = service.run(request, callbacks, ctx);
        if (!r) return r.status();
        report = std::move(*r);
        return Status::ok();
    }));
    report->notes.insert(report->notes.begin(), notes.begin(), notes.end());
    after(*report);
    py::dict d = reportDict(*report);
    py::object image = py::none();
    if (!report->image.empty()) image = toNumpy(std::move(report->image), ndim);
    return py::make_tuple(image, d);
}

/// -o, --png and --lcurve checked before computing, as `tomo recon` does.
void checkOutputs(const cli::ArgParser& args) {
    for (const char* name : {"output", "png", "lcurve"})
        if (auto path = args.get(name); path && !path->empty())
            check(cli::checkWritableOutput(*path));
    if (auto lcurve = args.get("lcurve")) check(app::checkLCurvePath(*lcurve));
}

/// --png and --lcurve after the run, as `tomo recon` writes them.
void writeExtras(const cli::ArgParser& args, const app::ReconReport& report) {
    if (auto png = args.get("png")) check(writePngGray(*png, report.firstSlice.plane(0)));
    if (auto lcurve = args.get("lcurve")) check(app::writeLCurve(*lcurve, report));
}

py::tuple recon(const app::Engine& engine, py::handle sino, std::vector<double> angles,
                const std::vector<std::string>& flags, py::handle reference, py::handle initial,
                py::object progress, py::object callback, bool callbackIterate) {
    const Float3 input =
        borrowFloat3(sino, "sinogram", "[angles][detectors] or [rows][angles][detectors]", true);
    Argv argv("recon", {describeArray(input)}, flags);
    const cli::ArgParser args = parse(cli::reconParser(), argv);
    checkOutputs(args);
    app::OpenedSource opened;
    opened.source = borrowedSinograms(input);
    opened.angles = std::move(angles);
    std::vector<std::string> notes;
    app::ReconRequest request =
        unwrap(cli::reconRequestFromArgs(args, argv.argc(), argv.argv(), std::move(opened), notes));
    request.frontEnd = app::FrontEnd::Python;  // a refusal names the keywords, not the flags
    const std::array<std::size_t, 3> grid{
        std::size_t(request.grid.nz), std::size_t(request.grid.ny), std::size_t(request.grid.nx)};
    if (auto ref = volumeFor(reference, "truth", grid)) request.reference = ref;
    request.initial = volumeFor(initial, "initial", grid);
    const int threads = unwrap(args.getInt("threads", 0, 0, 4096));
    py::tuple out = runRequest(engine, request, threads, input.ndim, std::move(notes),
                               std::move(progress), std::move(callback), callbackIterate,
                               [&](const app::ReconReport& r) { writeExtras(args, r); });
    py::dict report = out[1];
    report["input_address"] = reinterpret_cast<std::uintptr_t>(input.data);
    report["input_copied"] = input.converted;
    return out;
}

py::tuple fdk(const app::Engine& engine, py::handle projections, const ConeGeometryFile& geometry,
              const std::vector<std::string>& flags, py::handle reference, py::object progress) {
    const Float3 input = borrowFloat3(projections, "projections", "[views][rows][columns]", false);
    Argv argv("recon", {describeArray(input)}, flags);
    const cli::ArgParser args = parse(cli::reconParser(), argv);
    checkOutputs(args);
    std::vector<std::string> notes;
    app::ConeReconRequest request =
        unwrap(cli::coneRequestFromArgs(args, borrowedProjections(input), geometry, notes));
    const std::array<std::size_t, 3> grid{
        std::size_t(request.grid.nz), std::size_t(request.grid.ny), std::size_t(request.grid.nx)};
    if (!reference.is_none()) {
        const Float3 a = borrowFloat3(reference, "truth", "[z][y][x]", false);
        if (a.shape != grid) raise(invalidArgument("--truth does not have the volume's shape"));
        request.reference = std::make_shared<const Volume>(copyToArray3(a));
    }
    const int threads = unwrap(args.getInt("threads", 0, 0, 4096));
    py::tuple out = runRequest(engine, request, threads, 3, std::move(notes), std::move(progress),
                               py::none(), false, [&](const app::ReconReport& r) {
                                   if (auto png = args.get("png"))
                                       check(writePngGray(*png, r.firstSlice.plane(0)));
                               });
    py::dict report = out[1];
    report["input_address"] = reinterpret_cast<std::uintptr_t>(input.data);
    report["input_copied"] = input.converted;
    return out;
}

}  // namespace

void bindRecon(py::module_& m) {
    m.def("recon", &recon, py::arg("engine"), py::arg("sinogram"), py::arg("angles"),
          py::arg("flags"), py::arg("reference"), py::arg("initial"), py::arg("progress"),
          py::arg("callback"), py::arg("callback_iterate"),
          "Parallel-beam reconstruction through the reconstruction service (tomostation.recon "
          "documents the keywords); returns (image or None, report dict).");
    m.def("fdk", &fdk, py::arg("engine"), py::arg("projections"), py::arg("geometry"),
          py::arg("flags"), py::arg("reference"), py::arg("progress"),
          "Cone-beam FDK through the reconstruction service; returns (volume or None, report).");
    m.def(
        "recon_options", [] { return optionList(cli::reconParser()); },
        "The options of `tomo recon` (name, metavar, help, default, flag).");
}

}  // namespace tomo::python
