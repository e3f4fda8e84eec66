// ClBackProjector: core's pipeline with the OpenCL back-projection stage (see ClBackProjector.h).
#include "gpu/opencl/internal/ClBackProjector.h"

#include <algorithm>

#include "gpu/opencl/internal/ClBackProjectionStage.h"
#include "gpu/opencl/internal/ClQueues.h"

namespace tomo::opencl {

ClBackProjector::ClBackProjector(BackProjectorInfo info, std::shared_ptr<ClDeviceContext> device,
                                 std::unique_ptr<ClKernelLauncher> launcher,
                                 ClBackProjectorOptions options)
    : m_info(std::move(info)),
      m_device(std::move(device)),
      m_launcher(std::move(launcher)),
      m_options(options) {}

ClBackProjector::~ClBackProjector() = default;

Result<std::unique_ptr<DeviceQueues>> ClBackProjector::openQueues() {
    return std::unique_ptr<DeviceQueues>(std::make_unique<ClQueues>(m_device));
}

Result<std::unique_ptr<ChunkStage>> ClBackProjector::stage(
    DeviceQueues& queues, const SinogramChunkLayout& in, const VolumeChunkLayout& out,
    const ParallelGeometry& geom, const VolumeGeometry& vol, std::span<const float> weights) {
    auto* cl = dynamic_cast<ClQueues*>(&queues);
    if (!cl) return invalidArgument(m_info.id + ": not an OpenCL device's queues");
    if (m_launcher->usesImage() &&
        static_cast<std::size_t>(in.detectors) > m_device->traits().image2dMaxWidth)
        return unsupported(m_info.id + ": " + std::to_string(in.detectors) +
                           " detector pixels exceed the image width limit of " +
                           m_device->traits().name + " (" +
                           std::to_string(m_device->traits().image2dMaxWidth) + ")");
    return std::unique_ptr<ChunkStage>(
        std::make_unique<ClBackProjectionStage>(*cl, *m_launcher, m_info.id, m_options, in, out,
                                                gpuProjectionConstants(geom, vol, weights)));
}

Status ClBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                    const VolumeGeometry& vol, std::span<const float> weights,
                                    Volume& out, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    const std::size_t pass = static_cast<std::size_t>(m_launcher->slicesPerPass());
    const std::size_t chunk = stackChunkSlices(pass, sino.dim(0), sino.dim(1) * sino.pitch() * 4);
    Timeline timeline;
    const Status status =
        backProjectOnDevice(*this, sino, geom, vol, weights, out, chunk, pass, ctx, &timeline);
    m_timeline = timeline.report();
    return status;
}

}  // namespace tomo::opencl
