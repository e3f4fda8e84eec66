#pragma once
/// @file MemoryAcquisitionReader.h
/// @brief An AcquisitionReader over a ProjectionData held in memory: the reader of formats that
/// are loaded whole (TIFF stacks, raw files) and a test double for code taking a reader.

#include <string>

#include "core/dataset/ProjectionData.h"

namespace tomo {

/// @brief Serves blocks of an in-memory acquisition. Read-only after construction, so it may be
/// read from several threads at once.
class MemoryAcquisitionReader final : public AcquisitionReader {
  public:
    /// Takes @p data; @p format and @p file fill info(). InvalidData when data.validate() fails.
    static Result<MemoryAcquisitionReader> create(ProjectionData data, std::string format,
                                                  std::string file, SampleType storedType);

    const AcquisitionInfo& info() const override { return m_info; }
    Result<Array3<float>> readProjections(IndexRange angles, IndexRange rows) const override;
    Result<Array3<float>> readFlats(IndexRange rows) const override;
    Result<Array3<float>> readDarks(IndexRange rows) const override;

  private:
    MemoryAcquisitionReader(ProjectionData data, AcquisitionInfo info)
        : m_data(std::move(data)), m_info(std::move(info)) {}

    ProjectionData m_data;
    AcquisitionInfo m_info;
};

/// Copies frames [frames.first, end) x rows [rows.first, end) of @p src (all columns); both
/// ranges must be resolved against @p src. OutOfMemory when the block cannot be allocated.
Result<Array3<float>> copyBlock(const Array3<float>& src, IndexRange frames, IndexRange rows);

}  // namespace tomo
