// The CUDA back-projection as a stage of core's pipeline (CudaBackProjectionStage.h).
#include "gpu/cuda/internal/CudaBackProjectionStage.h"

#include <algorithm>

#include "core/projectors/GpuProjectionConstants.h"

namespace tomo::cuda {

CudaBackProjectionStage::CudaBackProjectionStage(CudaQueues& queues, const CudaLauncher& launcher,
                                                 std::string id,
                                                 const CudaBackProjectorOptions& options,
                                                 const SinogramChunkLayout& in,
                                                 const VolumeChunkLayout& out,
                                                 std::vector<float> constants)
    : PassPlanStage(in, out),
      m_q(queues),
      m_launcher(launcher),
      m_id(std::move(id)),
      m_options(options),
      m_consts(std::move(constants)) {}

Result<PassPlan> CudaBackProjectionStage::plan(std::size_t chunkItems, std::size_t budget,
                                               int shrink) const {
    const CudaDeviceTraits& t = m_q.context().traits();
    PassLimits l =
        limits(chunkItems, m_launcher.slicesPerPass(), budget, m_options.updatesPerLaunch, shrink);
    l.maxAngleChunk = std::max(1, t.maxTexture2dLinearHeight);
    if (m_options.maxAngleChunk > 0)
        l.maxAngleChunk = std::min(l.maxAngleChunk, m_options.maxAngleChunk);
    l.maxBandRows = m_options.maxBandRows;
    const std::size_t rowBytes = static_cast<std::size_t>(m_in.detectors) * m_launcher.texelBytes();
    l.sinogramBytes = [rowBytes](int chunk) {
        return (rowBytes + 512) * static_cast<std::size_t>(chunk);  // pitched rows
    };
    l.sinogramCopies = 1;  // packed on the device, read in order on one stream
    l.outputCopies = 1;    // the band (passes of fewer slices, or several bands)
    l.fixedBytes = m_consts.size() * sizeof(float);
    return planPasses(l, m_id + " on " + t.name);
}

Status CudaBackProjectionStage::allocate(const PassPlan& p) {
    CudaDeviceContext& dev = m_q.context();
    const std::size_t rowBytes = static_cast<std::size_t>(m_in.detectors) * m_launcher.texelBytes();
    TOMO_ASSIGN_OR_RETURN(
        m_sinogram, dev.pitched("bp.sinogram", rowBytes, static_cast<std::size_t>(p.angleChunk)));
    m_texture = TextureObject();
    if (m_launcher.usesTexture()) {
        TOMO_ASSIGN_OR_RETURN(
            m_texture, createSinogramTexture(m_launcher, m_sinogram->get(), m_sinogram->pitch(),
                                             m_in.detectors, p.angleChunk));
    }
    TOMO_ASSIGN_OR_RETURN(m_band, dev.device("bp.band", p.outputBytes));
    const std::size_t constBytes = m_consts.size() * sizeof(float);
    TOMO_ASSIGN_OR_RETURN(m_dConsts, dev.device("bp.consts", constBytes));
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemcpyAsync(m_dConsts->get(), m_consts.data(), constBytes,
                                                   cudaMemcpyHostToDevice, m_q.computeStream()),
                                   "cudaMemcpyAsync(constants)"));
    m_counters = nullptr;
    if (m_launcher.needsSmCounters()) {
        TOMO_ASSIGN_OR_RETURN(m_counters,
                              dev.device("bp.counters", kSmCounters * sizeof(unsigned)));
    }
    return Status::ok();
}

Status CudaBackProjectionStage::prepare(std::size_t chunkItems, std::size_t budget) {
    return preparePlan(chunkItems, budget);
}

bool CudaBackProjectionStage::direct(const PassStep& s) const {
    return m_plan.bands == 1 && s.item.count == m_launcher.slicesPerPass();
}

Status CudaBackProjectionStage::run(const PipelineChunk& chunk, const ChunkBuffers& buffers,
                                    int step, const ExecContext&) {
    const PassStep& s = stepsFor(chunk)[static_cast<std::size_t>(step)];
    const PassItem& it = s.item;
    const cudaStream_t stream = m_q.computeStream();
    if (s.pack) {
        PackArgs a;
        a.rows = CudaQueues::ptr<const float>(buffers.input);
        a.pitch = m_in.pitch;
        a.angles = m_in.angles;
        a.s0 = it.s0;
        a.count = it.count;
        a.a0 = it.a0;
        a.na = it.na;
        a.detectors = m_in.detectors;
        a.half = m_launcher.halfStorage();
        a.channels = a.half ? 4 : m_launcher.channels();  // half: 4 binary16 per texel
        a.out = m_sinogram->get();
        a.outPitch = m_sinogram->pitch();
        TOMO_RETURN_IF_ERROR(launchPackPass(a, stream).withContext(m_id));
    }
    const std::size_t plane = static_cast<std::size_t>(m_out.nx) * m_out.ny;
    float* output = CudaQueues::ptr<float>(buffers.output);
    LaunchArgs args;
    args.sino = {m_sinogram->get(), m_sinogram->pitch(), m_texture.get(), m_in.detectors};
    args.consts = m_dConsts->as<float>() + 4 * static_cast<std::size_t>(it.a0);
    args.out = direct(s) ? output + static_cast<std::size_t>(it.s0) * plane : m_band->as<float>();
    args.nx = m_out.nx;
    args.rows = it.rows;
    args.rowBegin = it.rowBegin;
    args.smCounters = m_counters ? m_counters->as<unsigned>() : nullptr;
    args.projBegin = s.begin;
    args.projEnd = s.end;
    args.accumulate = s.accumulate;
    TOMO_RETURN_IF_ERROR(m_launcher.launch(args, stream).withContext(m_id));
    if (!s.bandDone || direct(s)) return Status::ok();
    // The band's slices into the chunk's output: rows x nx floats per slice, ny x nx apart.
    const std::size_t bandBytes = static_cast<std::size_t>(it.rows) * m_out.nx * sizeof(float);
    return cudaCheck(
        cudaMemcpy2DAsync(output + static_cast<std::size_t>(it.s0) * plane +
                              static_cast<std::size_t>(it.rowBegin) * m_out.nx,
                          plane * sizeof(float), m_band->get(), bandBytes, bandBytes,
                          static_cast<std::size_t>(it.count), cudaMemcpyDeviceToDevice, stream),
        "cudaMemcpy2DAsync(band into the chunk's volume)");
}

}  // namespace tomo::cuda
