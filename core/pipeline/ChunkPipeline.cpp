// The pipeline driver of every backend (ChunkPipeline.h): device mode with rings, queues and
// host threads; host mode for the CPU.
#include "core/pipeline/ChunkPipeline.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/base/Parallel.h"
#include "core/base/Progress.h"

namespace tomo {
namespace {

/// Host copies are cut into blocks of at least this many bytes, spread over threads.
constexpr std::size_t kCopyBlock = std::size_t(4) << 20;

/// Calls @p copy(offset, bytes) over [0, total) in blocks (offsets multiples of 256 bytes) on up
/// to @p threads threads.
template <class F>
void parallelCopy(std::size_t total, int threads, F&& copy) {
    const std::size_t blocks = std::max<std::size_t>(1, (total + kCopyBlock - 1) / kCopyBlock);
    const std::size_t block = ((total + blocks - 1) / blocks + 255) / 256 * 256;
    (void)parallelFor(blocks, threads, {}, [&](std::size_t b, int) {
        const std::size_t offset = b * block;
        if (offset < total) copy(offset, std::min(block, total - offset));
    });
}

/// Total progress units of @p io's chunks through @p stages.
double totalWork(const PipelineIo& io, const std::vector<ChunkStage*>& stages, int chunks) {
    double sum = 0;
    for (int k = 0; k < chunks; ++k) {
        const PipelineChunk c = pipelineChunk(io, k);
        for (ChunkStage* s : stages)
            for (int i = 0; i < s->steps(c); ++i)
                sum += s->work(c, i);
    }
    return sum;
}

/// Progress in the driver's units, passed on to ctx.progress in whole units of 1e-6 of the
/// total (Progress counts integers).
class WorkProgress {
  public:
    explicit WorkProgress(Progress* progress) : m_progress(progress) {}
    /// After the stages are prepared (their steps depend on their plans).
    void start(double total) {
        m_total = total;
        if (m_progress) m_progress->setTotal(kUnits);
    }
    void advance(double work) {
        if (!m_progress || m_total <= 0) return;
        m_done += work;
        const auto target = static_cast<std::uint64_t>(std::min(1.0, m_done / m_total) *
                                                       static_cast<double>(kUnits));
        if (target > m_reported) m_progress->advance(target - m_reported);
        m_reported = std::max(m_reported, target);
    }
    double fraction() const { return m_total > 0 ? m_done / m_total : 0.0; }
    double fractionAfter(double work) const {
        return m_total > 0 ? std::min(1.0, (m_done + work) / m_total) : 0.0;
    }

  private:
    static constexpr std::uint64_t kUnits = 1000000;
    Progress* m_progress;
    double m_total = 0;
    double m_done = 0;
    std::uint64_t m_reported = 0;
};

/// A device interval to resolve into the timeline once its events completed.
struct PendingSpan {
    TimelineStage stage;
    QueueEvent begin, end;
    std::size_t bytes = 0;
};

class DeviceRun {
  public:
    DeviceRun(DeviceQueues& q, const PipelineIo& io, const std::vector<ChunkStage*>& stages,
              const ExecContext& ctx, Timeline* timeline)
        : m_q(q),
          m_io(io),
          m_stages(stages),
          m_ctx(ctx),
          m_timeline(timeline),
          m_chunks(static_cast<int>((io.items + io.chunkItems - 1) / io.chunkItems)),
          m_copyThreads(std::max(1, resolveThreads(ctx.threads) / 2)),
          m_progress(ctx.progress) {}

    /// Nothing enqueued outlives the run: the queues drain before the threads join.
    ~DeviceRun() {
        m_q.drain();
        m_packer = {};
        m_unpacker = {};
    }

    Status run();
    /// The rings and the stages' prepare() alone (preparePipeline).
    Status prepare() { return m_chunks == 0 ? Status::ok() : allocate(); }
    /// The device spans, resolved after the queues drained.
    void resolveSpans();

  private:
    Status allocate();
    Status pack(int k);
    void spawnPacker(int k);
    Status issueUpload(int k);
    Status issueUploadIfPacked();
    Status compute(int k);
    Status step(const PipelineChunk& c, ChunkStage& stage, int i);
    Status finishPending();
    Status issueDownload(int k);
    void spawnUnpacker(int k);
    Status joinUnpacker();
    Result<QueueEvent> mark(QueueRole role) { return m_q.record(role); }
    bool hasOutput() const { return m_io.inPlace || m_io.outputBytesPerItem > 0; }

    DeviceQueues& m_q;
    const PipelineIo& m_io;
    const std::vector<ChunkStage*>& m_stages;
    const ExecContext& m_ctx;
    Timeline* m_timeline;
    int m_chunks;
    int m_copyThreads;
    WorkProgress m_progress;

    void* m_stagingIn[2] = {nullptr, nullptr};
    void* m_stagingOut[2] = {nullptr, nullptr};
    ChunkBuffers m_buffers[2];
    QueueEvent m_uploaded[2], m_computed[2], m_downloaded[2];
    QueueEvent m_pendingStep;  ///< the last step enqueued, not yet waited for
    double m_pendingWork = 0;

    std::jthread m_packer;
    std::atomic<bool> m_packDone{false};
    Status m_packStatus;
    int m_packing = -1;  ///< chunk being packed or packed and not yet uploaded
    std::jthread m_unpacker;
    Status m_unpackStatus;
    std::vector<PendingSpan> m_spans;
};

Status DeviceRun::allocate() {
    const std::size_t in = m_io.inputBytesPerItem * m_io.chunkItems;
    const std::size_t out =
        (m_io.inPlace ? m_io.inputBytesPerItem : m_io.outputBytesPerItem) * m_io.chunkItems;
    for (int s = 0; s < std::min(m_chunks, 2); ++s) {
        const std::string slot = std::to_string(s);
        TOMO_ASSIGN_OR_RETURN(m_stagingIn[s], m_q.pinnedBuffer("pipeline.in." + slot, in));
        if (out > 0) {
            TOMO_ASSIGN_OR_RETURN(m_stagingOut[s], m_q.pinnedBuffer("pipeline.out." + slot, out));
        }
        TOMO_ASSIGN_OR_RETURN(m_buffers[s].input, m_q.deviceBuffer("pipeline.input." + slot, in));
        if (m_io.inPlace) {
            m_buffers[s].output = m_buffers[s].input;
        } else if (out > 0) {
            TOMO_ASSIGN_OR_RETURN(m_buffers[s].output,
                                  m_q.deviceBuffer("pipeline.output." + slot, out));
        }
    }
    const std::size_t rings = 2 * (in + (m_io.inPlace ? 0 : out));
    const std::size_t budget = m_q.memoryBudget();
    if (rings > budget)
        return outOfMemory("pipeline rings of 2 x (" + std::to_string(in >> 20) + " + " +
                           std::to_string(out >> 20) + ") MiB exceed the device budget of " +
                           std::to_string(budget >> 20) + " MiB on " + m_q.deviceName());
    for (ChunkStage* s : m_stages)
        TOMO_RETURN_IF_ERROR(s->prepare(m_io.chunkItems, budget - rings));
    m_progress.start(totalWork(m_io, m_stages, m_chunks));
    return Status::ok();
}

Status DeviceRun::pack(int k) {
    const PipelineChunk c = pipelineChunk(m_io, k);
    auto* dst = static_cast<std::byte*>(m_stagingIn[c.slot]);
    double t0 = timelineNow();
    const std::size_t bytes = c.count * m_io.inputBytesPerItem;
    if (m_io.pack) {
        parallelCopy(bytes, m_copyThreads, [&](std::size_t offset, std::size_t n) {
            m_io.pack(c, offset, n, dst + offset);
        });
        if (m_timeline) m_timeline->add(TimelineStage::Host, t0, timelineNow(), bytes);
    }
    if (!m_io.hostStage) return Status::ok();
    t0 = timelineNow();
    TOMO_RETURN_IF_ERROR(m_io.hostStage(c, dst));
    if (m_timeline) m_timeline->add(m_io.hostStageKind, t0, timelineNow());
    return Status::ok();
}

void DeviceRun::spawnPacker(int k) {
    m_packing = k;
    m_packDone = false;
    m_packer = std::jthread([this, k] {
        m_packStatus = pack(k);
        m_packDone = true;
    });
}

Status DeviceRun::issueUpload(int k) {
    TOMO_RETURN_IF_ERROR(m_packStatus);
    const PipelineChunk c = pipelineChunk(m_io, k);
    const int s = c.slot;
    const std::size_t bytes = c.count * m_io.inputBytesPerItem;
    // The slot's device input is read by compute(k - 2) until it completes.
    TOMO_RETURN_IF_ERROR(m_q.wait(QueueRole::Upload, m_computed[s]));
    TOMO_ASSIGN_OR_RETURN(QueueEvent begin, mark(QueueRole::Upload));
    TOMO_RETURN_IF_ERROR(
        m_q.upload(QueueRole::Upload, m_buffers[s].input, 0, m_stagingIn[s], bytes));
    TOMO_ASSIGN_OR_RETURN(m_uploaded[s], mark(QueueRole::Upload));
    m_spans.push_back({TimelineStage::Upload, std::move(begin), m_uploaded[s], bytes});
    m_packing = -1;
    return Status::ok();
}

Status DeviceRun::issueUploadIfPacked() {
    if (m_packing < 0 || !m_packDone.load()) return Status::ok();
    m_packer.join();
    return issueUpload(m_packing);
}

Status DeviceRun::finishPending() {
    if (!m_pendingStep) return Status::ok();
    TOMO_RETURN_IF_ERROR(m_q.sync(m_pendingStep));
    m_pendingStep.reset();
    m_progress.advance(m_pendingWork);
    return checkStop(m_ctx.stop);
}

Status DeviceRun::step(const PipelineChunk& c, ChunkStage& stage, int i) {
    TOMO_ASSIGN_OR_RETURN(QueueEvent begin, mark(QueueRole::Compute));
    TOMO_RETURN_IF_ERROR(stage.run(c, m_buffers[c.slot], i, m_ctx));
    TOMO_ASSIGN_OR_RETURN(QueueEvent end, mark(QueueRole::Compute));
    m_spans.push_back({stage.timelineStage(), std::move(begin), end, 0});
    // Two steps in flight: wait for the previous one, report it, check the stop token.
    TOMO_RETURN_IF_ERROR(finishPending());
    m_pendingStep = std::move(end);
    m_pendingWork = stage.work(c, i);
    return issueUploadIfPacked();
}

Status DeviceRun::compute(int k) {
    const PipelineChunk c = pipelineChunk(m_io, k);
    TOMO_RETURN_IF_ERROR(m_q.wait(QueueRole::Compute, m_uploaded[c.slot]));
    // The slot's output is read by download(k - 2) until it completes.
    TOMO_RETURN_IF_ERROR(m_q.wait(QueueRole::Compute, m_downloaded[c.slot]));
    for (ChunkStage* stage : m_stages)
        for (int i = 0; i < stage->steps(c); ++i)
            TOMO_RETURN_IF_ERROR(step(c, *stage, i));
    TOMO_ASSIGN_OR_RETURN(m_computed[c.slot], mark(QueueRole::Compute));
    return Status::ok();
}

Status DeviceRun::issueDownload(int k) {
    if (!hasOutput()) return Status::ok();
    const PipelineChunk c = pipelineChunk(m_io, k);
    const int s = c.slot;
    const std::size_t bytes =
        c.count * (m_io.inPlace ? m_io.inputBytesPerItem : m_io.outputBytesPerItem);
    TOMO_RETURN_IF_ERROR(m_q.wait(QueueRole::Download, m_computed[s]));
    TOMO_ASSIGN_OR_RETURN(QueueEvent begin, mark(QueueRole::Download));
    TOMO_RETURN_IF_ERROR(
        m_q.download(QueueRole::Download, m_stagingOut[s], m_buffers[s].output, 0, bytes));
    TOMO_ASSIGN_OR_RETURN(m_downloaded[s], mark(QueueRole::Download));
    m_spans.push_back({TimelineStage::Download, std::move(begin), m_downloaded[s], bytes});
    return Status::ok();
}

void DeviceRun::spawnUnpacker(int k) {
    if (!hasOutput()) return;
    const PipelineChunk c = pipelineChunk(m_io, k);
    QueueEvent downloaded = m_downloaded[c.slot];
    m_unpacker = std::jthread([this, c, downloaded] {
        m_unpackStatus = m_q.sync(downloaded);
        if (!m_unpackStatus.isOk()) return;
        const auto* src = static_cast<const std::byte*>(m_stagingOut[c.slot]);
        const double t0 = timelineNow();
        const std::size_t bytes =
            c.count * (m_io.inPlace ? m_io.inputBytesPerItem : m_io.outputBytesPerItem);
        parallelCopy(bytes, m_copyThreads, [&](std::size_t offset, std::size_t n) {
            m_io.unpack(c, offset, n, src + offset);
        });
        if (m_timeline) m_timeline->add(TimelineStage::Host, t0, timelineNow(), bytes);
    });
}

Status DeviceRun::joinUnpacker() {
    if (m_unpacker.joinable()) m_unpacker.join();
    return m_unpackStatus;
}

Status DeviceRun::run() {
    if (m_chunks == 0) return Status::ok();
    const double t0 = timelineNow();
    TOMO_RETURN_IF_ERROR(allocate());  // rings and stages: made on a first run, else found
    if (m_timeline) m_timeline->add(TimelineStage::Setup, t0, timelineNow());
    m_packStatus = pack(0);
    TOMO_RETURN_IF_ERROR(issueUpload(0));
    for (int k = 0; k < m_chunks; ++k) {
        if (k + 1 < m_chunks) {
            // Staging slot (k + 1) mod 2 is free once upload(k - 1) is done.
            TOMO_RETURN_IF_ERROR(m_q.sync(m_uploaded[(k + 1) & 1]));
            spawnPacker(k + 1);
        }
        TOMO_RETURN_IF_ERROR(compute(k));
        TOMO_RETURN_IF_ERROR(joinUnpacker());  // chunk k - 2: its staging slot is k's
        TOMO_RETURN_IF_ERROR(issueDownload(k));
        if (m_packing >= 0) {  // not yet issued between the steps
            m_packer.join();
            TOMO_RETURN_IF_ERROR(issueUpload(m_packing));
        }
        if (k >= 1) spawnUnpacker(k - 1);
    }
    TOMO_RETURN_IF_ERROR(finishPending());
    TOMO_RETURN_IF_ERROR(joinUnpacker());
    spawnUnpacker(m_chunks - 1);
    return joinUnpacker();
}

void DeviceRun::resolveSpans() {
    if (!m_timeline) return;
    for (const PendingSpan& s : m_spans) {
        Result<double> begin = m_q.eventSeconds(s.begin), end = m_q.eventSeconds(s.end);
        if (begin.isOk() && end.isOk())
            m_timeline->add(
                {s.stage, TimelineClock::Device, *begin, std::max(*begin, *end), s.bytes});
    }
}

/// Host mode: load, the stages' steps and store, chunk after chunk, on the caller's thread.
Status runHost(const PipelineIo& io, const std::vector<ChunkStage*>& stages, const ExecContext& ctx,
               Timeline* timeline, int chunks) {
    auto span = [&](TimelineStage s, double t0) {
        if (timeline) timeline->add(s, t0, timelineNow());
    };
    for (ChunkStage* s : stages)
        TOMO_RETURN_IF_ERROR(s->prepare(io.chunkItems, 0));
    const double total = totalWork(io, stages, chunks);
    double done = 0;
    for (int k = 0; k < chunks; ++k) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        const PipelineChunk c = pipelineChunk(io, k);
        double t0 = timelineNow();
        TOMO_RETURN_IF_ERROR(io.load(c));
        span(TimelineStage::Host, t0);
        for (ChunkStage* stage : stages)
            for (int i = 0; i < stage->steps(c); ++i) {
                const double w = stage->work(c, i);
                Progress scope =
                    ctx.progress && total > 0
                        ? ctx.progress->child(done / total, (done + w) / total, stage->label())
                        : Progress();
                const ExecContext stepCtx{ctx.threads, ctx.stop, ctx.progress ? &scope : nullptr,
                                          ctx.across};
                t0 = timelineNow();
                TOMO_RETURN_IF_ERROR(stage->run(c, {}, i, stepCtx));
                span(stage->timelineStage(), t0);
                done += w;
            }
        t0 = timelineNow();
        TOMO_RETURN_IF_ERROR(io.store(c));
        span(TimelineStage::Host, t0);
    }
    return Status::ok();
}

}  // namespace

PipelineChunk pipelineChunk(const PipelineIo& io, int k) {
    PipelineChunk c;
    c.index = k;
    c.slot = k & 1;
    c.first = static_cast<std::size_t>(k) * io.chunkItems;
    c.count = std::min(io.chunkItems, io.items - c.first);
    return c;
}

Status runPipeline(DeviceQueues* queues, const PipelineIo& io,
                   const std::vector<ChunkStage*>& stages, const ExecContext& ctx,
                   Timeline* timeline) {
    if (io.chunkItems == 0) return invalidArgument("pipeline: chunks of 0 items");
    const double t0 = timelineNow();
    const int chunks = static_cast<int>((io.items + io.chunkItems - 1) / io.chunkItems);
    Status status;
    if (!queues) {
        status = runHost(io, stages, ctx, timeline, chunks);
    } else {
        DeviceRun run(*queues, io, stages, ctx, timeline);
        status = run.run();
        queues->drain();
        if (status.isOk()) run.resolveSpans();
    }
    if (timeline) timeline->setWall(timelineNow() - t0);
    return status;
}

Status preparePipeline(DeviceQueues& queues, const PipelineIo& io,
                       const std::vector<ChunkStage*>& stages) {
    if (io.chunkItems == 0) return invalidArgument("pipeline: chunks of 0 items");
    const ExecContext ctx;
    DeviceRun run(queues, io, stages, ctx, nullptr);
    return run.prepare();
}

Status runPipelineWithRetry(DeviceQueues& queues, PipelineIo io, std::size_t minChunkItems,
                            const std::function<Status(const PipelineIo&)>& run) {
    const std::size_t unit = std::max<std::size_t>(1, minChunkItems);
    bool released = false;
    for (;;) {
        Status status = run(io);
        if (status.code() != ErrorCode::OutOfMemory) return status;
        queues.releaseBuffers();  // buffers kept from other jobs, then smaller chunks
        if (!released) {
            released = true;
            continue;
        }
        if (io.chunkItems <= unit) return status;
        io.chunkItems = std::max(unit, io.chunkItems / 2 / unit * unit);
    }
}

}  // namespace tomo
