#pragma once
/// @file ClBackProjectionStage.h
/// @brief The OpenCL back-projection as a stage of core's pipeline (core/projectors/
/// DeviceBackProjection.h): a chunk's rows are already on the device (uploaded, perhaps filtered
/// there); per pass and angle chunk they are packed on the device into the launcher's layout
/// (kernels/pack.cl; then copied into the image for image families), the launches of core's
/// launch sequence (core/projectors/PassDriver.h passSteps) write the pass's band, and each
/// finished band is copied into the chunk's output (clEnqueueCopyBufferRect), all on the compute
/// queue, in order. Buffers: the packed pass and the band (the context's scratch, kept between
/// runs), the sinogram image, one constant buffer per angle chunk. The plan (core/projectors/
/// PassPlan.h) fits them into the budget the pipeline leaves; an allocation the device refuses
/// shrinks the items (runWithRetry) before OutOfMemory.

#include <memory>
#include <string>
#include <vector>

#include "core/projectors/DeviceBackProjection.h"
#include "core/projectors/PassDriver.h"
#include "gpu/opencl/internal/ClBackProjector.h"
#include "gpu/opencl/internal/ClQueues.h"

namespace tomo::opencl {

class ClBackProjectionStage final : public PassPlanStage {
  public:
    ClBackProjectionStage(ClQueues& queues, ClKernelLauncher& launcher, std::string id,
                          const ClBackProjectorOptions& options, const SinogramChunkLayout& in,
                          const VolumeChunkLayout& out,
                          std::vector<ClProjectionConstants> constants);
    Status prepare(std::size_t chunkItems, std::size_t budget) override;
    Status run(const PipelineChunk& chunk, const ChunkBuffers& buffers, int step,
               const ExecContext& ctx) override;

  private:
    Result<PassPlan> plan(std::size_t chunkItems, std::size_t budget, int shrink) const override;
    Status allocate(const PassPlan& p) override;
    Status pack(const PassStep& s, cl_mem rows);
    Status copyBand(const PassStep& s, cl_mem output);

    ClQueues& m_q;
    ClKernelLauncher& m_launcher;
    std::string m_id;
    ClBackProjectorOptions m_options;
    std::vector<ClProjectionConstants> m_constants;
    std::vector<cl_mem> m_constantBuffers;  // per angle chunk (scratch)
    cl_mem m_packed = nullptr;              // the packed pass (scratch)
    ClMem m_image;                          // image families: the packed pass as an image
    cl_mem m_band = nullptr;                // the pass's band (scratch)
    ClKernel m_pack;
};

}  // namespace tomo::opencl
