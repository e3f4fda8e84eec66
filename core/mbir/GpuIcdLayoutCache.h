#pragma once
/// @file GpuIcdLayoutCache.h
/// @brief GPU-ICD's tile layouts kept for reuse (issue 27 item 4): the layout of a system matrix
/// (GpuIcd.h) depends only on the slice geometry and the SV side, so it is built once per
/// (geometry key, side) and shared, immutable, by the solves of every slice of a stack and by
/// later runs in the process (the layout took 0.58 s of each slice's solve on an H200). Owned by
/// MbirMatrixCache (one per process or GUI session, the app's Engine), so it travels with the
/// matrices; the @p keep most recent layouts stay; thread-safe (a build holds the lock, so two
/// threads asking for one layout build it once).

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/mbir/GpuIcd.h"

namespace tomo {

class GpuIcdLayoutCache {
  public:
    explicit GpuIcdLayoutCache(std::size_t keep = 2) : m_keep(keep) {}

    /// The key of @p g's layout for SVs of options.side ("<geometry key>-sv<side>").
    static std::string key(const MbirSliceGeometry& g, const GpuIcdOptions& options);

    /// The layout of matrix @p a of @p g for @p options: from memory, else built by
    /// GpuIcdLayout::build within @p budget (its errors as they are) and kept. @p built: set
    /// to whether it was built by this call.
    Result<std::shared_ptr<const GpuIcdLayout>> get(const MbirSliceGeometry& g, const MbirMatrix& a,
                                                    const GpuIcdOptions& options,
                                                    std::size_t budget, const ExecContext& ctx,
                                                    bool* built = nullptr);

    /// Layouts built so far (tests of reuse).
    std::size_t builds() const;

  private:
    std::size_t m_keep;
    mutable std::mutex m_mutex;
    std::size_t m_builds = 0;
    std::list<std::pair<std::string, std::shared_ptr<const GpuIcdLayout>>>
        m_recent;  // newest first
};

}  // namespace tomo
