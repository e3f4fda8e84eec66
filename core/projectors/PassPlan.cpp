// How a GPU back-projection is cut into passes, bands and angle chunks (PassPlan.h).
#include "core/projectors/PassPlan.h"

#include <algorithm>

namespace tomo {
namespace {

constexpr int kBandAlign = 16;

std::string mib(std::size_t bytes) {
    return std::to_string((bytes + (std::size_t(1) << 20) - 1) >> 20) + " MiB";
}

/// Half of @p rows (rounded up), then up to whole 16-row blocks.
int halveRows(int rows) {
    return std::max(kBandAlign, ((rows + 1) / 2 + kBandAlign - 1) / kBandAlign * kBandAlign);
}

}  // namespace

bool PassPlan::smallest() const {
    return angleChunk <= 1 && bandRows <= kBandAlign;
}

Result<PassPlan> planPasses(const PassLimits& l, const std::string& what) {
    PassPlan p;
    p.slicesPerPass = std::max(1, l.slicesPerPass);
    p.passes = (l.slices + p.slicesPerPass - 1) / p.slicesPerPass;
    p.angleChunk = l.angles;
    if (l.maxAngleChunk > 0) p.angleChunk = std::min(p.angleChunk, l.maxAngleChunk);
    p.angleChunk = std::max(p.angleChunk, 1);
    p.bandRows = l.maxBandRows > 0 ? std::min(l.ny, l.maxBandRows) : l.ny;
    auto outBytes = [&](int rows) {
        return std::size_t(l.nx) * std::size_t(rows) * std::size_t(p.slicesPerPass) * sizeof(float);
    };
    auto sinoBytes = [&](int chunk) { return l.sinogramBytes(chunk); };
    auto total = [&] {
        return std::size_t(l.sinogramCopies) * sinoBytes(p.angleChunk) +
               std::size_t(l.outputCopies) * outBytes(p.bandRows) + l.fixedBytes;
    };
    for (int i = 0; i < l.shrink; ++i) {  // after refused allocations
        if (p.angleChunk > 1)
            p.angleChunk = (p.angleChunk + 1) / 2;
        else if (p.bandRows > kBandAlign)
            p.bandRows = halveRows(p.bandRows);
    }
    const std::size_t maxAlloc = l.maxAllocation > 0 ? l.maxAllocation : SIZE_MAX;
    while (p.angleChunk > 1 && sinoBytes(p.angleChunk) > maxAlloc)
        p.angleChunk = (p.angleChunk + 1) / 2;
    while (p.bandRows > kBandAlign && outBytes(p.bandRows) > maxAlloc)
        p.bandRows = halveRows(p.bandRows);
    const std::size_t budget = l.budget > 0 ? l.budget : SIZE_MAX;
    while (total() > budget && p.angleChunk > 1)
        p.angleChunk = (p.angleChunk + 1) / 2;
    while (total() > budget && p.bandRows > kBandAlign)
        p.bandRows = halveRows(p.bandRows);
    p.bandRows = std::min(p.bandRows, l.ny);
    p.sinogramBytes = sinoBytes(p.angleChunk);
    p.outputBytes = outBytes(p.bandRows);
    p.totalBytes = total();
    if (p.sinogramBytes > maxAlloc || p.outputBytes > maxAlloc || p.totalBytes > budget)
        return outOfMemory(what + ": cannot fit the job: sinogram chunk " + mib(p.sinogramBytes) +
                           ", output band " + mib(p.outputBytes) + ", total " + mib(p.totalBytes) +
                           " against a largest allocation of " +
                           (l.maxAllocation > 0 ? mib(l.maxAllocation) : std::string("(none)")) +
                           " and a budget of " +
                           (l.budget > 0 ? mib(l.budget) : std::string("(none)")));
    p.bands = (l.ny + p.bandRows - 1) / p.bandRows;
    p.angleChunks = (l.angles + p.angleChunk - 1) / p.angleChunk;
    const double perProjection = double(l.nx) * p.bandRows * double(p.slicesPerPass);
    p.projPerLaunch = static_cast<int>(
        std::clamp(l.updatesPerLaunch / perProjection, 1.0, static_cast<double>(p.angleChunk)));
    if (l.projectionAlign > 1 && p.projPerLaunch >= 8)
        p.projPerLaunch -= p.projPerLaunch % l.projectionAlign;
    return p;
}

}  // namespace tomo
