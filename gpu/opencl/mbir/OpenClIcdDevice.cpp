#include "gpu/opencl/mbir/OpenClIcdDevice.h"

#include <algorithm>
#include <array>
#include <vector>

#include "gpu/opencl/internal/ClDeviceContext.h"
#include "gpu/opencl/internal/ClHandle.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {
namespace {

std::size_t roundUp(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

class OpenClIcdDevice final : public IcdDevice {
  public:
    explicit OpenClIcdDevice(std::shared_ptr<ClDeviceContext> device)
        : m_device(std::move(device)) {}
    ~OpenClIcdDevice() override {
        if (m_device && m_lock.owns_lock()) clFinish(m_device->queue(1));  // before the unlock
    }

    std::string name() const override { return "OpenCL " + m_device->traits().name; }
    std::size_t memoryBudget() const override { return m_device->memoryBudget(); }

    Status load(const GpuIcdLayout& layout, const GpuIcdOptions& options,
                const IcdKernelConstants& constants, const std::vector<float>& x,
                const std::vector<float>& e, const std::vector<float>& w) override {
        TOMO_RETURN_IF_ERROR(options.validate());
        if (m_device->traits().maxWorkGroupSize < std::size_t(options.groupSize))
            return unsupported("GPU-ICD: work-groups of " + std::to_string(options.groupSize) +
                               " work-items needed, device '" + m_device->traits().name +
                               "' allows " + std::to_string(m_device->traits().maxWorkGroupSize));
        const std::size_t need = layout.deviceBytes(options.batch);
        if (need > m_device->memoryBudget())
            return outOfMemory("GPU-ICD needs " + std::to_string(need >> 20) + " MiB on " +
                               m_device->traits().name + ", which allows " +
                               std::to_string(m_device->memoryBudget() >> 20) + " MiB");
        m_layout = &layout;
        m_options = options;
        m_constants = constants;
        TOMO_ASSIGN_OR_RETURN(ClProgram program,
                              m_device->program("icd.cl", kernelSource("icd.cl"),
                                                "-D CHUNK=" + std::to_string(kIcdChunkViews) +
                                                    " -D LANES=" + std::to_string(kIcdLanes)));
        TOMO_ASSIGN_OR_RETURN(m_gather, m_device->kernel(program, "icdGather"));
        TOMO_ASSIGN_OR_RETURN(m_update, m_device->kernel(program, "icdUpdate"));
        TOMO_ASSIGN_OR_RETURN(m_writeBack, m_device->kernel(program, "icdWriteBack"));
        // The layout's buffers are the context's scratch, kept between solves (the device is
        // held meanwhile): the slices of a stack upload them once (IcdResidentLayout).
        if (!m_lock.owns_lock()) m_lock = m_device->lockScratch();
        const IcdResidentLayout held = m_device->icdLayout();
        m_device->icdLayout().forget();  // until every buffer is in place
        const auto specs = icdBuffers(layout, options.batch, &x, &e, &w);
        for (int b = 0; b < kIcdBufferCount; ++b) {
            const IcdBufferSpec& spec = specs[std::size_t(b)];
            const std::string what = std::string(spec.what) + " of GPU-ICD";
            bool reallocated = true;
            if (icdLayoutBuffer(b)) {
                const std::size_t before = m_device->scratchAllocations();
                TOMO_ASSIGN_OR_RETURN(m_mem[std::size_t(b)],
                                      m_device->scratchBuffer(what, spec.bytes));
                reallocated = m_device->scratchAllocations() != before;
            } else {
                TOMO_ASSIGN_OR_RETURN(m_owned[std::size_t(b)],
                                      m_device->createBuffer(CL_MEM_READ_WRITE, spec.bytes, what));
                m_mem[std::size_t(b)] = m_owned[std::size_t(b)].get();
            }
            if (spec.init && held.needsUpload(layout, b, reallocated))
                TOMO_RETURN_IF_ERROR(
                    write(m_mem[std::size_t(b)], spec.init, spec.bytes, spec.what));
        }
        m_device->icdLayout().loaded(layout);
        return Status::ok();
    }

    Status beginPass(const std::vector<std::int32_t>& svs, std::uint32_t rotation,
                     bool skipZeros) override {
        m_passSize = svs.size();
        m_rotation = rotation;
        m_skipZeros = skipZeros;
        const std::vector<std::int32_t> zeros(svs.size(), 0);
        TOMO_RETURN_IF_ERROR(write(buf(kIcdPassList), svs.data(), svs.size() * 4, "pass list"));
        TOMO_RETURN_IF_ERROR(write(buf(kIcdMoved), zeros.data(), zeros.size() * 4, "SV updates"));
        return write(buf(kIcdUpdates), zeros.data(), zeros.size() * 4, "SV counts");
    }

    Status runBatch(int first, int count) override {
        const GpuIcdLayout& l = *m_layout;
        const cl_int rowLength = l.channels + 2 * l.padding;
        const std::size_t sheet[3] = {roundUp(std::size_t(l.pitch), 32),
                                      roundUp(std::size_t(l.rows), 8), std::size_t(count)};
        const std::size_t sheetLocal[3] = {32, 8, 1};
        TOMO_RETURN_IF_ERROR(setKernelArgs(m_gather, buf(kIcdError), buf(kIcdWeight),
                                           buf(kIcdPassList), cl_int(first), buf(kIcdSvBase),
                                           cl_int(l.views), rowLength, cl_int(l.padding),
                                           cl_int(l.rows), cl_int(l.pitch), buf(kIcdSvbError),
                                           buf(kIcdSvbOld), buf(kIcdSvbWeight), buf(kIcdCounters)));
        TOMO_RETURN_IF_ERROR(enqueue(m_gather, 3, sheet, sheetLocal, "icdGather"));
        TOMO_RETURN_IF_ERROR(setUpdateArgs(first));
        const std::size_t group = std::size_t(m_options.groupSize);
        const std::size_t global[1] = {std::size_t(count) * std::size_t(m_options.blocksPerSv) *
                                       group};
        const std::size_t local[1] = {group};
        TOMO_RETURN_IF_ERROR(enqueue(m_update, 1, global, local, "icdUpdate"));
        TOMO_RETURN_IF_ERROR(setKernelArgs(m_writeBack, buf(kIcdError), buf(kIcdSvbError),
                                           buf(kIcdSvbOld), buf(kIcdPassList), cl_int(first),
                                           buf(kIcdSvBase), cl_int(l.views), rowLength,
                                           cl_int(l.padding), cl_int(l.rows), cl_int(l.pitch)));
        return enqueue(m_writeBack, 3, sheet, sheetLocal, "icdWriteBack");
    }

    Status endPass(std::vector<float>& moved, std::vector<std::int32_t>& updates) override {
        moved.resize(m_passSize);
        updates.resize(m_passSize);
        TOMO_RETURN_IF_ERROR(read(buf(kIcdMoved), moved.data(), m_passSize * 4, "SV updates"));
        return read(buf(kIcdUpdates), updates.data(), m_passSize * 4, "SV counts");
    }

    Status read(std::vector<float>& x, std::vector<float>& e) override {
        x.resize(m_layout->voxels());
        e.resize(std::size_t(m_layout->views) *
                 std::size_t(m_layout->channels + 2 * m_layout->padding));
        TOMO_RETURN_IF_ERROR(read(buf(kIcdImage), x.data(), x.size() * 4, "image"));
        return read(buf(kIcdError), e.data(), e.size() * 4, "error sinogram");
    }

  private:
    cl_mem buf(IcdBuffer b) const { return m_mem[std::size_t(b)]; }

    Status setUpdateArgs(int first) {
        const GpuIcdLayout& l = *m_layout;
        const IcdKernelConstants& k = m_constants;
        TOMO_RETURN_IF_ERROR(setKernelArgs(
            m_update, buf(kIcdImage), buf(kIcdSvbError), buf(kIcdSvbWeight), buf(kIcdTiles),
            buf(kIcdChunkMeta), buf(kIcdScale), buf(kIcdOrder), buf(kIcdSvFirst), buf(kIcdSvSize),
            buf(kIcdPassList), cl_int(first), buf(kIcdCounters), buf(kIcdMoved), buf(kIcdUpdates),
            cl_int(m_options.blocksPerSv), cl_int(l.rows), cl_int(l.pitch), cl_int(l.chunks),
            cl_int(l.nx), cl_int(l.ny), cl_uint(m_rotation), k.invSigmaY2, k.p, k.q, k.invSigmaP,
            k.invTs, k.floor, k.nearest, k.diagonal, cl_int(k.positivity),
            cl_int(k.zeroSkip && m_skipZeros ? 1 : 0)));
        const std::size_t bytes = std::size_t(m_options.groupSize) * sizeof(float);
        TOMO_RETURN_IF_ERROR(setLocalArg(m_update, 31, bytes));
        return setLocalArg(m_update, 32, bytes);
    }

    Status enqueue(const ClKernel& kernel, cl_uint dims, const std::size_t* global,
                   const std::size_t* local, const char* what) {
        return clCheck(clEnqueueNDRangeKernel(m_device->queue(1), kernel.get(), dims, nullptr,
                                              global, local, 0, nullptr, nullptr),
                       std::string("clEnqueueNDRangeKernel(") + what + ")");
    }

    /// Blocking writes and reads on the kernel queue (in order with the launches).
    Status write(cl_mem mem, const void* data, std::size_t bytes, const std::string& what) {
        if (bytes == 0) return Status::ok();
        return clCheck(clEnqueueWriteBuffer(m_device->queue(1), mem, CL_TRUE, 0, bytes, data, 0,
                                            nullptr, nullptr),
                       "clEnqueueWriteBuffer(" + what + ")");
    }
    Status read(cl_mem mem, void* data, std::size_t bytes, const std::string& what) {
        if (bytes == 0) return Status::ok();
        return clCheck(clEnqueueReadBuffer(m_device->queue(1), mem, CL_TRUE, 0, bytes, data, 0,
                                           nullptr, nullptr),
                       "clEnqueueReadBuffer(" + what + ")");
    }

    std::shared_ptr<ClDeviceContext> m_device;
    const GpuIcdLayout* m_layout = nullptr;
    GpuIcdOptions m_options;
    IcdKernelConstants m_constants;
    std::size_t m_passSize = 0;
    std::uint32_t m_rotation = 0;
    bool m_skipZeros = false;  // this pass may skip zero voxels (beginPass)
    ClKernel m_gather, m_update, m_writeBack;
    std::unique_lock<std::mutex> m_lock;          ///< the context's scratch, from load() on
    std::array<ClMem, kIcdBufferCount> m_owned;   ///< state and per-pass buffers
    std::array<cl_mem, kIcdBufferCount> m_mem{};  ///< every buffer (layout: scratch)
};

}  // namespace

Result<std::unique_ptr<IcdDevice>> makeOpenClIcdDevice(std::shared_ptr<ClDeviceContext> context,
                                                       const std::string& cacheDirectory) {
    if (!context) {
        ClDeviceOptions options;
        options.cacheDirectory = cacheDirectory;
        TOMO_ASSIGN_OR_RETURN(context, ClDeviceContext::open(-1, options));
    }
    return std::unique_ptr<IcdDevice>(std::make_unique<OpenClIcdDevice>(std::move(context)));
}

}  // namespace tomo::opencl
