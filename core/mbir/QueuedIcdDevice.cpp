#include "core/mbir/QueuedIcdDevice.h"

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

namespace tomo {
namespace {

std::string mebibytes(std::size_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

/// What a stack of @p slices that does not fit @p budget can do instead: "; at most N of these
/// M slices fit at once: solve fewer at a time (...)", or "" for one slice.
std::string fewerSlices(const GpuIcdLayout& layout, int batch, int slices, std::size_t budget) {
    if (slices <= 1 || layout.deviceBytes(batch, 1) > budget) return "";
    int fit = 1, over = slices;  // deviceBytes grows with the slices: bisect the largest that fits
    while (over - fit > 1) {
        const int mid = fit + (over - fit) / 2;
        (layout.deviceBytes(batch, mid) <= budget ? fit : over) = mid;
    }
    const std::string n = std::to_string(fit);
    return "; at most " + n + " of these " + std::to_string(slices) +
           " slices fit at once: solve fewer slices at a time (tomo recon --chunk " + n +
           ", Python chunk=" + n + ")";
}

class QueuedIcdDevice final : public IcdDevice {
  public:
    QueuedIcdDevice(std::unique_ptr<DeviceQueues> queues, std::unique_ptr<IcdKernels> kernels,
                    IcdResidentLayout& resident)
        : m_queues(std::move(queues)), m_kernels(std::move(kernels)), m_resident(resident) {}
    ~QueuedIcdDevice() override { m_queues->drain(); }  // nothing may outlive the host vectors

    std::string name() const override { return m_kernels->name(); }
    std::size_t memoryBudget() const override { return m_queues->memoryBudget(); }

    Status load(const GpuIcdLayout& layout, const MbirMatrix& matrix, const GpuIcdOptions& options,
                const IcdKernelConstants& constants, int slices, const std::vector<float>& x,
                const std::vector<float>& e, const std::vector<float>& w) override {
        TOMO_RETURN_IF_ERROR(options.validate());
        if (matrix.type() != MbirEntryType::Uint8 || matrix.voxels() != layout.voxels() ||
            matrix.columnSize() != layout.columnSize)
            return invalidArgument("GPU-ICD: the tiles of this layout need its 8-bit matrix");
        TOMO_RETURN_IF_ERROR(m_kernels->prepare(options));
        m_state.slices = std::max(1, slices);
        const std::size_t need = layout.deviceBytes(options.batch, m_state.slices);
        if (need > m_queues->memoryBudget())
            return outOfMemory(
                "GPU-ICD needs " + mebibytes(need) + " on " + m_queues->deviceName() +
                ", which allows " + mebibytes(m_queues->memoryBudget()) +
                fewerSlices(layout, options.batch, m_state.slices, m_queues->memoryBudget()));
        m_state.layout = &layout;
        m_state.options = options;
        m_state.constants = constants;
        m_zeroSkip = constants.zeroSkip;
        // The layout's buffers stay in the device context between solves: a solve of the same
        // geometry uploads only its images and sinograms. Forgotten until every buffer is in
        // place, so that a load that fails halfway uploads everything next time.
        const IcdResidentLayout held = m_resident;
        m_resident.forget();
        const auto specs = icdBuffers(layout, options.batch, m_state.slices, &x, &e, &w);
        std::array<const void*, kIcdBufferCount> handles{};
        std::size_t uploaded = 0;
        const Status sent = spanned(TimelineStage::Upload, uploaded, [&]() -> Status {
            for (int b = 0; b < kIcdBufferCount; ++b) {
                const IcdBufferSpec& spec = specs[std::size_t(b)];
                TOMO_ASSIGN_OR_RETURN(
                    DeviceBufferRef ref,
                    m_queues->deviceBuffer(std::string("GPU-ICD ") + spec.what, spec.bytes));
                m_state.buffers[std::size_t(b)] = ref;
                handles[std::size_t(b)] = ref.handle;
                if (!spec.init || !held.needsUpload(layout, b, ref.handle)) continue;
                TOMO_RETURN_IF_ERROR(
                    m_queues->upload(QueueRole::Compute, ref, 0, spec.init, spec.bytes));
                uploaded += spec.bytes;
            }
            return Status::ok();
        });
        TOMO_RETURN_IF_ERROR(sent);
        if (held.needsUpload(layout, kIcdTiles, handles[kIcdTiles]))
            TOMO_RETURN_IF_ERROR(buildTiles(layout, matrix));
        TOMO_RETURN_IF_ERROR(finish());  // the host's vectors and the matrix may go away
        m_resident.loaded(layout, handles);
        return Status::ok();
    }

    Status beginPass(const std::vector<std::int32_t>& svs, std::uint32_t rotation,
                     bool skipZeros) override {
        m_list = svs;
        m_zeros.assign(svs.size(), 0);
        m_state.rotation = rotation;
        m_state.constants.zeroSkip = m_zeroSkip && skipZeros ? 1 : 0;
        const std::size_t bytes = m_list.size() * 4;
        return spanned(TimelineStage::Upload, 3 * bytes, [&]() -> Status {
            TOMO_RETURN_IF_ERROR(upload(kIcdPassList, m_list.data(), bytes));
            TOMO_RETURN_IF_ERROR(upload(kIcdMoved, m_zeros.data(), bytes));
            return upload(kIcdUpdates, m_zeros.data(), bytes);
        });
    }

    Status runBatch(int first, int count) override {
        return spanned(TimelineStage::Kernels, 0,
                       [&] { return m_kernels->runBatch(m_state, first, count); });
    }

    Status endPass(std::vector<float>& moved, std::vector<std::int32_t>& updates) override {
        moved.resize(m_list.size());
        updates.resize(m_list.size());
        const Status got = spanned(TimelineStage::Download, m_list.size() * 8, [&]() -> Status {
            TOMO_RETURN_IF_ERROR(download(moved.data(), kIcdMoved, moved.size() * 4));
            return download(updates.data(), kIcdUpdates, updates.size() * 4);
        });
        TOMO_RETURN_IF_ERROR(got);
        return finish();
    }

    Status read(std::vector<float>& x, std::vector<float>& e) override {
        const GpuIcdLayout& l = *m_state.layout;
        const std::size_t nz = std::size_t(m_state.slices);
        x.resize(nz * l.voxels());
        e.resize(nz * std::size_t(l.views) * std::size_t(l.channels + 2 * l.padding));
        const Status got =
            spanned(TimelineStage::Download, (x.size() + e.size()) * 4, [&]() -> Status {
                TOMO_RETURN_IF_ERROR(download(x.data(), kIcdImage, x.size() * 4));
                return download(e.data(), kIcdError, e.size() * 4);
            });
        TOMO_RETURN_IF_ERROR(got);
        return finish();
    }

    Status readTiles(std::vector<std::uint8_t>& tiles) override {
        tiles.resize(m_state.layout->tileBytes());
        TOMO_RETURN_IF_ERROR(download(tiles.data(), kIcdTiles, tiles.size()));
        return finish();
    }

    void setTimeline(Timeline* timeline) override {
        m_timeline = timeline;
        m_spans.clear();
    }

  private:
    /// The tiles from @p matrix's codes, slab after slab through kIcdCodes (the queue's order
    /// keeps a slab until its kernel has read it).
    Status buildTiles(const GpuIcdLayout& layout, const MbirMatrix& matrix) {
        const std::size_t voxels = layout.voxels(), slab = layout.slabVoxels();
        for (std::size_t first = 0; first < voxels; first += slab) {
            const std::size_t count = std::min(slab, voxels - first);
            const std::size_t bytes = count * layout.columnSize;
            TOMO_RETURN_IF_ERROR(spanned(TimelineStage::Upload, bytes, [&] {
                return upload(kIcdCodes, matrix.codes(first), bytes);
            }));
            TOMO_RETURN_IF_ERROR(spanned(TimelineStage::Kernels, 0, [&] {
                return m_kernels->buildTiles(m_state, int(first), int(count));
            }));
        }
        return Status::ok();
    }
    Status upload(IcdBuffer b, const void* data, std::size_t bytes) {
        if (bytes == 0) return Status::ok();
        return m_queues->upload(QueueRole::Compute, m_state.buffers[std::size_t(b)], 0, data,
                                bytes);
    }
    Status download(void* data, IcdBuffer b, std::size_t bytes) {
        if (bytes == 0) return Status::ok();
        return m_queues->download(QueueRole::Compute, data, m_state.buffers[std::size_t(b)], 0,
                                  bytes);
    }
    /// Enqueues @p work between two events of the Compute queue that become a span of
    /// @p stage (moving @p bytes, read after @p work ran) once the host has waited for them.
    Status spanned(TimelineStage stage, const std::size_t& bytes,
                   const std::function<Status()>& work) {
        if (!m_timeline) return work();
        TOMO_ASSIGN_OR_RETURN(QueueEvent begin, m_queues->record(QueueRole::Compute));
        TOMO_RETURN_IF_ERROR(work());
        TOMO_ASSIGN_OR_RETURN(QueueEvent end, m_queues->record(QueueRole::Compute));
        m_spans.push_back({stage, std::move(begin), std::move(end), bytes});
        return Status::ok();
    }
    /// The host waits for everything enqueued so far; the spans are complete then.
    Status finish() {
        TOMO_ASSIGN_OR_RETURN(QueueEvent done, m_queues->record(QueueRole::Compute));
        TOMO_RETURN_IF_ERROR(m_queues->sync(done));
        for (const PendingSpan& s : m_spans) {  // a time the device cannot give: no span
            const Result<double> begin = m_queues->eventSeconds(s.begin);
            const Result<double> end = m_queues->eventSeconds(s.end);
            if (begin.isOk() && end.isOk())
                m_timeline->add(
                    {s.stage, TimelineClock::Device, *begin, std::max(*begin, *end), s.bytes});
        }
        m_spans.clear();
        return Status::ok();
    }
    struct PendingSpan {
        TimelineStage stage;
        QueueEvent begin, end;
        std::size_t bytes;
    };

    std::unique_ptr<DeviceQueues> m_queues;
    std::unique_ptr<IcdKernels> m_kernels;
    IcdResidentLayout& m_resident;
    IcdLaunchState m_state;
    std::vector<std::int32_t> m_list, m_zeros;  ///< the pass's list and its zeroed statistics
    int m_zeroSkip = 0;  ///< the constants' zero skipping (a pass may still not skip)
    Timeline* m_timeline = nullptr;
    std::vector<PendingSpan> m_spans;  ///< enqueued, not yet waited for
};

}  // namespace

std::unique_ptr<IcdDevice> makeQueuedIcdDevice(std::unique_ptr<DeviceQueues> queues,
                                               std::unique_ptr<IcdKernels> kernels,
                                               IcdResidentLayout& resident) {
    return std::make_unique<QueuedIcdDevice>(std::move(queues), std::move(kernels), resident);
}

}  // namespace tomo
