// The reconstruction service: resolve the request, then reconstruct slab by slab (ReconService.h).
#include "app/recon/ReconService.h"

#include <algorithm>
#include <cctype>
#include <thread>

#include "app/Backends.h"
#include "app/Selection.h"
#include "app/recon/ReconSteps.h"
#include "core/base/Parallel.h"
#include "core/mbir/IcdBackendModel.h"
#include "core/projectors/JosephTranspose.h"

namespace tomo::app {
namespace detail {

void note(ReconReport& report, const ReconCallbacks& callbacks, std::string text) {
    if (callbacks.onNote) callbacks.onNote(text);
    report.notes.push_back(std::move(text));
}

std::string whyNoDevice(const std::string& backend) {
    for (const DeviceDiscovery& d : discoverAllDevices())
        if (d.backend == backend && !d.available && !d.message.empty()) return d.message;
    return "no back-projector variants for it";
}

namespace {

Status checkBackend(const std::string& backend) {
    if (backend == "auto") return Status::ok();
    const auto compiled = compiledBackends();
    if (std::find(compiled.begin(), compiled.end(), backend) != compiled.end()) return Status::ok();
    if (backend == "cpu" || backend == "cuda" || backend == "opencl")
        return unsupported("backend " + backend + ": not compiled into this build");
    return invalidArgument("backend must be auto, cpu, cuda or opencl (got '" + backend + "')");
}

/// FBP's "joseph" projector: the transpose of Joseph's forward projector (cpu.joseph), on the
/// CPU with the CPU's row filter; a named device backend runs on the CPU with a note.
Status resolveJosephFbp(const Engine& engine, const ReconRequest& request, Resolved& r,
                        ReconReport& report, const ReconCallbacks& callbacks) {
    if (!request.variant.empty() && request.variant != kJosephTransposeId)
        return invalidArgument("projector joseph back-projects with " +
                               std::string(kJosephTransposeId) + ", not variant " +
                               request.variant + " (a pixel-driven back-projector)");
    if (request.interpolationGiven && request.interpolation != Interpolation::Linear)
        return invalidArgument(
            "projector joseph interpolates linearly along image lines; interpolation " +
            std::string(interpolationName(request.interpolation)) +
            " is for the pixel-driven back-projectors");
    if (request.backend != "auto" && request.backend != "cpu")
        note(report, callbacks,
             "projector joseph runs on the CPU (backend " + request.backend + " ignored)");
    r.backProjector = makeJosephTransposeBackProjector();
    r.backend = "cpu";
    r.variant = kJosephTransposeId;
    if (!r.fbp.rowFilter) r.fbp.rowFilter = engine.rowFilter(r.backend);
    return Status::ok();
}

Status resolveFbp(const Engine& engine, const ReconRequest& request, Resolved& r,
                  ReconReport& report, const ReconCallbacks& callbacks) {
    r.fbp = request.fbp;
    if (request.parameters.count("filter")) {
        TOMO_ASSIGN_OR_RETURN(r.fbp.filter.window, parseFilterWindow(r.params.text("filter")));
    }
    if (request.parameters.count("cutoff")) r.fbp.filter.cutoff = r.params.real("cutoff");
    if (r.params.text("projector") == "joseph" || request.variant == kJosephTransposeId)
        return resolveJosephFbp(engine, request, r, report, callbacks);
    const BackProjectorRegistry& registry = engine.registry();
    std::string variant = request.variant;
    if (variant.empty()) {
        const JobShape shape{std::max(request.grid.nx, request.grid.ny), request.grid.nz};
        variant = engine.defaultVariant(request.backend, request.interpolation, shape);
        if (variant.empty() && request.backend != "cpu" && request.backend != "auto") {
            note(report, callbacks,
                 "backend " + request.backend + ": " + whyNoDevice(request.backend) +
                     "; falling back to the CPU");
            variant = engine.defaultVariant("cpu", request.interpolation, shape);
        }
        if (variant.empty())
            return unsupported("backend " + request.backend +
                               ": no back-projector variants for it in this build");
    }
    for (const BackProjectorInfo& info : registry.list())
        if (info.id == variant && request.interpolationGiven &&
            info.interpolation != request.interpolation)
            return invalidArgument("variant " + variant + " uses " +
                                   interpolationName(info.interpolation) + " interpolation, not " +
                                   interpolationName(request.interpolation));
    TOMO_ASSIGN_OR_RETURN(r.backProjector, registry.make(variant));
    r.backend = r.backProjector->info().backend;
    r.variant = variant;
    if (!r.fbp.rowFilter) r.fbp.rowFilter = engine.rowFilter(r.backend);
    // method auto: gridrec instead when predicted faster within the tolerance (MethodChoice.h).
    if (r.params.text("method") == "auto" && request.variant.empty())
        return chooseDirectOrFourier(engine, request, r, report, callbacks);
    return Status::ok();
}

void resolveIterative(const Engine& engine, const ReconRequest& request, Resolved& r,
                      ReconReport& report, const ReconCallbacks& callbacks) {
    const std::string backend = request.backend == "auto" ? engine.autoBackend() : request.backend;
    r.backend = "cpu";
    r.variant = "cpu";
    if (backend == "cpu") return;
    const std::string& id = r.spec.id;
    if (id == "mbir") {
        // GPU-ICD when a device backend is named; "auto" picks it on a CUDA device where the
        // model of core/mbir/IcdBackendModel.h (rates measured on an H200) predicts it faster.
        if (request.backend == "auto") {
            if (backend != "cuda") return;
            const IcdBackendChoice choice =
                chooseIcdBackend(request.grid.nx, request.grid.ny, request.geometry.angleCount(),
                                 std::size_t(std::max(request.grid.nz, 1)),
                                 int(std::max(1u, std::thread::hardware_concurrency())));
            if (!choice.gpu) return;
            note(report, callbacks, "auto: mbir as GPU-ICD on CUDA (" + choice.describe() + ")");
        }
        const auto device = primaryDevice(backend);
        const std::string why =
            device.isOk() ? gpuIcdRefusal(device.value()) : device.status().message();
        if (!why.empty()) {
            note(report, callbacks, why + "; mbir runs on the CPU");
            return;
        }
        r.makeIcdDevice = engine.icdDeviceFactory(backend);
        r.backend = backend;
        r.variant = backend + ".gpu-icd";
        return;
    }
    if (!usesLocalityPair(r.params)) {
        if (request.backend == "auto") return;  // nothing was asked that cannot be done
        note(report, callbacks,
             id + " needs an exactly matched projector pair and runs on the CPU (backend " +
                 backend + " ignored)");
    } else if (const auto device = primaryDevice(backend); !device.isOk()) {
        note(report, callbacks, device.status().message() + "; " + id + " runs on the CPU");
    } else {
        r.makeOperator = engine.operatorFactory(backend);
        r.backend = backend;
        r.variant = backend + ".locality";
    }
}

}  // namespace

Result<Resolved> resolve(const Engine& engine, const ReconRequest& request, ReconReport& report,
                         const ReconCallbacks& callbacks) {
    if (!request.source) return invalidArgument("reconstruction: no input");
    const auto shape = request.source->shape();
    if (shape[0] != static_cast<std::size_t>(request.geometry.rows()) ||
        shape[1] != static_cast<std::size_t>(request.geometry.angleCount()) ||
        shape[2] != static_cast<std::size_t>(request.geometry.detectorCount()))
        return invalidArgument("the input has " + std::to_string(shape[0]) + " slices of " +
                               std::to_string(shape[1]) + " angles x " + std::to_string(shape[2]) +
                               " detectors but the geometry " +
                               std::to_string(request.geometry.rows()) + " x " +
                               std::to_string(request.geometry.angleCount()) + " x " +
                               std::to_string(request.geometry.detectorCount()));
    TOMO_RETURN_IF_ERROR(request.grid.validate());
    if (static_cast<std::size_t>(request.grid.nz) != shape[0])
        return invalidArgument("the grid has " + std::to_string(request.grid.nz) +
                               " slices but the input " + std::to_string(shape[0]));
    TOMO_RETURN_IF_ERROR(checkBackend(request.backend));
    Resolved r;
    TOMO_ASSIGN_OR_RETURN(r.spec, findAlgorithm(request.algorithm));
    auto params = ParameterValues::resolve(r.spec, request.parameters);
    if (!params) return params.status().withContext(r.spec.id);
    r.params = std::move(*params);
    if (r.spec.iterative)
        resolveIterative(engine, request, r, report, callbacks);
    else if (r.spec.id == "gridrec")
        TOMO_RETURN_IF_ERROR(resolveFourier(engine, request, r, report, callbacks));
    else
        TOMO_RETURN_IF_ERROR(resolveFbp(engine, request, r, report, callbacks));
    r.budget = request.memoryBudget;
    report.algorithm = r.spec.id;
    report.variant = r.variant;
    report.backend = r.backend;
    report.deviceOperator = static_cast<bool>(r.makeOperator);
    report.shape = {shape[0], std::size_t(request.grid.ny), std::size_t(request.grid.nx)};
    return r;
}

Result<ParallelGeometry> slabGeometry(const ParallelGeometry& all, std::size_t count) {
    ParallelGeometry::Params params = all.params();
    params.rows = static_cast<int>(count);
    return ParallelGeometry::create(params);
}

}  // namespace detail

Result<ReconReport> ReconService::run(const ReconRequest& request, const ReconCallbacks& callbacks,
                                      const ExecContext& ctx) const {
    if (m_ranks && m_ranks->size() > 1)
        return detail::runAcrossRanks(m_engine, *m_ranks, request, callbacks, ctx);
    ReconReport report;
    TOMO_ASSIGN_OR_RETURN(detail::Resolved resolved,
                          detail::resolve(m_engine, request, report, callbacks));
    TOMO_ASSIGN_OR_RETURN(report.preflight,
                          detail::preflight(request, resolved, MachineResources::probe()));
    for (const std::string& text : report.preflight->notes)
        detail::note(report, callbacks, text);
    TOMO_ASSIGN_OR_RETURN(detail::SlabOutput out,
                          detail::SlabOutput::open(request, resolved, report));
    if (resolved.spec.iterative)
        TOMO_RETURN_IF_ERROR(
            detail::runIterativeSlabs(m_engine, request, resolved, callbacks, out, report, ctx));
    else
        TOMO_RETURN_IF_ERROR(detail::runFbpSlabs(request, resolved, out, report, ctx));
    TOMO_RETURN_IF_ERROR(out.commit(report));
    return report;
}

Status ReconService::prepare(const ReconRequest& request) const {
    if (m_ranks && m_ranks->size() > 1) return Status::ok();  // each rank prepares in its run
    ReconReport report;
    TOMO_ASSIGN_OR_RETURN(detail::Resolved resolved,
                          detail::resolve(m_engine, request, report, {}));
    TOMO_RETURN_IF_ERROR(detail::preflight(request, resolved, MachineResources::probe()).status());
    return detail::prepareFbpSlabs(request, resolved, report);
}

Result<PreflightReport> ReconService::preflight(const ReconRequest& request,
                                                const MachineResources& machine) const {
    ReconReport report;
    TOMO_ASSIGN_OR_RETURN(detail::Resolved resolved,
                          detail::resolve(m_engine, request, report, {}));
    TOMO_ASSIGN_OR_RETURN(PreflightReport p, detail::preflight(request, resolved, machine));
    p.notes.insert(p.notes.begin(), report.notes.begin(), report.notes.end());
    return p;
}

namespace {
std::string lowerExtension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}
}  // namespace

Status checkLCurvePath(const std::filesystem::path& path) {
    const std::string ext = lowerExtension(path);
    if (ext != ".csv" && ext != ".json")
        return invalidArgument("--lcurve " + path.string() +
                               ": expected a .csv or .json file name");
    return Status::ok();
}

Status writeLCurve(const std::filesystem::path& path, const ReconReport& report) {
    TOMO_RETURN_IF_ERROR(checkLCurvePath(path));
    return lowerExtension(path) == ".json"
               ? writeLCurveJson(path.string(), report.curve, report.corner, report.kept)
               : writeLCurveCsv(path.string(), report.curve, report.corner, report.kept);
}

}  // namespace tomo::app
