#include "gpu/cuda/mbir/CudaIcdDevice.h"

#include <memory>
#include <string>

#include "core/mbir/QueuedIcdDevice.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/internal/CudaQueues.h"
#include "gpu/cuda/mbir/IcdKernels.h"

namespace tomo::cuda {
namespace {

/// The kernels of IcdKernels.cu on the context's compute stream (the host loop: core/mbir/
/// QueuedIcdDevice.h).
class CudaIcdKernels final : public IcdKernels {
  public:
    explicit CudaIcdKernels(std::shared_ptr<CudaDeviceContext> device)
        : m_device(std::move(device)) {}

    std::string name() const override { return "CUDA " + m_device->traits().label(); }

    Status prepare(const GpuIcdOptions& options) override {
        if (options.groupSize < 32)
            return invalidArgument("GPU-ICD on CUDA: blocks of at least 32 threads");
        TOMO_RETURN_IF_ERROR(m_device->activate());
        // The update kernel's registers bound its block (a launch beyond fails only after the
        // upload): refuse before, as OpenCL does with its work-group limit.
        TOMO_ASSIGN_OR_RETURN(const int most, icdUpdateMaxThreads());
        if (options.groupSize <= most) return Status::ok();
        int fit = 32;  // gpu_threads is a power of two
        while (2 * fit <= most)
            fit *= 2;
        return unsupported("GPU-ICD: blocks of " + std::to_string(options.groupSize) +
                           " threads needed, its update kernel allows " + std::to_string(most) +
                           " on " + m_device->traits().label() +
                           " (gpu_threads=" + std::to_string(fit) + " or fewer)");
    }

    Status runBatch(const IcdLaunchState& state, int first, int count) override {
        const GpuIcdLayout& l = *state.layout;
        auto buf = [&](IcdBuffer b) { return state.buffers[std::size_t(b)]; };
        IcdSheetArgs sheet;
        sheet.e = CudaQueues::ptr<float>(buf(kIcdError));
        sheet.w = CudaQueues::ptr<float>(buf(kIcdWeight));
        sheet.views = l.views;
        sheet.rowLength = l.channels + 2 * l.padding;
        sheet.padding = l.padding;
        sheet.rows = l.rows;
        sheet.pitch = l.pitch;
        sheet.svCount = int(l.svCount());
        sheet.list = CudaQueues::ptr<int>(buf(kIcdPassList));
        sheet.first = first;
        sheet.svBase = CudaQueues::ptr<int>(buf(kIcdSvBase));
        sheet.svbE = CudaQueues::ptr<float>(buf(kIcdSvbError));
        sheet.svbOld = CudaQueues::ptr<float>(buf(kIcdSvbOld));
        sheet.svbW = CudaQueues::ptr<float>(buf(kIcdSvbWeight));
        sheet.counters = CudaQueues::ptr<int>(buf(kIcdCounters));
        const cudaStream_t s = m_device->stream(int(QueueRole::Compute));
        TOMO_RETURN_IF_ERROR(launchIcdGather(sheet, count, s));
        TOMO_RETURN_IF_ERROR(
            launchIcdUpdate(updateArgs(state, first), count, state.options.groupSize, s));
        return launchIcdWriteBack(sheet, count, s);
    }

    Status buildTiles(const IcdLaunchState& state, int first, int count) override {
        const GpuIcdLayout& l = *state.layout;
        auto buf = [&](IcdBuffer b) { return state.buffers[std::size_t(b)]; };
        IcdTileArgs a;
        a.codes = CudaQueues::ptr<std::uint8_t>(buf(kIcdCodes));
        a.first = first;
        a.count = count;
        a.terms = CudaQueues::ptr<double>(buf(kIcdChannelTerms));
        a.runs = CudaQueues::ptr<int>(buf(kIcdViewRuns));
        a.svBase = CudaQueues::ptr<int>(buf(kIcdSvBase));
        a.chunkMeta = CudaQueues::ptr<uint2>(buf(kIcdChunkMeta));
        a.views = l.views;
        a.chunks = l.chunks;
        a.nx = l.nx;
        a.ny = l.ny;
        a.side = l.side;
        a.columnSize = int(l.columnSize);
        a.tiles = CudaQueues::ptr<std::uint8_t>(buf(kIcdTiles));
        return launchIcdTiles(a, m_device->stream(int(QueueRole::Compute)));
    }

  private:
    static IcdUpdateArgs updateArgs(const IcdLaunchState& state, int first) {
        const GpuIcdLayout& l = *state.layout;
        auto buf = [&](IcdBuffer b) { return state.buffers[std::size_t(b)]; };
        IcdUpdateArgs a;
        a.x = CudaQueues::ptr<float>(buf(kIcdImage));
        a.svbE = CudaQueues::ptr<float>(buf(kIcdSvbError));
        a.svbW = CudaQueues::ptr<float>(buf(kIcdSvbWeight));
        a.tiles = CudaQueues::ptr<std::uint8_t>(buf(kIcdTiles));
        a.chunkMeta = CudaQueues::ptr<uint2>(buf(kIcdChunkMeta));
        a.scale = CudaQueues::ptr<float>(buf(kIcdScale));
        a.order = CudaQueues::ptr<int>(buf(kIcdOrder));
        a.svFirst = CudaQueues::ptr<int>(buf(kIcdSvFirst));
        a.svSize = CudaQueues::ptr<int>(buf(kIcdSvSize));
        a.list = CudaQueues::ptr<int>(buf(kIcdPassList));
        a.first = first;
        a.counters = CudaQueues::ptr<int>(buf(kIcdCounters));
        a.moved = CudaQueues::ptr<float>(buf(kIcdMoved));
        a.updates = CudaQueues::ptr<int>(buf(kIcdUpdates));
        a.blocksPerSv = state.options.blocksPerSv;
        a.rows = l.rows;
        a.pitch = l.pitch;
        a.chunks = l.chunks;
        a.nx = l.nx;
        a.ny = l.ny;
        a.svCount = int(l.svCount());
        a.slices = state.slices;
        a.rotation = state.rotation;
        a.k = state.constants;
        return a;
    }

    std::shared_ptr<CudaDeviceContext> m_device;
};

}  // namespace

Result<std::unique_ptr<IcdDevice>> makeCudaIcdDevice(std::shared_ptr<CudaDeviceContext> context) {
    if (!context) {
        TOMO_ASSIGN_OR_RETURN(context, CudaDeviceContext::open(-1));
    }
    IcdResidentLayout& resident = context->icdLayout();  // the context outlives the device
    auto kernels = std::make_unique<CudaIcdKernels>(context);
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<CudaQueues> queues, CudaQueues::open(std::move(context)));
    return makeQueuedIcdDevice(std::move(queues), std::move(kernels), resident);
}

}  // namespace tomo::cuda
