// Planes of a stored volume on demand, the most recent ones cached (PlaneCache.h).
#include "app/jobs/PlaneCache.h"

#include <algorithm>

#include "app/data/DataFormats.h"

namespace tomo::app {

Result<PlaneCache> PlaneCache::open(const std::filesystem::path& path, const ReadOptions& options,
                                    std::size_t budgetBytes) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, makeFormatRegistry());
    TOMO_ASSIGN_OR_RETURN(auto reader, formats.openVolumeReader(path, options));
    return PlaneCache(std::move(reader), budgetBytes);
}

PlaneCache::PlaneCache(std::unique_ptr<VolumeReader> reader, std::size_t budgetBytes)
    : m_reader(std::move(reader)) {
    const auto [planes, rows, cols] = m_reader->shape();
    const std::size_t planeBytes = std::max<std::size_t>(1, rows * cols * sizeof(float));
    m_capacity =
        std::clamp<std::size_t>(budgetBytes / planeBytes, 1, std::max<std::size_t>(planes, 1));
}

Result<std::shared_ptr<const SliceImage>> PlaneCache::plane(std::size_t z) {
    const auto it = std::find_if(m_lru.begin(), m_lru.end(),
                                 [z](const auto& entry) { return entry.first == z; });
    if (it != m_lru.end()) {
        m_lru.splice(m_lru.begin(), m_lru, it);  // most recent first
        return m_lru.front().second;
    }
    TOMO_ASSIGN_OR_RETURN(Array3<float> one, m_reader->readPlanes(z, 1));
    ++m_reads;
    auto image = std::make_shared<const SliceImage>(SliceImage::copyOf(one.plane(0)));
    m_lru.emplace_front(z, image);
    if (m_lru.size() > m_capacity) m_lru.pop_back();
    return image;
}

}  // namespace tomo::app
