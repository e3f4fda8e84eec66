// ClBackProjector: chunking, staging, double buffering and read-back around a ClKernelLauncher
// (see ClBackProjector.h).
#include "gpu/opencl/internal/ClBackProjector.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace tomo::opencl {

struct ClBackProjector::Plan {
    int slicesPerPass = 1;
    int passes = 0;
    int bandRows = 0;
    int bands = 0;
    int angleChunk = 0;
    int angleChunks = 0;
    int projPerLaunch = 1;
    std::size_t packedBytes = 0;
    std::size_t outputBytes = 0;
};

namespace {

std::string mib(std::size_t bytes) {
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

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
                                                    const VolumeGeometry& vol) const {
    const ClDeviceTraits& t = m_device->traits();
    const int angles = static_cast<int>(sino.dim(1)), det = static_cast<int>(sino.dim(2));
    Plan p;
    p.slicesPerPass = m_launcher->slicesPerPass();
    p.passes = (vol.nz + p.slicesPerPass - 1) / p.slicesPerPass;
    std::size_t maxAlloc = t.maxAllocBytes;
    if (m_options.maxAllocation > 0) maxAlloc = std::min(maxAlloc, m_options.maxAllocation);
    if (m_launcher->usesImage() && static_cast<std::size_t>(det) > t.image2dMaxWidth)
        return unsupported(m_info.id + ": " + std::to_string(det) +
                           " detector pixels exceed the image width limit of " + t.name + " (" +
                           std::to_string(t.image2dMaxWidth) + ")");
    p.angleChunk = angles;
    if (t.constantBufferBytes > 0)
        p.angleChunk = std::min<int>(
            p.angleChunk, static_cast<int>(t.constantBufferBytes / sizeof(ClProjectionConstants)));
    if (m_launcher->usesImage())
        p.angleChunk = std::min<int>(p.angleChunk, static_cast<int>(t.image2dMaxHeight));
    if (m_options.maxAngleChunk > 0) p.angleChunk = std::min(p.angleChunk, m_options.maxAngleChunk);
    p.angleChunk = std::max(p.angleChunk, 1);
    while (p.angleChunk > 1 && m_launcher->packedBytes(p.angleChunk, det) > maxAlloc)
        p.angleChunk = (p.angleChunk + 1) / 2;
    p.bandRows = vol.ny;
    auto outBytes = [&](int rows) {
        return static_cast<std::size_t>(vol.nx) * static_cast<std::size_t>(rows) *
               static_cast<std::size_t>(p.slicesPerPass) * sizeof(float);
    };
    while (p.bandRows > 16 && outBytes(p.bandRows) > maxAlloc)
        p.bandRows = static_cast<int>(roundUp(static_cast<std::size_t>(p.bandRows + 1) / 2, 16));
    auto total = [&] {
        return 4 * m_launcher->packedBytes(p.angleChunk, det) + 2 * outBytes(p.bandRows) +
               static_cast<std::size_t>(angles) * sizeof(ClProjectionConstants);
    };
    const std::size_t budget = m_device->memoryBudget();
    while (total() > budget && p.angleChunk > 1)
        p.angleChunk = (p.angleChunk + 1) / 2;
    while (total() > budget && p.bandRows > 16)
        p.bandRows = static_cast<int>(roundUp(static_cast<std::size_t>(p.bandRows + 1) / 2, 16));
    p.packedBytes = m_launcher->packedBytes(p.angleChunk, det);
    p.outputBytes = outBytes(p.bandRows);
    if (p.packedBytes > maxAlloc || p.outputBytes > maxAlloc || total() > budget)
        return outOfMemory(m_info.id + ": cannot fit the job on " + t.name + ": sinogram chunk " +
                           mib(p.packedBytes) + ", output band " + mib(p.outputBytes) + ", total " +
                           mib(total()) + " against a largest allocation of " + mib(maxAlloc) +
                           " and a budget of " + mib(budget));
    p.bands = (vol.ny + p.bandRows - 1) / p.bandRows;
    p.angleChunks = (angles + p.angleChunk - 1) / p.angleChunk;
    const double perProjection =
        static_cast<double>(vol.nx) * p.bandRows * static_cast<double>(p.slicesPerPass);
    p.projPerLaunch = static_cast<int>(std::clamp(m_options.updatesPerLaunch / perProjection, 1.0,
                                                  static_cast<double>(p.angleChunk)));
    if (p.projPerLaunch >= 8) p.projPerLaunch &= ~3;  // whole projection phases
    return p;
}

Status ClBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                    const VolumeGeometry& vol, std::span<const float> weights,
                                    Volume& out, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    TOMO_RETURN_IF_ERROR(m_launcher->prepare(*m_device));
    TOMO_ASSIGN_OR_RETURN(Plan p, plan(sino, vol));
    return run(sino, vol, gpuProjectionConstants(geom, vol, weights), p, out, ctx);
}

Status ClBackProjector::run(const Sinograms& sino, const VolumeGeometry& vol,
                            const std::vector<ClProjectionConstants>& constants, const Plan& p,
                            Volume& out, const ExecContext& ctx) {
    ClDeviceContext& dev = *m_device;
    const int angles = static_cast<int>(sino.dim(1)), det = static_cast<int>(sino.dim(2));
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
                                               p.packedBytes, "sinogram staging"));
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
                               0, p.packedBytes, 0, nullptr, nullptr, &err);
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
