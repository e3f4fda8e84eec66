// Opening DXchange files: /exchange/data, data_white, data_dark and theta, checked for shape.
#include <memory>

#include "core/hdf5io/FrameDatasets.h"
#include "core/hdf5io/Hdf5AcquisitionReader.h"

namespace tomo {

Result<std::unique_ptr<Hdf5AcquisitionReader>> openDxchange(const std::string& path,
                                                            AngleUnit unit) {
    using namespace hdf5io_detail;
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle file, hdf5::openFile(path));
    AcquisitionInfo info;
    info.format = "DXchange";
    info.file = path;
    const std::string dataPath = "/exchange/data";
    hdf5::DatasetShape shape;
    TOMO_ASSIGN_OR_RETURN(hdf5::Handle data,
                          openFrames(file.get(), info, dataPath, "projections", &shape));
    info.angleCount = shape.dims[0];
    info.rows = shape.dims[1];
    info.columns = shape.dims[2];
    info.projectionType = shape.type;
    if (info.angleCount == 0 || info.rows == 0 || info.columns == 0)
        return invalidData(path + ": " + dataPath + " is empty (shape " +
                           hdf5io_detail::shapeString(shape.dims) + ")");

    Hdf5AcquisitionReader::FrameSource projections{dataPath, std::move(data), {}};
    for (std::size_t i = 0; i < info.angleCount; ++i)
        projections.frames.push_back(i);

    Hdf5AcquisitionReader::FrameSource sources[2];
    const char* paths[2] = {"/exchange/data_white", "/exchange/data_dark"};
    const char* roles[2] = {"flats", "darks"};
    for (int k = 0; k < 2; ++k) {
        sources[k].path = paths[k];
        if (!hdf5::exists(file.get(), paths[k])) continue;
        hdf5::DatasetShape s;
        TOMO_ASSIGN_OR_RETURN(sources[k].dataset,
                              openFrames(file.get(), info, paths[k], roles[k], &s));
        TOMO_RETURN_IF_ERROR(checkFrameSize(info, paths[k], s.dims, dataPath));
        for (std::size_t i = 0; i < s.dims[0]; ++i)
            sources[k].frames.push_back(i);
    }
    info.flatCount = sources[0].frames.size();
    info.darkCount = sources[1].frames.size();

    const std::string thetaPath = "/exchange/theta";
    if (hdf5::exists(file.get(), thetaPath)) {
        TOMO_ASSIGN_OR_RETURN(hdf5::Handle theta, hdf5::openDataset(file.get(), path, thetaPath));
        const std::string where = path + ": " + thetaPath;
        TOMO_ASSIGN_OR_RETURN(hdf5::DatasetShape ts, hdf5::datasetShape(theta.get(), where));
        info.datasets.push_back({thetaPath, ts.dims, ts.type, "angles"});
        TOMO_ASSIGN_OR_RETURN(std::vector<double> values, hdf5::readDoubles(theta.get(), where));
        if (values.size() != info.angleCount)
            return invalidData(where + " has " + std::to_string(values.size()) + " angles but " +
                               dataPath + " has " + std::to_string(info.angleCount) +
                               " projections");
        const std::string attr = hdf5::stringAttribute(theta.get(), "units");
        info.angleUnitFromAttribute = unit == AngleUnit::Auto && !attr.empty();
        TOMO_ASSIGN_OR_RETURN(info.angles, anglesToRadians(values, attr, unit, AngleUnit::Auto,
                                                           where, &info.storedAngleUnit));
    }
    if (std::string v = hdf5::stringAttribute(file.get(), "tomostation_version"); !v.empty())
        info.metadata["tomostation_version"] = v;
    return std::make_unique<Hdf5AcquisitionReader>(std::move(file), std::move(projections),
                                                   std::move(sources[0]), std::move(sources[1]),
                                                   std::move(info));
}

}  // namespace tomo
