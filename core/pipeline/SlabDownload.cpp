// A device's dense rows downloaded through pinned staging and stored once into a pitched host
// volume on several threads (SlabDownload.h).
#include "core/pipeline/SlabDownload.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/base/Parallel.h"
#include "core/pipeline/Timeline.h"

namespace tomo {
namespace {

constexpr std::size_t kRowsPerTask = 64;  ///< rows per storing task

/// The events of one chunk's prepare step and download.
struct ChunkEvents {
    QueueEvent prepareBegin, prepared, downloadBegin, downloaded;
};

class SlabDownloadRun {
  public:
    SlabDownloadRun(DeviceQueues& q, const SlabDownloadPlan& plan, Volume& out, int threads)
        : m_q(q),
          m_plan(plan),
          m_out(out),
          m_threads(threads),
          m_rows(out.dim(0) * out.dim(1)),
          m_nx(out.dim(2)),
          m_chunkRows(std::min(plan.chunkRows, m_rows)),
          m_chunks((m_rows + m_chunkRows - 1) / m_chunkRows) {}

    Status run() {
        const std::size_t bytes = m_chunkRows * m_nx * sizeof(float);
        for (std::size_t s = 0; s < std::min<std::size_t>(m_chunks, 2); ++s) {
            TOMO_ASSIGN_OR_RETURN(m_staging[s],
                                  m_q.pinnedBuffer("slab.download." + std::to_string(s), bytes));
        }
        TOMO_RETURN_IF_ERROR(issue(0));
        for (std::size_t k = 0; k < m_chunks; ++k) {
            // Chunk k + 1 downloads while the host stores chunk k; its pinned slot held chunk
            // k - 1, stored by the previous iteration.
            if (k + 1 < m_chunks) TOMO_RETURN_IF_ERROR(issue(k + 1));
            TOMO_RETURN_IF_ERROR(store(k));
        }
        return Status::ok();
    }

    const SlabDownloadTimes& times() const { return m_times; }

  private:
    std::size_t firstRow(std::size_t k) const { return k * m_chunkRows; }
    std::size_t rowCount(std::size_t k) const {
        return std::min(m_chunkRows, m_rows - firstRow(k));
    }

    Status issue(std::size_t k) {
        const std::size_t s = k % 2, first = firstRow(k), count = rowCount(k);
        // prepare(k) may overwrite slot s's device staging, which download(k - 2) read.
        TOMO_RETURN_IF_ERROR(m_q.wait(QueueRole::Compute, m_events[s].downloaded));
        ChunkEvents e;
        TOMO_ASSIGN_OR_RETURN(e.prepareBegin, m_q.record(QueueRole::Compute));
        TOMO_ASSIGN_OR_RETURN(const DeviceRows src, m_plan.prepare(first, count, int(s)));
        TOMO_ASSIGN_OR_RETURN(e.prepared, m_q.record(QueueRole::Compute));
        TOMO_RETURN_IF_ERROR(m_q.wait(QueueRole::Download, e.prepared));
        TOMO_ASSIGN_OR_RETURN(e.downloadBegin, m_q.record(QueueRole::Download));
        TOMO_RETURN_IF_ERROR(m_q.download(QueueRole::Download, m_staging[s], src.buffer,
                                          src.offset * sizeof(float),
                                          count * m_nx * sizeof(float)));
        TOMO_ASSIGN_OR_RETURN(e.downloaded, m_q.record(QueueRole::Download));
        m_events[s] = std::move(e);
        return Status::ok();
    }

    Result<double> seconds(const QueueEvent& begin, const QueueEvent& end) {
        TOMO_RETURN_IF_ERROR(m_q.sync(end));
        TOMO_ASSIGN_OR_RETURN(const double b, m_q.eventSeconds(begin));
        TOMO_ASSIGN_OR_RETURN(const double e, m_q.eventSeconds(end));
        return std::max(0.0, e - b);
    }

    Status store(std::size_t k) {
        const ChunkEvents& e = m_events[k % 2];
        TOMO_ASSIGN_OR_RETURN(const double prepared, seconds(e.prepareBegin, e.prepared));
        TOMO_ASSIGN_OR_RETURN(const double downloaded, seconds(e.downloadBegin, e.downloaded));
        m_times.prepare += prepared;
        m_times.download += downloaded;
        const double t0 = timelineNow();
        storeRows(static_cast<const float*>(m_staging[k % 2]), m_nx, firstRow(k), rowCount(k),
                  m_out, m_threads);
        m_times.store += timelineNow() - t0;
        return Status::ok();
    }

    DeviceQueues& m_q;
    const SlabDownloadPlan& m_plan;
    Volume& m_out;
    int m_threads;
    std::size_t m_rows, m_nx, m_chunkRows, m_chunks;
    void* m_staging[2] = {};
    ChunkEvents m_events[2];
    SlabDownloadTimes m_times;
};

}  // namespace

void storeRows(const float* src, std::size_t srcPitch, std::size_t first, std::size_t count,
               Volume& out, int threads) {
    const std::size_t nx = out.dim(2), pitch = out.pitch();
    if (count == 0 || nx == 0) return;
    float* base = out.data();
    const std::size_t tasks = (count + kRowsPerTask - 1) / kRowsPerTask;
    const std::size_t bytes = count * pitch * sizeof(float);
    const int workers = static_cast<int>(
        std::clamp<std::size_t>(bytes >> 22, 1, static_cast<std::size_t>(resolveThreads(threads))));
    (void)parallelFor(tasks, workers, {}, [&](std::size_t t, int) {
        const std::size_t end = std::min(count, (t + 1) * kRowsPerTask);
        for (std::size_t r = t * kRowsPerTask; r < end; ++r) {
            float* row = base + (first + r) * pitch;
            if (src) {
                std::memcpy(row, src + r * srcPitch, nx * sizeof(float));
                std::fill(row + nx, row + pitch, 0.0f);
            } else {
                std::fill(row, row + pitch, 0.0f);
            }
        }
    });
}

StagingRing stagingRing(std::size_t plane, std::size_t planes, std::size_t maxChunkPlanes) {
    if (plane == 0 || planes == 0) return {};
    const std::size_t most = std::max<std::size_t>(1, std::min(maxChunkPlanes, planes));
    const std::size_t chunk = std::clamp<std::size_t>(kStagingRingFloats / 2 / plane, 1, most);
    return {chunk, std::min<std::size_t>(2, (planes + chunk - 1) / chunk)};
}

SlabDownloadPlan rowsAsTheyLie(DeviceBufferRef buffer, std::size_t nx, std::size_t chunkFloats) {
    SlabDownloadPlan plan;
    plan.chunkRows = std::max<std::size_t>(1, chunkFloats / std::max<std::size_t>(1, nx));
    plan.prepare = [buffer, nx](std::size_t first, std::size_t, int) -> Result<DeviceRows> {
        return DeviceRows{buffer, first * nx};
    };
    return plan;
}

Result<SlabDownloadTimes> downloadSlab(DeviceQueues& queues, const SlabDownloadPlan& plan,
                                       Volume& out, int threads) {
    if (out.dim(0) * out.dim(1) == 0 || out.dim(2) == 0) return SlabDownloadTimes{};
    if (plan.chunkRows == 0 || !plan.prepare)
        return internalError("downloadSlab: a plan without chunk rows or prepare step");
    SlabDownloadRun run(queues, plan, out, threads);
    Status status = run.run();
    if (!status.isOk()) {
        queues.drain();  // nothing enqueued outlives the staging it writes
        return status;
    }
    return run.times();
}

}  // namespace tomo
