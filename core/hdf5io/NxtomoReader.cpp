// Opening NeXus NXtomo files: the NXentry's NXdata group, image_key and rotation_angle.
#include <memory>

#include "core/hdf5io/FrameDatasets.h"
#include "core/hdf5io/Hdf5AcquisitionReader.h"

namespace tomo {

namespace {

/// Names of the groups directly below @p path.
std::vector<std::string> childGroups(hid_t file, const std::string& path) {
    std::vector<std::string> names;
    hdf5::ErrorSilencer quiet;
    hdf5::Handle group(H5Gopen2(file, path.c_str(), H5P_DEFAULT), H5Gclose);
    if (!group.valid()) return names;
    auto visit = [](hid_t g, const char* name, const H5L_info_t*, void* data) -> herr_t {
        hdf5::Handle obj(H5Oopen(g, name, H5P_DEFAULT), H5Oclose);
        if (obj.valid() && H5Iget_type(obj.get()) == H5I_GROUP)
            static_cast<std::vector<std::string>*>(data)->push_back(name);
        return 0;
    };
    H5Literate(group.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, visit, &names);
    H5Eclear2(H5E_DEFAULT);
    return names;
}

std::string nxClass(hid_t file, const std::string& path) {
    hdf5::ErrorSilencer quiet;
    hdf5::Handle obj(H5Oopen(file, path.c_str(), H5P_DEFAULT), H5Oclose);
    return obj.valid() ? hdf5::stringAttribute(obj.get(), "NX_class") : "";
}

/// The child of @p parent with NX_class @p cls (first by name), else the child named @p name.
std::string findGroup(hid_t file, const std::string& parent, const std::string& cls,
                      const std::string& name) {
    std::string byName;
    for (const std::string& child : childGroups(file, parent)) {
        const std::string path = (parent == "/" ? "" : parent) + "/" + child;
        if (nxClass(file, path) == cls) return path;
        if (child == name) byName = path;
    }
    return byName;
}

/// @p dataGroup/@p name when it exists, else @p fallback when that exists, else "".
std::string locate(hid_t file, const std::string& dataGroup, const std::string& name,
                   const std::string& fallback) {
    if (hdf5::exists(file, dataGroup + "/" + name)) return dataGroup + "/" + name;
    return hdf5::exists(file, fallback) ? fallback : "";
}

}  // namespace

Result<std::unique_ptr<Hdf5AcquisitionReader>> openNxtomo(const std::string& path, AngleUnit unit) {
    using namespace hdf5io_detail;
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle file, hdf5::openFile(path));
    const hid_t f = file.get();
    const std::string entry = findGroup(f, "/", "NXentry", "entry");
    if (entry.empty())
        return notFound(path + ": no NXentry group (NX_class = \"NXentry\" or /entry)");
    const std::string dataGroup = findGroup(f, entry, "NXdata", "data");
    if (dataGroup.empty())
        return notFound(path + ": " + entry + " has no NXdata group (NX_class = \"NXdata\" or " +
                        entry + "/data)");
    AcquisitionInfo info;
    info.format = "NXtomo";
    info.file = path;
    const std::string dataPath = dataGroup + "/data";
    hdf5::DatasetShape shape;
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle data, openFrames(f, info, dataPath, "frames", &shape));
    const std::size_t frames = shape.dims[0];
    info.rows = shape.dims[1];
    info.columns = shape.dims[2];
    info.projectionType = shape.type;

    const std::string keyPath =
        locate(f, dataGroup, "image_key", entry + "/instrument/detector/image_key");
    if (keyPath.empty())
        return notFound(path + ": " + dataGroup + "/image_key is missing (nor found in " + entry +
                        "/instrument/detector)");
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle keyDataset, hdf5::openDataset(f, path, keyPath));
    TOMO_ASSIGN_OR_RETURN(std::vector<int> keys,
                          hdf5::readInts(keyDataset.get(), path + ": " + keyPath));
    info.datasets.push_back({keyPath, {keys.size()}, SampleType::Int32, "image_key"});
    if (keys.size() != frames)
        return invalidData(path + ": " + keyPath + " has " + std::to_string(keys.size()) +
                           " entries but " + dataPath + " has " + std::to_string(frames) +
                           " frames");

    Hdf5AcquisitionReader::FrameSource sources[3];  // projections, flats, darks
    for (std::size_t i = 0; i < frames; ++i) {
        if (keys[i] < 0 || keys[i] > 3)
            return invalidData(path + ": " + keyPath + "[" + std::to_string(i) +
                               "] = " + std::to_string(keys[i]) +
                               " is not an image key (0 projection, 1 flat, 2 dark, 3 invalid)");
        if (keys[i] < 3) sources[keys[i]].frames.push_back(i);
    }
    info.angleCount = sources[0].frames.size();
    info.flatCount = sources[1].frames.size();
    info.darkCount = sources[2].frames.size();
    if (info.angleCount == 0 || info.rows == 0 || info.columns == 0)
        return invalidData(path + ": " + dataPath +
                           " holds no projection (image_key 0) or has "
                           "empty frames (shape " +
                           shapeString(shape.dims) + ")");
    for (int k = 0; k < 3; ++k) {
        sources[k].path = dataPath;
        if (k == 0)
            sources[k].dataset = std::move(data);
        else if (!sources[k].frames.empty()) {
            TOMO_ASSIGN_OR_RETURN(sources[k].dataset, hdf5::openDataset(f, path, dataPath));
        }
    }

    const std::string anglePath =
        locate(f, dataGroup, "rotation_angle", entry + "/sample/rotation_angle");
    if (!anglePath.empty()) {
        TOMO_ASSIGN_OR_RETURN(hdf5::Handle angles, hdf5::openDataset(f, path, anglePath));
        const std::string where = path + ": " + anglePath;
        TOMO_ASSIGN_OR_RETURN(hdf5::DatasetShape as, hdf5::datasetShape(angles.get(), where));
        info.datasets.push_back({anglePath, as.dims, as.type, "angles"});
        TOMO_ASSIGN_OR_RETURN(std::vector<double> all, hdf5::readDoubles(angles.get(), where));
        if (all.size() != frames)
            return invalidData(where + " has " + std::to_string(all.size()) + " angles but " +
                               dataPath + " has " + std::to_string(frames) + " frames");
        std::vector<double> values;
        for (std::size_t i : sources[0].frames)
            values.push_back(all[i]);
        const std::string attr = hdf5::stringAttribute(angles.get(), "units");
        info.angleUnitFromAttribute = unit == AngleUnit::Auto && !attr.empty();
        TOMO_ASSIGN_OR_RETURN(info.angles, anglesToRadians(values, attr, unit, AngleUnit::Degrees,
                                                           where, &info.storedAngleUnit));
    }
    return std::make_unique<Hdf5AcquisitionReader>(std::move(file), std::move(sources[0]),
                                                   std::move(sources[1]), std::move(sources[2]),
                                                   std::move(info));
}

Result<std::unique_ptr<Hdf5AcquisitionReader>> openHdf5Acquisition(const std::string& path,
                                                                   AngleUnit unit) {
    {
        TOMO_ASSIGN_OR_RETURN(hdf5::Handle file, hdf5::openFile(path));
        if (hdf5::exists(file.get(), "/exchange/data")) return openDxchange(path, unit);
        if (findGroup(file.get(), "/", "NXentry", "entry").empty())
            return notFound(path +
                            ": neither a DXchange file (/exchange/data) nor an NXtomo "
                            "file (an NXentry group)");
    }
    return openNxtomo(path, unit);
}

}  // namespace tomo
