#include "app/jobs/DatasetState.h"

#include <cmath>
#include <cstdio>

namespace tomo::app {

bool DataSource::sameScan(const DataSource& other) const {
    if (folder != other.folder || demoSize != other.demoSize ||
        file.has_value() != other.file.has_value())
        return false;
    if (!file) return true;
    LoadRequest a = *file, b = *other.file;
    a.preprocessing = b.preprocessing = {};
    a.minusLog = b.minusLog = true;
    return a == b;
}

PreprocessOptions DatasetState::preprocessing() const {
    return source.file ? source.file->preprocessing : source.folderPreprocessing;
}

double centerInLoaded(double storedCenter, const PreprocessOptions& preprocessing) {
    return preprocessing.centerAfter(storedCenter);
}

double centerInStored(double loadedCenter, const PreprocessOptions& preprocessing) {
    // centerAfter is affine (a crop shifts, a binning scales): invert it from two points.
    const double at0 = preprocessing.centerAfter(0.0);
    const double slope = preprocessing.centerAfter(1.0) - at0;
    return (loadedCenter - at0) / slope;
}

namespace {

std::string pixels(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

}  // namespace

Result<Dataset> withStateCenter(const Dataset& read, const DatasetState& state,
                                const Sinograms* sinograms) {
    ParallelGeometry::Params params = read.geometry.params();
    if (state.center) {
        const double center = centerInLoaded(*state.center, state.preprocessing());
        const int width = params.detectorCount;
        if (!(center >= 0 && center <= width - 1)) {
            std::string where = pixels(center) + " px";
            if (center != *state.center) where += " (" + pixels(*state.center) + " px as stored)";
            return invalidArgument("the centre of rotation " + where +
                                   " lies outside the detector [0, " + std::to_string(width - 1) +
                                   "] of the data as read");
        }
        params.centerOfRotation = center;
    }
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    Dataset out{std::move(geometry), read.grid, (sinograms ? *sinograms : read.sinograms).clone(),
                read.truth.clone(), read.warnings};
    out.preprocessing = read.preprocessing;
    return out;
}

Dataset withoutSinograms(const Dataset& read) {
    Dataset out{read.geometry, read.grid, {}, read.truth.clone(), read.warnings};
    out.preprocessing = read.preprocessing;
    out.sampling = read.sampling;
    return out;
}

std::vector<std::string> describeState(const DatasetState& state, const Dataset& seen) {
    std::vector<std::string> out;
    if (state.center) {
        std::string c = "centre " + pixels(seen.geometry.centerOfRotation()) + " px";
        const double stored = *state.center;
        if (std::fabs(stored - seen.geometry.centerOfRotation()) > 1e-9)
            c += " (" + pixels(stored) + " px as stored)";
        out.push_back(std::move(c));
    }
    if (!seen.preprocessing.empty()) out.push_back("preprocessing: " + seen.preprocessing);
    if (!seen.sampling.empty()) out.push_back(seen.sampling);
    return out;
}

}  // namespace tomo::app
