#pragma once
/// @file GpuIcdLayoutCache.h
/// @brief GPU-ICD's layouts kept for reuse (issue 27 item 4): the layout of a system matrix
/// (GpuIcd.h: its tables; the device builds the tiles) depends only on the slice geometry and
/// the SV options, so it is built once per key and shared, immutable, by the solves of every
/// slice of a stack and by later runs in the process, and stored on disk (GpuIcdLayoutFile.h)
/// so that a fresh process reads it instead. Owned by MbirMatrixCache (one
/// per process or GUI session, the app's Engine): its files sit beside the matrices, in one
/// disk budget (the oldest of either kind removed first). The @p keep most recent layouts stay
/// in memory; thread-safe (a build holds the lock, so two threads asking for one layout build
/// it once).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/mbir/GpuIcd.h"

namespace tomo {

/// Where a matrix or a layout came from (for the run's notes).
enum class MbirMatrixSource { Memory, Disk, Built };
const char* mbirMatrixSourceName(MbirMatrixSource source);  ///< "memory", "disk", "built"

/// The extensions of the MBIR cache directory's entries (matrices, layouts), which share its
/// disk budget (pruneCacheFiles).
const std::vector<std::string>& mbirCacheExtensions();

class GpuIcdLayoutCache {
  public:
    /// @p directory: where layouts are stored (empty: memory only), under @p diskBytes for every
    /// entry of the directory (mbirCacheExtensions).
    explicit GpuIcdLayoutCache(std::size_t keep = 2, std::filesystem::path directory = {},
                               std::uintmax_t diskBytes = std::uintmax_t(8) << 30)
        : m_keep(keep), m_directory(std::move(directory)), m_diskBytes(diskBytes) {}

    /// The key of @p g's layout for @p options ("<geometry key>-sv<side>-seed<seed>").
    static std::string key(const MbirSliceGeometry& g, const GpuIcdOptions& options);

    /// The layout of matrix @p a of @p g for @p options: from memory, else from disk, else built
    /// by GpuIcdLayout::build within @p budget (its errors as they are), stored on disk and
    /// kept. @p source: where it came from. @p note: why a file on disk was not used (rebuilt)
    /// or why the built layout was not stored, when either happened (not an error).
    Result<std::shared_ptr<const GpuIcdLayout>> get(const MbirSliceGeometry& g, const MbirMatrix& a,
                                                    const GpuIcdOptions& options,
                                                    std::size_t budget, const ExecContext& ctx,
                                                    MbirMatrixSource* source = nullptr,
                                                    std::string* note = nullptr);

    /// The layout of @p g for @p options when memory or disk holds it (then kept as get keeps
    /// it), else nullptr; nothing is built. @p source and @p note as get's. GPU-ICD reads a
    /// layout this way beside the solve's other setup (Mbir.cpp, issue 27 item 4).
    std::shared_ptr<const GpuIcdLayout> find(const MbirSliceGeometry& g,
                                             const GpuIcdOptions& options, std::size_t budget,
                                             MbirMatrixSource* source = nullptr,
                                             std::string* note = nullptr);

    /// Layouts built so far (tests of reuse).
    std::size_t builds() const;

  private:
    std::shared_ptr<const GpuIcdLayout> fromDisk(const std::string& id, const MbirSliceGeometry& g,
                                                 const GpuIcdOptions& options, std::string& note);
    void toDisk(const std::string& id, const GpuIcdLayout& layout, std::string& note) const;
    /// find's work under the lock.
    std::shared_ptr<const GpuIcdLayout> findLocked(const std::string& id,
                                                   const MbirSliceGeometry& g,
                                                   const GpuIcdOptions& options, std::size_t budget,
                                                   MbirMatrixSource* source, std::string& note);
    void keep(const std::string& id, std::shared_ptr<const GpuIcdLayout> layout);

    std::size_t m_keep;
    std::filesystem::path m_directory;
    std::uintmax_t m_diskBytes;
    mutable std::mutex m_mutex;
    std::size_t m_builds = 0;
    std::list<std::pair<std::string, std::shared_ptr<const GpuIcdLayout>>>
        m_recent;  // newest first
};

}  // namespace tomo
