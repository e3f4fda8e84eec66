// The host loop of the GPU projector pair, once for every backend (DeviceLocality.h).
#include "core/locality/DeviceLocality.h"

#include <algorithm>
#include <cstring>

namespace tomo {
namespace {

/// Bytes of input and output one chunk moves at most (then at least 4 chunks when the stack
/// has that many slices, so that copies overlap kernels).
constexpr std::size_t kChunkBytes = std::size_t(256) << 20;
constexpr std::size_t kMinChunks = 4;

std::size_t alignUp(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

/// Where the slices of a pipeline item live in the caller's memory: slice z's row r (r <
/// rows) at base + z * sliceFloats + (rowFirst + r * rowStep) * rowFloats; on the device an
/// item is the rows one after the other, padded with zeros to itemFloats.
struct HostSlices {
    float* base = nullptr;
    std::size_t sliceFloats = 0, rowFloats = 0, rows = 0, rowFirst = 0, rowStep = 1;
    std::size_t itemFloats = 0;

    /// Calls @p f(host, e, n) for the runs of elements [e, end) of the items of the slices
    /// from @p first on, laid out one after the other; host is null for the padding.
    template <class F>
    void visit(std::size_t first, std::size_t e, std::size_t end, F&& f) const {
        const std::size_t dense = rows * rowFloats;
        while (e < end) {
            const std::size_t item = e / itemFloats, col = e % itemFloats;
            std::size_t n = 0;
            if (col >= dense) {
                n = std::min(itemFloats - col, end - e);
                f(static_cast<float*>(nullptr), e, n);
            } else {
                const std::size_t r = col / rowFloats, k = col % rowFloats;
                n = std::min(rowFloats - k, end - e);
                f(base + (first + item) * sliceFloats + (rowFirst + r * rowStep) * rowFloats + k, e,
                  n);
            }
            e += n;
        }
    }
};

/// The pack and unpack of a run from @p in to @p out (see HostSlices).
void bindCopies(PipelineIo& io, const HostSlices& in, const HostSlices& out) {
    io.pack = [in](const PipelineChunk& c, std::size_t offset, std::size_t bytes, std::byte* dst) {
        auto* d = reinterpret_cast<float*>(dst) - offset / sizeof(float);
        in.visit(c.first, offset / sizeof(float), (offset + bytes) / sizeof(float),
                 [d](const float* h, std::size_t e, std::size_t n) {
                     if (h)
                         std::memcpy(d + e, h, n * sizeof(float));
                     else
                         std::fill_n(d + e, n, 0.0f);
                 });
    };
    io.unpack = [out](const PipelineChunk& c, std::size_t offset, std::size_t bytes,
                      const std::byte* src) {
        const auto* s = reinterpret_cast<const float*>(src) - offset / sizeof(float);
        out.visit(c.first, offset / sizeof(float), (offset + bytes) / sizeof(float),
                  [s](float* h, std::size_t e, std::size_t n) {
                      if (h) std::memcpy(h, s + e, n * sizeof(float));
                  });
    };
}

}  // namespace

LocalityStage::LocalityStage(const LocalityCall& call, const VolumeGeometry& vol)
    : m_call(call), m_pixels(double(vol.nx) * double(vol.ny)) {
    const int n = static_cast<int>(call.order.size());
    if (!call.forward) {
        m_launches.push_back({false, 0, n});
        return;
    }
    if (call.rowsCount > 0) m_launches.push_back({true, 0, call.rowsCount});
    if (n > call.rowsCount) m_launches.push_back({false, call.rowsCount, n - call.rowsCount});
}

std::string LocalityStage::label() const {
    return m_call.forward ? "forward projection" : "back-projection";
}

double LocalityStage::work(const PipelineChunk& chunk, int step) const {
    return double(m_launches[std::size_t(step)].count) * m_pixels * double(chunk.count);
}

int subsetRows(int subset, int subsets, int angles) {
    return (angles - subset + subsets - 1) / subsets;
}

DeviceLocalityOperator::DeviceLocalityOperator(std::unique_ptr<LocalityDevice> device,
                                               const ParallelGeometry& geom,
                                               const VolumeGeometry& vol, RayOrdering ordering)
    : LocalityPair(geom, vol, ordering), m_device(std::move(device)), m_vol(vol) {}

std::string DeviceLocalityOperator::name() const {
    return m_device->prefix() + "." + rayOrderingName(m_ordering);
}

Status DeviceLocalityOperator::forwardSubset(std::span<const float> x, std::span<float> y,
                                             int subset, int subsets, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
    return run(true, x.data(), y.data(), subset, subsets, ctx)
        .withContext(m_device->prefix() + " forward projection");
}

Status DeviceLocalityOperator::adjointSubset(std::span<const float> y, std::span<float> x,
                                             int subset, int subsets, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
    return run(false, y.data(), x.data(), subset, subsets, ctx)
        .withContext(m_device->prefix() + " back-projection");
}

Status DeviceLocalityOperator::run(bool forward, const float* in, float* out, int subset,
                                   int subsets, const ExecContext& ctx) {
    // The call outlives the queues: the order's upload reads it until they drain.
    LocalityCall call;
    call.forward = forward;
    call.ordering = m_ordering;
    call.subset = subset;
    call.subsets = subsets;
    call.rows = subsetRows(subset, subsets, angleCount());
    SubsetLaunchOrder order = subsetLaunchOrder(m_rays, m_angles, subset, subsets, forward);
    call.order = std::move(order.angles);
    call.rowsCount = order.rowsCount;
    const std::size_t align = std::max<std::size_t>(1, m_device->sliceAlignment());
    const std::size_t plane = std::size_t(m_vol.nx) * std::size_t(m_vol.ny);
    const std::size_t det = std::size_t(m_detectors), rows = std::size_t(call.rows);
    call.volumeStride = alignUp(plane, align);
    call.sinoStride = alignUp(rows * det, align);

    // A volume slice is one row of nx * ny floats; a sinogram slice the subset's rows.
    const HostSlices volume{nullptr, plane, plane, 1, 0, 1, call.volumeStride};
    HostSlices sino{nullptr, m_rays.size() * det, det, rows, 0, 1, call.sinoStride};
    sino.rowFirst = std::size_t(subset);
    sino.rowStep = std::size_t(subsets);
    HostSlices src = forward ? volume : sino, dst = forward ? sino : volume;
    src.base = const_cast<float*>(in);  // only read: pack copies from it
    dst.base = out;

    PipelineIo io;
    io.items = std::size_t(m_vol.nz);
    io.inputBytesPerItem = src.itemFloats * sizeof(float);
    io.outputBytesPerItem = dst.itemFloats * sizeof(float);
    bindCopies(io, src, dst);
    const std::size_t maxSlices =
        m_device->maxChunkSlices(std::max(src.itemFloats, dst.itemFloats));
    if (maxSlices == 0)
        return unsupported("one slice of " + std::to_string(m_vol.nx) + " x " +
                           std::to_string(m_vol.ny) + " and " + std::to_string(call.rows) +
                           " projections exceeds the device's launch or texture limits");
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<DeviceQueues> queues, m_device->openQueues());
    const std::size_t perItem = io.inputBytesPerItem + io.outputBytesPerItem;
    const std::size_t byBudget = queues->memoryBudget() / (2 * perItem);
    const std::size_t automatic =
        std::min(kChunkBytes / perItem, (io.items + kMinChunks - 1) / kMinChunks);
    const std::size_t chunk = std::min({m_chunkSlices > 0 ? m_chunkSlices : automatic, maxSlices,
                                        std::max<std::size_t>(1, byBudget)});
    io.chunkItems = std::max<std::size_t>(1, chunk);

    const ExecContext inner{ctx.threads, ctx.stop, nullptr, ctx.across};
    Timeline timeline;
    const Status status = runPipelineWithRetry(*queues, io, 1, [&](const PipelineIo& i) -> Status {
        // Inside the retry: an OutOfMemory frees every kept buffer, the order's too.
        TOMO_ASSIGN_OR_RETURN(
            call.orderOnDevice,
            queues->deviceBuffer("locality.order", call.order.size() * sizeof(int)));
        TOMO_RETURN_IF_ERROR(queues->upload(QueueRole::Compute, call.orderOnDevice, 0,
                                            call.order.data(), call.order.size() * sizeof(int)));
        TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ChunkStage> stage, m_device->stage(*queues, call));
        return runPipeline(queues.get(), i, {stage.get()}, inner, &timeline);
    });
    queues->drain();
    if (status.isOk()) m_timeline += timeline.report();
    return status;
}

}  // namespace tomo
