#pragma once
// A GPU back-projector and a device row filter on the simulated device (SimulatedQueues.h):
// their stages compute with the CPU's own code (the wrapped CPU back-projector, RampFilter)
// on the simulated device buffers, so core's pipeline driver and FBP composition run exactly
// as for CUDA and OpenCL while the result must equal the CPU pipeline's bit for bit.
#include <memory>
#include <vector>

#include "core/recon/Fbp.h"
#include "tests/core/pipeline/SimulatedQueues.h"

namespace tomo::test {

/// Simulated seconds of each step.
struct SimStageCosts {
    double filter = 2e-3;              ///< one chunk's filter
    double read = 1e-4, write = 1e-4;  ///< the back-projection's first and last step
    double backProject = 4e-3;         ///< its middle step
    /// Real seconds stage() sleeps: what opening a device costs before the first chunk (its
    /// context, modules, plans), for the accounting of a call's setup.
    double open = 0;
};

/// A BackProjector whose device() runs @p cpu's kernel on the simulated device, in three
/// steps per chunk: read the rows, back-project, write the volume.
class SimulatedGpuBackProjector final : public BackProjector, public DeviceBackProjection {
  public:
    SimulatedGpuBackProjector(std::unique_ptr<BackProjector> cpu,
                              std::shared_ptr<SimulatedQueues> sim, SimStageCosts costs = {});
    const BackProjectorInfo& info() const override { return m_cpu->info(); }
    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override;
    DeviceBackProjection* device() override { return this; }
    Result<std::unique_ptr<DeviceQueues>> openQueues() override;
    Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues, const SinogramChunkLayout& in,
                                              const VolumeChunkLayout& out,
                                              const ParallelGeometry& geom,
                                              const VolumeGeometry& vol,
                                              std::span<const float> weights) override;
    /// Chunks of backProject() (a multiple of the slices per pass, as a GPU variant's).
    std::size_t chunkSlices = 4;

  private:
    std::unique_ptr<BackProjector> m_cpu;
    std::shared_ptr<SimulatedQueues> m_sim;
    SimStageCosts m_costs;
};

/// A RowFilterStage whose device stage filters in place on the simulated device (the CPU's
/// RampFilter on the device buffer's rows).
class SimulatedRowFilter final : public RowFilterStage {
  public:
    SimulatedRowFilter(std::shared_ptr<SimulatedQueues> sim, SimStageCosts costs = {})
        : m_sim(std::move(sim)), m_costs(costs) {}
    std::string name() const override { return "simulated device filter"; }
    Status apply(const RampFilter& filter, Sinograms& rows, const ExecContext& ctx) override {
        return filter.apply(rows.rows(), ctx);
    }
    Result<std::unique_ptr<ChunkStage>> deviceStage(DeviceQueues& queues, const RampFilter& filter,
                                                    const SinogramChunkLayout& in) override;

  private:
    std::shared_ptr<SimulatedQueues> m_sim;
    SimStageCosts m_costs;
};

}  // namespace tomo::test
