#include "gpu/cuda/mbir/CudaIcdDevice.h"

#include <array>
#include <vector>

#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/mbir/IcdKernels.h"

namespace tomo::cuda {
namespace {

class CudaIcdDevice final : public IcdDevice {
  public:
    explicit CudaIcdDevice(std::shared_ptr<CudaDeviceContext> device)
        : m_device(std::move(device)) {}

    ~CudaIcdDevice() override {
        if (m_device) m_device->synchronizeStreams();  // nothing may outlive the buffers
    }

    std::string name() const override { return "CUDA " + m_device->traits().label(); }
    std::size_t memoryBudget() const override { return m_device->memoryBudget(); }

    Status load(const GpuIcdLayout& layout, const GpuIcdOptions& options,
                const IcdKernelConstants& constants, const std::vector<float>& x,
                const std::vector<float>& e, const std::vector<float>& w) override {
        TOMO_RETURN_IF_ERROR(options.validate());
        if (options.groupSize < 32)
            return invalidArgument("GPU-ICD on CUDA: blocks of at least 32 threads");
        TOMO_RETURN_IF_ERROR(m_device->activate());
        const std::size_t need = layout.deviceBytes(options.batch);
        if (need > m_device->memoryBudget())
            return outOfMemory("GPU-ICD needs " + mebibytes(need) + " on " +
                               m_device->traits().name + ", which allows " +
                               mebibytes(m_device->memoryBudget()));
        m_layout = &layout;
        m_options = options;
        m_constants = constants;
        // The layout's buffers are the context's scratch, kept between solves: the slices of a
        // stack (one layout, GpuIcdLayoutCache) upload them once. The device is held meanwhile.
        if (!m_lock.owns_lock()) m_lock = m_device->lockScratch();
        // Forgotten until every buffer is in place: a load that fails halfway uploads all next.
        const IcdResidentLayout held = m_device->icdLayout();
        m_device->icdLayout().forget();
        const auto specs = icdBuffers(layout, options.batch, &x, &e, &w);
        for (int b = 0; b < kIcdBufferCount; ++b) {
            const IcdBufferSpec& spec = specs[std::size_t(b)];
            const std::string what = std::string("GPU-ICD ") + spec.what;
            bool reallocated = true;
            if (icdLayoutBuffer(b)) {
                const std::size_t before = m_device->scratchAllocations();
                TOMO_ASSIGN_OR_RETURN(m_buffer[std::size_t(b)], m_device->device(what, spec.bytes));
                reallocated = m_device->scratchAllocations() != before;
            } else {
                TOMO_ASSIGN_OR_RETURN(m_owned[std::size_t(b)],
                                      DeviceBuffer::create(spec.bytes, what));
                m_buffer[std::size_t(b)] = &m_owned[std::size_t(b)];
            }
            if (spec.init && held.needsUpload(layout, b, reallocated))
                TOMO_RETURN_IF_ERROR(
                    cudaCheck(cudaMemcpy(m_buffer[std::size_t(b)]->get(), spec.init, spec.bytes,
                                         cudaMemcpyHostToDevice),
                              "cudaMemcpy(" + what + ")"));
        }
        TOMO_RETURN_IF_ERROR(synchronize("GPU-ICD upload"));
        m_device->icdLayout().loaded(layout);
        return Status::ok();
    }

    Status beginPass(const std::vector<std::int32_t>& svs, std::uint32_t rotation,
                     bool skipZeros) override {
        m_passSize = svs.size();
        m_rotation = rotation;
        m_skipZeros = skipZeros;
        const cudaStream_t s = m_device->stream(1);
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemcpyAsync(buf(kIcdPassList).get(), svs.data(),
                                                       svs.size() * 4, cudaMemcpyHostToDevice, s),
                                       "cudaMemcpyAsync(GPU-ICD pass list)"));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemsetAsync(buf(kIcdMoved).get(), 0, svs.size() * 4, s),
                                       "cudaMemsetAsync(GPU-ICD SV updates)"));
        TOMO_RETURN_IF_ERROR(
            cudaCheck(cudaMemsetAsync(buf(kIcdUpdates).get(), 0, svs.size() * 4, s),
                      "cudaMemsetAsync(GPU-ICD SV counts)"));
        return synchronize("GPU-ICD pass list");  // the host vector may go away
    }

    Status runBatch(int first, int count) override {
        const GpuIcdLayout& l = *m_layout;
        IcdSheetArgs sheet;
        sheet.e = buf(kIcdError).as<float>();
        sheet.w = buf(kIcdWeight).as<float>();
        sheet.views = l.views;
        sheet.rowLength = l.channels + 2 * l.padding;
        sheet.padding = l.padding;
        sheet.rows = l.rows;
        sheet.pitch = l.pitch;
        sheet.list = buf(kIcdPassList).as<int>();
        sheet.first = first;
        sheet.svBase = buf(kIcdSvBase).as<int>();
        sheet.svbE = buf(kIcdSvbError).as<float>();
        sheet.svbOld = buf(kIcdSvbOld).as<float>();
        sheet.svbW = buf(kIcdSvbWeight).as<float>();
        sheet.counters = buf(kIcdCounters).as<int>();
        const cudaStream_t s = m_device->stream(1);
        TOMO_RETURN_IF_ERROR(launchIcdGather(sheet, count, s));
        TOMO_RETURN_IF_ERROR(launchIcdUpdate(updateArgs(first), count, m_options.groupSize, s));
        return launchIcdWriteBack(sheet, count, s);
    }

    Status endPass(std::vector<float>& moved, std::vector<std::int32_t>& updates) override {
        moved.resize(m_passSize);
        updates.resize(m_passSize);
        TOMO_RETURN_IF_ERROR(download(moved.data(), buf(kIcdMoved), m_passSize * 4, "SV updates"));
        return download(updates.data(), buf(kIcdUpdates), m_passSize * 4, "SV counts");
    }

    Status read(std::vector<float>& x, std::vector<float>& e) override {
        x.resize(m_layout->voxels());
        e.resize(std::size_t(m_layout->views) *
                 std::size_t(m_layout->channels + 2 * m_layout->padding));
        TOMO_RETURN_IF_ERROR(download(x.data(), buf(kIcdImage), x.size() * 4, "image"));
        return download(e.data(), buf(kIcdError), e.size() * 4, "error sinogram");
    }

  private:
    const DeviceBuffer& buf(IcdBuffer b) const { return *m_buffer[std::size_t(b)]; }

    IcdUpdateArgs updateArgs(int first) const {
        const GpuIcdLayout& l = *m_layout;
        IcdUpdateArgs a;
        a.x = buf(kIcdImage).as<float>();
        a.svbE = buf(kIcdSvbError).as<float>();
        a.svbW = buf(kIcdSvbWeight).as<float>();
        a.tiles = buf(kIcdTiles).as<std::uint8_t>();
        a.chunkMeta = buf(kIcdChunkMeta).as<uint2>();
        a.scale = buf(kIcdScale).as<float>();
        a.order = buf(kIcdOrder).as<int>();
        a.svFirst = buf(kIcdSvFirst).as<int>();
        a.svSize = buf(kIcdSvSize).as<int>();
        a.list = buf(kIcdPassList).as<int>();
        a.first = first;
        a.counters = buf(kIcdCounters).as<int>();
        a.moved = buf(kIcdMoved).as<float>();
        a.updates = buf(kIcdUpdates).as<int>();
        a.blocksPerSv = m_options.blocksPerSv;
        a.rows = l.rows;
        a.pitch = l.pitch;
        a.chunks = l.chunks;
        a.nx = l.nx;
        a.ny = l.ny;
        a.rotation = m_rotation;
        a.k = m_constants;
        a.k.zeroSkip = m_constants.zeroSkip && m_skipZeros ? 1 : 0;
        return a;
    }

    /// Waits for the kernels before it, then copies @p bytes of @p from into @p to.
    Status download(void* to, const DeviceBuffer& from, std::size_t bytes, const char* what) {
        if (bytes == 0) return Status::ok();
        TOMO_RETURN_IF_ERROR(cudaCheck(
            cudaMemcpyAsync(to, from.get(), bytes, cudaMemcpyDeviceToHost, m_device->stream(1)),
            std::string("cudaMemcpyAsync(GPU-ICD ") + what + ")"));
        return synchronize(what);
    }

    Status synchronize(const std::string& what) {
        return cudaCheck(cudaStreamSynchronize(m_device->stream(1)), "GPU-ICD: " + what);
    }

    std::shared_ptr<CudaDeviceContext> m_device;
    const GpuIcdLayout* m_layout = nullptr;
    GpuIcdOptions m_options;
    IcdKernelConstants m_constants;
    std::size_t m_passSize = 0;
    std::uint32_t m_rotation = 0;
    bool m_skipZeros = false;             // this pass may skip zero voxels (beginPass)
    std::unique_lock<std::mutex> m_lock;  ///< the context's scratch, held from load() on
    std::array<DeviceBuffer, kIcdBufferCount> m_owned;      ///< state and per-pass buffers
    std::array<DeviceBuffer*, kIcdBufferCount> m_buffer{};  ///< every buffer (layout: scratch)
};

}  // namespace

Result<std::unique_ptr<IcdDevice>> makeCudaIcdDevice(std::shared_ptr<CudaDeviceContext> context) {
    if (!context) {
        TOMO_ASSIGN_OR_RETURN(context, CudaDeviceContext::open(-1));
    }
    return std::unique_ptr<IcdDevice>(std::make_unique<CudaIcdDevice>(std::move(context)));
}

}  // namespace tomo::cuda
