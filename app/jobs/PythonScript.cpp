// The workstation's request as a tomostation script (PythonScript.h).
#include "app/jobs/PythonScript.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "core/filter/RampFilter.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/projectors/JosephTranspose.h"

namespace tomo::app {
namespace {

/// A double as Python reads it back exactly.
std::string number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

/// A Python string literal of @p text (paths, names).
std::string quoted(const std::string& text) {
    std::string s = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') s += '\\';
        s += c;
    }
    return s + "\"";
}

/// "(first, end)" of a crop range in Python (None for an open end).
std::string pythonRange(const IndexRange& r) {
    std::ostringstream os;
    os << "(" << r.first << ", ";
    if (r.count == IndexRange::kAll)
        os << "None";
    else
        os << r.end();
    os << ")";
    return os.str();
}

/// The line preprocessing the sinogram stack `sinogram` as @p o asks (the keywords of
/// ts.preprocess, which parses them as `tomo preprocess --sinograms` does).
std::string preprocessLine(const PreprocessOptions& o) {
    std::ostringstream os;
    os << "sinogram = ts.preprocess(sinogram, sinograms=True";
    if (o.rings == RingMethod::Sorting)
        os << ", rings=\"vo\", ring_size=" << o.sorting.size
           << ", ring_snr=" << number(o.sorting.snr);
    if (o.rings == RingMethod::FourierWavelet)
        os << ", rings=\"fw\", ring_levels=" << o.fourierWavelet.levels
           << ", ring_sigma=" << number(o.fourierWavelet.sigma)
           << ", ring_snr=" << number(o.fourierWavelet.snr);
    if (o.zingers)
        os << ", zinger=" << number(o.zingers->threshold) << ", zinger_size=" << o.zingers->size;
    if (o.binRows != 1 || o.binColumns != 1)
        os << ", bin=(" << o.binRows << ", " << o.binColumns << ")";
    if (o.cropRows.first != 0 || o.cropRows.count != IndexRange::kAll || o.cropColumns.first != 0 ||
        o.cropColumns.count != IndexRange::kAll)
        os << ", crop=(" << pythonRange(o.cropRows) << ", " << pythonRange(o.cropColumns) << ")";
    os << ")\n";
    return os.str();
}

/// The lines reading the data and its angles into `sinogram`, `angles`.
Result<std::string> dataLines(const ScriptRequest& r) {
    std::ostringstream os;
    if (r.file) {
        const LoadRequest& f = *r.file;
        if (f.format == "hdf5" && !r.loaded->preprocessing.empty() &&
            r.loaded->preprocessing != "none")
            return unsupported("Copy as Python: an acquisition read with preprocessing (" +
                               r.loaded->preprocessing +
                               ") is not yet written as a script; save the sinograms first");
        os << "sinogram = ts.read(" << quoted(f.path.string());
        if (f.shape)
            os << ", shape=(" << (*f.shape)[0] << ", " << (*f.shape)[1] << ", " << (*f.shape)[2]
               << ")";
        os << ")  # [slice][angle][detector]\n";
        if (!r.preprocessing.empty()) os << preprocessLine(r.preprocessing);
        os << "angles = ts.uniform_angles(" << number(f.firstDegrees) << " * math.pi / 180, "
           << number(f.endDegrees) << " * math.pi / 180, sinogram.shape[1])\n";
    } else if (!r.datasetFolder.empty()) {
        os << "sinogram, angles, truth = ts.read_dataset(" << quoted(r.datasetFolder.string())
           << ")\n";
        if (!r.preprocessing.empty()) os << preprocessLine(r.preprocessing);
    } else {
        return unsupported(
            "Copy as Python: the generated demo has no file a script can read; open a data "
            "file or a dataset folder first (File > Open data file, Open dataset folder)");
    }
    if (r.sampling.angleStep > 1)
        os << "sinogram, angles = sinogram[:, ::" << r.sampling.angleStep
           << "], angles[::" << r.sampling.angleStep << "]  # projections 0, "
           << r.sampling.angleStep << ", ... (read in place)\n";
    return os.str();
}

/// @p parameters without those at the schema's default (the script resolves the same schema,
/// so what it leaves out takes the same value); all of them for an unknown algorithm.
std::map<std::string, std::string> nonDefault(
    const std::string& algorithm, const std::map<std::string, std::string>& parameters) {
    Result<AlgorithmSpec> spec = findAlgorithm(algorithm);
    if (!spec) return parameters;
    const auto same = [](const std::string& a, const std::string& b) {
        if (a == b) return true;
        char* endA = nullptr;
        char* endB = nullptr;
        const double x = std::strtod(a.c_str(), &endA), y = std::strtod(b.c_str(), &endB);
        return !a.empty() && !b.empty() && *endA == '\0' && *endB == '\0' && x == y;
    };
    std::map<std::string, std::string> out;
    for (const auto& [name, value] : parameters) {
        bool isDefault = false;
        for (const ParameterSpec& p : spec->parameters)
            isDefault = isDefault || (p.name == name && same(p.defaultValue, value));
        if (!isDefault) out.emplace(name, value);
    }
    return out;
}

/// The keywords stating the geometry and grid of the reconstructed dataset.
std::string geometryKeywords(const ScriptRequest& r) {
    const Dataset& d = *r.reconstructed;
    const ParallelGeometry& g = d.geometry;
    std::ostringstream os;
    os << "center=" << number(g.centerOfRotation())
       << ", detector_pitch=" << number(g.detectorPitch()) << ",\n    size=" << d.grid.nx
       << ", pixel_size=" << number(d.grid.voxelSize) << ", roi_center=(" << number(d.grid.offsetX)
       << ", " << number(d.grid.offsetY) << ")";
    // The workstation passes the truth as the reference (errors, MBIR's golden-image rule).
    if (!d.truth.empty()) {
        if (r.file || r.datasetFolder.empty())
            return "";  // a reference set by hand: refused by the caller
        os << ", truth=truth";
    }
    return os.str();
}

}  // namespace

Result<std::string> pythonScript(const ScriptRequest& r) {
    if (!r.loaded || !r.reconstructed) return invalidArgument("Copy as Python: no data loaded");
    if (r.warmStart)
        return unsupported(
            "Copy as Python: this result continued from a previous image (warm "
            "restart); reconstruct from the start to copy it");
    if (!r.reconstructed->geometry.params().centerCorrection.empty())
        return unsupported("Copy as Python: per-projection centre corrections are not written");
    TOMO_ASSIGN_OR_RETURN(std::string data, dataLines(r));
    const std::string keywords = geometryKeywords(r);
    if (keywords.empty())
        return unsupported("Copy as Python: a reference image set by hand is not written");
    std::ostringstream os;
    os << "# TomoStation: the workstation's reconstruction as a script (docs/python.md).\n"
          "# Run it with the tomostation package; it makes the same request of the same\n"
          "# service and gives the same bits.\n"
          "import math\n\nimport tomostation as ts\n\n"
       << data;
    if (r.algorithm == "fbp") {
        os << "image = ts.fbp(sinogram, angles, " << keywords
           << ",\n    filter=" << quoted(filterWindowName(r.fbp.filter.window))
           << ", cutoff=" << number(r.fbp.filter.cutoff);
        if (r.variant == kJosephTransposeId)  // FBP's projector parameter, as the GUI set it
            os << ", projector=\"joseph\"";
        else if (!r.variant.empty())
            os << ", variant=" << quoted(r.variant);
        os << ")\n";
    } else {
        os << "image = ts.reconstruct(sinogram, angles, " << quoted(r.algorithm) << ", " << keywords
           << ",\n    backend=" << quoted(r.backend);
        const std::map<std::string, std::string> changed = nonDefault(r.algorithm, r.parameters);
        if (!changed.empty()) {
            os << ", **{";
            bool first = true;
            for (const auto& [name, value] : changed) {
                os << (first ? "" : ", ") << quoted(name) << ": " << quoted(value);
                first = false;
            }
            os << "}";
        }
        os << ")\n";
    }
    os << "ts.write(\"reconstruction.tif\", image)\n";
    return os.str();
}

}  // namespace tomo::app
