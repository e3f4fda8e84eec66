// The simulated GPU back-projector and device row filter (SimulatedFbp.h).
#include "tests/core/pipeline/SimulatedFbp.h"

#include <chrono>
#include <cstring>
#include <limits>
#include <thread>

namespace tomo::test {
namespace {

/// The queue operations of the shared simulator, for one run (DeviceBackProjection::openQueues).
class SharedQueues final : public DeviceQueues {
  public:
    explicit SharedQueues(std::shared_ptr<SimulatedQueues> sim) : m_sim(std::move(sim)) {}
    std::string deviceName() const override { return m_sim->deviceName(); }
    std::size_t memoryBudget() const override { return m_sim->memoryBudget(); }
    Result<DeviceBufferRef> deviceBuffer(const std::string& k, std::size_t b) override {
        return m_sim->deviceBuffer(k, b);
    }
    Result<void*> pinnedBuffer(const std::string& k, std::size_t b) override {
        return m_sim->pinnedBuffer(k, b);
    }
    void releaseBuffers() override { m_sim->releaseBuffers(); }
    Status upload(QueueRole r, DeviceBufferRef d, std::size_t o, const void* s,
                  std::size_t b) override {
        return m_sim->upload(r, d, o, s, b);
    }
    Status download(QueueRole r, void* d, DeviceBufferRef s, std::size_t o,
                    std::size_t b) override {
        return m_sim->download(r, d, s, o, b);
    }
    Result<QueueEvent> record(QueueRole r) override { return m_sim->record(r); }
    Status wait(QueueRole r, const QueueEvent& e) override { return m_sim->wait(r, e); }
    Status sync(const QueueEvent& e) override { return m_sim->sync(e); }
    Result<double> eventSeconds(const QueueEvent& e) override { return m_sim->eventSeconds(e); }
    void drain() noexcept override { m_sim->drain(); }

  private:
    std::shared_ptr<SimulatedQueues> m_sim;
};

std::string opName(const char* what, const PipelineChunk& c) {
    return std::string(what) + " " + std::to_string(c.index);
}

class SimBackProjectionStage final : public ChunkStage {
  public:
    SimBackProjectionStage(std::shared_ptr<SimulatedQueues> sim, BackProjector& cpu,
                           const SinogramChunkLayout& in, const VolumeChunkLayout& out,
                           const ParallelGeometry& geom, const VolumeGeometry& vol,
                           std::span<const float> weights, SimStageCosts costs)
        : m_sim(std::move(sim)),
          m_cpu(cpu),
          m_in(in),
          m_out(out),
          m_geom(geom),
          m_vol(vol),
          m_weights(weights.begin(), weights.end()),
          m_costs(costs) {}
    TimelineStage timelineStage() const override { return TimelineStage::Kernels; }
    /// The steps come with the plan, as a GPU stage's (the driver asks for them after this).
    Status prepare(std::size_t, std::size_t) override {
        m_steps = 3;
        return Status::ok();
    }
    int steps(const PipelineChunk&) const override { return m_steps; }
    double work(const PipelineChunk& c, int step) const override {
        return step == 1 ? double(c.count) * m_vol.nx * m_vol.ny * m_in.angles : 0.0;
    }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int step,
               const ExecContext& ctx) override {
        State& s = m_state[c.slot];
        if (step == 0)
            return m_sim->kernel(QueueRole::Compute, opName("bp read", c), m_costs.read,
                                 {{b.input.handle, false}}, [this, &s, c, b] { read(s, c, b); });
        if (step == 1)
            return m_sim->kernel(QueueRole::Compute, opName("bp", c), m_costs.backProject, {},
                                 [this, &s, c, threads = ctx.threads] {
                                     VolumeGeometry grid = m_vol;
                                     grid.nz = static_cast<int>(c.count);
                                     s.status = m_cpu.backProject(s.sino, m_geom, grid, m_weights,
                                                                  s.volume, {threads, {}, nullptr});
                                 });
        return m_sim->kernel(QueueRole::Compute, opName("bp write", c), m_costs.write,
                             {{b.output.handle, true}}, [this, &s, c, b] { write(s, c, b); });
    }

  private:
    struct State {
        Sinograms sino;
        Volume volume;
        Status status;
    };
    void read(State& s, const PipelineChunk& c, const ChunkBuffers& b) {
        s.sino = Sinograms::create(c.count, std::size_t(m_in.angles), std::size_t(m_in.detectors))
                     .value();
        const float* src = reinterpret_cast<const float*>(m_sim->memory(b.input));
        for (std::size_t r = 0; r < c.count * std::size_t(m_in.angles); ++r)
            std::memcpy(s.sino.rows().row(r).data(), src + r * m_in.pitch,
                        std::size_t(m_in.detectors) * sizeof(float));
    }
    /// The chunk's volume into the output buffer (NaN when the CPU kernel failed).
    void write(State& s, const PipelineChunk& c, const ChunkBuffers& b) {
        float* dst = reinterpret_cast<float*>(m_sim->memory(b.output));
        if (!s.status.isOk()) s.volume.fill(std::numeric_limits<float>::quiet_NaN());
        for (std::size_t r = 0; r < c.count * std::size_t(m_out.ny); ++r)
            std::memcpy(dst + r * std::size_t(m_out.nx), s.volume.rows().row(r).data(),
                        std::size_t(m_out.nx) * sizeof(float));
    }
    std::shared_ptr<SimulatedQueues> m_sim;
    BackProjector& m_cpu;
    SinogramChunkLayout m_in;
    VolumeChunkLayout m_out;
    ParallelGeometry m_geom;
    VolumeGeometry m_vol;
    std::vector<float> m_weights;
    SimStageCosts m_costs;
    State m_state[2];
    int m_steps = 0;
};

class SimFilterStage final : public ChunkStage {
  public:
    SimFilterStage(std::shared_ptr<SimulatedQueues> sim, const RampFilter& filter,
                   const SinogramChunkLayout& in, double seconds)
        : m_sim(std::move(sim)), m_filter(filter), m_in(in), m_seconds(seconds) {}
    TimelineStage timelineStage() const override { return TimelineStage::Filter; }
    Status prepare(std::size_t, std::size_t) override { return Status::ok(); }
    int steps(const PipelineChunk&) const override { return 1; }
    double work(const PipelineChunk& c, int) const override { return double(c.count); }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int, const ExecContext&) override {
        // In place: a read, then a write of the chunk's rows.
        return m_sim->kernel(QueueRole::Compute, opName("filter", c), m_seconds,
                             {{b.input.handle, false}, {b.input.handle, true}}, [this, c, b] {
                                 const View2<float> rows(
                                     reinterpret_cast<float*>(m_sim->memory(b.input)),
                                     c.count * std::size_t(m_in.angles),
                                     std::size_t(m_in.detectors), m_in.pitch);
                                 m_status = m_filter.apply(rows, {1, {}, nullptr});
                             });
    }

  private:
    std::shared_ptr<SimulatedQueues> m_sim;
    const RampFilter& m_filter;
    SinogramChunkLayout m_in;
    double m_seconds;
    Status m_status;
};

}  // namespace

SimulatedGpuBackProjector::SimulatedGpuBackProjector(std::unique_ptr<BackProjector> cpu,
                                                     std::shared_ptr<SimulatedQueues> sim,
                                                     SimStageCosts costs)
    : m_cpu(std::move(cpu)), m_sim(std::move(sim)), m_costs(costs) {}

Status SimulatedGpuBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                              const VolumeGeometry& vol,
                                              std::span<const float> weights, Volume& out,
                                              const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    return backProjectOnDevice(*this, sino, geom, vol, weights, out, chunkSlices,
                               std::size_t(info().slicesPerPass), ctx);
}

Result<std::unique_ptr<DeviceQueues>> SimulatedGpuBackProjector::openQueues() {
    return std::unique_ptr<DeviceQueues>(std::make_unique<SharedQueues>(m_sim));
}

Result<std::unique_ptr<ChunkStage>> SimulatedGpuBackProjector::stage(
    DeviceQueues&, const SinogramChunkLayout& in, const VolumeChunkLayout& out,
    const ParallelGeometry& geom, const VolumeGeometry& vol, std::span<const float> weights) {
    if (m_costs.open > 0) std::this_thread::sleep_for(std::chrono::duration<double>(m_costs.open));
    return std::unique_ptr<ChunkStage>(std::make_unique<SimBackProjectionStage>(
        m_sim, *m_cpu, in, out, geom, vol, weights, m_costs));
}

Result<std::unique_ptr<ChunkStage>> SimulatedRowFilter::deviceStage(DeviceQueues&,
                                                                    const RampFilter& filter,
                                                                    const SinogramChunkLayout& in) {
    return std::unique_ptr<ChunkStage>(
        std::make_unique<SimFilterStage>(m_sim, filter, in, m_costs.filter));
}

}  // namespace tomo::test
