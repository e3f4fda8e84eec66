// ClBackProjector: chunking, staging, double buffering and read-back around a ClKernelLauncher
// (see ClBackProjector.h).
#include "gpu/opencl/internal/ClBackProjector.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace tomo::opencl {

struct ClBackProjector::Plan : PassPlan {};

namespace {

/// Finishes both queues when leaving backProject, so that no enqueued command outlives the
/// buffers or writes into the volume after the call returned.
struct FinishQueues {
    ClDeviceContext& device;
    ~FinishQueues() {
        clFinish(device.queue(0));
        clFinish(device.queue(1));
    }
};

/// The sinogram buffers of one of the two alternating item slots (output bands alternate per
/// band instead, since the angle chunks of a band accumulate into one buffer).
struct BufferSet {
    ClMem staging;
    ClMem sinogram;
    ClEvent upload;
    ClEvent lastKernel;
};

}  // namespace

ClBackProjector::ClBackProjector(BackProjectorInfo info, std::shared_ptr<ClDeviceContext> device,
                                 std::unique_ptr<ClKernelLauncher> launcher,
                                 ClBackProjectorOptions options)
    : m_info(std::move(info)),
      m_device(std::move(device)),
      m_launcher(std::move(launcher)),
      m_options(options) {}

ClBackProjector::~ClBackProjector() = default;

Result<ClBackProjector::Plan> ClBackProjector::plan(const Sinograms& sino,
                                                    const VolumeGeometry& vol, int shrink) const {
    const ClDeviceTraits& t = m_device->traits();
    const int angles = static_cast<int>(sino.dim(1)), det = static_cast<int>(sino.dim(2));
    if (m_launcher->usesImage() && static_cast<std::size_t>(det) > t.image2dMaxWidth)
        return unsupported(m_info.id + ": " + std::to_string(det) +
                           " detector pixels exceed the image width limit of " + t.name + " (" +
                           std::to_string(t.image2dMaxWidth) + ")");
    PassLimits l;
    l.slices = vol.nz;
    l.slicesPerPass = m_launcher->slicesPerPass();
    l.nx = vol.nx;
    l.ny = vol.ny;
    l.angles = angles;
    l.maxAngleChunk = angles;
    if (t.constantBufferBytes > 0)
        l.maxAngleChunk =
            std::min<int>(l.maxAngleChunk,
                          static_cast<int>(t.constantBufferBytes / sizeof(ClProjectionConstants)));
    if (m_launcher->usesImage())
        l.maxAngleChunk = std::min<int>(l.maxAngleChunk, static_cast<int>(t.image2dMaxHeight));
    if (m_options.maxAngleChunk > 0)
        l.maxAngleChunk = std::min(l.maxAngleChunk, m_options.maxAngleChunk);
    l.maxAngleChunk = std::max(l.maxAngleChunk, 1);
    l.maxAllocation = t.maxAllocBytes;
    if (m_options.maxAllocation > 0)
        l.maxAllocation = std::min(l.maxAllocation, m_options.maxAllocation);
    l.budget = m_device->memoryBudget();
    l.sinogramBytes = [&](int chunk) { return m_launcher->packedBytes(chunk, det); };
    l.sinogramCopies = 4;  // staging + device sinogram, two sets
    l.outputCopies = 2;
    l.fixedBytes = static_cast<std::size_t>(angles) * sizeof(ClProjectionConstants);
    l.updatesPerLaunch = m_options.updatesPerLaunch;
    l.projectionAlign = 4;  // whole projection phases
    l.shrink = shrink;
    TOMO_ASSIGN_OR_RETURN(PassPlan p, planPasses(l, m_info.id + " on " + t.name));
    return Plan{p};
}

Status ClBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                    const VolumeGeometry& vol, std::span<const float> weights,
                                    Volume& out, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    TOMO_RETURN_IF_ERROR(m_launcher->prepare(*m_device));
    const std::vector<ClProjectionConstants> constants = gpuProjectionConstants(geom, vol, weights);
    // A buffer the device refuses: smaller items (PassPlan.h), as on every GPU backend.
    Status status;
    for (int shrink = 0; shrink < 24; ++shrink) {
        TOMO_ASSIGN_OR_RETURN(Plan p, plan(sino, vol, shrink));
        status = run(sino, vol, constants, p, out, ctx);
        if (status.code() != ErrorCode::OutOfMemory || p.smallest()) break;
    }
    return status;
}

Status ClBackProjector::run(const Sinograms& sino, const VolumeGeometry& vol,
                            const std::vector<ClProjectionConstants>& constants, const Plan& p,
                            Volume& out, const ExecContext& ctx) {
    ClDeviceContext& dev = *m_device;
    const int angles = static_cast<int>(sino.dim(1)), det = static_cast<int>(sino.dim(2));
    if (m_options.refuseAbove > 0 &&
        (p.sinogramBytes > m_options.refuseAbove || p.outputBytes > m_options.refuseAbove))
        return outOfMemory(m_info.id + ": a buffer of " +
                           std::to_string(std::max(p.sinogramBytes, p.outputBytes)) +
                           " bytes was refused (refuseAbove)");
    cl_command_queue upQueue = dev.queue(0), kernelQueue = dev.queue(1);

    std::vector<ClMem> constantBuffers;
    for (int c = 0; c < p.angleChunks; ++c) {
        const int a0 = c * p.angleChunk, na = std::min(p.angleChunk, angles - a0);
        const std::size_t bytes = static_cast<std::size_t>(na) * sizeof(ClProjectionConstants);
        TOMO_ASSIGN_OR_RETURN(ClMem buf,
                              dev.createBuffer(CL_MEM_READ_ONLY, bytes, "projection constants"));
        TOMO_RETURN_IF_ERROR(clCheck(clEnqueueWriteBuffer(upQueue, buf.get(), CL_TRUE, 0, bytes,
                                                          &constants[a0], 0, nullptr, nullptr),
                                     "clEnqueueWriteBuffer(projection constants)"));
        constantBuffers.push_back(std::move(buf));
    }
    const int items = p.passes * p.bands * p.angleChunks;
    BufferSet sets[2];
    for (int s = 0; s < std::min(items, 2); ++s) {
        TOMO_ASSIGN_OR_RETURN(sets[s].staging,
                              dev.createBuffer(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR,
                                               p.sinogramBytes, "sinogram staging"));
        TOMO_ASSIGN_OR_RETURN(sets[s].sinogram, m_launcher->createSinogram(dev, p.angleChunk, det));
    }
    ClMem outputs[2];
    for (int b = 0; b < std::min(p.passes * p.bands, 2); ++b) {
        TOMO_ASSIGN_OR_RETURN(outputs[b],
                              dev.createBuffer(CL_MEM_READ_WRITE, p.outputBytes, "output band"));
    }
    FinishQueues finish{dev};  // declared after the buffers: runs before they are released

    struct Item {
        int s0, count, rowBegin, rows, chunk, a0, na;
    };
    auto itemAt = [&](int k) {
        const int chunk = k % p.angleChunks, band = (k / p.angleChunks) % p.bands,
                  pass = k / (p.angleChunks * p.bands);
        Item it{};
        it.s0 = pass * p.slicesPerPass;
        it.count = std::min(p.slicesPerPass, vol.nz - it.s0);
        it.rowBegin = band * p.bandRows;
        it.rows = std::min(p.bandRows, vol.ny - it.rowBegin);
        it.chunk = chunk;
        it.a0 = chunk * p.angleChunk;
        it.na = std::min(p.angleChunk, angles - it.a0);
        return it;
    };
    // Maps set k's staging buffer after its previous user's kernels are done.
    auto mapStaging = [&](BufferSet& set) -> Result<void*> {
        TOMO_RETURN_IF_ERROR(waitFor(set.lastKernel, "the previous back-projection"));
        cl_int err = CL_SUCCESS;
        void* ptr =
            clEnqueueMapBuffer(upQueue, set.staging.get(), CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                               0, p.sinogramBytes, 0, nullptr, nullptr, &err);
        TOMO_RETURN_IF_ERROR(clCheck(err, "clEnqueueMapBuffer(sinogram staging)"));
        return ptr;
    };
    auto unmapAndUpload = [&](BufferSet& set, void* ptr, const Item& it) -> Status {
        TOMO_RETURN_IF_ERROR(
            clCheck(clEnqueueUnmapMemObject(upQueue, set.staging.get(), ptr, 0, nullptr, nullptr),
                    "clEnqueueUnmapMemObject(sinogram staging)"));
        TOMO_RETURN_IF_ERROR(m_launcher->enqueueUpload(
            upQueue, set.staging.get(), set.sinogram.get(), it.na, det, {}, set.upload));
        return clCheck(clFlush(upQueue), "clFlush(upload queue)");
    };

    if (ctx.progress)
        ctx.progress->setTotal(static_cast<std::uint64_t>(p.passes) * p.bands *
                               static_cast<std::uint64_t>(angles));
    {
        const Item first = itemAt(0);
        TOMO_ASSIGN_OR_RETURN(void* ptr, mapStaging(sets[0]));
        m_launcher->pack(sino, first.s0, first.count, first.a0, first.na, ptr);
        TOMO_RETURN_IF_ERROR(unmapAndUpload(sets[0], ptr, first));
    }
    for (int k = 0; k < items; ++k) {
        const Item it = itemAt(k);
        BufferSet& set = sets[k & 1];
        const ClMem& output = outputs[(k / p.angleChunks) & 1];
        // Pack item k + 1 on a host thread while the device works on item k.
        void* nextPtr = nullptr;
        std::jthread packer;
        if (k + 1 < items) {
            TOMO_ASSIGN_OR_RETURN(nextPtr, mapStaging(sets[(k + 1) & 1]));
            const Item next = itemAt(k + 1);
            packer = std::jthread([&, next, nextPtr] {
                m_launcher->pack(sino, next.s0, next.count, next.a0, next.na, nextPtr);
            });
        }
        Status status = [&]() -> Status {
            const ClPassShape shape{vol.nx, it.rows, it.rowBegin, det, it.na};
            ClEvent previous;
            int previousCount = 0;
            for (int pb = 0; pb < it.na; pb += p.projPerLaunch) {
                ClLaunch launch{set.sinogram.get(),
                                constantBuffers[it.chunk].get(),
                                output.get(),
                                pb,
                                std::min(it.na, pb + p.projPerLaunch),
                                it.chunk > 0 || pb > 0};
                std::vector<cl_event> wait;
                if (pb == 0) wait.push_back(set.upload.get());
                ClEvent event;
                TOMO_RETURN_IF_ERROR(
                    m_launcher->enqueueKernel(kernelQueue, shape, launch, wait, event));
                TOMO_RETURN_IF_ERROR(clCheck(clFlush(kernelQueue), "clFlush(kernel queue)"));
                TOMO_RETURN_IF_ERROR(waitFor(previous, m_info.id));
                if (ctx.progress && previousCount > 0) ctx.progress->advance(previousCount);
                TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
                previous = std::move(event);
                previousCount = launch.projEnd - launch.projBegin;
            }
            set.lastKernel = std::move(previous);
            if (ctx.progress) ctx.progress->advance(previousCount);
            if (it.chunk + 1 < p.angleChunks) return Status::ok();
            // The band is complete: read it back into the volume's pitched rows.
            const std::size_t bufferOrigin[3] = {0, 0, 0};
            const std::size_t hostOrigin[3] = {0, static_cast<std::size_t>(it.rowBegin),
                                               static_cast<std::size_t>(it.s0)};
            const std::size_t region[3] = {static_cast<std::size_t>(vol.nx) * sizeof(float),
                                           static_cast<std::size_t>(it.rows),
                                           static_cast<std::size_t>(it.count)};
            const std::size_t rowBytes = static_cast<std::size_t>(vol.nx) * sizeof(float);
            const std::size_t hostRow = out.pitch() * sizeof(float);
            return clCheck(
                clEnqueueReadBufferRect(
                    kernelQueue, output.get(), CL_FALSE, bufferOrigin, hostOrigin, region, rowBytes,
                    rowBytes * static_cast<std::size_t>(it.rows), hostRow,
                    hostRow * static_cast<std::size_t>(vol.ny), out.data(), 0, nullptr, nullptr),
                "clEnqueueReadBufferRect(output band)");
        }();
        if (packer.joinable()) packer.join();
        if (nextPtr) {
            Status upload = unmapAndUpload(sets[(k + 1) & 1], nextPtr, itemAt(k + 1));
            if (status.isOk()) status = upload;
        }
        TOMO_RETURN_IF_ERROR(status);
    }
    return Status::ok();
}

}  // namespace tomo::opencl
