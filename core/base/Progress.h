#pragma once
/// @file Progress.h
/// @brief Thread-safe, monotonic, nested progress reporting.
///
/// A job gets a root `Progress` wrapping the user's `ProgressSink`. Each stage carves a child
/// scope out of its parent's range (`child(0.0, 0.2, "filtering")`), declares how many units of
/// work it has (`setTotal`) and calls `advance()` from any thread as units complete. The sink sees
/// one fraction in [0, 1] for the whole job that never decreases, whatever the nesting.
///
/// Threading: `advance()` and `done()` may be called concurrently from many threads; creating
/// children and `setTotal()` happen on the thread that owns the scope, before workers start.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>

#include "core/base/Status.h"

namespace tomo {

/// Receives progress updates; must be thread-safe (called from worker threads).
class ProgressSink {
  public:
    virtual ~ProgressSink() = default;
    /// @param fraction overall progress of the job in [0, 1], non-decreasing between calls
    /// @param stage label of the innermost scope that advanced ("filtering", "back-projection")
    virtual void onProgress(double fraction, std::string_view stage) = 0;
};

/// A scope of a job's progress tree, mapping its own units onto a sub-range of the job.
class Progress {
  public:
    /// A root scope covering the whole job. A null sink makes every call a cheap no-op.
    explicit Progress(ProgressSink* sink = nullptr);
    Progress(Progress&&) noexcept;
    Progress& operator=(Progress&&) noexcept;
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    ~Progress();

    /// A child scope covering [from, to] of this scope's range (fractions of this scope).
    Progress child(double from, double to, std::string stage) const;

    /// Declares the number of work units in this scope (default 1).
    void setTotal(std::uint64_t units);
    /// Marks @p units more units as done (thread-safe).
    void advance(std::uint64_t units = 1);
    /// Marks the whole scope done.
    void done();

    /// Fraction of this scope done, in [0, 1].
    double fraction() const;

  private:
    struct Root;
    Progress(std::shared_ptr<Root> root, double lo, double hi, std::string stage);
    void report() const;

    std::shared_ptr<Root> m_root;
    double m_lo = 0.0;
    double m_hi = 1.0;
    std::string m_stage;
    std::uint64_t m_total = 1;
    std::unique_ptr<std::atomic<std::uint64_t>> m_done;
};

/// Returns Cancelled when @p token has been asked to stop, OK otherwise.
inline Status checkStop(const std::stop_token& token) {
    return token.stop_requested() ? cancelled() : Status::ok();
}

/// A ProgressSink calling a function; throttles to at most one call per @p interval except for
/// the final 1.0. The function is called under a lock, from whichever thread advanced.
template <class F>
class CallbackProgressSink final : public ProgressSink {
  public:
    explicit CallbackProgressSink(
        F fn, std::chrono::milliseconds interval = std::chrono::milliseconds(50))
        : m_fn(std::move(fn)), m_interval(interval) {}
    void onProgress(double fraction, std::string_view stage) override {
        std::lock_guard lock(m_mutex);
        auto now = std::chrono::steady_clock::now();
        if (fraction < 1.0 && now - m_last < m_interval) return;
        m_last = now;
        m_fn(fraction, stage);
    }

  private:
    F m_fn;
    std::chrono::milliseconds m_interval;
    std::mutex m_mutex;
    std::chrono::steady_clock::time_point m_last{};
};

}  // namespace tomo
