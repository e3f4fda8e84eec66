// The OpenCL cone-beam back-projection as a stage of core's pipeline (ClConeBackProjector.h):
// per launch of at most perLaunch views of a chunk, the views are padded (transposed for the
// symmetric kernel) on the device from the chunk's rows (conePad), their matrices written, and
// the kernel accumulates them into the slab begun with begin(), all on the compute queue, in
// order (so one projection and one matrix buffer serve every launch). weigh(): FDK's weights of
// a chunk's raw views (core/cone/FdkWeightStage.h) with the shared formulas' program.
#include <algorithm>

#include "core/cone/ConeKernelSupport.h"
#include "core/cone/FdkWeights.h"
#include "gpu/opencl/cone/ClConeBackProjector.h"
#include "gpu/opencl/internal/ClKernelLauncher.h"
#include "gpu/opencl/internal/ClQueues.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {

class ClConeStage final : public ChunkStage {
  public:
    ClConeStage(ClConeBackProjector& bp, ClQueues& q, int firstView, std::size_t pitch)
        : m_bp(bp), m_q(q), m_firstView(firstView), m_pitch(pitch) {}
    TimelineStage timelineStage() const override { return TimelineStage::Kernels; }
    std::string label() const override { return "back-projection"; }

    Status prepare(std::size_t, std::size_t) override {
        const std::size_t constViews = m_q.context().traits().constantBufferBytes / 48;
        m_perLaunch = static_cast<int>(std::clamp<std::size_t>(constViews, 1, 256));
        TOMO_RETURN_IF_ERROR(m_bp.allocateBatch(m_perLaunch));
        const ConeGeometry& g = *m_bp.m_geometry;
        m_mats = cone::batchMatrices(g, m_bp.m_grid, 0, g.viewCount());  // written per launch
        return Status::ok();
    }
    int steps(const PipelineChunk& c) const override {
        return static_cast<int>((c.count + std::size_t(m_perLaunch) - 1) /
                                std::size_t(m_perLaunch));
    }
    double work(const PipelineChunk& c, int step) const override {
        return double(count(c, step)) * double(m_bp.m_grid.nx) * m_bp.m_grid.ny * m_bp.m_planes;
    }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int step,
               const ExecContext&) override {
        const DetectorGrid& d = m_bp.m_geometry->detector();
        const int n = count(c, step);
        const int first = step * m_perLaunch;
        const cl_int stride = m_bp.m_fast + cone::kPadBefore + cone::kPadAfter;
        const cl_int image = static_cast<cl_int>(m_bp.imageSize());
        const cl_mem rows = ClQueues::mem(b.input), proj = m_bp.m_proj.get();
        TOMO_RETURN_IF_ERROR(
            setKernelArgs(m_bp.m_pad, rows, cl_int(m_pitch), cl_int(first), cl_int(d.nu),
                          cl_int(d.nv), cl_int(m_bp.m_config.symmetric ? 1 : 0),
                          cl_int(m_bp.m_config.pairs ? 1 : 0), proj, stride, image));
        ClEvent padded;
        TOMO_RETURN_IF_ERROR(enqueueKernel2d(
            m_q.computeQueue(), m_bp.m_pad, roundUp(static_cast<std::size_t>(image), 64),
            static_cast<std::size_t>(n), 64, 1, {}, padded, "conePad"));
        const std::size_t view =
            static_cast<std::size_t>(m_firstView) + c.first + static_cast<std::size_t>(first);
        TOMO_RETURN_IF_ERROR(
            clCheck(clEnqueueWriteBuffer(m_q.computeQueue(), m_bp.m_mats.get(), CL_FALSE, 0,
                                         static_cast<std::size_t>(n) * 12 * sizeof(float),
                                         m_mats.data() + 12 * view, 0, nullptr, nullptr),
                    "clEnqueueWriteBuffer(cone matrices)"));
        ClEvent done;
        return m_bp.enqueueBackProjection(n, done);
    }

  private:
    int count(const PipelineChunk& c, int step) const {
        return static_cast<int>(std::min<std::size_t>(
            std::size_t(m_perLaunch), c.count - static_cast<std::size_t>(step) * m_perLaunch));
    }
    ClConeBackProjector& m_bp;
    ClQueues& m_q;
    int m_firstView;
    std::size_t m_pitch;
    int m_perLaunch = 1;
    std::vector<float> m_mats;  ///< every view's 12 floats (the writes read them later)
};

Result<std::unique_ptr<ChunkStage>> ClConeBackProjector::stage(DeviceQueues& queues, int firstView,
                                                               std::size_t pitch) {
    auto* q = dynamic_cast<ClQueues*>(&queues);
    if (!q) return invalidArgument(m_info.id + ": not an OpenCL device's queues");
    if (!m_geometry) return internalError(m_info.id + ": a device stage before begin");
    return std::unique_ptr<ChunkStage>(std::make_unique<ClConeStage>(*this, *q, firstView, pitch));
}

Status ClConeBackProjector::weigh(DeviceQueues& queues, const FdkWeightLaunch& l) {
    auto* q = dynamic_cast<ClQueues*>(&queues);
    if (!q) return invalidArgument(m_info.id + ": not an OpenCL device's queues");
    if (!m_weights) {
        const std::string source = std::string(kernelSource("FdkWeightFormula.h")) + "\n" +
                                   std::string(kernelSource("fdk_weights.cl"));
        TOMO_ASSIGN_OR_RETURN(ClProgram program, m_device->program("fdk_weights.cl", source, ""));
        TOMO_ASSIGN_OR_RETURN(m_weights, m_device->kernel(program, "fdkWeights"));
    }
    const FdkWeightTable& w = *l.weights;
    TOMO_RETURN_IF_ERROR(setKernelArgs(m_weights, ClQueues::mem(l.rows), cl_int(l.pitch),
                                       ClQueues::mem(l.table), cl_int(l.firstView), cl_int(w.nu),
                                       cl_int(w.nv), cl_int(w.mode), w.delta, w.halfWidth,
                                       w.longSide, w.originU, w.pitchU, w.originV, w.pitchV));
    ClEvent done;
    return enqueueKernel2d(q->computeQueue(), m_weights, roundUp(std::size_t(w.nu), 64),
                           std::size_t(l.count), 64, 1, {}, done, "fdkWeights");
}

}  // namespace tomo::opencl
