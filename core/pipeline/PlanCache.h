#pragma once
/// @file PlanCache.h
/// @brief A few device plans (cuFFT plans and their work areas) kept by shape and reused, at
/// most a fixed number at once (issue 27 item 4: no first-call penalty, without a cache that grows
/// with every chunk size a session has seen). A plan is shared: the caller holds its own
/// reference for as long as it enqueues work with it, so dropping the least recently used plan
/// from the cache never destroys a plan that is still in use; it goes when its last holder lets
/// go. Not thread-safe: the owner locks around get().

#include <cstddef>
#include <list>
#include <memory>
#include <type_traits>
#include <utility>

#include "core/base/Status.h"

namespace tomo {

template <class Key, class Plan>
class PlanCache {
  public:
    explicit PlanCache(std::size_t capacity) : m_capacity(capacity < 1 ? 1 : capacity) {}

    /// The plan for @p key, made by @p make (a callable returning Result<Plan>, or
    /// Result<std::shared_ptr<Plan>>) when the cache does not hold it; the least recently used
    /// plan beyond the capacity is dropped.
    template <class Make>
    Result<std::shared_ptr<Plan>> get(const Key& key, Make&& make) {
        for (auto it = m_plans.begin(); it != m_plans.end(); ++it) {
            if (it->first == key) {
                m_plans.splice(m_plans.begin(), m_plans, it);  // most recent first
                return m_plans.front().second;
            }
        }
        auto made = make();
        if (!made.isOk()) return made.status();
        std::shared_ptr<Plan> plan;
        if constexpr (std::is_same_v<std::decay_t<decltype(made.value())>, std::shared_ptr<Plan>>)
            plan = std::move(made).value();
        else
            plan = std::make_shared<Plan>(std::move(made).value());
        ++m_made;
        m_plans.emplace_front(key, std::move(plan));
        while (m_plans.size() > m_capacity)
            m_plans.pop_back();
        return m_plans.front().second;
    }
    std::size_t size() const { return m_plans.size(); }
    std::size_t capacity() const { return m_capacity; }
    /// Plans made so far (a second get() of a kept shape makes none).
    std::size_t made() const { return m_made; }

  private:
    std::size_t m_capacity;
    std::size_t m_made = 0;
    std::list<std::pair<Key, std::shared_ptr<Plan>>> m_plans;
};

}  // namespace tomo
