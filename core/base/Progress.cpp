#include "core/base/Progress.h"

#include <algorithm>

namespace tomo {

struct Progress::Root {
    ProgressSink* sink = nullptr;
    std::mutex mutex;
    double last = -1.0;
};

Progress::Progress(ProgressSink* sink)
    : Progress(sink ? std::make_shared<Root>() : nullptr, 0.0, 1.0, "") {
    if (m_root) m_root->sink = sink;
}

Progress::Progress(std::shared_ptr<Root> root, double lo, double hi, std::string stage)
    : m_root(std::move(root)),
      m_lo(lo),
      m_hi(hi),
      m_stage(std::move(stage)),
      m_done(std::make_unique<std::atomic<std::uint64_t>>(0)) {}

Progress::Progress(Progress&&) noexcept = default;
Progress& Progress::operator=(Progress&&) noexcept = default;
Progress::~Progress() = default;

Progress Progress::child(double from, double to, std::string stage) const {
    from = std::clamp(from, 0.0, 1.0);
    to = std::clamp(to, from, 1.0);
    double span = m_hi - m_lo;
    return Progress(m_root, m_lo + span * from, m_lo + span * to,
                    stage.empty() ? m_stage : std::move(stage));
}

void Progress::setTotal(std::uint64_t units) {
    m_total = std::max<std::uint64_t>(units, 1);
}

double Progress::fraction() const {
    if (!m_done) return 1.0;
    double f =
        static_cast<double>(m_done->load(std::memory_order_relaxed)) / static_cast<double>(m_total);
    return std::min(f, 1.0);
}

void Progress::advance(std::uint64_t units) {
    if (!m_done) return;
    m_done->fetch_add(units, std::memory_order_relaxed);
    report();
}

void Progress::done() {
    if (!m_done) return;
    m_done->store(m_total, std::memory_order_relaxed);
    report();
}

void Progress::report() const {
    if (!m_root) return;
    double overall = m_lo + (m_hi - m_lo) * fraction();
    std::lock_guard lock(m_root->mutex);
    if (overall <= m_root->last) return;  // monotonic: never report going backwards
    m_root->last = overall;
    m_root->sink->onProgress(overall, m_stage);
}

}  // namespace tomo
