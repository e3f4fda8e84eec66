// An AcquisitionReader over an acquisition held in memory.
#include "core/dataset/MemoryAcquisitionReader.h"

#include <algorithm>

namespace tomo {

Result<Array3<float>> copyBlock(const Array3<float>& src, IndexRange frames, IndexRange rows) {
    TOMO_ASSIGN_OR_RETURN(Array3<float> out,
                          Array3<float>::create(frames.count, rows.count, src.dim(2)));
    for (std::size_t f = 0; f < frames.count; ++f)
        for (std::size_t r = 0; r < rows.count; ++r) {
            auto s = src.row(frames.first + f, rows.first + r);
            std::copy(s.begin(), s.end(), out.row(f, r).begin());
        }
    return out;
}

Result<MemoryAcquisitionReader> MemoryAcquisitionReader::create(ProjectionData data,
                                                                std::string format,
                                                                std::string file,
                                                                SampleType storedType) {
    TOMO_RETURN_IF_ERROR(data.validate().withContext(file));
    AcquisitionInfo info;
    info.format = std::move(format);
    info.file = std::move(file);
    info.angleCount = data.projections.dim(0);
    info.rows = data.projections.dim(1);
    info.columns = data.projections.dim(2);
    info.flatCount = data.flats.dim(0);
    info.darkCount = data.darks.dim(0);
    info.projectionType = storedType;
    info.angles = data.angles;
    info.storedAngleUnit = AngleUnit::Radians;
    info.metadata = data.metadata;
    info.datasets.push_back(
        {"projections", {info.angleCount, info.rows, info.columns}, storedType, "projections"});
    return MemoryAcquisitionReader(std::move(data), std::move(info));
}

Result<Array3<float>> MemoryAcquisitionReader::readProjections(IndexRange angles,
                                                               IndexRange rows) const {
    TOMO_ASSIGN_OR_RETURN(IndexRange a, angles.resolve(m_info.angleCount, "angles"));
    TOMO_ASSIGN_OR_RETURN(IndexRange r, rows.resolve(m_info.rows, "rows"));
    return copyBlock(m_data.projections, a, r);
}

Result<Array3<float>> MemoryAcquisitionReader::readFlats(IndexRange rows) const {
    TOMO_ASSIGN_OR_RETURN(IndexRange r, rows.resolve(m_info.rows, "rows"));
    if (m_data.flats.dim(0) == 0) return Array3<float>();
    return copyBlock(m_data.flats, {0, m_data.flats.dim(0)}, r);
}

Result<Array3<float>> MemoryAcquisitionReader::readDarks(IndexRange rows) const {
    TOMO_ASSIGN_OR_RETURN(IndexRange r, rows.resolve(m_info.rows, "rows"));
    if (m_data.darks.dim(0) == 0) return Array3<float>();
    return copyBlock(m_data.darks, {0, m_data.darks.dim(0)}, r);
}

}  // namespace tomo
