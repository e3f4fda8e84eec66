#pragma once
/// @file SnapshotStore.h
/// @brief Iterates kept for the convergence dock (clicking a point shows that iterate), within
/// a memory budget.
///
/// Each iteration's preview slice is offered with add(). While the stored bytes exceed the
/// budget, every second stored snapshot is dropped, oldest first, except the first and the
/// newest: the kept iterations thin out evenly (1, 3, 5, ... then 1, 5, 9, ...) instead of
/// keeping only the latest ones, so the whole convergence history stays browsable at a coarser
/// step. nearest() answers a click on an iteration that was dropped with the closest kept one.
///
/// Threading: GUI thread (plain value; the slices are immutable shared data).

#include <cstddef>
#include <map>
#include <memory>

#include "app/jobs/SliceImage.h"

namespace tomo::ui {

class SnapshotStore {
  public:
    explicit SnapshotStore(std::size_t budgetBytes = std::size_t(64) << 20)
        : m_budget(budgetBytes) {}

    void setBudget(std::size_t bytes);
    std::size_t budget() const { return m_budget; }
    std::size_t bytes() const { return m_bytes; }
    std::size_t size() const { return m_snapshots.size(); }

    void clear();
    /// Stores @p slice as iteration @p iteration (replacing one stored for it), then thins.
    void add(int iteration, std::shared_ptr<const app::SliceImage> slice);
    /// The snapshot of @p iteration, or of the closest stored iteration (ties: the earlier);
    /// null when empty. @p found receives the iteration returned.
    std::shared_ptr<const app::SliceImage> nearest(int iteration, int* found = nullptr) const;
    bool contains(int iteration) const { return m_snapshots.count(iteration) != 0; }

  private:
    void thin();

    std::size_t m_budget;
    std::size_t m_bytes = 0;
    std::map<int, std::shared_ptr<const app::SliceImage>> m_snapshots;
};

}  // namespace tomo::ui
