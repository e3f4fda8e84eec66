// CudaBackProjector: core's pipeline with the CUDA back-projection stage (see
// CudaBackProjector.h).
#include "gpu/cuda/internal/CudaBackProjector.h"

#include <cstring>

#include "core/projectors/GpuProjectionConstants.h"
#include "gpu/cuda/internal/CudaBackProjectionStage.h"
#include "gpu/cuda/internal/CudaQueues.h"

namespace tomo::cuda {

std::vector<float> projectionConstants(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                       std::span<const float> weights) {
    // The constants every GPU backend uses (core/projectors/GpuProjectionConstants.h), as floats.
    const std::vector<GpuProjectionConstants> k = gpuProjectionConstants(geom, vol, weights);
    std::vector<float> c(4 * k.size());
    std::memcpy(c.data(), k.data(), c.size() * sizeof(float));
    return c;
}

CudaBackProjector::CudaBackProjector(BackProjectorInfo info,
                                     std::shared_ptr<CudaDeviceContext> device,
                                     CudaLauncher launcher, CudaBackProjectorOptions options)
    : m_info(std::move(info)),
      m_device(std::move(device)),
      m_launcher(launcher),
      m_options(options) {}

CudaBackProjector::~CudaBackProjector() = default;

Result<std::unique_ptr<DeviceQueues>> CudaBackProjector::openQueues() {
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<CudaQueues> q, CudaQueues::open(m_device));
    return std::unique_ptr<DeviceQueues>(std::move(q));
}

Result<std::unique_ptr<ChunkStage>> CudaBackProjector::stage(
    DeviceQueues& queues, const SinogramChunkLayout& in, const VolumeChunkLayout& out,
    const ParallelGeometry& geom, const VolumeGeometry& vol, std::span<const float> weights) {
    auto* q = dynamic_cast<CudaQueues*>(&queues);
    if (!q) return invalidArgument(m_info.id + ": not a CUDA device's queues");
    if (std::string why = m_launcher.support(); !why.empty())
        return unsupported(m_info.id + ": " + why);
    const CudaDeviceTraits& t = m_device->traits();
    if (m_launcher.usesTexture() && in.detectors > t.maxTexture2dLinearWidth)
        return unsupported(m_info.id + ": " + std::to_string(in.detectors) +
                           " detector pixels exceed the 2-D texture width limit of " + t.name +
                           " (" + std::to_string(t.maxTexture2dLinearWidth) + ")");
    return std::unique_ptr<ChunkStage>(std::make_unique<CudaBackProjectionStage>(
        *q, m_launcher, m_info.id, m_options, in, out, projectionConstants(geom, vol, weights)));
}

Status CudaBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                      const VolumeGeometry& vol, std::span<const float> weights,
                                      Volume& out, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    if (std::string why = m_launcher.support(); !why.empty())
        return unsupported(m_info.id + ": " + why);
    const std::size_t pass = static_cast<std::size_t>(m_launcher.slicesPerPass());
    const std::size_t chunk =
        stackChunkSlices(pass, sino.dim(0), sino.dim(1) * sino.pitch() * sizeof(float));
    Timeline timeline;
    // GPU out of memory: the pipeline frees the context's kept buffers (an FBP's rows) and
    // retries, then halves its chunk; the stage shrinks its items (core/pipeline, PassDriver.h).
    const Status status =
        backProjectOnDevice(*this, sino, geom, vol, weights, out, chunk, pass, ctx, &timeline);
    m_timeline = timeline.report();
    return status;
}

}  // namespace tomo::cuda
