#include "gpu/cuda/mbir/CudaIcdDevice.h"

#include <algorithm>
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
        TOMO_ASSIGN_OR_RETURN(m_x, upload(x, "image"));
        TOMO_ASSIGN_OR_RETURN(m_e, upload(e, "error sinogram"));
        TOMO_ASSIGN_OR_RETURN(m_w, upload(w, "weight sinogram"));
        TOMO_ASSIGN_OR_RETURN(m_tiles, upload(layout.tiles, "chunked matrix"));
        TOMO_ASSIGN_OR_RETURN(m_meta, upload(layout.chunkMeta, "chunk table"));
        TOMO_ASSIGN_OR_RETURN(m_scale, upload(layout.scale, "voxel scales"));
        TOMO_ASSIGN_OR_RETURN(m_order, upload(layout.order, "voxel orders"));
        TOMO_ASSIGN_OR_RETURN(m_svBase, upload(layout.svBase, "SV bands"));
        TOMO_ASSIGN_OR_RETURN(m_svFirst, upload(layout.svFirst, "SV starts"));
        TOMO_ASSIGN_OR_RETURN(m_svSize, upload(layout.svSize, "SV sizes"));
        const std::size_t svs = std::max<std::size_t>(layout.svCount(), 1);
        TOMO_ASSIGN_OR_RETURN(m_list, DeviceBuffer::create(svs * 4, "GPU-ICD pass list"));
        TOMO_ASSIGN_OR_RETURN(m_moved, DeviceBuffer::create(svs * 4, "GPU-ICD SV updates"));
        TOMO_ASSIGN_OR_RETURN(m_updates, DeviceBuffer::create(svs * 4, "GPU-ICD SV counts"));
        TOMO_ASSIGN_OR_RETURN(
            m_counters, DeviceBuffer::create(std::size_t(options.batch) * 4, "GPU-ICD counters"));
        const std::size_t svb = std::size_t(options.batch) * std::size_t(layout.rows) *
                                std::size_t(layout.pitch) * sizeof(float);
        TOMO_ASSIGN_OR_RETURN(m_svbE, DeviceBuffer::create(svb, "GPU-ICD SVB errors"));
        TOMO_ASSIGN_OR_RETURN(m_svbOld, DeviceBuffer::create(svb, "GPU-ICD SVB snapshots"));
        TOMO_ASSIGN_OR_RETURN(m_svbW, DeviceBuffer::create(svb, "GPU-ICD SVB weights"));
        return synchronize("GPU-ICD upload");
    }

    Status beginPass(const std::vector<std::int32_t>& svs, std::uint32_t rotation) override {
        m_passSize = svs.size();
        m_rotation = rotation;
        const cudaStream_t s = m_device->stream(1);
        TOMO_RETURN_IF_ERROR(cudaCheck(
            cudaMemcpyAsync(m_list.get(), svs.data(), svs.size() * 4, cudaMemcpyHostToDevice, s),
            "cudaMemcpyAsync(GPU-ICD pass list)"));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemsetAsync(m_moved.get(), 0, svs.size() * 4, s),
                                       "cudaMemsetAsync(GPU-ICD SV updates)"));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemsetAsync(m_updates.get(), 0, svs.size() * 4, s),
                                       "cudaMemsetAsync(GPU-ICD SV counts)"));
        return synchronize("GPU-ICD pass list");  // the host vector may go away
    }

    Status runBatch(int first, int count) override {
        const GpuIcdLayout& l = *m_layout;
        IcdSheetArgs sheet;
        sheet.e = m_e.as<float>();
        sheet.w = m_w.as<float>();
        sheet.views = l.views;
        sheet.rowLength = l.channels + 2 * l.padding;
        sheet.padding = l.padding;
        sheet.rows = l.rows;
        sheet.pitch = l.pitch;
        sheet.list = m_list.as<int>();
        sheet.first = first;
        sheet.svBase = m_svBase.as<int>();
        sheet.svbE = m_svbE.as<float>();
        sheet.svbOld = m_svbOld.as<float>();
        sheet.svbW = m_svbW.as<float>();
        sheet.counters = m_counters.as<int>();
        const cudaStream_t s = m_device->stream(1);
        TOMO_RETURN_IF_ERROR(launchIcdGather(sheet, count, s));
        TOMO_RETURN_IF_ERROR(launchIcdUpdate(updateArgs(first), count, m_options.groupSize, s));
        return launchIcdWriteBack(sheet, count, s);
    }

    Status endPass(std::vector<float>& moved, std::vector<std::int32_t>& updates) override {
        moved.resize(m_passSize);
        updates.resize(m_passSize);
        TOMO_RETURN_IF_ERROR(download(moved.data(), m_moved, m_passSize * 4, "SV updates"));
        return download(updates.data(), m_updates, m_passSize * 4, "SV counts");
    }

    Status read(std::vector<float>& x, std::vector<float>& e) override {
        x.resize(m_layout->voxels());
        e.resize(std::size_t(m_layout->views) *
                 std::size_t(m_layout->channels + 2 * m_layout->padding));
        TOMO_RETURN_IF_ERROR(download(x.data(), m_x, x.size() * 4, "image"));
        return download(e.data(), m_e, e.size() * 4, "error sinogram");
    }

  private:
    IcdUpdateArgs updateArgs(int first) const {
        const GpuIcdLayout& l = *m_layout;
        IcdUpdateArgs a;
        a.x = m_x.as<float>();
        a.svbE = m_svbE.as<float>();
        a.svbW = m_svbW.as<float>();
        a.tiles = m_tiles.as<std::uint8_t>();
        a.chunkMeta = m_meta.as<uint2>();
        a.scale = m_scale.as<float>();
        a.order = m_order.as<int>();
        a.svFirst = m_svFirst.as<int>();
        a.svSize = m_svSize.as<int>();
        a.list = m_list.as<int>();
        a.first = first;
        a.counters = m_counters.as<int>();
        a.moved = m_moved.as<float>();
        a.updates = m_updates.as<int>();
        a.blocksPerSv = m_options.blocksPerSv;
        a.rows = l.rows;
        a.pitch = l.pitch;
        a.chunks = l.chunks;
        a.nx = l.nx;
        a.ny = l.ny;
        a.rotation = m_rotation;
        a.k = m_constants;
        return a;
    }

    template <class T>
    Result<DeviceBuffer> upload(const std::vector<T>& data, const std::string& what) {
        const std::size_t bytes = std::max<std::size_t>(data.size() * sizeof(T), 4);
        TOMO_ASSIGN_OR_RETURN(DeviceBuffer b, DeviceBuffer::create(bytes, "GPU-ICD " + what));
        if (!data.empty())
            TOMO_RETURN_IF_ERROR(cudaCheck(
                cudaMemcpy(b.get(), data.data(), data.size() * sizeof(T), cudaMemcpyHostToDevice),
                "cudaMemcpy(GPU-ICD " + what + ")"));
        return b;
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
    DeviceBuffer m_x, m_e, m_w, m_tiles, m_meta, m_scale, m_order, m_svBase, m_svFirst, m_svSize;
    DeviceBuffer m_list, m_moved, m_updates, m_counters, m_svbE, m_svbOld, m_svbW;
};

}  // namespace

Result<std::unique_ptr<IcdDevice>> makeCudaIcdDevice(std::shared_ptr<CudaDeviceContext> context) {
    if (!context) {
        TOMO_ASSIGN_OR_RETURN(context, CudaDeviceContext::open(-1));
    }
    return std::unique_ptr<IcdDevice>(std::make_unique<CudaIcdDevice>(std::move(context)));
}

}  // namespace tomo::cuda
