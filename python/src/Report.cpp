// ReconReport and IterationInfo as Python dicts (Report.h).
#include "python/src/Report.h"

#include <pybind11/stl.h>

namespace tomo::python {
namespace {

py::object optional(const std::optional<double>& v) {
    return v ? py::object(py::float_(*v)) : py::object(py::none());
}

py::list curveList(const std::vector<LCurvePoint>& curve) {
    py::list out;
    for (const LCurvePoint& p : curve) {
        py::dict d;
        d["iteration"] = p.parameter;
        d["residual"] = p.residualNorm;
        d["solution_norm"] = p.solutionNorm;
        d["error"] = optional(p.error);
        out.append(d);
    }
    return out;
}

py::object fdkDict(const std::optional<FdkReport>& f) {
    if (!f) return py::none();
    py::dict d;
    d["variant"] = f->variant;
    d["slabs"] = f->slabs;
    d["gups"] = f->gups;
    d["warnings"] = f->warnings;
    py::dict t;
    t["read"] = f->timings.read;
    t["filter"] = f->timings.filter;
    t["back_projection"] = f->timings.backProject;
    t["store"] = f->timings.store;
    t["total"] = f->timings.total;
    d["timings"] = t;
    return d;
}

}  // namespace

py::dict reportDict(const app::ReconReport& r) {
    py::dict d;
    d["algorithm"] = r.algorithm;
    d["variant"] = r.variant;
    d["backend"] = r.backend;
    d["device_operator"] = r.deviceOperator;
    d["shape"] = py::make_tuple(r.shape[0], r.shape[1], r.shape[2]);
    d["slabs"] = r.slabs;
    d["slab_slices"] = r.slabSlices;
    d["streamed"] = r.streamed;
    py::dict t;
    t["filtering"] = r.timings.filtering;
    t["back_projection"] = r.timings.backProjection;
    t["total"] = r.timings.total;
    d["timings"] = t;
    d["iterations"] = r.iterations;
    d["stopped_early"] = r.stoppedEarly;
    d["reason"] = r.reason;
    d["stop_rule"] = r.lastSummary.stopRule;
    d["stop_note"] = r.stopNote;
    d["kept_iterations"] = r.keptIterations;
    d["curve"] = curveList(r.curve);
    d["corner"] = r.corner ? py::object(py::int_(*r.corner)) : py::object(py::none());
    d["corner_note"] = r.cornerNote;
    if (r.metrics) {
        py::dict m;
        m["rmse"] = r.metrics->rmse;
        m["psnr"] = r.metrics->psnr;
        m["ssim"] = r.metrics->ssim;
        m["max_error"] = r.metrics->maxAbsError;
        d["metrics"] = m;
    } else {
        d["metrics"] = py::none();
    }
    d["notes"] = r.notes;
    d["provenance"] = r.provenance;
    d["fdk"] = fdkDict(r.fdk);
    return d;
}

py::dict iterationDict(const IterationInfo& info, const app::SlabInfo& slab) {
    py::dict d;
    d["iteration"] = info.iteration;
    d["residual"] = info.residualNorm;
    d["solution_norm"] = info.solutionNorm;
    d["regularizer"] = info.regularizer;
    d["error"] = optional(info.error);
    d["cost"] = optional(info.cost);
    d["equits"] = info.equits;
    d["seconds"] = info.seconds;
    d["iteration_seconds"] = info.iterationSeconds;
    d["slab"] = slab.index;
    d["slabs"] = slab.count;
    d["first_slice"] = slab.firstSlice;
    d["slices"] = slab.slices;
    return d;
}

}  // namespace tomo::python
