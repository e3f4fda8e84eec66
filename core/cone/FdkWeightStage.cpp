#include "core/cone/FdkWeightStage.h"

namespace tomo {
namespace {

class FdkWeightStage final : public ChunkStage {
  public:
    FdkWeightStage(ConeDeviceBackProjection& device, DeviceQueues& queues,
                   const FdkWeights& weights, int firstView, std::size_t pitch)
        : m_device(device),
          m_q(queues),
          m_weights(weights),
          m_firstView(firstView),
          m_pitch(pitch) {}
    TimelineStage timelineStage() const override { return TimelineStage::Filter; }
    std::string label() const override { return "weighting"; }

    Status prepare(std::size_t, std::size_t) override {
        // Kept by the stage until the run ends: the upload reads it asynchronously.
        m_table = m_weights.deviceTable();
        const std::size_t bytes = m_table.views.size() * sizeof(float);
        TOMO_ASSIGN_OR_RETURN(m_buffer, m_q.deviceBuffer("fdk.weights", bytes));
        return m_q.upload(QueueRole::Compute, m_buffer, 0, m_table.views.data(), bytes);
    }
    int steps(const PipelineChunk&) const override { return 1; }
    double work(const PipelineChunk& c, int) const override {
        return double(c.count) * m_table.nv * m_table.nu;
    }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int, const ExecContext&) override {
        FdkWeightLaunch launch;
        launch.rows = b.input;
        launch.pitch = m_pitch;
        launch.table = m_buffer;
        launch.firstView = m_firstView + static_cast<int>(c.first);
        launch.count = static_cast<int>(c.count);
        launch.weights = &m_table;
        return m_device.weigh(m_q, launch);
    }

  private:
    ConeDeviceBackProjection& m_device;
    DeviceQueues& m_q;
    const FdkWeights& m_weights;
    int m_firstView;
    std::size_t m_pitch;
    FdkWeightTable m_table;
    DeviceBufferRef m_buffer;
};

}  // namespace

std::unique_ptr<ChunkStage> makeFdkWeightStage(ConeDeviceBackProjection& device,
                                               DeviceQueues& queues, const FdkWeights& weights,
                                               int firstView, std::size_t pitch) {
    return std::make_unique<FdkWeightStage>(device, queues, weights, firstView, pitch);
}

}  // namespace tomo
