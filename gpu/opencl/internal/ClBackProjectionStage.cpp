// The OpenCL back-projection as a stage of core's pipeline (ClBackProjectionStage.h).
#include "gpu/opencl/internal/ClBackProjectionStage.h"

#include <algorithm>

#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {

ClBackProjectionStage::ClBackProjectionStage(ClQueues& queues, ClKernelLauncher& launcher,
                                             std::string id, const ClBackProjectorOptions& options,
                                             const SinogramChunkLayout& in,
                                             const VolumeChunkLayout& out,
                                             std::vector<ClProjectionConstants> constants)
    : PassPlanStage(in, out),
      m_q(queues),
      m_launcher(launcher),
      m_id(std::move(id)),
      m_options(options),
      m_constants(std::move(constants)) {}

Result<PassPlan> ClBackProjectionStage::plan(std::size_t chunkItems, std::size_t budget,
                                             int shrink) const {
    const ClDeviceTraits& t = m_q.context().traits();
    PassLimits l =
        limits(chunkItems, m_launcher.slicesPerPass(), budget, m_options.updatesPerLaunch, shrink);
    l.maxAngleChunk = m_in.angles;
    if (t.constantBufferBytes > 0)
        l.maxAngleChunk =
            std::min<int>(l.maxAngleChunk,
                          static_cast<int>(t.constantBufferBytes / sizeof(ClProjectionConstants)));
    if (m_launcher.usesImage())
        l.maxAngleChunk = std::min<int>(l.maxAngleChunk, static_cast<int>(t.image2dMaxHeight));
    if (m_options.maxAngleChunk > 0)
        l.maxAngleChunk = std::min(l.maxAngleChunk, m_options.maxAngleChunk);
    l.maxAngleChunk = std::max(l.maxAngleChunk, 1);
    l.maxAllocation = t.maxAllocBytes;
    if (m_options.maxAllocation > 0)
        l.maxAllocation = std::min(l.maxAllocation, m_options.maxAllocation);
    const int det = m_in.detectors;
    l.sinogramBytes = [this, det](int chunk) { return m_launcher.packedBytes(chunk, det); };
    l.sinogramCopies = m_launcher.usesImage() ? 2 : 1;  // the packed pass (and its image)
    l.outputCopies = 1;                                 // the band
    l.fixedBytes = m_constants.size() * sizeof(ClProjectionConstants);
    l.projectionAlign = 4;  // whole projection phases
    return planPasses(l, m_id + " on " + t.name);
}

Status ClBackProjectionStage::allocate(const PassPlan& p) {
    if (m_options.refuseAbove > 0 &&
        (p.sinogramBytes > m_options.refuseAbove || p.outputBytes > m_options.refuseAbove))
        return outOfMemory(m_id + ": a buffer of " +
                           std::to_string(std::max(p.sinogramBytes, p.outputBytes)) +
                           " bytes was refused (refuseAbove)");
    ClDeviceContext& dev = m_q.context();
    TOMO_ASSIGN_OR_RETURN(DeviceBufferRef packed, m_q.deviceBuffer("bp.packed", p.sinogramBytes));
    TOMO_ASSIGN_OR_RETURN(DeviceBufferRef band, m_q.deviceBuffer("bp.band", p.outputBytes));
    m_packed = ClQueues::mem(packed);
    m_band = ClQueues::mem(band);
    m_image = ClMem();
    if (m_launcher.usesImage()) {
        TOMO_ASSIGN_OR_RETURN(m_image,
                              m_launcher.createSinogram(dev, p.angleChunk, m_in.detectors));
    }
    m_constantBuffers.clear();
    const int angles = static_cast<int>(m_constants.size());
    for (int c = 0; c < p.angleChunks; ++c) {
        const int a0 = c * p.angleChunk, na = std::min(p.angleChunk, angles - a0);
        const std::size_t bytes = static_cast<std::size_t>(na) * sizeof(ClProjectionConstants);
        TOMO_ASSIGN_OR_RETURN(DeviceBufferRef buf,
                              m_q.deviceBuffer("bp.constants." + std::to_string(c), bytes));
        TOMO_RETURN_IF_ERROR(clCheck(
            clEnqueueWriteBuffer(m_q.computeQueue(), ClQueues::mem(buf), CL_TRUE, 0, bytes,
                                 &m_constants[static_cast<std::size_t>(a0)], 0, nullptr, nullptr),
            "clEnqueueWriteBuffer(projection constants)"));
        m_constantBuffers.push_back(ClQueues::mem(buf));
    }
    return Status::ok();
}

Status ClBackProjectionStage::prepare(std::size_t chunkItems, std::size_t budget) {
    TOMO_RETURN_IF_ERROR(m_launcher.prepare(m_q.context()));
    TOMO_ASSIGN_OR_RETURN(ClProgram program,
                          m_q.context().program("pack.cl", kernelSource("pack.cl"), ""));
    const bool half = m_launcher.halfStorage();
    TOMO_ASSIGN_OR_RETURN(m_pack,
                          m_q.context().kernel(program, half ? "packPassHalf" : "packPass"));
    return preparePlan(chunkItems, budget);
}

Status ClBackProjectionStage::pack(const PassStep& s, cl_mem rows) {
    const PassItem& it = s.item;
    const cl_int pitch = static_cast<cl_int>(m_in.pitch);
    TOMO_RETURN_IF_ERROR(setKernelArgs(
        m_pack, rows, pitch, cl_int(m_in.angles), cl_int(it.s0), cl_int(it.count), cl_int(it.a0),
        cl_int(it.na), cl_int(m_in.detectors), cl_int(m_launcher.channels()), m_packed));
    ClEvent done;
    TOMO_RETURN_IF_ERROR(enqueueKernel2d(
        m_q.computeQueue(), m_pack, roundUp(static_cast<std::size_t>(m_in.detectors), 64),
        roundUp(static_cast<std::size_t>(it.na), 4), 64, 4, {}, done, "packPass"));
    if (!m_launcher.usesImage()) return Status::ok();
    ClEvent copied;
    return m_launcher.enqueueUpload(m_q.computeQueue(), m_packed, m_image.get(), it.na,
                                    m_in.detectors, {}, copied);
}

Status ClBackProjectionStage::copyBand(const PassStep& s, cl_mem output) {
    const PassItem& it = s.item;
    const std::size_t row = static_cast<std::size_t>(m_out.nx) * sizeof(float);
    const std::size_t srcOrigin[3] = {0, 0, 0};
    const std::size_t dstOrigin[3] = {0, static_cast<std::size_t>(it.rowBegin),
                                      static_cast<std::size_t>(it.s0)};
    const std::size_t region[3] = {row, static_cast<std::size_t>(it.rows),
                                   static_cast<std::size_t>(it.count)};
    return clCheck(
        clEnqueueCopyBufferRect(m_q.computeQueue(), m_band, output, srcOrigin, dstOrigin, region,
                                row, row * static_cast<std::size_t>(it.rows), row,
                                row * static_cast<std::size_t>(m_out.ny), 0, nullptr, nullptr),
        "clEnqueueCopyBufferRect(band into the chunk's volume)");
}

Status ClBackProjectionStage::run(const PipelineChunk& chunk, const ChunkBuffers& buffers, int step,
                                  const ExecContext&) {
    const PassStep& s = stepsFor(chunk)[static_cast<std::size_t>(step)];
    if (s.pack) TOMO_RETURN_IF_ERROR(pack(s, ClQueues::mem(buffers.input)));
    const PassItem& it = s.item;
    const ClPassShape shape{m_out.nx, it.rows, it.rowBegin, m_in.detectors, it.na};
    const ClLaunch launch{m_launcher.usesImage() ? m_image.get() : m_packed,
                          m_constantBuffers[static_cast<std::size_t>(it.chunk)],
                          m_band,
                          s.begin,
                          s.end,
                          s.accumulate};
    ClEvent done;
    TOMO_RETURN_IF_ERROR(
        m_launcher.enqueueKernel(m_q.computeQueue(), shape, launch, {}, done).withContext(m_id));
    return s.bandDone ? copyBand(s, ClQueues::mem(buffers.output)) : Status::ok();
}

}  // namespace tomo::opencl
