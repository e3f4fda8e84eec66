#include "gpu/opencl/mbir/OpenClIcdDevice.h"

#include <memory>
#include <string>

#include "core/mbir/QueuedIcdDevice.h"
#include "gpu/opencl/internal/ClDeviceContext.h"
#include "gpu/opencl/internal/ClHandle.h"
#include "gpu/opencl/internal/ClQueues.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {
namespace {

std::size_t roundUp(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

/// The kernels of icd.cl on the context's compute queue (the host loop: core/mbir/
/// QueuedIcdDevice.h).
class ClIcdKernels final : public IcdKernels {
  public:
    explicit ClIcdKernels(std::shared_ptr<ClDeviceContext> device) : m_device(std::move(device)) {}

    std::string name() const override { return "OpenCL " + m_device->traits().name; }

    Status prepare(const GpuIcdOptions& options) override {
        if (m_device->traits().maxWorkGroupSize < std::size_t(options.groupSize))
            return unsupported("GPU-ICD: work-groups of " + std::to_string(options.groupSize) +
                               " work-items needed, device '" + m_device->traits().name +
                               "' allows " + std::to_string(m_device->traits().maxWorkGroupSize));
        // The tile build computes the host's channels in double (icd.cl icdTiles).
        if (!m_device->traits().hasExtension("cl_khr_fp64"))
            return unsupported("GPU-ICD builds its tiles in double precision; device '" +
                               m_device->traits().name + "' has no cl_khr_fp64");
        if (m_update) return Status::ok();
        TOMO_ASSIGN_OR_RETURN(ClProgram program,
                              m_device->program("icd.cl", kernelSource("icd.cl"),
                                                "-D CHUNK=" + std::to_string(kIcdChunkViews) +
                                                    " -D LANES=" + std::to_string(kIcdLanes)));
        TOMO_ASSIGN_OR_RETURN(m_gather, m_device->kernel(program, "icdGather"));
        TOMO_ASSIGN_OR_RETURN(m_update, m_device->kernel(program, "icdUpdate"));
        TOMO_ASSIGN_OR_RETURN(m_writeBack, m_device->kernel(program, "icdWriteBack"));
        TOMO_ASSIGN_OR_RETURN(m_tiles, m_device->kernel(program, "icdTiles"));
        return Status::ok();
    }

    Status buildTiles(const IcdLaunchState& state, int first, int count) override {
        const GpuIcdLayout& l = *state.layout;
        auto buf = [&](IcdBuffer b) { return ClQueues::mem(state.buffers[std::size_t(b)]); };
        TOMO_RETURN_IF_ERROR(setKernelArgs(m_tiles, buf(kIcdCodes), cl_int(first), cl_int(count),
                                           buf(kIcdChannelTerms), buf(kIcdViewRuns),
                                           buf(kIcdSvBase), buf(kIcdChunkMeta), cl_int(l.views),
                                           cl_int(l.chunks), cl_int(l.nx), cl_int(l.ny),
                                           cl_int(l.side), cl_int(l.columnSize), buf(kIcdTiles)));
        // A work-group of the chunk's 32 views per voxel and chunk.
        const std::size_t global[2] = {std::size_t(count) * kIcdChunkViews, std::size_t(l.chunks)};
        const std::size_t local[2] = {std::size_t(kIcdChunkViews), 1};
        return enqueue(m_tiles, 2, global, local, "icdTiles");
    }

    Status runBatch(const IcdLaunchState& state, int first, int count) override {
        const GpuIcdLayout& l = *state.layout;
        auto buf = [&](IcdBuffer b) { return ClQueues::mem(state.buffers[std::size_t(b)]); };
        const cl_int rowLength = l.channels + 2 * l.padding, svCount = cl_int(l.svCount());
        const std::size_t sheet[3] = {roundUp(std::size_t(l.pitch), 32),
                                      roundUp(std::size_t(l.rows), 8), std::size_t(count)};
        const std::size_t sheetLocal[3] = {32, 8, 1};
        TOMO_RETURN_IF_ERROR(setKernelArgs(
            m_gather, buf(kIcdError), buf(kIcdWeight), buf(kIcdPassList), cl_int(first),
            buf(kIcdSvBase), cl_int(l.views), rowLength, cl_int(l.padding), cl_int(l.rows),
            cl_int(l.pitch), svCount, buf(kIcdSvbError), buf(kIcdSvbOld), buf(kIcdSvbWeight),
            buf(kIcdCounters)));
        TOMO_RETURN_IF_ERROR(enqueue(m_gather, 3, sheet, sheetLocal, "icdGather"));
        const IcdKernelConstants& k = state.constants;
        TOMO_RETURN_IF_ERROR(setKernelArgs(
            m_update, buf(kIcdImage), buf(kIcdSvbError), buf(kIcdSvbWeight), buf(kIcdTiles),
            buf(kIcdChunkMeta), buf(kIcdScale), buf(kIcdOrder), buf(kIcdSvFirst), buf(kIcdSvSize),
            buf(kIcdPassList), cl_int(first), buf(kIcdCounters), buf(kIcdMoved), buf(kIcdUpdates),
            cl_int(state.options.blocksPerSv), cl_int(l.rows), cl_int(l.pitch), cl_int(l.chunks),
            cl_int(l.nx), cl_int(l.ny), svCount, cl_int(state.slices), cl_uint(state.rotation),
            k.invSigmaY2, k.p, k.q, k.invSigmaP, k.invTs, k.floor, k.nearest, k.diagonal, k.across,
            cl_int(k.positivity), cl_int(k.zeroSkip)));
        const std::size_t group = std::size_t(state.options.groupSize);
        TOMO_RETURN_IF_ERROR(setLocalArg(m_update, 34, group * sizeof(float)));
        TOMO_RETURN_IF_ERROR(setLocalArg(m_update, 35, group * sizeof(float)));
        const std::size_t global[1] = {std::size_t(count) * std::size_t(state.options.blocksPerSv) *
                                       group};
        const std::size_t local[1] = {group};
        TOMO_RETURN_IF_ERROR(enqueue(m_update, 1, global, local, "icdUpdate"));
        TOMO_RETURN_IF_ERROR(
            setKernelArgs(m_writeBack, buf(kIcdError), buf(kIcdSvbError), buf(kIcdSvbOld),
                          buf(kIcdPassList), cl_int(first), buf(kIcdSvBase), cl_int(l.views),
                          rowLength, cl_int(l.padding), cl_int(l.rows), cl_int(l.pitch), svCount));
        return enqueue(m_writeBack, 3, sheet, sheetLocal, "icdWriteBack");
    }

  private:
    Status enqueue(const ClKernel& kernel, cl_uint dims, const std::size_t* global,
                   const std::size_t* local, const char* what) {
        return clCheck(
            clEnqueueNDRangeKernel(m_device->queue(int(QueueRole::Compute)), kernel.get(), dims,
                                   nullptr, global, local, 0, nullptr, nullptr),
            std::string("clEnqueueNDRangeKernel(") + what + ")");
    }

    std::shared_ptr<ClDeviceContext> m_device;
    ClKernel m_gather, m_update, m_writeBack, m_tiles;
};

}  // namespace

Result<std::unique_ptr<IcdDevice>> makeOpenClIcdDevice(std::shared_ptr<ClDeviceContext> context,
                                                       const std::string& cacheDirectory) {
    if (!context) {
        ClDeviceOptions options;
        options.cacheDirectory = cacheDirectory;
        TOMO_ASSIGN_OR_RETURN(context, ClDeviceContext::open(-1, options));
    }
    IcdResidentLayout& resident = context->icdLayout();  // the context outlives the device
    auto kernels = std::make_unique<ClIcdKernels>(context);
    return makeQueuedIcdDevice(std::make_unique<ClQueues>(std::move(context)), std::move(kernels),
                               resident);
}

}  // namespace tomo::opencl
