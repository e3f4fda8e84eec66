// The format-neutral acquisition model: index ranges, names of types and units, validation and
// the projection-to-sinogram transposition.
#include "core/dataset/ProjectionData.h"

#include <cmath>

namespace tomo {

namespace {

std::string rangeText(const IndexRange& r) {
    std::string text = "[";  // appended step by step: g++ 12 -Wrestrict false positive otherwise
    text += std::to_string(r.first);
    text += ", ";
    text += std::to_string(r.end());
    text += ")";
    return text;
}

/// First NaN/Inf of @p a as InvalidData naming @p what and the (frame, row, column).
Status checkFinite(const Array3<float>& a, const std::string& what) {
    for (std::size_t i = 0; i < a.dim(0); ++i)
        for (std::size_t r = 0; r < a.dim(1); ++r) {
            auto row = a.row(i, r);
            for (std::size_t c = 0; c < row.size(); ++c)
                if (!std::isfinite(row[c]))
                    return invalidData(what + " has a non-finite value (" + std::to_string(row[c]) +
                                       ") at [" + std::to_string(i) + "][" + std::to_string(r) +
                                       "][" + std::to_string(c) + "]");
        }
    return Status::ok();
}

}  // namespace

Result<IndexRange> IndexRange::resolve(std::size_t size, const std::string& axis) const {
    if (first >= size)
        return invalidArgument(axis + " range starts at " + std::to_string(first) +
                               " but there are " + std::to_string(size) + " " + axis);
    IndexRange r{first, count == kAll ? size - first : count};
    if (r.count == 0) return invalidArgument(axis + " range " + rangeText(r) + " is empty");
    if (r.count > size - first)
        return invalidArgument(axis + " range " + rangeText(r) + " exceeds the " +
                               std::to_string(size) + " " + axis + " available");
    return r;
}

const char* sampleTypeName(SampleType type) {
    switch (type) {
        case SampleType::UInt8:
            return "uint8";
        case SampleType::UInt16:
            return "uint16";
        case SampleType::UInt32:
            return "uint32";
        case SampleType::Int8:
            return "int8";
        case SampleType::Int16:
            return "int16";
        case SampleType::Int32:
            return "int32";
        case SampleType::Float32:
            return "float32";
        case SampleType::Float64:
            return "float64";
        case SampleType::Other:
            break;
    }
    return "other";
}

const char* angleUnitName(AngleUnit unit) {
    switch (unit) {
        case AngleUnit::Radians:
            return "radians";
        case AngleUnit::Degrees:
            return "degrees";
        case AngleUnit::Auto:
            break;
    }
    return "auto";
}

Result<AngleUnit> parseAngleUnit(const std::string& text) {
    if (text == "auto") return AngleUnit::Auto;
    if (text == "rad" || text == "radian" || text == "radians") return AngleUnit::Radians;
    if (text == "deg" || text == "degree" || text == "degrees") return AngleUnit::Degrees;
    return invalidArgument("angle unit must be auto, rad or deg (got '" + text + "')");
}

Status ProjectionData::validate() const {
    const auto& d = projections.dims();
    if (projections.empty()) return invalidData("no projections");
    if (!angles.empty() && angles.size() != d[0])
        return invalidData(std::to_string(angles.size()) + " angles for " + std::to_string(d[0]) +
                           " projections");
    for (std::size_t i = 0; i < angles.size(); ++i)
        if (!std::isfinite(angles[i]))
            return invalidData("angle " + std::to_string(i) + " is not finite");
    for (const auto* frames : {&flats, &darks}) {
        const char* what = frames == &flats ? "flats" : "darks";
        if (frames->dim(0) != 0 && (frames->dim(1) != d[1] || frames->dim(2) != d[2]))
            return invalidData(std::string(what) + " are " + std::to_string(frames->dim(1)) + "x" +
                               std::to_string(frames->dim(2)) + " but projections are " +
                               std::to_string(d[1]) + "x" + std::to_string(d[2]) +
                               " (rows x columns)");
    }
    TOMO_RETURN_IF_ERROR(checkFinite(projections, "projections"));
    TOMO_RETURN_IF_ERROR(checkFinite(flats, "flats"));
    return checkFinite(darks, "darks");
}

Result<Sinograms> toSinograms(const Array3<float>& frames, IndexRange rows) {
    TOMO_ASSIGN_OR_RETURN(IndexRange r, rows.resolve(frames.dim(1), "rows"));
    TOMO_ASSIGN_OR_RETURN(Sinograms sino, Sinograms::create(r.count, frames.dim(0), frames.dim(2)));
    for (std::size_t s = 0; s < r.count; ++s)
        for (std::size_t a = 0; a < frames.dim(0); ++a) {
            auto src = frames.row(a, r.first + s);
            auto dst = sino.row(s, a);
            std::copy(src.begin(), src.end(), dst.begin());
        }
    return sino;
}

Result<ProjectionData> AcquisitionReader::read(IndexRange rows) const {
    ProjectionData data;
    TOMO_ASSIGN_OR_RETURN(data.projections, readProjections(IndexRange::all(), rows));
    TOMO_ASSIGN_OR_RETURN(data.flats, readFlats(rows));
    TOMO_ASSIGN_OR_RETURN(data.darks, readDarks(rows));
    data.angles = info().angles;
    data.metadata = info().metadata;
    TOMO_RETURN_IF_ERROR(data.validate().withContext(info().file));
    return data;
}

}  // namespace tomo
