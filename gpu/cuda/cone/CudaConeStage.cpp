// The CUDA cone-beam back-projection as a stage of core's pipeline (CudaConeBackProjector.h):
// per group of at most 32 views of a chunk, the views are padded (and transposed for the shfl
// kernels) on the device from the chunk's rows into the launch's storage (the __ldg buffer, or a
// scratch buffer copied into the layered texture's array), and the kernel accumulates them into
// the slab begun with begin(), all on the compute stream, in order. weigh(): FDK's weights of a
// chunk's raw views (core/cone/FdkWeightStage.h, kernels/FdkWeightKernels.cu). Not yet run on a
// GPU.
#include <algorithm>

#include "core/cone/ConeKernelSupport.h"
#include "core/cone/FdkWeights.h"
#include "gpu/cuda/cone/CudaConeBackProjector.h"
#include "gpu/cuda/internal/CudaQueues.h"

namespace tomo::cuda {

class CudaConeStage final : public ChunkStage {
  public:
    CudaConeStage(CudaConeBackProjector& bp, CudaQueues& q, int firstView, std::size_t pitch)
        : m_bp(bp), m_q(q), m_firstView(firstView), m_pitch(pitch) {}
    TimelineStage timelineStage() const override { return TimelineStage::Kernels; }
    std::string label() const override { return "back-projection"; }

    Status prepare(std::size_t, std::size_t) override {
        const DetectorGrid& d = m_bp.m_geometry->detector();
        TOMO_RETURN_IF_ERROR(m_bp.allocateViews(d));
        m_stride = m_bp.m_fast + cone::kPadBefore + cone::kPadAfter;
        m_image = m_bp.m_config.imageFloats(m_bp.m_slow, m_bp.m_fast);
        if (m_bp.m_config.fetch == ConeFetch::Texture) {
            TOMO_ASSIGN_OR_RETURN(
                m_packed, m_q.deviceBuffer("cone.packed", m_image * kConeBatch * sizeof(float)));
        }
        // Every view's matrix in pinned memory: the copies to __constant__ memory stay
        // asynchronous (from pageable memory the driver may wait for the stream first).
        const ConeGeometry& g = *m_bp.m_geometry;
        const std::vector<float> all = cone::batchMatrices(g, m_bp.m_grid, 0, g.viewCount());
        TOMO_ASSIGN_OR_RETURN(void* pinned,
                              m_q.pinnedBuffer("cone.matrices", all.size() * sizeof(float)));
        m_mats = static_cast<float*>(pinned);
        std::copy(all.begin(), all.end(), m_mats);
        return Status::ok();
    }
    int steps(const PipelineChunk& c) const override {
        return static_cast<int>((c.count + kConeBatch - 1) / kConeBatch);
    }
    double work(const PipelineChunk& c, int step) const override {
        return double(count(c, step)) * double(m_bp.m_grid.nx) * m_bp.m_grid.ny * m_bp.m_planes;
    }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int step,
               const ExecContext&) override {
        const DetectorGrid& d = m_bp.m_geometry->detector();
        const cudaStream_t stream = m_q.computeStream();
        const int n = count(c, step);
        const std::size_t first = static_cast<std::size_t>(step) * kConeBatch;
        ConePadArgs pad;
        pad.rows = CudaQueues::ptr<const float>(b.input) + first * d.nv * m_pitch;
        pad.pitch = m_pitch;
        pad.nu = d.nu;
        pad.nv = d.nv;
        pad.views = n;
        pad.transposed = m_bp.m_config.symmetric;
        pad.pairs = m_bp.m_config.pairs;
        pad.out = m_bp.m_config.fetch == ConeFetch::Ldg ? m_bp.m_proj.as<float>()
                                                        : CudaQueues::ptr<float>(m_packed);
        pad.stride = m_stride;
        pad.image = m_image;
        TOMO_RETURN_IF_ERROR(launchConePad(pad, stream).withContext(m_bp.m_info.id));
        if (m_bp.m_config.fetch == ConeFetch::Texture) {
            cudaMemcpy3DParms p{};
            p.srcPtr.ptr = pad.out;
            p.srcPtr.pitch = static_cast<std::size_t>(m_stride) * sizeof(float);
            p.srcPtr.xsize = static_cast<std::size_t>(m_stride);
            p.srcPtr.ysize = m_image / static_cast<std::size_t>(m_stride);
            p.dstArray = m_bp.m_array.get();
            p.extent = {static_cast<std::size_t>(m_stride), m_image / m_stride,
                        static_cast<std::size_t>(n)};
            p.kind = cudaMemcpyDeviceToDevice;
            TOMO_RETURN_IF_ERROR(
                cudaCheck(cudaMemcpy3DAsync(&p, stream), "cudaMemcpy3DAsync(cone projections)"));
        }
        const std::size_t view = static_cast<std::size_t>(m_firstView) + c.first + first;
        return m_bp.launch(m_mats + 12 * view, n, stream);
    }

  private:
    static int count(const PipelineChunk& c, int step) {
        return static_cast<int>(std::min<std::size_t>(
            kConeBatch, c.count - static_cast<std::size_t>(step) * kConeBatch));
    }
    CudaConeBackProjector& m_bp;
    CudaQueues& m_q;
    int m_firstView;
    std::size_t m_pitch;
    int m_stride = 0;
    std::size_t m_image = 0;
    DeviceBufferRef m_packed;
    float* m_mats = nullptr;  ///< every view's 12 floats, pinned (copied to __constant__ in order)
};

Result<std::unique_ptr<ChunkStage>> CudaConeBackProjector::stage(DeviceQueues& queues,
                                                                 int firstView, std::size_t pitch) {
    auto* q = dynamic_cast<CudaQueues*>(&queues);
    if (!q) return invalidArgument(m_info.id + ": not a CUDA device's queues");
    if (!m_geometry) return internalError(m_info.id + ": a device stage before begin");
    return std::unique_ptr<ChunkStage>(
        std::make_unique<CudaConeStage>(*this, *q, firstView, pitch));
}

Status CudaConeBackProjector::weigh(DeviceQueues& queues, const FdkWeightLaunch& l) {
    auto* q = dynamic_cast<CudaQueues*>(&queues);
    if (!q) return invalidArgument(m_info.id + ": not a CUDA device's queues");
    const FdkWeightTable& w = *l.weights;
    FdkWeightArgs a;
    a.rows = CudaQueues::ptr<float>(l.rows);
    a.pitch = l.pitch;
    a.table = CudaQueues::ptr<const float>(l.table);
    a.firstView = l.firstView;
    a.views = l.count;
    a.nu = w.nu;
    a.nv = w.nv;
    a.mode = w.mode;
    a.delta = w.delta;
    a.halfWidth = w.halfWidth;
    a.longSide = w.longSide;
    a.originU = w.originU;
    a.pitchU = w.pitchU;
    a.originV = w.originV;
    a.pitchV = w.pitchV;
    return launchFdkWeights(a, q->computeStream()).withContext(m_info.id);
}

}  // namespace tomo::cuda
