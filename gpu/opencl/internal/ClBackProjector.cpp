// ClBackProjector: planning and the OpenCL queue operations of core's pass driver around a
// ClKernelLauncher (see ClBackProjector.h).
#include "gpu/opencl/internal/ClBackProjector.h"

#include <algorithm>
#include <deque>

#include "core/projectors/PassDriver.h"

namespace tomo::opencl {

namespace {

/// The OpenCL queue operations of the pass driver (core/projectors/PassDriver.h): queue(0)
/// uploads, queue(1) runs kernels and read-backs; events order them.
class ClPassQueue final : public PassQueue {
  public:
    ClPassQueue(ClDeviceContext& dev, ClKernelLauncher& launcher, const std::string& id,
                const std::vector<ClProjectionConstants>& constants, const VolumeGeometry& vol,
                Volume& out, int detectors)
        : m_dev(dev),
          m_launcher(launcher),
          m_id(id),
          m_constants(constants),
          m_vol(vol),
          m_out(out),
          m_det(detectors) {}
    /// Nothing enqueued outlives the buffers or writes into the volume after the call returned.
    ~ClPassQueue() override {
        for (Set& set : m_sets)  // a pack cut short by an error: give the mapping back
            if (set.mapped)
                clEnqueueUnmapMemObject(m_dev.queue(0), set.staging.get(), set.mapped, 0, nullptr,
                                        nullptr);
        clFinish(m_dev.queue(0));
        clFinish(m_dev.queue(1));
    }

    Status allocate(const PassPlan& p) override {
        m_plan = p;
        const int angles = static_cast<int>(m_constants.size());
        for (int c = 0; c < p.angleChunks; ++c) {
            const int a0 = c * p.angleChunk, na = std::min(p.angleChunk, angles - a0);
            const std::size_t bytes = static_cast<std::size_t>(na) * sizeof(ClProjectionConstants);
            TOMO_ASSIGN_OR_RETURN(
                ClMem buf, m_dev.createBuffer(CL_MEM_READ_ONLY, bytes, "projection constants"));
            TOMO_RETURN_IF_ERROR(
                clCheck(clEnqueueWriteBuffer(m_dev.queue(0), buf.get(), CL_TRUE, 0, bytes,
                                             &m_constants[a0], 0, nullptr, nullptr),
                        "clEnqueueWriteBuffer(projection constants)"));
            m_constantBuffers.push_back(std::move(buf));
        }
        const int items = p.passes * p.bands * p.angleChunks;
        for (int s = 0; s < std::min(items, 2); ++s) {
            TOMO_ASSIGN_OR_RETURN(m_sets[s].staging,
                                  m_dev.createBuffer(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR,
                                                     p.sinogramBytes, "sinogram staging"));
            TOMO_ASSIGN_OR_RETURN(m_sets[s].sinogram,
                                  m_launcher.createSinogram(m_dev, p.angleChunk, m_det));
        }
        for (int b = 0; b < std::min(p.passes * p.bands, 2); ++b) {
            TOMO_ASSIGN_OR_RETURN(
                m_outputs[b], m_dev.createBuffer(CL_MEM_READ_WRITE, p.outputBytes, "output band"));
        }
        return Status::ok();
    }

    Result<void*> beginStaging(const PassItem& it) override {
        Set& set = m_sets[it.slot];
        // The upload at unmap time overwrites the device sinogram: its kernels must be done.
        TOMO_RETURN_IF_ERROR(waitFor(set.lastKernel, "the previous back-projection"));
        cl_int err = CL_SUCCESS;
        set.mapped = clEnqueueMapBuffer(m_dev.queue(0), set.staging.get(), CL_TRUE,
                                        CL_MAP_WRITE_INVALIDATE_REGION, 0, m_plan.sinogramBytes, 0,
                                        nullptr, nullptr, &err);
        TOMO_RETURN_IF_ERROR(clCheck(err, "clEnqueueMapBuffer(sinogram staging)"));
        return set.mapped;
    }

    Status upload(const PassItem& it) override {
        Set& set = m_sets[it.slot];
        cl_command_queue q = m_dev.queue(0);
        TOMO_RETURN_IF_ERROR(
            clCheck(clEnqueueUnmapMemObject(q, set.staging.get(), set.mapped, 0, nullptr, nullptr),
                    "clEnqueueUnmapMemObject(sinogram staging)"));
        set.mapped = nullptr;
        TOMO_RETURN_IF_ERROR(m_launcher.enqueueUpload(q, set.staging.get(), set.sinogram.get(),
                                                      it.na, m_det, {}, set.upload));
        return clCheck(clFlush(q), "clFlush(upload queue)");
    }

    Status launch(const PassItem& it, int begin, int end, bool accumulate) override {
        Set& set = m_sets[it.slot];
        const ClPassShape shape{m_vol.nx, it.rows, it.rowBegin, m_det, it.na};
        const ClLaunch launch{set.sinogram.get(),
                              m_constantBuffers[it.chunk].get(),
                              m_outputs[it.outputSlot].get(),
                              begin,
                              end,
                              accumulate};
        std::vector<cl_event> wait;
        if (begin == 0) wait.push_back(set.upload.get());
        ClEvent event;
        cl_command_queue q = m_dev.queue(1);
        TOMO_RETURN_IF_ERROR(m_launcher.enqueueKernel(q, shape, launch, wait, event));
        TOMO_RETURN_IF_ERROR(clCheck(clFlush(q), "clFlush(kernel queue)"));
        set.lastKernel = event.retain();  // the set's last kernel so far
        m_launched.push_back(std::move(event));
        return Status::ok();
    }

    Status waitLaunch() override {
        if (m_launched.empty()) return Status::ok();
        ClEvent oldest = std::move(m_launched.front());
        m_launched.pop_front();
        return waitFor(oldest, m_id);
    }

    Status download(const PassItem& it) override {
        // The band, straight into the volume's pitched rows (non-blocking; finish() waits).
        const std::size_t bufferOrigin[3] = {0, 0, 0};
        const std::size_t hostOrigin[3] = {0, static_cast<std::size_t>(it.rowBegin),
                                           static_cast<std::size_t>(it.s0)};
        const std::size_t rowBytes = static_cast<std::size_t>(m_vol.nx) * sizeof(float);
        const std::size_t region[3] = {rowBytes, static_cast<std::size_t>(it.rows),
                                       static_cast<std::size_t>(it.count)};
        const std::size_t hostRow = m_out.pitch() * sizeof(float);
        return clCheck(
            clEnqueueReadBufferRect(
                m_dev.queue(1), m_outputs[it.outputSlot].get(), CL_FALSE, bufferOrigin, hostOrigin,
                region, rowBytes, rowBytes * static_cast<std::size_t>(it.rows), hostRow,
                hostRow * static_cast<std::size_t>(m_vol.ny), m_out.data(), 0, nullptr, nullptr),
            "clEnqueueReadBufferRect(output band)");
    }

    Status finish() override {
        return clCheck(clFinish(m_dev.queue(1)), "clFinish(output read-back)");
    }

  private:
    /// The sinogram buffers of one of the two alternating item slots.
    struct Set {
        ClMem staging;
        ClMem sinogram;
        ClEvent upload;
        ClEvent lastKernel;
        void* mapped = nullptr;
    };
    ClDeviceContext& m_dev;
    ClKernelLauncher& m_launcher;
    const std::string& m_id;
    const std::vector<ClProjectionConstants>& m_constants;
    const VolumeGeometry& m_vol;
    Volume& m_out;
    int m_det;
    PassPlan m_plan;
    std::vector<ClMem> m_constantBuffers;  // declared before the sets: released after them
    Set m_sets[2];
    ClMem m_outputs[2];
    std::deque<ClEvent> m_launched;
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

Result<PassPlan> ClBackProjector::plan(const Sinograms& sino, const VolumeGeometry& vol,
                                       int shrink) const {
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
    return planPasses(l, m_info.id + " on " + t.name);
}

Status ClBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                    const VolumeGeometry& vol, std::span<const float> weights,
                                    Volume& out, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    TOMO_RETURN_IF_ERROR(m_launcher->prepare(*m_device));
    const std::vector<ClProjectionConstants> constants = gpuProjectionConstants(geom, vol, weights);
    // A buffer the device refuses: smaller items (PassDriver.h), as on every GPU backend.
    return runWithRetry([&](int shrink) -> Result<PassPlan> { return plan(sino, vol, shrink); },
                        [&](const PassPlan& p) { return run(sino, vol, constants, p, out, ctx); });
}

Status ClBackProjector::run(const Sinograms& sino, const VolumeGeometry& vol,
                            const std::vector<ClProjectionConstants>& constants, const PassPlan& p,
                            Volume& out, const ExecContext& ctx) {
    if (m_options.refuseAbove > 0 &&
        (p.sinogramBytes > m_options.refuseAbove || p.outputBytes > m_options.refuseAbove))
        return outOfMemory(m_info.id + ": a buffer of " +
                           std::to_string(std::max(p.sinogramBytes, p.outputBytes)) +
                           " bytes was refused (refuseAbove)");
    ClPassQueue queue(*m_device, *m_launcher, m_info.id, constants, vol, out,
                      static_cast<int>(sino.dim(2)));
    const PassJob job{vol.nz, vol.ny, static_cast<int>(sino.dim(1))};
    return runPasses(
        p, job, queue,
        [&](const PassItem& it, void* staging) {
            m_launcher->pack(sino, it.s0, it.count, it.a0, it.na, staging);
        },
        ctx);
}

}  // namespace tomo::opencl
