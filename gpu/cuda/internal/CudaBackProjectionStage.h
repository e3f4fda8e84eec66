#pragma once
/// @file CudaBackProjectionStage.h
/// @brief The CUDA back-projection as a stage of core's pipeline (core/projectors/
/// DeviceBackProjection.h): a chunk's rows are on the device (uploaded, perhaps filtered by
/// cuFFT there); per pass and angle chunk they are packed on the device (kernels/PackKernels.cu)
/// into a pitched sinogram under a texture object, and the launches of core's launch sequence
/// (core/projectors/PassDriver.h passSteps) write the pass straight into the chunk's output (a
/// whole pass in one band), or into a band buffer copied there after the band's last launch
/// (several bands, or a pass of fewer slices than the kernel writes). Everything on the compute
/// stream, in order. Buffers are the context's scratch (kept between runs): the pitched packed
/// sinogram, the band, the constants and the hybrid's SM counters. The plan fits them into the
/// budget the pipeline leaves; an allocation the device refuses frees nothing of the pipeline
/// but shrinks the items (runWithRetry) before OutOfMemory. Internal (CUDA types). Not yet run
/// on a GPU.

#include <string>
#include <vector>

#include "core/projectors/DeviceBackProjection.h"
#include "core/projectors/PassDriver.h"
#include "gpu/cuda/internal/CudaBackProjector.h"
#include "gpu/cuda/internal/CudaQueues.h"

namespace tomo::cuda {

class CudaBackProjectionStage final : public PassPlanStage {
  public:
    CudaBackProjectionStage(CudaQueues& queues, const CudaLauncher& launcher, std::string id,
                            const CudaBackProjectorOptions& options, const SinogramChunkLayout& in,
                            const VolumeChunkLayout& out, std::vector<float> constants);
    Status prepare(std::size_t chunkItems, std::size_t budget) override;
    Status run(const PipelineChunk& chunk, const ChunkBuffers& buffers, int step,
               const ExecContext& ctx) override;

  private:
    Result<PassPlan> plan(std::size_t chunkItems, std::size_t budget, int shrink) const override;
    Status allocate(const PassPlan& p) override;
    /// Whether the pass of @p s writes straight into the chunk's output.
    bool direct(const PassStep& s) const;

    CudaQueues& m_q;
    const CudaLauncher& m_launcher;
    std::string m_id;
    CudaBackProjectorOptions m_options;
    std::vector<float> m_consts;         ///< {cx, cy, a, w} per projection
    DeviceBuffer* m_sinogram = nullptr;  // pitched packed pass
    TextureObject m_texture;
    DeviceBuffer* m_band = nullptr;
    DeviceBuffer* m_dConsts = nullptr;
    DeviceBuffer* m_counters = nullptr;
};

}  // namespace tomo::cuda
