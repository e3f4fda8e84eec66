// The launch sequence of a GPU back-projection stage, written once (PassDriver.h).
#include "core/projectors/PassDriver.h"

#include <algorithm>
#include <cstring>

#include "core/data/Half.h"

namespace tomo {

PassItem passItem(const PassPlan& p, const PassJob& job, int k) {
    PassItem it;
    it.index = k;
    it.chunk = k % p.angleChunks;
    const int band = (k / p.angleChunks) % p.bands, pass = k / (p.angleChunks * p.bands);
    it.s0 = pass * p.slicesPerPass;
    it.count = std::min(p.slicesPerPass, job.slices - it.s0);
    it.rowBegin = band * p.bandRows;
    it.rows = std::min(p.bandRows, job.rows - it.rowBegin);
    it.a0 = it.chunk * p.angleChunk;
    it.na = std::min(p.angleChunk, job.angles - it.a0);
    it.lastChunk = it.chunk + 1 == p.angleChunks;
    return it;
}

std::vector<PassStep> passSteps(const PassPlan& p, const PassJob& job, int nx) {
    std::vector<PassStep> steps;
    const int passes = (job.slices + p.slicesPerPass - 1) / p.slicesPerPass;
    const int items = std::min(passes, p.passes) * p.bands * p.angleChunks;
    int packedPass = -1, packedChunk = -1;
    for (int k = 0; k < items; ++k) {
        const PassItem it = passItem(p, job, k);
        const int pass = it.s0 / p.slicesPerPass;
        for (int begin = 0; begin < it.na; begin += p.projPerLaunch) {
            PassStep s;
            s.item = it;
            s.begin = begin;
            s.end = std::min(it.na, begin + p.projPerLaunch);
            s.pack = begin == 0 && (pass != packedPass || it.chunk != packedChunk);
            s.accumulate = it.chunk > 0 || begin > 0;
            s.bandDone = it.lastChunk && s.end == it.na;
            s.updates = double(s.end - s.begin) * it.rows * nx * p.slicesPerPass;
            steps.push_back(s);
        }
        packedPass = pass;
        packedChunk = it.chunk;
    }
    return steps;
}

Status runWithRetry(const std::function<Result<PassPlan>(int shrink)>& plan,
                    const std::function<Status(const PassPlan&)>& allocate,
                    const std::function<void()>& releaseKept) {
    Status status;
    bool released = false;
    for (int shrink = 0; shrink < 32; ++shrink) {
        TOMO_ASSIGN_OR_RETURN(PassPlan p, plan(shrink));
        status = allocate(p);
        if (status.code() != ErrorCode::OutOfMemory) return status;
        if (releaseKept) {
            releaseKept();
            if (!released) {  // the same plan once more, without other jobs' buffers
                released = true;
                --shrink;
                continue;
            }
        }
        if (p.smallest()) break;
    }
    return status;
}

void packPassSlices(const Sinograms& sino, int s0, int count, int a0, int na, int channels,
                    bool half, void* dst) {
    const std::size_t det = sino.dim(2);
    const std::size_t ch = static_cast<std::size_t>(channels);
    for (int a = 0; a < na; ++a) {
        const std::size_t rowBase = static_cast<std::size_t>(a) * det * ch;
        for (int c = 0; c < channels; ++c) {
            const float* src = c < count ? sino.row(static_cast<std::size_t>(s0 + c),
                                                    static_cast<std::size_t>(a0 + a))
                                               .data()
                                         : nullptr;
            if (half) {
                auto* out =
                    static_cast<std::uint16_t*>(dst) + rowBase + static_cast<std::size_t>(c);
                for (std::size_t d = 0; d < det; ++d)
                    out[d * ch] = src ? floatToHalf(src[d]) : std::uint16_t{0};
            } else if (ch == 1) {
                float* out = static_cast<float*>(dst) + rowBase;
                if (src)
                    std::memcpy(out, src, det * sizeof(float));
                else
                    std::memset(out, 0, det * sizeof(float));
            } else {
                auto* out = static_cast<float*>(dst) + rowBase + static_cast<std::size_t>(c);
                for (std::size_t d = 0; d < det; ++d)
                    out[d * ch] = src ? src[d] : 0.0f;
            }
        }
    }
}

}  // namespace tomo
