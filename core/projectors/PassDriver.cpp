// The item loop of a GPU back-projection, written once (PassDriver.h).
#include "core/projectors/PassDriver.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>

#include "core/base/Progress.h"
#include "core/data/Half.h"

namespace tomo {
namespace {

/// Enqueues item @p it's launches, keeping two queued, and waits for the last one.
Status runLaunches(const PassPlan& p, const PassItem& it, PassQueue& queue,
                   const ExecContext& ctx) {
    // Projections of the launch enqueued and not yet waited for (0: none).
    std::uint64_t pending = 0;
    auto waitPending = [&]() -> Status {
        if (pending == 0) return Status::ok();
        TOMO_RETURN_IF_ERROR(queue.waitLaunch());
        if (ctx.progress) ctx.progress->advance(pending);
        pending = 0;
        return Status::ok();
    };
    for (int begin = 0; begin < it.na; begin += p.projPerLaunch) {
        const int end = std::min(it.na, begin + p.projPerLaunch);
        TOMO_RETURN_IF_ERROR(queue.launch(it, begin, end, it.chunk > 0 || begin > 0));
        TOMO_RETURN_IF_ERROR(waitPending());
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        pending = static_cast<std::uint64_t>(end - begin);
    }
    return waitPending();
}

}  // namespace

PassItem passItem(const PassPlan& p, const PassJob& job, int k) {
    PassItem it;
    it.index = k;
    it.slot = k & 1;
    it.outputSlot = (k / p.angleChunks) & 1;
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

Status runPasses(const PassPlan& p, const PassJob& job, PassQueue& queue, const PassPacker& pack,
                 const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(queue.allocate(p));
    const int items = p.passes * p.bands * p.angleChunks;
    if (ctx.progress)
        ctx.progress->setTotal(static_cast<std::uint64_t>(p.passes) * p.bands *
                               static_cast<std::uint64_t>(job.angles));
    if (items == 0) return queue.finish();
    {
        const PassItem first = passItem(p, job, 0);
        TOMO_ASSIGN_OR_RETURN(void* staging, queue.beginStaging(first));
        pack(first, staging);
        TOMO_RETURN_IF_ERROR(queue.upload(first));
    }
    for (int k = 0; k < items; ++k) {
        const PassItem it = passItem(p, job, k);
        // Pack item k + 1 on a host thread while the device works on item k.
        PassItem next;
        void* nextStaging = nullptr;
        std::jthread packer;
        if (k + 1 < items) {
            next = passItem(p, job, k + 1);
            TOMO_ASSIGN_OR_RETURN(nextStaging, queue.beginStaging(next));
            packer = std::jthread([&pack, next, nextStaging] { pack(next, nextStaging); });
        }
        Status status = runLaunches(p, it, queue, ctx);
        if (status.isOk() && it.lastChunk) status = queue.download(it);
        if (packer.joinable()) packer.join();
        if (nextStaging != nullptr && status.isOk()) status = queue.upload(next);
        TOMO_RETURN_IF_ERROR(status);
    }
    return queue.finish();
}

Status runWithRetry(const std::function<Result<PassPlan>(int shrink)>& plan,
                    const std::function<Status(const PassPlan&)>& run,
                    const std::function<void()>& releaseKept) {
    Status status;
    bool released = false;
    for (int shrink = 0; shrink < 32; ++shrink) {
        TOMO_ASSIGN_OR_RETURN(PassPlan p, plan(shrink));
        status = run(p);
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
