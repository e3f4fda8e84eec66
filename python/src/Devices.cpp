// The Engine, devices(), tune(), algorithms() and the build's features.
#include <pybind11/stl.h>

#include "app/Engine.h"
#include "app/Selection.h"
#include "app/cli/TuneArgs.h"
#include "core/iterative/AlgorithmSchema.h"
#include "python/src/Bindings.h"
#include "python/src/Errors.h"
#include "python/src/Flags.h"
#include "python/src/Runner.h"
#include "tomo/config.h"

namespace tomo::python {
namespace {

py::dict deviceDict(const DeviceInfo& x) {
    py::dict d;
    d["index"] = x.index;
    d["name"] = x.name;
    d["vendor"] = x.vendor;
    d["driver"] = x.driver;
    d["architecture"] = x.architecture;
    d["compute_units"] = x.computeUnits;
    d["clock_mhz"] = x.clockMHz;
    d["global_memory"] = x.globalMemoryBytes;
    d["local_memory"] = x.localMemoryBytes;
    d["properties"] = x.properties;
    d["note"] = x.note;
    return d;
}

py::dict variantDict(const BackProjectorInfo& v) {
    py::dict d;
    d["id"] = v.id;
    d["backend"] = v.backend;
    d["family"] = v.family;
    d["interp"] = interpolationName(v.interpolation);
    d["slices"] = v.slicesPerPass;
    d["precision"] = v.precision;
    d["exact"] = v.exact;
    d["description"] = v.description;
    return d;
}

/// What `tomo devices --json` prints, as data.
py::list devices(const app::Engine& engine) {
    py::list out;
    for (const DeviceDiscovery& b : app::discoverAllDevices()) {
        py::dict d;
        d["backend"] = b.backend;
        d["available"] = b.available;
        d["message"] = b.message;
        py::list devs, variants;
        for (const DeviceInfo& x : b.devices)
            devs.append(deviceDict(x));
        for (const BackProjectorInfo& v : engine.registry().list(b.backend))
            variants.append(variantDict(v));
        d["devices"] = devs;
        d["variants"] = variants;
        d["default_variant"] = app::defaultVariant(engine.registry(), b.backend);
        out.append(d);
    }
    return out;
}

py::dict tune(const app::Engine& engine, const std::vector<std::string>& flags,
              py::object progress) {
    Argv argv("tune", {}, flags);
    const cli::ArgParser args = parse(cli::tuneParser(), argv);
    const int threads = unwrap(args.getInt("threads", 0, 0, 4096));
    std::optional<SelectionResult> result;
    Status saved;
    Runner runner(std::move(progress));
    check(runner.run(threads, [&](const ExecContext& ctx) -> Status {
        TOMO_ASSIGN_OR_RETURN(result, cli::tuneFromArgs(args, engine, ctx, &saved));
        return Status::ok();
    }));
    py::dict d;
    d["backend"] = result->backend;
    d["device"] = result->traits.device;
    d["family"] = result->traits.family;
    d["seconds"] = result->seconds;
    d["choices"] = result->choices();
    d["cache"] = app::selectionCachePath().string();
    d["saved"] = saved.isOk();
    d["save_error"] = saved.message();
    py::list classes;
    for (const ClassSelection& c : result->classes) {
        py::dict e;
        e["class"] = c.workloadClass;
        e["image_size"] = c.shape.size;
        e["slices"] = c.shape.slices;
        e["choices"] = c.choices;
        py::list table;
        for (const CandidateReport& v : c.table) {
            py::dict t = variantDict(v.info);
            t["predicted_gups"] =
                v.hasModel ? py::object(py::float_(v.prediction.gups)) : py::none();
            t["measured_gups"] = v.state == CandidateState::Measured
                                     ? py::object(py::float_(v.measuredGups))
                                     : py::object(py::none());
            t["state"] = candidateStateName(v.state);
            t["error"] = v.error;
            t["note"] = v.note;
            table.append(t);
        }
        e["variants"] = table;
        classes.append(e);
    }
    d["classes"] = classes;
    return d;
}

py::list algorithms() {
    py::list out;
    for (const AlgorithmSpec& s : algorithmSpecs()) {
        py::dict d;
        d["id"] = s.id;
        d["label"] = s.label;
        d["iterative"] = s.iterative;
        d["description"] = s.description;
        d["reference"] = s.reference;
        py::list params;
        for (const ParameterSpec& p : s.parameters) {
            py::dict e;
            e["name"] = p.name;
            e["default"] = p.defaultValue;
            e["minimum"] = p.minimum;
            e["maximum"] = p.maximum;
            e["choices"] = p.choices;
            e["units"] = p.units;
            e["description"] = p.description;
            params.append(e);
        }
        d["parameters"] = params;
        out.append(d);
    }
    return out;
}

py::dict buildInfo() {
    py::dict d;
    d["version"] = TOMO_VERSION;
    d["compiler"] = TOMO_CXX_COMPILER;
    d["build_type"] = TOMO_BUILD_TYPE;
    d["backends"] = app::compiledBackends();
    py::dict f;
    f["cuda"] = bool(TOMO_WITH_CUDA);
    f["opencl"] = bool(TOMO_WITH_OPENCL);
    f["fftw"] = bool(TOMO_WITH_FFTW);
    f["tiff"] = bool(TOMO_WITH_TIFF);
    f["hdf5"] = bool(TOMO_WITH_HDF5);
    f["itk"] = bool(TOMO_WITH_ITK);
    f["mpi"] = bool(TOMO_WITH_MPI);
    d["features"] = f;
    return d;
}

}  // namespace

void bindDevices(py::module_& m) {
    py::class_<app::Engine>(m, "Engine",
                            "The devices of this process, opened once (app/Engine.h): one "
                            "back-projector registry and one context per device.")
        .def(py::init([] {
            py::gil_scoped_release release;
            return std::make_unique<app::Engine>();
        }))
        .def("auto_backend", &app::Engine::autoBackend)
        .def(
            "default_variant",
            [](const app::Engine& e, const std::string& backend) {
                return e.defaultVariant(backend);
            },
            py::arg("backend") = "auto");
    m.def("devices", &devices, py::arg("engine"));
    m.def("tune", &tune, py::arg("engine"), py::arg("flags"), py::arg("progress"));
    m.def("tune_options", [] { return optionList(cli::tuneParser()); });
    m.def("algorithms", &algorithms);
    m.def("build_info", &buildInfo);
}

}  // namespace tomo::python
