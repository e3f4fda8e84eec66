#include "core/base/Parallel.h"

namespace tomo {
namespace {
std::atomic<std::size_t> g_threadsStarted{0};
}

std::size_t parallelThreadsStarted() {
    return g_threadsStarted.load(std::memory_order_relaxed);
}

void countParallelThreads(std::size_t started) {
    g_threadsStarted.fetch_add(started, std::memory_order_relaxed);
}

int hardwareThreads() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

}  // namespace tomo
