// The "hdf5" format of the registry: DXchange/NXtomo acquisitions, reconstructions, descriptions.
#include "core/hdf5io/Hdf5Formats.h"
#include "core/hdf5io/Hdf5VolumeStream.h"

#include "core/hdf5io/Hdf5AcquisitionReader.h"
#include "core/hdf5io/Hdf5Support.h"
#include "core/hdf5io/Hdf5Writer.h"

namespace tomo {

namespace {

struct Walk {
    std::string prefix;
    int depth = 0;
    std::vector<DatasetInfo>* out = nullptr;
};

herr_t visitLink(hid_t group, const char* name, const H5L_info_t*, void* data) {
    const Walk& walk = *static_cast<Walk*>(data);
    hdf5::Handle obj(H5Oopen(group, name, H5P_DEFAULT), H5Oclose);
    if (!obj.valid()) return 0;  // dangling soft or external link
    const std::string path = walk.prefix + "/" + name;
    if (H5Iget_type(obj.get()) == H5I_GROUP && walk.depth < 16) {
        Walk child{path, walk.depth + 1, walk.out};
        H5Literate(obj.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, visitLink, &child);
    } else if (H5Iget_type(obj.get()) == H5I_DATASET) {
        auto shape = hdf5::datasetShape(obj.get(), path);
        if (shape) walk.out->push_back({path, shape->dims, shape->type, ""});
    }
    return 0;
}

}  // namespace

Result<FileDescription> describeHdf5(const std::filesystem::path& path, AngleUnit unit) {
    const std::string name = path.string();
    FileDescription d;
    d.format = "HDF5";
    {
        TOMO_ASSIGN_OR_RETURN(hdf5::Handle file, hdf5::openFile(name));
        hdf5::ErrorSilencer quiet;
        Walk root{"", 0, &d.datasets};
        H5Literate(file.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, visitLink, &root);
        H5Eclear2(H5E_DEFAULT);
        if (hdf5::exists(file.get(), kReconstructionDataset)) {
            d.format = "HDF5 (reconstruction)";
            TOMO_ASSIGN_OR_RETURN(d.metadata, readHdf5Provenance(path));
        } else if (std::string v = hdf5::stringAttribute(file.get(), "tomostation_version");
                   !v.empty()) {
            d.metadata["tomostation_version"] = v;
        }
    }
    auto reader = openHdf5Acquisition(name, unit);
    if (reader) {
        d.acquisition = (*reader)->info();
        d.format = "HDF5 (" + d.acquisition->format + ")";
        for (DatasetInfo& ds : d.datasets)
            for (const DatasetInfo& known : d.acquisition->datasets)
                if (ds.path == known.path) ds.role = known.role;
    } else if (reader.status().code() != ErrorCode::NotFound ||
               reader.status().message().find("neither") == std::string::npos) {
        return reader.status();
    }
    return d;
}

Status registerHdf5Formats(FormatRegistry& registry) {
    FileFormat f;
    f.name = "hdf5";
    f.description = "HDF5: DXchange or NXtomo acquisitions, reconstructions with provenance";
    f.extensions = {".h5", ".hdf5", ".hdf", ".nxs", ".cxi"};
    f.openAcquisition =
        [](const std::filesystem::path& path,
           const ReadOptions& options) -> Result<std::unique_ptr<AcquisitionReader>> {
        TOMO_ASSIGN_OR_RETURN(auto reader, openHdf5Acquisition(path.string(), options.angleUnit));
        return std::unique_ptr<AcquisitionReader>(std::move(reader));
    };
    f.readVolume = [](const std::filesystem::path& path, const ReadOptions& options) {
        return readHdf5Volume(path, options.dataset);
    };
    f.writeVolume = [](const std::filesystem::path& path, const Array3<float>& volume,
                       const WriteOptions& options) {
        return writeHdf5Volume(path, volume, options);
    };
    f.openVolumeWriter = [](const std::filesystem::path& path,
                            const std::array<std::size_t, 3>& shape, const WriteOptions& options) {
        return openHdf5VolumeWriter(path, shape, options);
    };
    f.openVolumeReader = [](const std::filesystem::path& path, const ReadOptions& options) {
        return openHdf5VolumeReader(path, options.dataset);
    };
    f.describe = [](const std::filesystem::path& path, const ReadOptions& options) {
        return describeHdf5(path, options.angleUnit);
    };
    return registry.add(std::move(f));
}

}  // namespace tomo
