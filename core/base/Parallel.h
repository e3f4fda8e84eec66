#pragma once
/// @file Parallel.h
/// @brief A minimal fork-join loop over independent work items.
///
/// `parallelFor(count, threads, token, fn)` calls `fn(index, worker)` for every index in
/// [0, count), with dynamic scheduling over `threads` workers (0 = all hardware threads). The
/// work items must be independent: results never depend on which worker ran an item or in which
/// order, so multithreaded runs are bit-identical to single-threaded ones. Workers stop taking
/// new items once the stop token is triggered; the function then returns Cancelled.

#include <atomic>
#include <cstddef>
#include <stop_token>
#include <thread>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

/// Number of hardware threads (at least 1).
int hardwareThreads();

/// Threads parallelFor has started in this process so far, beside its callers' own (tests: a
/// count of 1 runs on the calling thread only, whatever the machine; issue 27, `--threads`).
std::size_t parallelThreadsStarted();
void countParallelThreads(std::size_t started);

/// Resolves a user thread count: 0 or negative means all hardware threads.
inline int resolveThreads(int threads) {
    return threads > 0 ? threads : hardwareThreads();
}

template <class F>
Status parallelFor(std::size_t count, int threads, const std::stop_token& token, F&& fn) {
    int workers = resolveThreads(threads);
    if (static_cast<std::size_t>(workers) > count) workers = static_cast<int>(count);
    std::atomic<std::size_t> next{0};
    auto body = [&](int worker) {
        for (;;) {
            if (token.stop_requested()) return;
            std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= count) return;
            fn(i, worker);
        }
    };
    if (workers <= 1) {
        body(0);
    } else {
        std::vector<std::jthread> pool;
        pool.reserve(static_cast<std::size_t>(workers - 1));
        countParallelThreads(static_cast<std::size_t>(workers - 1));
        for (int w = 1; w < workers; ++w)
            pool.emplace_back(body, w);
        body(0);
    }  // jthreads join here
    return token.stop_requested() ? cancelled() : Status::ok();
}

}  // namespace tomo
