#include "ui/charts/SnapshotStore.h"

#include <iterator>

namespace tomo::ui {

void SnapshotStore::setBudget(std::size_t bytes) {
    m_budget = bytes;
    thin();
}

void SnapshotStore::clear() {
    m_snapshots.clear();
    m_bytes = 0;
}

void SnapshotStore::add(int iteration, std::shared_ptr<const app::SliceImage> slice) {
    if (!slice) return;
    auto it = m_snapshots.find(iteration);
    if (it != m_snapshots.end()) {
        m_bytes -= it->second->bytes();
        m_snapshots.erase(it);
    }
    m_bytes += slice->bytes();
    m_snapshots.emplace(iteration, std::move(slice));
    thin();
}

void SnapshotStore::thin() {
    while (m_bytes > m_budget && m_snapshots.size() > 2) {
        // Drop the 2nd, 4th, ... stored snapshot; the first and the newest always stay.
        auto it = std::next(m_snapshots.begin());
        const auto last = std::prev(m_snapshots.end());
        while (it != last && m_bytes > 0) {
            m_bytes -= it->second->bytes();
            it = m_snapshots.erase(it);
            if (it != last) ++it;
        }
        if (m_snapshots.size() <= 2) break;
    }
    // A budget below two slices keeps only the newest.
    while (m_bytes > m_budget && m_snapshots.size() > 1) {
        m_bytes -= m_snapshots.begin()->second->bytes();
        m_snapshots.erase(m_snapshots.begin());
    }
}

std::shared_ptr<const app::SliceImage> SnapshotStore::nearest(int iteration, int* found) const {
    if (m_snapshots.empty()) return nullptr;
    auto after = m_snapshots.lower_bound(iteration);
    auto pick = after;
    if (after == m_snapshots.end()) {
        pick = std::prev(after);
    } else if (after->first != iteration && after != m_snapshots.begin()) {
        auto before = std::prev(after);
        if (iteration - before->first <= after->first - iteration) pick = before;
    }
    if (found) *found = pick->first;
    return pick->second;
}

}  // namespace tomo::ui
