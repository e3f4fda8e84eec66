#include "core/mbir/GpuIcdLayoutCache.h"

namespace tomo {

std::string GpuIcdLayoutCache::key(const MbirSliceGeometry& g, const GpuIcdOptions& options) {
    return g.key() + "-sv" + std::to_string(options.side);
}

Result<std::shared_ptr<const GpuIcdLayout>> GpuIcdLayoutCache::get(
    const MbirSliceGeometry& g, const MbirMatrix& a, const GpuIcdOptions& options,
    std::size_t budget, const ExecContext& ctx, bool* built) {
    const std::string id = key(g, options);
    if (built) *built = false;
    std::lock_guard lock(m_mutex);
    for (auto it = m_recent.begin(); it != m_recent.end(); ++it) {
        if (it->first != id) continue;
        m_recent.splice(m_recent.begin(), m_recent, it);  // most recent first
        return m_recent.front().second;
    }
    TOMO_ASSIGN_OR_RETURN(GpuIcdLayout layout, GpuIcdLayout::build(g, a, options, budget, ctx));
    ++m_builds;
    if (built) *built = true;
    m_recent.emplace_front(id, std::make_shared<const GpuIcdLayout>(std::move(layout)));
    while (m_recent.size() > m_keep)
        m_recent.pop_back();
    return m_recent.front().second;
}

std::size_t GpuIcdLayoutCache::builds() const {
    std::lock_guard lock(m_mutex);
    return m_builds;
}

}  // namespace tomo
