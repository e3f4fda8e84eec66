#pragma once
/// @file MbirMatrixCache.h
/// @brief System matrices kept for reuse: in memory (the last few geometries, shared and
/// immutable) and on disk (one file per geometry key and entry type), with the size checked
/// against a budget before a matrix is built. One cache per process or GUI session (owned by
/// the app's Engine); thread-safe.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/mbir/GpuIcdLayoutCache.h"
#include "core/mbir/MbirMatrix.h"

namespace tomo {

class MbirMatrixCache {
  public:
    /// @p directory: where matrices are stored on disk (empty: memory only); @p keep: matrices
    /// kept in memory; @p diskBytes: the most the directory's matrices may take (the oldest
    /// files, matrices and GPU-ICD layouts alike, are removed first).
    explicit MbirMatrixCache(std::filesystem::path directory = {}, std::size_t keep = 2,
                             std::uintmax_t diskBytes = std::uintmax_t(8) << 30)
        : m_directory(std::move(directory)),
          m_keep(keep),
          m_diskBytes(diskBytes),
          m_layouts(2, m_directory, diskBytes) {}

    /// The matrix of @p g: from memory, else from disk, else built when its estimated size is
    /// within @p budgetBytes (OutOfMemory naming both sizes otherwise) and then stored on disk
    /// (a failing disk write is reported in @p note, not as an error).
    Result<std::shared_ptr<const MbirMatrix>> get(const MbirSliceGeometry& g, MbirEntryType type,
                                                  std::size_t budgetBytes, const ExecContext& ctx,
                                                  MbirMatrixSource* source = nullptr,
                                                  std::string* note = nullptr);

    const std::filesystem::path& directory() const { return m_directory; }
    /// GPU-ICD's tile layouts of these geometries (in memory and in the same directory).
    GpuIcdLayoutCache& layouts() { return m_layouts; }

  private:
    std::filesystem::path m_directory;
    std::size_t m_keep;
    std::uintmax_t m_diskBytes;
    std::mutex m_mutex;
    std::list<std::pair<std::string, std::shared_ptr<const MbirMatrix>>> m_recent;  // newest first
    GpuIcdLayoutCache m_layouts;
};

/// `$XDG_CACHE_HOME/tomostation/mbir`, else `~/.cache/tomostation/mbir`; empty when neither
/// variable is set.
std::filesystem::path defaultMbirCacheDirectory();

}  // namespace tomo
