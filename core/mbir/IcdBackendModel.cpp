#include "core/mbir/IcdBackendModel.h"

#include <algorithm>
#include <cstdio>

namespace tomo {

std::string IcdBackendChoice::describe() const {
    char text[128];
    std::snprintf(text, sizeof text, "model: GPU-ICD %.2g s, PSV-ICD on %d threads %.2g s",
                  gpuSeconds, threads, cpuSeconds);
    return text;
}

IcdBackendChoice chooseIcdBackend(int nx, int ny, int views, std::size_t slices, int cpuThreads,
                                  const IcdBackendModel& m) {
    IcdBackendChoice c;
    c.threads = std::max(cpuThreads, 1);
    const double work = double(nx) * double(ny) * double(views);
    const double n = double(slices);
    c.cpuSeconds = n * work / (m.cpuRatePerThread * c.threads);
    c.gpuSeconds = m.gpuFixedSeconds + n * work / m.gpuRate;  // a stack is one solve
    c.gpu = c.gpuSeconds < c.cpuSeconds;
    return c;
}

}  // namespace tomo
