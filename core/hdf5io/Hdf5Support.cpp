// RAII handles, error silencing and hyperslab block I/O over the HDF5 C library.
#include "core/hdf5io/Hdf5Support.h"

#include <cmath>
#include <filesystem>

namespace tomo::hdf5 {

Handle& Handle::operator=(Handle&& o) noexcept {
    if (this != &o) {
        reset();
        m_id = o.m_id;
        m_close = o.m_close;
        o.m_id = H5I_INVALID_HID;
    }
    return *this;
}

bool Handle::reset() {
    bool ok = true;
    if (m_id >= 0 && m_close) ok = m_close(m_id) >= 0;
    m_id = H5I_INVALID_HID;
    return ok;
}

ErrorSilencer::ErrorSilencer() {
    H5Eget_auto2(H5E_DEFAULT, &m_func, &m_data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

ErrorSilencer::~ErrorSilencer() {
    H5Eset_auto2(H5E_DEFAULT, m_func, m_data);
}

namespace {

herr_t innermostError(unsigned n, const H5E_error2_t* err, void* data) {
    auto* text = static_cast<std::string*>(data);
    if (n == 0 && err->desc) *text = err->desc;
    return 0;
}

}  // namespace

std::string lastErrorText() {
    std::string text;
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermostError, &text);
    return text;
}

Status libraryError(ErrorCode code, const std::string& message) {
    std::string why = lastErrorText();
    H5Eclear2(H5E_DEFAULT);
    return {code, why.empty() ? message : message + " (HDF5: " + why + ")"};
}

Result<Handle> openFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return notFound(path + ": no such file");
    ErrorSilencer quiet;
    htri_t isHdf5 = H5Fis_hdf5(path.c_str());
    if (isHdf5 < 0) return libraryError(ErrorCode::InvalidData, path + ": cannot be read");
    if (isHdf5 == 0) return invalidData(path + ": not an HDF5 file (no HDF5 signature)");
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return libraryError(ErrorCode::InvalidData,
                            path + ": cannot open the HDF5 file (truncated or corrupt?)");
    return Handle(f, H5Fclose);
}

bool exists(hid_t file, const std::string& path) {
    ErrorSilencer quiet;
    std::size_t pos = 1;
    for (;;) {
        std::size_t next = path.find('/', pos);
        std::string prefix = path.substr(0, next);
        if (prefix.size() > 1 && H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
        if (next == std::string::npos) break;
        pos = next + 1;
    }
    // A link may dangle (soft or external link to nothing): the object must open as well.
    return H5Oexists_by_name(file, path.c_str(), H5P_DEFAULT) > 0;
}

Result<Handle> openDataset(hid_t file, const std::string& fileName, const std::string& path) {
    if (!exists(file, path)) return notFound(fileName + ": dataset " + path + " is missing");
    ErrorSilencer quiet;
    hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    if (d < 0)
        return libraryError(ErrorCode::InvalidData,
                            fileName + ": " + path + " is not a readable dataset");
    return Handle(d, H5Dclose);
}

Result<DatasetShape> datasetShape(hid_t dataset, const std::string& where) {
    ErrorSilencer quiet;
    Handle space(H5Dget_space(dataset), H5Sclose);
    Handle type(H5Dget_type(dataset), H5Tclose);
    if (!space.valid() || !type.valid())
        return libraryError(ErrorCode::InvalidData, where + ": cannot read the dataset's shape");
    int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0) return libraryError(ErrorCode::InvalidData, where + ": bad dataspace");
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    DatasetShape shape;
    shape.dims.assign(dims.begin(), dims.end());
    const std::size_t size = H5Tget_size(type.get());
    switch (H5Tget_class(type.get())) {
        case H5T_INTEGER: {
            const bool isSigned = H5Tget_sign(type.get()) == H5T_SGN_2;
            if (size == 1) shape.type = isSigned ? SampleType::Int8 : SampleType::UInt8;
            if (size == 2) shape.type = isSigned ? SampleType::Int16 : SampleType::UInt16;
            if (size == 4) shape.type = isSigned ? SampleType::Int32 : SampleType::UInt32;
            break;
        }
        case H5T_FLOAT:
            if (size == 4) shape.type = SampleType::Float32;
            if (size == 8) shape.type = SampleType::Float64;
            break;
        default:
            break;
    }
    return shape;
}

namespace {

/// Contiguous and compact datasets (no filters) must store exactly points x element size bytes;
/// a corrupt header that says otherwise makes HDF5 1.10 read past its own buffers (found by
/// fuzz_nxtomo), so such datasets are refused before any read.
Status checkStorageSize(hid_t dataset, const std::string& where) {
    Handle plist(H5Dget_create_plist(dataset), H5Pclose);
    Handle space(H5Dget_space(dataset), H5Sclose);
    Handle type(H5Dget_type(dataset), H5Tclose);
    if (!plist.valid() || !space.valid() || !type.valid())
        return libraryError(ErrorCode::InvalidData, where + ": unreadable dataset header");
    const H5D_layout_t layout = H5Pget_layout(plist.get());
    if ((layout != H5D_CONTIGUOUS && layout != H5D_COMPACT) || H5Pget_nfilters(plist.get()) != 0)
        return Status::ok();
    const hssize_t points = H5Sget_simple_extent_npoints(space.get());
    const std::size_t element = H5Tget_size(type.get());
    if (points < 0 || element == 0)
        return invalidData(where + ": bad dataset shape or type (corrupt file?)");
    const hsize_t stored = H5Dget_storage_size(dataset);
    const long double needed = static_cast<long double>(points) * element;
    if (layout == H5D_COMPACT ? stored != needed : (stored != 0 && stored < needed))
        return invalidData(where + ": the dataset stores " + std::to_string(stored) +
                           " bytes but its shape needs " +
                           std::to_string(static_cast<unsigned long long>(needed)) +
                           " (truncated or corrupt file)");
    return Status::ok();
}

}  // namespace

Status readFloatBlock(hid_t dataset, const std::string& where, IndexRange frames, IndexRange rows,
                      Array3<float>& out, std::size_t outFirst) {
    ErrorSilencer quiet;
    TOMO_RETURN_IF_ERROR(checkStorageSize(dataset, where));
    Handle fileSpace(H5Dget_space(dataset), H5Sclose);
    if (!fileSpace.valid()) return libraryError(ErrorCode::InvalidData, where + ": bad dataspace");
    const hsize_t columns = out.dim(2);
    const hsize_t fstart[3] = {frames.first, rows.first, 0};
    const hsize_t fcount[3] = {frames.count, rows.count, columns};
    if (H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, fstart, nullptr, fcount, nullptr) < 0)
        return libraryError(ErrorCode::Internal, where + ": bad block selection");
    // The memory side is the padded Array3: rows are pitch() floats apart.
    const hsize_t mdims[3] = {out.dim(0), out.dim(1), out.pitch()};
    Handle memSpace(H5Screate_simple(3, mdims, nullptr), H5Sclose);
    const hsize_t mstart[3] = {outFirst, 0, 0};
    if (!memSpace.valid() ||
        H5Sselect_hyperslab(memSpace.get(), H5S_SELECT_SET, mstart, nullptr, fcount, nullptr) < 0)
        return libraryError(ErrorCode::Internal, where + ": bad memory selection");
    if (H5Dread(dataset, H5T_NATIVE_FLOAT, memSpace.get(), fileSpace.get(), H5P_DEFAULT,
                out.data()) < 0)
        return libraryError(ErrorCode::InvalidData,
                            where + ": reading frames [" + std::to_string(frames.first) + ", " +
                                std::to_string(frames.end()) + ") failed (truncated or corrupt?)");
    for (std::size_t f = 0; f < frames.count; ++f)
        for (std::size_t r = 0; r < rows.count; ++r) {
            auto row = out.row(outFirst + f, r);
            for (std::size_t c = 0; c < row.size(); ++c)
                if (!std::isfinite(row[c]))
                    return invalidData(where + ": non-finite value (" + std::to_string(row[c]) +
                                       ") at [" + std::to_string(frames.first + f) + "][" +
                                       std::to_string(rows.first + r) + "][" + std::to_string(c) +
                                       "]");
        }
    return Status::ok();
}

namespace {

template <class T>
Result<std::vector<T>> readVector(hid_t dataset, const std::string& where, hid_t memType) {
    TOMO_ASSIGN_OR_RETURN(DatasetShape shape, datasetShape(dataset, where));
    if (shape.dims.size() != 1)
        return invalidData(where + ": has rank " + std::to_string(shape.dims.size()) +
                           ", expected a 1-D list");
    if (shape.type == SampleType::Other)
        return invalidData(where + ": is not numeric (or a 64-bit integer)");
    ErrorSilencer quiet;
    // A corrupt header can claim any length: contiguous data must be stored in full, and no
    // per-frame list (angles, image keys) is longer than this.
    TOMO_RETURN_IF_ERROR(checkStorageSize(dataset, where));
    constexpr hsize_t kMaxListLength = hsize_t(1) << 26;
    if (shape.dims[0] > kMaxListLength)
        return invalidData(where + ": claims " + std::to_string(shape.dims[0]) +
                           " entries (more than " + std::to_string(kMaxListLength) +
                           "; corrupt file?)");
    std::vector<T> values(shape.dims[0]);
    if (!values.empty() &&
        H5Dread(dataset, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
        return libraryError(ErrorCode::InvalidData, where + ": cannot be read");
    return values;
}

}  // namespace

Result<std::vector<double>> readDoubles(hid_t dataset, const std::string& where) {
    return readVector<double>(dataset, where, H5T_NATIVE_DOUBLE);
}

Result<std::vector<int>> readInts(hid_t dataset, const std::string& where) {
    return readVector<int>(dataset, where, H5T_NATIVE_INT);
}

std::string stringAttribute(hid_t obj, const std::string& name) {
    ErrorSilencer quiet;
    if (H5Aexists(obj, name.c_str()) <= 0) return "";
    Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT), H5Aclose);
    Handle type(attr.valid() ? H5Aget_type(attr.get()) : H5I_INVALID_HID, H5Tclose);
    if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING) return "";
    Handle space(H5Aget_space(attr.get()), H5Sclose);
    if (!space.valid() || H5Sget_simple_extent_npoints(space.get()) != 1) return "";
    std::string value;
    if (H5Tis_variable_str(type.get()) > 0) {
        Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(mem.get(), H5T_VARIABLE);
        H5Tset_cset(mem.get(), H5Tget_cset(type.get()));  // HDF5 converts no character sets
        char* text = nullptr;
        if (H5Aread(attr.get(), mem.get(), &text) >= 0 && text) value = text;
        if (text) H5free_memory(text);
    } else {
        std::size_t size = H5Tget_size(type.get());
        constexpr std::size_t kMaxAttributeBytes = std::size_t(1) << 20;  // corrupt sizes
        if (size == 0 || size > kMaxAttributeBytes) return "";
        std::string buffer(size, '\0');
        if (H5Aread(attr.get(), type.get(), buffer.data()) >= 0)
            value = buffer.substr(0, buffer.find('\0'));
    }
    H5Eclear2(H5E_DEFAULT);
    return value;
}

Status writeStringAttribute(hid_t obj, const std::string& name, const std::string& value) {
    ErrorSilencer quiet;
    if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
    Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attr(H5Acreate2(obj, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                H5Aclose);
    const char* text = value.c_str();
    if (!attr.valid() || H5Awrite(attr.get(), type.get(), &text) < 0)
        return libraryError(ErrorCode::IoError, "cannot write attribute '" + name + "'");
    return Status::ok();
}

Status writeDoubleAttribute(hid_t obj, const std::string& name, double value) {
    ErrorSilencer quiet;
    if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle attr(
        H5Acreate2(obj, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    if (!attr.valid() || H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, &value) < 0)
        return libraryError(ErrorCode::IoError, "cannot write attribute '" + name + "'");
    return Status::ok();
}

Result<Handle> createGroups(hid_t file, const std::string& path) {
    ErrorSilencer quiet;
    Handle group(H5Gopen2(file, "/", H5P_DEFAULT), H5Gclose);
    std::size_t pos = 1;
    while (pos < path.size()) {
        std::size_t next = path.find('/', pos);
        std::string prefix = path.substr(0, next);
        hid_t g = H5Lexists(file, prefix.c_str(), H5P_DEFAULT) > 0
                      ? H5Gopen2(file, prefix.c_str(), H5P_DEFAULT)
                      : H5Gcreate2(file, prefix.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (g < 0) return libraryError(ErrorCode::IoError, "cannot create group " + prefix);
        group = Handle(g, H5Gclose);
        if (next == std::string::npos) break;
        pos = next + 1;
    }
    return group;
}

Status writeDataset(hid_t file, const std::string& path, hid_t fileType, hid_t memType,
                    const std::vector<std::size_t>& dims, const void* values) {
    const std::size_t slash = path.rfind('/');
    if (slash > 0) TOMO_RETURN_IF_ERROR(createGroups(file, path.substr(0, slash)).status());
    ErrorSilencer quiet;
    std::vector<hsize_t> hdims(dims.begin(), dims.end());
    Handle space(H5Screate_simple(static_cast<int>(hdims.size()), hdims.data(), nullptr), H5Sclose);
    Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    bool nonEmpty = true;
    for (hsize_t d : hdims)
        nonEmpty = nonEmpty && d > 0;
    if (hdims.size() == 3 && nonEmpty) {
        // One chunk per frame: a block read of some rows touches only the frames it needs.
        const hsize_t chunk[3] = {1, hdims[1], hdims[2]};
        H5Pset_chunk(dcpl.get(), 3, chunk);
    }
    Handle d(
        H5Dcreate2(file, path.c_str(), fileType, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
        H5Dclose);
    if (!d.valid()) return libraryError(ErrorCode::IoError, "cannot create dataset " + path);
    if (nonEmpty && H5Dwrite(d.get(), memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) < 0)
        return libraryError(ErrorCode::IoError, "cannot write dataset " + path);
    return Status::ok();
}

Status writeArray(hid_t file, const std::string& path, hid_t fileType, const Array3<float>& data) {
    const bool integer = H5Tget_class(fileType) == H5T_INTEGER;
    std::vector<float> dense(data.elementCount());
    std::size_t k = 0;
    for (std::size_t i = 0; i < data.dim(0); ++i)
        for (std::size_t r = 0; r < data.dim(1); ++r)
            for (float v : data.row(i, r))
                dense[k++] = integer ? std::nearbyint(v) : v;
    return writeDataset(file, path, fileType, H5T_NATIVE_FLOAT,
                        {data.dim(0), data.dim(1), data.dim(2)}, dense.data());
}

}  // namespace tomo::hdf5
