// The host side of a stack through a device pipeline, and the GPU variants' backProject()
// (DeviceBackProjection.h).
#include "core/projectors/DeviceBackProjection.h"

#include <algorithm>
#include <cstring>

namespace tomo {

std::size_t stackChunkSlices(std::size_t slicesPerPass, std::size_t slices,
                             std::size_t bytesPerSlice) {
    const std::size_t pass = std::max<std::size_t>(1, slicesPerPass);
    const std::size_t memoryCap = std::max<std::size_t>(
        1, (std::size_t{256} << 20) / std::max<std::size_t>(bytesPerSlice, 1));
    std::size_t chunk = std::max(pass, 8 / pass * pass);
    chunk = std::max(pass, std::min(chunk, memoryCap / pass * pass));
    return std::min(chunk, slices);
}

PipelineIo stackPipelineSizes(std::size_t slices, const SinogramChunkLayout& in,
                              const VolumeChunkLayout& out, std::size_t chunkSlices) {
    PipelineIo io;
    io.items = slices;
    io.chunkItems = std::max<std::size_t>(1, chunkSlices);
    io.inputBytesPerItem = in.bytesPerSlice();
    io.outputBytesPerItem = out.bytesPerSlice();
    return io;
}

PipelineIo stackPipelineIo(const Sinograms& sino, Volume& out, std::size_t chunkSlices) {
    const SinogramChunkLayout in{static_cast<int>(sino.dim(1)), static_cast<int>(sino.dim(2)),
                                 sino.pitch()};
    const std::size_t nx = out.dim(2), ny = out.dim(1), pitch = out.pitch();
    PipelineIo io = stackPipelineSizes(sino.dim(0), in,
                                       {static_cast<int>(nx), static_cast<int>(ny)}, chunkSlices);
    const std::size_t inSlice = io.inputBytesPerItem;
    io.pack = [&sino, inSlice](const PipelineChunk& c, std::size_t offset, std::size_t bytes,
                               std::byte* dst) {
        const auto* base = reinterpret_cast<const std::byte*>(sino.data());
        std::memcpy(dst, base + c.first * inSlice + offset, bytes);
    };
    io.unpack = [&out, nx, ny, pitch](const PipelineChunk& c, std::size_t offset, std::size_t bytes,
                                      const std::byte* src) {
        // Dense [count][ny][nx] floats from byte offset (a multiple of 4) into padded rows; the
        // padding of each row is zeroed with its last value, so that every element of the
        // chunk's planes is written (reconstructFbp's output is allocated uninitialised).
        std::size_t e = offset / sizeof(float);
        const std::size_t end = e + bytes / sizeof(float);
        const auto* values = reinterpret_cast<const float*>(src);
        while (e < end) {
            const std::size_t row = e / nx, col = e % nx;
            const std::size_t n = std::min(nx - col, end - e);
            float* dst = out.data() + (c.first * ny + row) * pitch + col;
            std::memcpy(dst, values, n * sizeof(float));
            if (col + n == nx) std::fill(dst + n, dst + (pitch - col), 0.0f);
            values += n;
            e += n;
        }
    };
    return io;
}

Status backProjectOnDevice(DeviceBackProjection& device, const Sinograms& sino,
                           const ParallelGeometry& geom, const VolumeGeometry& vol,
                           std::span<const float> weights, Volume& out, std::size_t chunkSlices,
                           std::size_t slicesPerPass, const ExecContext& ctx, Timeline* timeline) {
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<DeviceQueues> queues, device.openQueues());
    const SinogramChunkLayout in{static_cast<int>(sino.dim(1)), static_cast<int>(sino.dim(2)),
                                 sino.pitch()};
    const VolumeChunkLayout outLayout{vol.nx, vol.ny};
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ChunkStage> stage,
                          device.stage(*queues, in, outLayout, geom, vol, weights));
    const std::vector<ChunkStage*> stages{stage.get()};
    return runPipelineWithRetry(
        *queues, stackPipelineIo(sino, out, chunkSlices), slicesPerPass,
        [&](const PipelineIo& io) { return runPipeline(queues.get(), io, stages, ctx, timeline); });
}

PassLimits PassPlanStage::limits(std::size_t chunkItems, int slicesPerPass, std::size_t budget,
                                 double updatesPerLaunch, int shrink) const {
    PassLimits l;
    l.slices = static_cast<int>(chunkItems);
    l.slicesPerPass = slicesPerPass;
    l.nx = m_out.nx;
    l.ny = m_out.ny;
    l.angles = m_in.angles;
    l.budget = budget;
    l.updatesPerLaunch = updatesPerLaunch;
    l.shrink = shrink;
    return l;
}

Status PassPlanStage::preparePlan(std::size_t chunkItems, std::size_t budget) {
    m_steps.clear();
    return runWithRetry(
        [&](int shrink) -> Result<PassPlan> {
            TOMO_ASSIGN_OR_RETURN(m_plan, plan(chunkItems, budget, shrink));
            return m_plan;
        },
        [&](const PassPlan& p) { return allocate(p); });
}

const std::vector<PassStep>& PassPlanStage::stepsFor(const PipelineChunk& c) const {
    auto it = m_steps.find(c.count);
    if (it == m_steps.end())
        it = m_steps
                 .emplace(c.count,
                          passSteps(m_plan, {static_cast<int>(c.count), m_out.ny, m_in.angles},
                                    m_out.nx))
                 .first;
    return it->second;
}

int PassPlanStage::steps(const PipelineChunk& chunk) const {
    return static_cast<int>(stepsFor(chunk).size());
}

double PassPlanStage::work(const PipelineChunk& chunk, int step) const {
    return stepsFor(chunk)[static_cast<std::size_t>(step)].updates;
}

}  // namespace tomo
