// Files and data: read(), write(), info(), read_acquisition(), preprocess(), find_center(),
// project(), phantom(), each parsed by the parser of the `tomo` command that does the same job.
#include <pybind11/stl.h>

#include "app/cli/CenterArgs.h"
#include "app/cli/CliSupport.h"
#include "app/cli/PhantomArgs.h"
#include "app/cli/PreprocessArgs.h"
#include "app/cli/ProjectArgs.h"
#include "app/cli/ReadOptionsArgs.h"
#include "app/data/AcquisitionLoader.h"
#include "app/jobs/DemoJob.h"
#include "core/cone/ConeGeometryIo.h"
#include "core/preprocess/SinogramPreprocess.h"
#include "python/src/Arrays.h"
#include "python/src/Bindings.h"
#include "python/src/Errors.h"
#include "python/src/Flags.h"
#include "python/src/Runner.h"

namespace tomo::python {
namespace {

constexpr const char* kArray = "<numpy array>";

py::array readFile(const std::string& path, const std::vector<std::string>& flags) {
    Argv argv("convert", {path, kArray}, flags);
    const cli::ArgParser args = parse(cli::convertParser(), argv);
    const FormatRegistry registry = unwrap(app::makeFormatRegistry());
    const ReadOptions options = unwrap(cli::readOptionsFromArgs(args));
    std::optional<Array3<float>> stack;
    Runner runner{py::none()};
    check(runner.run(0, [&](const ExecContext&) -> Status {
        TOMO_ASSIGN_OR_RETURN(stack, registry.readVolume(path, options));
        return Status::ok();
    }));
    return toNumpy(std::move(*stack));
}

void writeFile(const std::string& path, py::handle volume, const std::vector<std::string>& flags,
               const std::map<std::string, std::string>& provenance) {
    Argv argv("convert", {kArray, path}, flags);
    const cli::ArgParser args = parse(cli::convertParser(), argv);
    check(cli::checkWritableOutput(path));
    const FormatRegistry registry = unwrap(app::makeFormatRegistry());
    const FileFormat* format = unwrap(registry.forPath(path));
    if (!format->writeVolume)
        raise(unsupported(path + ": the " + format->name + " format cannot be written"));
    const Float3 a = borrowFloat3(volume, "volume", "[y][x] or [planes][y][x]", true);
    const Array3<float> stack = copyToArray3(a);
    WriteOptions write = unwrap(cli::writeOptionsFromArgs(args, stack, *format));
    for (const auto& [key, value] : provenance)
        write.provenance[key] = value;
    Runner runner{py::none()};
    check(runner.run(0,
                     [&](const ExecContext&) { return registry.writeVolume(path, stack, write); }));
}

py::dict describeFile(const std::string& path, const std::vector<std::string>& flags) {
    Argv argv("convert", {path, kArray}, flags);
    const cli::ArgParser args = parse(cli::convertParser(), argv);
    const FormatRegistry registry = unwrap(app::makeFormatRegistry());
    const FileDescription d =
        unwrap(registry.describe(path, unwrap(cli::readOptionsFromArgs(args))));
    py::dict out;
    out["format"] = d.format;
    py::list datasets;
    for (const DatasetInfo& s : d.datasets) {
        py::dict e;
        e["path"] = s.path;
        e["shape"] = s.shape;
        e["type"] = sampleTypeName(s.type);
        e["role"] = s.role;
        datasets.append(e);
    }
    out["datasets"] = datasets;
    out["metadata"] = d.metadata;
    if (d.frame) {
        py::dict f;
        f["spacing"] = d.frame->spacing;
        f["origin"] = d.frame->origin;
        out["frame"] = f;
    } else {
        out["frame"] = py::none();
    }
    if (d.acquisition) {
        py::dict a;
        a["format"] = d.acquisition->format;
        a["angles"] = d.acquisition->angles;
        a["shape"] =
            py::make_tuple(d.acquisition->angleCount, d.acquisition->rows, d.acquisition->columns);
        a["flats"] = d.acquisition->flatCount;
        a["darks"] = d.acquisition->darkCount;
        out["acquisition"] = a;
    } else {
        out["acquisition"] = py::none();
    }
    return out;
}

/// Projections, flats, darks and angles of an acquisition in memory (copied into the layout
/// preprocessing works on) or of a file (read as `tomo preprocess` reads it).
ProjectionData acquisitionOf(py::handle data, py::handle flats, py::handle darks,
                             const std::vector<double>& angles, const cli::ArgParser& args) {
    if (py::isinstance<py::str>(data)) {
        const FormatRegistry registry = unwrap(app::makeFormatRegistry());
        const auto reader = unwrap(registry.openAcquisition(
            data.cast<std::string>(), unwrap(cli::readOptionsFromArgs(args))));
        return unwrap(reader->read());
    }
    ProjectionData d;
    d.projections =
        copyToArray3(borrowFloat3(data, "projections", "[angles][rows][columns]", true));
    if (!flats.is_none())
        d.flats = copyToArray3(borrowFloat3(flats, "flats", "[frames][rows][columns]", true));
    if (!darks.is_none())
        d.darks = copyToArray3(borrowFloat3(darks, "darks", "[frames][rows][columns]", true));
    d.angles = angles;
    check(d.validate());
    return d;
}

/// preprocess(sinograms=True): a sinogram stack in memory or a sinogram file, through
/// preprocessSinograms (core/preprocess/SinogramPreprocess.h), as `tomo preprocess --sinograms`.
py::tuple preprocessSinogramData(py::handle data, std::vector<double> angles,
                                 const cli::ArgParser& args, py::object progress) {
    Sinograms stack;
    if (py::isinstance<py::str>(data)) {
        const std::string path = data.cast<std::string>();
        const FormatRegistry registry = unwrap(app::makeFormatRegistry());
        if (app::isAcquisitionFormat(*unwrap(registry.forPath(path))))
            check(invalidArgument(path + ": sinograms=True reads a sinogram stack; this file is "
                                         "an acquisition (leave sinograms out)"));
        stack = std::move(unwrap(app::readSinogramFile(registry, path,
                                                       unwrap(cli::readOptionsFromArgs(args)),
                                                       ExecContext{}))
                              .sinograms);
    } else {
        stack = copyToArray3(borrowFloat3(data, "sinograms", "[rows][angles][detectors]", true));
    }
    const PreprocessOptions options =
        forSinograms(unwrap(cli::preprocessOptionsFromArgs(args, 0)));
    const int threads = unwrap(args.getInt("threads", 0, 0, 4096));
    PreprocessSummary summary;
    Runner runner(std::move(progress));
    check(runner.run(threads, [&](const ExecContext& ctx) {
        return preprocessSinograms(stack, angles, options, ctx, &summary);
    }));
    py::dict s;
    s["steps"] = describe(options);
    s["angles"] = angles;
    s["zingers_replaced"] = summary.zingers.replaced;
    s["center_crop_first"] = options.cropColumns.first;
    s["center_bin"] = options.binColumns;
    return py::make_tuple(toNumpy(std::move(stack)), s);
}

py::tuple preprocessData(py::handle data, py::handle flats, py::handle darks,
                         const std::vector<double>& angles, const std::vector<std::string>& flags,
                         py::object progress) {
    const std::string input = py::isinstance<py::str>(data) ? data.cast<std::string>() : kArray;
    Argv argv("preprocess", {input}, flags);
    const cli::ArgParser args = parse(cli::preprocessParser(), argv);
    if (args.has("sinograms")) {
        if (!flats.is_none() || !darks.is_none())
            check(invalidArgument("sinograms=True: a sinogram stack takes no flats or darks"));
        return preprocessSinogramData(data, angles, args, std::move(progress));
    }
    ProjectionData d = acquisitionOf(data, flats, darks, angles, args);
    const PreprocessOptions options = unwrap(cli::preprocessOptionsFromArgs(args, d.flats.dim(0)));
    const int threads = unwrap(args.getInt("threads", 0, 0, 4096));
    PreprocessSummary summary;
    Runner runner(std::move(progress));
    check(runner.run(
        threads, [&](const ExecContext& ctx) { return preprocess(d, options, ctx, &summary); }));
    py::dict s;
    s["steps"] = d.metadata["preprocessing"];
    s["angles"] = d.angles;
    s["flat_references"] = summary.flatField.flatReferences;
    s["clamped_denominators"] = summary.flatField.clampedDenominators;
    s["clamped_log_values"] = summary.minusLog.clampedValues;
    s["zingers_replaced"] = summary.zingers.replaced;
    s["center_crop_first"] = options.cropColumns.first;
    s["center_bin"] = options.binColumns;
    return py::make_tuple(toNumpy(std::move(d.projections)), s);
}

py::object estimateDict(const Result<CenterEstimate>& e) {
    py::dict d;
    if (!e.isOk()) {
        d["error"] = e.status().message();
        return d;
    }
    d["center"] = e->center;
    d["confidence"] = e->confidence;
    d["method"] = e->method;
    d["trial_centers"] = e->trialCenters;
    d["metric"] = e->metric;
    return d;
}

py::dict findCenter(py::handle sino, const std::vector<double>& angles,
                    const std::vector<std::string>& flags) {
    Argv argv("center", {kArray}, flags);
    const cli::ArgParser args = parse(cli::centerParser(), argv);
    const Float3 a =
        borrowFloat3(sino, "sinogram", "[angles][detectors] or [rows][angles][detectors]", true);
    const Array3<float> stack = copyToArray3(a);
    const int threads = unwrap(args.getInt("threads", 0, 0, 4096));
    std::optional<cli::CenterEstimates> estimates;
    Runner runner{py::none()};
    check(runner.run(threads, [&](const ExecContext& ctx) -> Status {
        TOMO_ASSIGN_OR_RETURN(estimates, cli::centerFromArgs(args, stack, angles, ctx));
        return Status::ok();
    }));
    py::dict out;
    out["vo-fourier"] = estimateDict(estimates->vo);
    out["phase-correlation"] = estimateDict(estimates->phaseCorrelation);
    out["sharpness"] = estimateDict(estimates->sharpness);
    return out;
}

py::array project(py::handle image, const std::vector<double>& angles,
                  const std::vector<std::string>& flags, py::object progress) {
    Argv argv("project", {kArray}, flags);
    const cli::ArgParser args = parse(cli::projectParser(), argv);
    const Float3 a =
        borrowFloat3(image, "image", "[rows][columns] or [slices][rows][columns]", true);
    const Array3<float> stack = copyToArray3(a);
    const int threads = unwrap(args.getInt("threads", 0, 0, 4096));
    std::optional<Sinograms> sino;
    Runner runner(std::move(progress));
    check(runner.run(threads, [&](const ExecContext& ctx) -> Status {
        TOMO_ASSIGN_OR_RETURN(sino, cli::projectFromArgs(args, stack, angles, ctx));
        return Status::ok();
    }));
    return toNumpy(std::move(*sino), a.ndim);
}

py::tuple phantom(const std::vector<std::string>& flags, bool withTruth, py::object progress) {
    Argv argv("phantom", {}, flags);
    const cli::ArgParser args = parse(cli::phantomParser(), argv);
    const int threads = unwrap(args.getInt("threads", 0, 0, 4096));
    std::optional<cli::PhantomResult> p;
    Runner runner(std::move(progress));
    check(runner.run(threads, [&](const ExecContext& ctx) -> Status {
        TOMO_ASSIGN_OR_RETURN(p, cli::phantomFromArgs(args, withTruth, ctx));
        return Status::ok();
    }));
    py::dict info;
    info["size"] = p->size;
    info["clamped"] = p->clamped;
    if (p->parallel) {
        info["angles"] = p->parallel->angles();
        info["center"] = p->parallel->centerOfRotation();
        info["angle_spec"] = p->angleSpec;
    }
    py::object truth =
        withTruth ? py::object(toNumpy(std::move(p->truth))) : py::object(py::none());
    if (p->cone) {
        ConeGeometryFile file;
        file.views = p->cone->views();
        file.detector = p->cone->detector();
        file.volume = p->coneGrid;
        file.format = "phantom";
        info["geometry"] = file;
    }
    return py::make_tuple(toNumpy(std::move(p->data)), truth, info);
}

/// A dataset folder (sinogram, geometry.txt: the bundled demo) as the workstation loads it.
py::tuple readDataset(const std::string& folder) {
    app::Dataset d = unwrap(app::loadDataset(folder));
    py::array angles = py::cast(d.geometry.angles());
    py::object truth =
        d.truth.empty() ? py::object(py::none()) : py::object(toNumpy(std::move(d.truth)));
    return py::make_tuple(toNumpy(std::move(d.sinograms)), angles, truth);
}

}  // namespace

void bindData(py::module_& m) {
    m.def("read_dataset", &readDataset, py::arg("folder"));
    m.def("uniform_angles", &uniformAngles, py::arg("start"), py::arg("stop"), py::arg("count"));
    m.def("read", &readFile, py::arg("path"), py::arg("flags"));
    m.def("write", &writeFile, py::arg("path"), py::arg("volume"), py::arg("flags"),
          py::arg("provenance"));
    m.def("info", &describeFile, py::arg("path"), py::arg("flags"));
    m.def("preprocess", &preprocessData, py::arg("data"), py::arg("flats"), py::arg("darks"),
          py::arg("angles"), py::arg("flags"), py::arg("progress"));
    m.def("find_center", &findCenter, py::arg("sinogram"), py::arg("angles"), py::arg("flags"));
    m.def("project", &project, py::arg("image"), py::arg("angles"), py::arg("flags"),
          py::arg("progress"));
    m.def("phantom", &phantom, py::arg("flags"), py::arg("truth"), py::arg("progress"));
    m.def("convert_options", [] { return optionList(cli::convertParser()); });
    m.def("preprocess_options", [] { return optionList(cli::preprocessParser()); });
    m.def("center_options", [] { return optionList(cli::centerParser()); });
    m.def("project_options", [] { return optionList(cli::projectParser()); });
    m.def("phantom_options", [] { return optionList(cli::phantomParser()); });
}

}  // namespace tomo::python
