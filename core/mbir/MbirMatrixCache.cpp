#include "core/mbir/MbirMatrixCache.h"

#include "core/base/CacheDirectory.h"
#include "core/base/CacheFiles.h"

namespace tomo {

std::filesystem::path defaultMbirCacheDirectory() {
    const std::filesystem::path root = cacheDirectory();
    return root.empty() ? root : root / "mbir";
}

Result<std::shared_ptr<const MbirMatrix>> MbirMatrixCache::get(
    const MbirSliceGeometry& g, MbirEntryType type, std::size_t budgetBytes, const ExecContext& ctx,
    MbirMatrixSource* source, std::string* note) {
    const std::string key = g.key();
    const std::string id = key + (type == MbirEntryType::Uint8 ? "-u8" : "-f32");
    std::lock_guard lock(m_mutex);
    for (auto it = m_recent.begin(); it != m_recent.end(); ++it) {
        if (it->first != id) continue;
        m_recent.splice(m_recent.begin(), m_recent, it);
        if (source) *source = MbirMatrixSource::Memory;
        return m_recent.front().second;
    }
    const std::filesystem::path file =
        m_directory.empty() ? std::filesystem::path{} : m_directory / (id + ".amat");
    std::shared_ptr<const MbirMatrix> matrix;
    if (!file.empty()) {
        auto loaded = MbirMatrix::load(file.string(), key, type, ctx.threads);
        if (loaded) {
            matrix = std::make_shared<const MbirMatrix>(std::move(loaded).value());
            if (source) *source = MbirMatrixSource::Disk;
        } else if (loaded.status().code() != ErrorCode::NotFound && note) {
            *note = "cached MBIR matrix ignored (" + loaded.status().message() + "); rebuilt";
        }
    }
    if (!matrix) {
        const std::size_t need = MbirMatrix::estimateBytes(g, type);
        if (need > budgetBytes)
            return outOfMemory("MBIR system matrix of " + key + " needs " +
                               std::to_string((need + (1u << 20) - 1) >> 20) +
                               " MiB, more than the memory budget of " +
                               std::to_string(budgetBytes >> 20) +
                               " MiB (raise --memory-budget, or use a coarser grid)");
        TOMO_ASSIGN_OR_RETURN(MbirMatrix built, MbirMatrix::build(g, type, ctx));
        matrix = std::make_shared<const MbirMatrix>(std::move(built));
        if (source) *source = MbirMatrixSource::Built;
        if (!file.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(m_directory, ec);
            Status saved =
                ec ? ioError("cannot create " + m_directory.string() + ": " + ec.message())
                   : matrix->save(file.string(), key);
            if (!saved && note) *note = "MBIR matrix not cached on disk: " + saved.message();
            if (saved) pruneCacheFiles(m_directory, mbirCacheExtensions(), m_diskBytes, file);
        }
    }
    m_recent.emplace_front(id, matrix);
    while (m_recent.size() > m_keep)
        m_recent.pop_back();
    return matrix;
}

}  // namespace tomo
