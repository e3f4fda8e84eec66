// HDF5 reconstructions by slabs of planes (Hdf5VolumeStream.h).
#include "core/hdf5io/Hdf5VolumeStream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "core/dataset/PlaneFile.h"
#include "core/hdf5io/Hdf5Support.h"
#include "core/hdf5io/Hdf5Writer.h"
#include "core/io/AtomicFile.h"
#include "tomo/config.h"

namespace tomo {
namespace {

/// The file and its /reconstruction group and dataset, made under @p tempName; @p contiguous:
/// one contiguous block allocated now, no fill written (the shared layout: PlaneFile.h),
/// else chunked by plane.
struct CreatedFile {
    hdf5::Handle file, data;
};

Result<CreatedFile> createReconstructionFile(const std::string& tempName, const std::string& name,
                                             const std::array<std::size_t, 3>& shape,
                                             const WriteOptions& options, bool contiguous) {
    hdf5::ErrorSilencer quiet;
    hdf5::Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    // Large objects on 1 MiB boundaries (a parallel file system's stripe), so that ranks
    // writing planes of a contiguous dataset write whole stripes.
    if (contiguous) H5Pset_alignment(fapl.get(), hsize_t(1) << 20, hsize_t(1) << 20);
    CreatedFile out;
    out.file =
        hdf5::Handle(H5Fcreate(tempName.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
    if (!out.file.valid())
        return hdf5::libraryError(ErrorCode::IoError, name + ": cannot create the HDF5 file");
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle group,
                          hdf5::createGroups(out.file.get(), "/reconstruction"));
    const hsize_t dims[3] = {shape[0], shape[1], shape[2]};
    hdf5::Handle space(H5Screate_simple(3, dims, nullptr), H5Sclose);
    hdf5::Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    if (contiguous) {
        H5Pset_layout(dcpl.get(), H5D_CONTIGUOUS);
        H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY);
        H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER);
    } else {
        // One slice per chunk (Hdf5Writer.h), or bands of rows of at most 1 GiB for planes
        // beyond it (HDF5 refuses chunks of 4 GiB or more).
        constexpr hsize_t kMaxChunkBytes = hsize_t(1) << 30;
        const hsize_t rowBytes = std::max<hsize_t>(1, dims[2] * sizeof(float));
        const hsize_t rows = std::clamp<hsize_t>(kMaxChunkBytes / rowBytes, 1, dims[1]);
        const hsize_t chunk[3] = {1, rows, dims[2]};
        H5Pset_chunk(dcpl.get(), 3, chunk);
    }
    out.data = hdf5::Handle(H5Dcreate2(out.file.get(), kReconstructionDataset, H5T_IEEE_F32LE,
                                       space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                            H5Dclose);
    if (!out.data.valid())
        return hdf5::libraryError(ErrorCode::IoError,
                                  name + ": cannot create " + kReconstructionDataset);
    TOMO_RETURN_IF_ERROR(
        hdf5::writeStringAttribute(group.get(), "tomostation_version", TOMO_VERSION));
    TOMO_RETURN_IF_ERROR(hdf5::writeStringAttribute(group.get(), "axes", "z,y,x"));
    TOMO_RETURN_IF_ERROR(hdf5::writeDoubleAttribute(group.get(), "voxel_size", options.voxelSize));
    for (const auto& [key, value] : options.provenance)
        TOMO_RETURN_IF_ERROR(hdf5::writeStringAttribute(group.get(), key, value));
    TOMO_RETURN_IF_ERROR(
        hdf5::writeStringAttribute(out.file.get(), "tomostation_version", TOMO_VERSION)
            .withContext(name));
    return out;
}

/// The shared layout: the file made with a contiguous dataset and closed, so the library never
/// touches the planes' bytes, which every writer then puts with pwrite at their offsets.
Result<std::unique_ptr<VolumeWriter>> openSharedHdf5Writer(AtomicFile temp,
                                                           const std::array<std::size_t, 3>& shape,
                                                           const WriteOptions& options) {
    const std::string name = temp.target().string();
    haddr_t offset = HADDR_UNDEF;
    {
        TOMO_ASSIGN_OR_RETURN(
            CreatedFile made,
            createReconstructionFile(temp.tempPath().string(), name, shape, options, true));
        offset = H5Dget_offset(made.data.get());
        hdf5::ErrorSilencer quiet;
        if (!made.data.reset() || !made.file.reset())
            return hdf5::libraryError(ErrorCode::IoError, name + ": closing the HDF5 file failed");
    }
    if (offset == HADDR_UNDEF)
        return internalError(name + ": the contiguous dataset was not allocated");
    return openPlaneFileVolumeWriter(std::move(temp), offset, shape);
}

class Hdf5Writer final : public VolumeWriter {
  public:
    Hdf5Writer(AtomicFile temp, std::array<std::size_t, 3> shape)
        : m_temp(std::move(temp)), m_shape(shape), m_written(shape[0], false) {}
    ~Hdf5Writer() override {
        m_data.reset();
        m_file.reset();  // before AtomicFile removes the uncommitted file
    }
    Hdf5Writer(const Hdf5Writer&) = delete;
    Hdf5Writer& operator=(const Hdf5Writer&) = delete;

    /// Creates the file, the chunked dataset and the attributes.
    Status create(const WriteOptions& options) {
        TOMO_ASSIGN_OR_RETURN(CreatedFile made, createReconstructionFile(m_temp.tempPath().string(),
                                                                         m_temp.target().string(),
                                                                         m_shape, options, false));
        m_file = std::move(made.file);
        m_data = std::move(made.data);
        return Status::ok();
    }

    std::array<std::size_t, 3> shape() const override { return m_shape; }

    Status writeSlab(std::size_t first, const Array3<float>& slab) override {
        const std::string name = m_temp.target().string();
        if (!m_data.valid()) return invalidArgument(name + ": already committed");
        if (slab.dim(1) != m_shape[1] || slab.dim(2) != m_shape[2] || slab.dim(0) == 0 ||
            first > m_shape[0] || slab.dim(0) > m_shape[0] - first)
            return invalidArgument(name + ": slab of " + std::to_string(slab.dim(0)) +
                                   " plane(s) at " + std::to_string(first) +
                                   " does not fit the volume's " + std::to_string(m_shape[0]));
        hdf5::ErrorSilencer quiet;
        hdf5::Handle fileSpace(H5Dget_space(m_data.get()), H5Sclose);
        const hsize_t start[3] = {first, 0, 0};
        const hsize_t count[3] = {slab.dim(0), slab.dim(1), slab.dim(2)};
        H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
        // The slab's own rows, padding skipped by the memory selection.
        const hsize_t memDims[3] = {slab.dim(0), slab.dim(1), slab.pitch()};
        hdf5::Handle memSpace(H5Screate_simple(3, memDims, nullptr), H5Sclose);
        const hsize_t zero[3] = {0, 0, 0};
        H5Sselect_hyperslab(memSpace.get(), H5S_SELECT_SET, zero, nullptr, count, nullptr);
        if (H5Dwrite(m_data.get(), H5T_NATIVE_FLOAT, memSpace.get(), fileSpace.get(), H5P_DEFAULT,
                     slab.data()) < 0)
            return hdf5::libraryError(ErrorCode::IoError, name + ": cannot write planes " +
                                                              std::to_string(first) + "+" +
                                                              std::to_string(slab.dim(0)));
        for (std::size_t z = 0; z < slab.dim(0); ++z)
            m_written[first + z] = true;
        return Status::ok();
    }

    Status commit() override {
        const std::string name = m_temp.target().string();
        if (!m_data.valid()) return invalidArgument(name + ": already committed");
        for (std::size_t z = 0; z < m_shape[0]; ++z)
            if (!m_written[z])
                return invalidArgument(name + ": plane " + std::to_string(z) +
                                       " was never written");
        {
            hdf5::ErrorSilencer quiet;
            if (!m_data.reset() || !m_file.reset())
                return hdf5::libraryError(ErrorCode::IoError,
                                          name + ": closing the HDF5 file failed");
        }
        const int fd = ::open(m_temp.tempPath().c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0 || ::fsync(fd) != 0) {
            if (fd >= 0) ::close(fd);
            return ioError(name + ": cannot sync the written file");
        }
        ::close(fd);
        return m_temp.commit();
    }

  private:
    AtomicFile m_temp;
    std::array<std::size_t, 3> m_shape;
    std::vector<bool> m_written;
    hdf5::Handle m_file;
    hdf5::Handle m_data;
};

class Hdf5Reader final : public VolumeReader {
  public:
    Hdf5Reader(std::string name, std::string where, hdf5::Handle file, hdf5::Handle data,
               std::array<std::size_t, 3> shape)
        : m_name(std::move(name)),
          m_where(std::move(where)),
          m_file(std::move(file)),
          m_data(std::move(data)),
          m_shape(shape) {}
    std::array<std::size_t, 3> shape() const override { return m_shape; }
    Result<Array3<float>> readPlanes(std::size_t first, std::size_t count) override {
        if (count == 0 || first > m_shape[0] || count > m_shape[0] - first)
            return invalidArgument(m_name + ": planes " + std::to_string(first) + "+" +
                                   std::to_string(count) + " lie outside its " +
                                   std::to_string(m_shape[0]));
        TOMO_ASSIGN_OR_RETURN(Array3<float> out,
                              Array3<float>::create(count, m_shape[1], m_shape[2]));
        TOMO_RETURN_IF_ERROR(hdf5::readFloatBlock(m_data.get(), m_name + ": " + m_where,
                                                  {first, count}, {0, m_shape[1]}, out, 0));
        return out;
    }

  private:
    std::string m_name, m_where;
    hdf5::Handle m_file, m_data;
    std::array<std::size_t, 3> m_shape;
};

}  // namespace

Result<std::unique_ptr<VolumeWriter>> openHdf5VolumeWriter(const std::filesystem::path& path,
                                                           const std::array<std::size_t, 3>& shape,
                                                           const WriteOptions& options) {
    if (shape[0] == 0 || shape[1] == 0 || shape[2] == 0)
        return invalidArgument(path.string() + ": nothing to write (empty volume)");
    TOMO_ASSIGN_OR_RETURN(AtomicFile temp, AtomicFile::create(path));
    ::close(temp.releaseFd());  // HDF5 opens the file by name itself
    if (options.sharedPlanes) return openSharedHdf5Writer(std::move(temp), shape, options);
    auto writer = std::make_unique<Hdf5Writer>(std::move(temp), shape);
    TOMO_RETURN_IF_ERROR(writer->create(options));
    return std::unique_ptr<VolumeWriter>(std::move(writer));
}

Result<std::unique_ptr<VolumeReader>> openHdf5VolumeReader(const std::filesystem::path& path,
                                                           const std::string& dataset) {
    const std::string name = path.string();
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle file, hdf5::openFile(name));
    const std::string where = hdf5::volumeDataset(file.get(), dataset);
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle d, hdf5::openDataset(file.get(), name, where));
    TOMO_ASSIGN_OR_RETURN(hdf5::DatasetShape shape,
                          hdf5::datasetShape(d.get(), name + ": " + where));
    if (shape.dims.size() != 3 || shape.type == SampleType::Other ||
        shape.dims[0] * shape.dims[1] * shape.dims[2] == 0)
        return unsupported(name + ": " + where +
                           " is not a non-empty numeric stack of rank 3; read it whole");
    return std::unique_ptr<VolumeReader>(std::make_unique<Hdf5Reader>(
        name, where, std::move(file), std::move(d),
        std::array<std::size_t, 3>{shape.dims[0], shape.dims[1], shape.dims[2]}));
}

}  // namespace tomo
