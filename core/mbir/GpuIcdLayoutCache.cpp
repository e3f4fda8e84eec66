#include "core/mbir/GpuIcdLayoutCache.h"

#include "core/base/CacheFiles.h"
#include "core/mbir/GpuIcdLayoutFile.h"

namespace tomo {

const char* mbirMatrixSourceName(MbirMatrixSource source) {
    switch (source) {
        case MbirMatrixSource::Memory:
            return "memory";
        case MbirMatrixSource::Disk:
            return "disk";
        case MbirMatrixSource::Built:
            return "built";
    }
    return "unknown";
}

const std::vector<std::string>& mbirCacheExtensions() {
    static const std::vector<std::string> extensions{".amat", kGpuIcdLayoutExtension};
    return extensions;
}

std::string GpuIcdLayoutCache::key(const MbirSliceGeometry& g, const GpuIcdOptions& options) {
    return g.key() + "-sv" + std::to_string(options.side) + "-seed" + std::to_string(options.seed);
}

std::shared_ptr<const GpuIcdLayout> GpuIcdLayoutCache::fromDisk(const std::string& id,
                                                                const MbirSliceGeometry& g,
                                                                const GpuIcdOptions& options,
                                                                std::string& note) {
    if (m_directory.empty()) return nullptr;
    auto loaded = loadGpuIcdLayout(m_directory / (id + kGpuIcdLayoutExtension), id, g, options);
    if (loaded) return std::make_shared<const GpuIcdLayout>(std::move(loaded).value());
    if (loaded.status().code() != ErrorCode::NotFound)
        note = "cached GPU-ICD layout ignored (" + loaded.status().message() + "); rebuilt";
    return nullptr;
}

void GpuIcdLayoutCache::toDisk(const std::string& id, const GpuIcdLayout& layout,
                               std::string& note) const {
    if (m_directory.empty()) return;
    const std::filesystem::path file = m_directory / (id + kGpuIcdLayoutExtension);
    std::error_code ec;
    std::filesystem::create_directories(m_directory, ec);
    const Status saved = ec ? ioError("cannot create " + m_directory.string() + ": " + ec.message())
                            : saveGpuIcdLayout(layout, file, id);
    if (!saved) {
        note += (note.empty() ? "" : "; ") + std::string("GPU-ICD layout not cached on disk: ") +
                saved.message();
        return;
    }
    pruneCacheFiles(m_directory, mbirCacheExtensions(), m_diskBytes, file);
}

std::shared_ptr<const GpuIcdLayout> GpuIcdLayoutCache::findLocked(
    const std::string& id, const MbirSliceGeometry& g, const GpuIcdOptions& options,
    std::size_t budget, MbirMatrixSource* source, std::string& note) {
    for (auto it = m_recent.begin(); it != m_recent.end(); ++it) {
        if (it->first != id) continue;
        m_recent.splice(m_recent.begin(), m_recent, it);  // most recent first
        if (source) *source = MbirMatrixSource::Memory;
        return m_recent.front().second;
    }
    std::shared_ptr<const GpuIcdLayout> layout = fromDisk(id, g, options, note);
    if (layout && layout->tileBytes() > budget) layout.reset();  // the build says why
    if (!layout) return nullptr;
    if (source) *source = MbirMatrixSource::Disk;
    keep(id, layout);
    return layout;
}

void GpuIcdLayoutCache::keep(const std::string& id, std::shared_ptr<const GpuIcdLayout> layout) {
    m_recent.emplace_front(id, std::move(layout));
    while (m_recent.size() > m_keep)
        m_recent.pop_back();
}

std::shared_ptr<const GpuIcdLayout> GpuIcdLayoutCache::find(const MbirSliceGeometry& g,
                                                            const GpuIcdOptions& options,
                                                            std::size_t budget,
                                                            MbirMatrixSource* source,
                                                            std::string* note) {
    const std::string id = key(g, options);
    std::lock_guard lock(m_mutex);
    std::string why;
    auto layout = findLocked(id, g, options, budget, source, why);
    if (note) *note = why;
    return layout;
}

Result<std::shared_ptr<const GpuIcdLayout>> GpuIcdLayoutCache::get(
    const MbirSliceGeometry& g, const MbirMatrix& a, const GpuIcdOptions& options,
    std::size_t budget, const ExecContext& ctx, MbirMatrixSource* source, std::string* note) {
    const std::string id = key(g, options);
    std::lock_guard lock(m_mutex);
    std::string why;
    std::shared_ptr<const GpuIcdLayout> layout = findLocked(id, g, options, budget, source, why);
    if (!layout) {
        if (source) *source = MbirMatrixSource::Built;
        TOMO_ASSIGN_OR_RETURN(GpuIcdLayout built, GpuIcdLayout::build(g, a, options, budget, ctx));
        ++m_builds;
        layout = std::make_shared<const GpuIcdLayout>(std::move(built));
        toDisk(id, *layout, why);
        keep(id, layout);
    }
    if (note) *note = why;
    return layout;
}

std::size_t GpuIcdLayoutCache::builds() const {
    std::lock_guard lock(m_mutex);
    return m_builds;
}

}  // namespace tomo
