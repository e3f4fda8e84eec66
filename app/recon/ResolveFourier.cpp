// Gridrec through the front door: its resolution, and FBP's method auto (ReconSteps.h).
#include <algorithm>

#include "app/Backends.h"
#include "app/Selection.h"
#include "app/recon/ReconSteps.h"
#include "core/base/Parallel.h"
#include "core/selection/MethodChoice.h"

namespace tomo::app::detail {
namespace {

/// The back-projector's rate on @p backend's device: `tomo tune`'s measurement, else paper
/// 002's prediction (0 when neither is known).
double directGups(const Engine& engine, const std::string& backend, const std::string& variant) {
    const auto device = primaryDevice(backend);
    if (!device) return 0;
    for (const VariantSpeed& s : variantSpeeds(*device, engine.registry()))
        if (s.id == variant) return s.measuredGups > 0 ? s.measuredGups : s.predictedGups;
    return 0;
}

/// The schema's name of @p w.
std::string filterChoice(FilterWindow w) {
    return filterWindowName(w);
}

}  // namespace

Status resolveFourier(const Engine& engine, const ReconRequest& request, Resolved& r,
                      ReconReport& report, const ReconCallbacks& callbacks) {
    GridrecOptions& o = r.gridrec;
    o.filter = request.fbp.filter;
    if (request.parameters.count("filter")) {
        TOMO_ASSIGN_OR_RETURN(o.filter.window, parseFilterWindow(r.params.text("filter")));
    }
    if (request.parameters.count("cutoff")) o.filter.cutoff = r.params.real("cutoff");
    TOMO_ASSIGN_OR_RETURN(o.interpolation,
                          parseGridrecInterpolation(r.params.text("interpolation")));
    if (!request.parameters.count("interpolation") && request.interpolationGiven)
        o.interpolation = request.interpolation == Interpolation::Nearest
                              ? GridrecInterpolation::Nearest
                              : GridrecInterpolation::Linear;  // --interp, as FBP's
    o.tolerance = r.params.real("tolerance");
    o.oversampling = r.params.real("oversampling");
    o.kernelWidth = r.params.integer("kernel-width");
    TOMO_ASSIGN_OR_RETURN(o.precision, parseGridrecPrecision(r.params.text("precision")));
    TOMO_RETURN_IF_ERROR(o.validate());
    r.fbp.filter = o.filter;
    const FourierRegistry& methods = engine.fourierRegistry();
    std::string key = request.variant.empty() ? request.backend : request.variant;
    if (key == "auto") key = methods.find("cuda") ? "cuda" : "cpu";
    if (!methods.find(key) && request.variant.empty()) {
        note(report, callbacks,
             "gridrec: no " + key + " implementation (" +
                 (key == "cuda" ? whyNoDevice(key)
                                : std::string("gridrec runs on the CPU and on CUDA")) +
                 "); runs on the CPU");
        key = "cpu";
    }
    TOMO_ASSIGN_OR_RETURN(r.fourier, methods.make(key));
    r.backend = r.fourier->info().backend;
    r.variant = r.fourier->info().id;
    TOMO_ASSIGN_OR_RETURN(FourierPlan plan,
                          FourierPlan::create(request.geometry, request.grid, o,
                                              r.fourier->info().sizes, r.fourier->info().cost));
    r.gridrecWorkBytes = gridrecWorkBytes(plan, hardwareThreads());
    note(report, callbacks, "gridrec: " + plan.describe() + " on " + r.variant);
    if (o.precision == GridrecPrecision::Half && r.backend == "cpu")
        note(report, callbacks,
             "gridrec on the CPU computes and stores in float32 (precision half applies to "
             "GPUs)");
    return Status::ok();
}

Status chooseDirectOrFourier(const Engine& engine, const ReconRequest& request, Resolved& r,
                             ReconReport& report, const ReconCallbacks& callbacks) {
    const FourierMethodInfo* method = engine.fourierRegistry().find(r.backend);
    if (!method) {
        note(report, callbacks,
             "method auto: no Fourier-domain FBP on " + r.backend + "; direct FBP with " +
                 r.variant);
        return Status::ok();
    }
    GridrecOptions options;
    options.filter = r.fbp.filter;
    options.tolerance = r.params.real("tolerance");
    const bool nearest = r.backProjector->info().interpolation == Interpolation::Nearest;
    options.interpolation = nearest ? GridrecInterpolation::Nearest : GridrecInterpolation::Linear;
    TOMO_ASSIGN_OR_RETURN(
        FourierPlan plan,
        FourierPlan::create(request.geometry, request.grid, options, method->sizes, method->cost));
    const MethodJob job{request.grid.nx, request.grid.ny, request.geometry.angleCount(),
                        request.geometry.detectorCount(), request.grid.nz};
    const MethodChoice choice = chooseMethod(
        job, r.variant, directGups(engine, r.backend, r.variant), plan, *method, options.tolerance);
    note(report, callbacks, choice.reason);
    if (!choice.fourier) return Status::ok();
    ReconRequest fourier = request;  // the same job as gridrec with FBP's filter and tolerance
    fourier.algorithm = "gridrec";
    fourier.backend = r.backend;
    fourier.variant.clear();
    fourier.parameters = {{"filter", filterChoice(options.filter.window)},
                          {"cutoff", r.params.text("cutoff")},
                          {"tolerance", r.params.text("tolerance")},
                          {"interpolation", nearest ? "nearest" : "linear"}};
    TOMO_ASSIGN_OR_RETURN(r.spec, findAlgorithm("gridrec"));
    TOMO_ASSIGN_OR_RETURN(r.params, ParameterValues::resolve(r.spec, fourier.parameters));
    r.backProjector.reset();
    r.fbp.rowFilter.reset();
    return resolveFourier(engine, fourier, r, report, callbacks);
}

}  // namespace tomo::app::detail
