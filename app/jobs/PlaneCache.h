#pragma once
/// @file PlaneCache.h
/// @brief A stored volume opened for viewing without reading it whole: planes are read on
/// demand through the format's VolumeReader (core/dataset/VolumeStream.h) and the most
/// recently used ones kept within a byte budget. This is how the GUI shows reconstructions
/// larger than memory (File > Open reconstruction), slice by slice.
///
/// Threading: one thread at a time (the GUI thread).

#include <array>
#include <cstddef>
#include <filesystem>
#include <list>
#include <memory>
#include <utility>

#include "app/jobs/SliceImage.h"
#include "core/base/Status.h"
#include "core/dataset/FormatRegistry.h"
#include "core/dataset/VolumeStream.h"

namespace tomo::app {

class PlaneCache {
  public:
    /// Opens @p path with its format's plane reader (raw files need @p options.shape).
    /// Unsupported for formats that cannot be read by planes, naming the format.
    static Result<PlaneCache> open(const std::filesystem::path& path, const ReadOptions& options,
                                   std::size_t budgetBytes = std::size_t(256) << 20);
    PlaneCache(std::unique_ptr<VolumeReader> reader, std::size_t budgetBytes);

    /// {planes, rows, columns}.
    std::array<std::size_t, 3> shape() const { return m_reader->shape(); }
    /// Plane @p z, from the cache or read now. InvalidArgument outside the volume.
    Result<std::shared_ptr<const SliceImage>> plane(std::size_t z);
    /// Planes read from the file so far (cache misses).
    std::size_t planesRead() const { return m_reads; }
    /// Planes held now, and at most.
    std::size_t planesHeld() const { return m_lru.size(); }
    std::size_t capacity() const { return m_capacity; }

  private:
    std::unique_ptr<VolumeReader> m_reader;
    std::size_t m_capacity = 1;  ///< planes within the budget (at least one)
    std::list<std::pair<std::size_t, std::shared_ptr<const SliceImage>>> m_lru;  ///< newest first
    std::size_t m_reads = 0;
};

}  // namespace tomo::app
