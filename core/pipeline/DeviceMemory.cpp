#include "core/pipeline/DeviceMemory.h"

#include <algorithm>
#include <cstdio>

namespace tomo {

std::size_t deviceMemoryBudget(const DeviceMemoryInfo& m) {
    constexpr std::size_t kMinMargin = std::size_t(256) << 20;
    const std::size_t margin = std::max(m.total / 10, kMinMargin);
    const std::size_t free = std::min(m.free, m.total);
    const std::size_t budget = free > margin ? free - margin : 0;
    return m.sharesHostMemory ? budget / 2 : budget;
}

std::string describeDeviceMemory(const DeviceMemoryInfo& m) {
    auto gib = [](std::size_t b) { return double(b) / double(std::size_t(1) << 30); };
    char text[160];
    std::snprintf(text, sizeof text, "%.1f GiB device, %.1f GiB free, budget %.1f GiB",
                  gib(m.total), gib(m.free), gib(deviceMemoryBudget(m)));
    std::string s = text;
    if (m.maxAllocation > 0) {
        std::snprintf(text, sizeof text, ", buffers up to %.1f GiB", gib(m.maxAllocation));
        s += text;
    }
    return s;
}

}  // namespace tomo
