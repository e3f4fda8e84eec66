// Block reads of HDF5 acquisitions: frame lists mapped to contiguous hyperslab runs.
#include "core/hdf5io/Hdf5AcquisitionReader.h"

#include <filesystem>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/geometry/ParallelGeometry.h"
#include "core/hdf5io/FrameDatasets.h"

namespace tomo {

namespace hdf5io_detail {

std::string shapeString(const std::vector<std::size_t>& dims) {
    std::string text;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i) text += "x";
        text += std::to_string(dims[i]);
    }
    return text.empty() ? "scalar" : text;
}

// Opens a rank-3 numeric frame dataset at @p path; records it in @p info.datasets.
/// Bytes per stored element.
std::size_t sampleTypeBytes(SampleType type) {
    switch (type) {
        case SampleType::UInt8:
        case SampleType::Int8:
            return 1;
        case SampleType::UInt16:
        case SampleType::Int16:
            return 2;
        case SampleType::Float64:
            return 8;
        default:
            return 4;
    }
}

Result<hdf5::Handle> openFrames(hid_t file, AcquisitionInfo& info, const std::string& path,
                                const std::string& role, hdf5::DatasetShape* shape) {
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle d, hdf5::openDataset(file, info.file, path));
    TOMO_ASSIGN_OR_RETURN(*shape, hdf5::datasetShape(d.get(), info.file + ": " + path));
    info.datasets.push_back({path, shape->dims, shape->type, role});
    if (shape->dims.size() != 3)
        return invalidData(info.file + ": " + path + " has rank " +
                           std::to_string(shape->dims.size()) + " (shape " +
                           shapeString(shape->dims) + "), expected 3: [frame][row][column]");
    if (shape->type == SampleType::Other)
        return invalidData(info.file + ": " + path +
                           " has an unsupported element type (expected 8/16/32-bit integers or "
                           "32/64-bit floats)");
    // A corrupt header can declare billions of frames: refuse shapes the file cannot hold even
    // at a generous 1100:1 compression ratio before anything is sized by them (found by
    // fuzz_dxchange).
    std::error_code ec;
    const auto fileBytes = std::filesystem::file_size(info.file, ec);
    const long double declared = static_cast<long double>(shape->dims[0]) * shape->dims[1] *
                                 shape->dims[2] * sampleTypeBytes(shape->type);
    if (!ec && declared > static_cast<long double>(fileBytes) * 1100.0L)
        return invalidData(info.file + ": " + path + " declares " + shapeString(shape->dims) +
                           " values, more than the " + std::to_string(fileBytes) +
                           "-byte file can hold (truncated or corrupt)");
    return d;
}

// InvalidData unless @p other has the rows x columns of the projections.
Status checkFrameSize(const AcquisitionInfo& info, const std::string& path,
                      const std::vector<std::size_t>& dims, const std::string& dataPath) {
    if (dims[1] == info.rows && dims[2] == info.columns) return Status::ok();
    return invalidData(info.file + ": " + path + " frames are " + std::to_string(dims[1]) + "x" +
                       std::to_string(dims[2]) + " but " + dataPath + " frames are " +
                       std::to_string(info.rows) + "x" + std::to_string(info.columns) +
                       " (rows x columns)");
}

}  // namespace hdf5io_detail

Hdf5AcquisitionReader::Hdf5AcquisitionReader(hdf5::Handle file, FrameSource projections,
                                             FrameSource flats, FrameSource darks,
                                             AcquisitionInfo info)
    : m_file(std::move(file)),
      m_projections(std::move(projections)),
      m_flats(std::move(flats)),
      m_darks(std::move(darks)),
      m_info(std::move(info)) {}

Result<Array3<float>> Hdf5AcquisitionReader::readFrames(const FrameSource& source, IndexRange which,
                                                        IndexRange rows) const {
    TOMO_ASSIGN_OR_RETURN(Array3<float> out,
                          Array3<float>::create(which.count, rows.count, m_info.columns));
    const std::string where = m_info.file + ": " + source.path;
    // Consecutive frame numbers are read as one hyperslab.
    std::size_t i = 0;
    while (i < which.count) {
        std::size_t run = 1;
        const std::size_t start = source.frames[which.first + i];
        while (i + run < which.count && source.frames[which.first + i + run] == start + run)
            ++run;
        TOMO_RETURN_IF_ERROR(
            hdf5::readFloatBlock(source.dataset.get(), where, {start, run}, rows, out, i));
        i += run;
    }
    return out;
}

Result<Array3<float>> Hdf5AcquisitionReader::readProjections(IndexRange angles,
                                                             IndexRange rows) const {
    TOMO_ASSIGN_OR_RETURN(IndexRange a, angles.resolve(m_info.angleCount, "angles"));
    TOMO_ASSIGN_OR_RETURN(IndexRange r, rows.resolve(m_info.rows, "rows"));
    return readFrames(m_projections, a, r);
}

Result<Array3<float>> Hdf5AcquisitionReader::readFlats(IndexRange rows) const {
    TOMO_ASSIGN_OR_RETURN(IndexRange r, rows.resolve(m_info.rows, "rows"));
    if (m_flats.frames.empty()) return Array3<float>();
    return readFrames(m_flats, {0, m_flats.frames.size()}, r);
}

Result<Array3<float>> Hdf5AcquisitionReader::readDarks(IndexRange rows) const {
    TOMO_ASSIGN_OR_RETURN(IndexRange r, rows.resolve(m_info.rows, "rows"));
    if (m_darks.frames.empty()) return Array3<float>();
    return readFrames(m_darks, {0, m_darks.frames.size()}, r);
}

Result<std::vector<double>> anglesToRadians(const std::vector<double>& values,
                                            const std::string& unitAttribute, AngleUnit requested,
                                            AngleUnit fallback, const std::string& where,
                                            AngleUnit* used) {
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i]))
            return invalidData(where + ": angle " + std::to_string(i) + " is not finite");
    AngleUnit unit = requested;
    if (unit == AngleUnit::Auto && !unitAttribute.empty()) {
        std::string u = unitAttribute;
        for (char& c : u)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (u == "deg" || u == "degree" || u == "degrees")
            unit = AngleUnit::Degrees;
        else if (u == "rad" || u == "radian" || u == "radians")
            unit = AngleUnit::Radians;
        else
            return invalidData(where + ": unknown angle unit '" + unitAttribute +
                               "' (expected deg or rad; state the unit to override)");
    }
    if (unit == AngleUnit::Auto) {
        const bool large = std::any_of(values.begin(), values.end(),
                                       [](double v) { return std::abs(v) > 2 * kPi + 1e-6; });
        unit = large ? AngleUnit::Degrees
                     : (fallback == AngleUnit::Auto ? AngleUnit::Radians : fallback);
    }
    if (used) *used = unit;
    std::vector<double> radians(values);
    if (unit == AngleUnit::Degrees)
        for (double& v : radians)
            v *= kPi / 180.0;
    return radians;
}

}  // namespace tomo
