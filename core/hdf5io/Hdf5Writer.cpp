// Atomic HDF5 writers (reconstructions with provenance, DXchange, NXtomo) and the volume reader.
#include "core/hdf5io/Hdf5Writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <functional>

#include "core/geometry/ParallelGeometry.h"
#include "core/hdf5io/FrameDatasets.h"
#include "core/hdf5io/Hdf5Support.h"
#include "core/hdf5io/Hdf5VolumeStream.h"
#include "core/io/AtomicFile.h"
#include "tomo/config.h"

namespace tomo {

namespace {

/// Creates the HDF5 file under a temporary name, runs @p body on it, closes, syncs and renames.
Status writeAtomically(const std::filesystem::path& path,
                       const std::function<Status(hid_t)>& body) {
    TOMO_ASSIGN_OR_RETURN(AtomicFile temp, AtomicFile::create(path));
    ::close(temp.releaseFd());  // HDF5 opens the file by name itself
    const std::string tempName = temp.tempPath().string();
    {
        hdf5::ErrorSilencer quiet;
        hdf5::Handle file(H5Fcreate(tempName.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                          H5Fclose);
        if (!file.valid())
            return hdf5::libraryError(ErrorCode::IoError,
                                      path.string() + ": cannot create the HDF5 file");
        TOMO_RETURN_IF_ERROR(body(file.get()).withContext(path.string()));
        TOMO_RETURN_IF_ERROR(
            hdf5::writeStringAttribute(file.get(), "tomostation_version", TOMO_VERSION)
                .withContext(path.string()));
        if (!file.reset())
            return hdf5::libraryError(ErrorCode::IoError,
                                      path.string() + ": closing the HDF5 file failed");
    }
    int fd = ::open(tempName.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        if (fd >= 0) ::close(fd);
        return ioError(path.string() + ": cannot sync the written file");
    }
    ::close(fd);
    return temp.commit();
}

Result<hid_t> fileTypeOf(SampleType type) {
    switch (type) {
        case SampleType::UInt8:
            return H5T_STD_U8LE;
        case SampleType::UInt16:
            return H5T_STD_U16LE;
        case SampleType::UInt32:
            return H5T_STD_U32LE;
        case SampleType::Int8:
            return H5T_STD_I8LE;
        case SampleType::Int16:
            return H5T_STD_I16LE;
        case SampleType::Int32:
            return H5T_STD_I32LE;
        case SampleType::Float32:
            return H5T_IEEE_F32LE;
        case SampleType::Float64:
            return H5T_IEEE_F64LE;
        case SampleType::Other:
            break;
    }
    return invalidArgument("cannot store acquisitions as 'other' element type");
}

std::vector<double> storedAngles(const std::vector<double>& radians, AngleUnit unit) {
    std::vector<double> v(radians);
    if (unit == AngleUnit::Degrees)
        for (double& a : v)
            a *= 180.0 / kPi;
    return v;
}

Status writeAngles(hid_t file, const std::string& path, const std::vector<double>& radians,
                   const AcquisitionWriteOptions& options) {
    const std::vector<double> values = storedAngles(radians, options.angleUnit);
    TOMO_RETURN_IF_ERROR(hdf5::writeDataset(file, path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                            {values.size()}, values.data()));
    if (!options.writeAngleUnits) return Status::ok();
    hdf5::Handle d(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose);
    return hdf5::writeStringAttribute(
        d.get(), "units", options.angleUnit == AngleUnit::Degrees ? "degrees" : "radians");
}

Status setNxClass(hid_t file, const std::string& group, const char* cls) {
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle g, hdf5::createGroups(file, group));
    return hdf5::writeStringAttribute(g.get(), "NX_class", cls);
}

}  // namespace

Status writeHdf5Volume(const std::filesystem::path& path, const Array3<float>& volume,
                       const WriteOptions& options) {
    if (volume.empty()) return invalidArgument(path.string() + ": nothing to write (empty volume)");
    // The streamed writer given the whole volume as one slab (Hdf5VolumeStream.h).
    TOMO_ASSIGN_OR_RETURN(auto writer, openHdf5VolumeWriter(path, volume.dims(), options));
    TOMO_RETURN_IF_ERROR(writer->writeSlab(0, volume));
    return writer->commit();
}

Result<Array3<float>> readHdf5Volume(const std::filesystem::path& path,
                                     const std::string& dataset) {
    const std::string name = path.string();
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle file, hdf5::openFile(name));
    const std::string where = hdf5::volumeDataset(file.get(), dataset);
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle d, hdf5::openDataset(file.get(), name, where));
    TOMO_ASSIGN_OR_RETURN(hdf5::DatasetShape shape,
                          hdf5::datasetShape(d.get(), name + ": " + where));
    std::vector<std::size_t> dims = shape.dims;
    if (dims.size() == 2) dims.insert(dims.begin(), 1);
    if (dims.size() != 3 || shape.type == SampleType::Other)
        return invalidData(name + ": " + where + " (shape " +
                           hdf5io_detail::shapeString(shape.dims) + ", " +
                           sampleTypeName(shape.type) + ") is not a numeric stack of rank 2 or 3");
    if (dims[0] * dims[1] * dims[2] == 0) return invalidData(name + ": " + where + " is empty");
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(dims[0], dims[1], dims[2]));
    if (shape.dims.size() == 3) {
        TOMO_RETURN_IF_ERROR(
            hdf5::readFloatBlock(d.get(), name + ": " + where, {0, dims[0]}, {0, dims[1]}, out, 0));
        return out;
    }
    std::vector<float> dense(dims[1] * dims[2]);
    hdf5::ErrorSilencer quiet;
    if (H5Dread(d.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, dense.data()) < 0)
        return hdf5::libraryError(ErrorCode::InvalidData, name + ": " + where + " cannot be read");
    for (std::size_t r = 0; r < dims[1]; ++r)
        for (std::size_t c = 0; c < dims[2]; ++c) {
            const float v = dense[r * dims[2] + c];
            if (!std::isfinite(v))
                return invalidData(name + ": " + where + ": non-finite value at [" +
                                   std::to_string(r) + "][" + std::to_string(c) + "]");
            out(0, r, c) = v;
        }
    return out;
}

Result<std::map<std::string, std::string>> readHdf5Provenance(const std::filesystem::path& path,
                                                              const std::string& dataset) {
    const std::string name = path.string();
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle file, hdf5::openFile(name));
    std::string where = dataset.empty() ? std::string(kReconstructionDataset) : dataset;
    const std::size_t slash = where.rfind('/');
    const std::string group =
        slash == 0 || slash == std::string::npos ? std::string("/") : where.substr(0, slash);
    if (!hdf5::exists(file.get(), where)) return notFound(name + ": " + where + " is missing");
    hdf5::ErrorSilencer quiet;
    hdf5::Handle g(H5Oopen(file.get(), group.c_str(), H5P_DEFAULT), H5Oclose);
    if (!g.valid())
        return hdf5::libraryError(ErrorCode::InvalidData, name + ": cannot open " + group);
    struct Ctx {
        std::map<std::string, std::string> values;
    } ctx;
    auto visit = [](hid_t obj, const char* attrName, const H5A_info_t*, void* data) -> herr_t {
        auto* c = static_cast<Ctx*>(data);
        std::string text = hdf5::stringAttribute(obj, attrName);
        if (text.empty()) {
            hdf5::Handle a(H5Aopen(obj, attrName, H5P_DEFAULT), H5Aclose);
            hdf5::Handle space(a.valid() ? H5Aget_space(a.get()) : H5I_INVALID_HID, H5Sclose);
            double v = 0;
            if (space.valid() && H5Sget_simple_extent_npoints(space.get()) == 1 &&
                H5Aread(a.get(), H5T_NATIVE_DOUBLE, &v) >= 0)
                text = std::to_string(v);
            H5Eclear2(H5E_DEFAULT);
        }
        c->values[attrName] = text;
        return 0;
    };
    H5Aiterate2(g.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, visit, &ctx);
    return ctx.values;
}

Status writeDxchange(const std::filesystem::path& path, const ProjectionData& data,
                     const AcquisitionWriteOptions& options) {
    TOMO_RETURN_IF_ERROR(data.validate().withContext(path.string()));
    TOMO_ASSIGN_OR_RETURN(hid_t type, fileTypeOf(options.dataType));
    return writeAtomically(path, [&](hid_t file) -> Status {
        TOMO_RETURN_IF_ERROR(hdf5::writeArray(file, "/exchange/data", type, data.projections));
        if (!data.flats.empty())
            TOMO_RETURN_IF_ERROR(hdf5::writeArray(file, "/exchange/data_white", type, data.flats));
        if (!data.darks.empty())
            TOMO_RETURN_IF_ERROR(hdf5::writeArray(file, "/exchange/data_dark", type, data.darks));
        if (!data.angles.empty())
            TOMO_RETURN_IF_ERROR(writeAngles(file, "/exchange/theta", data.angles, options));
        return Status::ok();
    });
}

Status writeNxtomo(const std::filesystem::path& path, const ProjectionData& data,
                   const AcquisitionWriteOptions& options) {
    TOMO_RETURN_IF_ERROR(data.validate().withContext(path.string()));
    if (data.angles.empty()) return invalidArgument(path.string() + ": NXtomo needs angles");
    TOMO_ASSIGN_OR_RETURN(hid_t type, fileTypeOf(options.dataType));
    const std::size_t nFlat = data.flats.dim(0), nDark = data.darks.dim(0);
    const std::size_t nProj = data.projections.dim(0);
    const std::size_t before = options.splitFlats ? nFlat / 2 : nFlat;
    const std::size_t total = nDark + nFlat + nProj + options.invalidFrames;
    TOMO_ASSIGN_OR_RETURN(
        Array3<float> frames,
        Array3<float>::create(total, data.projections.dim(1), data.projections.dim(2)));
    std::vector<int> keys;
    std::vector<double> angles;
    auto append = [&](const Array3<float>& src, std::size_t first, std::size_t count, int key) {
        for (std::size_t i = first; i < first + count; ++i) {
            for (std::size_t r = 0; r < src.dim(1); ++r) {
                auto s = src.row(i, r);
                std::copy(s.begin(), s.end(), frames.row(keys.size(), r).begin());
            }
            angles.push_back(key == 0 ? data.angles[i] : data.angles[0]);
            keys.push_back(key);
        }
    };
    append(data.darks, 0, nDark, 2);
    append(data.flats, 0, before, 1);
    append(data.projections, 0, nProj, 0);
    append(data.flats, before, nFlat - before, 1);
    for (std::size_t i = 0; i < options.invalidFrames; ++i) {
        angles.push_back(data.angles[0]);
        keys.push_back(3);
    }
    return writeAtomically(path, [&](hid_t file) -> Status {
        TOMO_RETURN_IF_ERROR(setNxClass(file, "/entry", "NXentry"));
        TOMO_RETURN_IF_ERROR(setNxClass(file, "/entry/instrument", "NXinstrument"));
        TOMO_RETURN_IF_ERROR(setNxClass(file, "/entry/instrument/detector", "NXdetector"));
        TOMO_RETURN_IF_ERROR(setNxClass(file, "/entry/sample", "NXsample"));
        TOMO_RETURN_IF_ERROR(setNxClass(file, "/entry/data", "NXdata"));
        {
            hdf5::Handle entry(H5Gopen2(file, "/entry", H5P_DEFAULT), H5Gclose);
            TOMO_RETURN_IF_ERROR(hdf5::writeStringAttribute(entry.get(), "definition", "NXtomo"));
        }
        const std::string det = "/entry/instrument/detector/";
        TOMO_RETURN_IF_ERROR(hdf5::writeArray(file, det + "data", type, frames));
        TOMO_RETURN_IF_ERROR(hdf5::writeDataset(file, det + "image_key", H5T_STD_I32LE,
                                                H5T_NATIVE_INT, {keys.size()}, keys.data()));
        AcquisitionWriteOptions angleOptions = options;
        TOMO_RETURN_IF_ERROR(
            writeAngles(file, "/entry/sample/rotation_angle", angles, angleOptions));
        hdf5::ErrorSilencer quiet;
        const char* links[3][2] = {
            {"/entry/instrument/detector/data", "/entry/data/data"},
            {"/entry/instrument/detector/image_key", "/entry/data/image_key"},
            {"/entry/sample/rotation_angle", "/entry/data/rotation_angle"}};
        for (const auto& link : links)
            if (H5Lcreate_hard(file, link[0], file, link[1], H5P_DEFAULT, H5P_DEFAULT) < 0)
                return hdf5::libraryError(ErrorCode::IoError,
                                          std::string("cannot link ") + link[1]);
        return Status::ok();
    });
}

namespace hdf5 {

std::string volumeDataset(hid_t file, const std::string& dataset) {
    if (!dataset.empty()) return dataset;
    return exists(file, kReconstructionDataset) || !exists(file, "/exchange/data")
               ? kReconstructionDataset
               : "/exchange/data";
}

}  // namespace hdf5
}  // namespace tomo
