#pragma once
/// @file ClConeBackProjector.h
/// @brief The OpenCL cone-beam back-projectors (kernels/cone.cl): core's ConeBackProjector on
/// one ClDeviceContext. Internal to tomo_gpu_opencl (OpenCL types); the registration is in
/// OpenClConeBackProjectors.h.
///
/// Device memory of a slab (paper 003's memory inequality, bytesFor()): the accumulator of the
/// slab's voxels, the padded projections of one batch and their matrices, and for the symmetric
/// kernel a staging buffer for the transpose back to [plane][y][x] of at most 16 Mi floats.
/// begin() returns OutOfMemory when that exceeds the device's budget or an allocation fails, so
/// that runFdk halves the slab. Batches reach the slab through core's pipeline (device(),
/// ClConeStage.cpp): uploaded on queue(0) from pinned staging while queue(1) pads them on the
/// device (conePad, transposed for the symmetric kernel), writes each launch's matrices and runs
/// the kernel; runFdk puts a device ramp stage before it where there is one (VkFFT), add() runs
/// the stage alone on views in memory.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cone/ConeBackProjector.h"
#include "core/cone/ConeKernelSupport.h"
#include "gpu/opencl/internal/ClDeviceContext.h"

namespace tomo::opencl {

/// How coneSymmetric shares u and 1/h2 across a column's work-items (cone.cl's SHARE).
enum class ClConeShare {
    None = 0,      ///< each work-item computes them (no sharing)
    Local = 1,     ///< local memory, a barrier pair per 32 views
    SubGroup = 2,  ///< sub-group broadcasts (cl_khr_subgroups / cl_intel_subgroups)
};
const char* clConeShareName(ClConeShare share);

struct ClConeConfig {
    bool symmetric = false;
    ClConeShare share = ClConeShare::Local;  ///< symmetric kernel only
    /// Local sharing: a barrier after every view (cone.cl's LOOP_BARRIER; CPU devices).
    bool barrierPerView = false;
    /// coneTile in place of coneSymmetric (symmetric only; CUDA's cuda.fdk.tile, its twin).
    bool tile = false;
    /// coneTile from column-pair images (two taps per 8-byte load; twice a batch's memory).
    bool pairs = false;
    /// coneTileStaged: coneTile with each view's detector patch staged in local memory.
    bool staged = false;
};

class ClConeBackProjector final : public ConeBackProjector, public ConeDeviceBackProjection {
  public:
    ClConeBackProjector(ConeBackProjectorInfo info, std::shared_ptr<ClDeviceContext> device,
                        ClConeConfig config);
    ~ClConeBackProjector() override;

    const ConeBackProjectorInfo& info() const override { return m_info; }
    Status begin(const ConeGeometry& geometry, const ConeVolumeGrid& grid, int firstPlane,
                 int planes, const ExecContext& ctx) override;
    Status add(int first, const Array3<float>& views, const ExecContext& ctx) override;
    Result<Volume> finish(const ExecContext& ctx) override;
    Status finishInto(Volume& out, const ExecContext& ctx) override;
    std::size_t bytesFor(std::size_t plane, std::size_t planes,
                         std::size_t batchPixels) const override;
    int preferredBatch() const override { return kBatch; }
    /// add()'s uploads and kernels (the pipeline's events), finish()'s transposes (their
    /// events) and read-back (host clock, blocking reads).
    ConeDeviceTimes deviceTimes() const override { return m_times; }

    /// Builds the program (cached by the context) and makes this object's kernels.
    Status prepare();
    const ClConeConfig& config() const { return m_config; }
    std::size_t deviceBudget() const override;
    ConeDeviceBackProjection* device() override { return this; }
    Result<std::unique_ptr<DeviceQueues>> openQueues() override;
    Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues, int firstView,
                                              std::size_t pitch) override;
    Status weigh(DeviceQueues& queues, const FdkWeightLaunch& launch) override;

  private:
    friend class ClConeStage;
    static constexpr int kBatch = 32;
    Status allocateBatch(int views);
    std::size_t imageSize() const;  ///< floats per padded projection
    Status enqueueBackProjection(int views, ClEvent& done);
    /// The slab into @p out (any content), every stored float written once (SlabDownload.h).
    Status download(Volume& out, int threads);
    Status enqueueTile(int views, ClEvent& done);
    void reset();

    ConeBackProjectorInfo m_info;
    std::shared_ptr<ClDeviceContext> m_device;
    ClConeConfig m_config;
    ClKernel m_kernel, m_transpose, m_pad;
    ClKernel m_weights;  ///< fdkWeights (fdk_weights.cl), made on the first weigh()

    std::optional<ConeGeometry> m_geometry;
    ConeVolumeGrid m_grid;  ///< the whole volume
    int m_first = 0, m_planes = 0;
    bool m_mirror = false;
    ClMem m_acc;                 ///< standard: [plane][y][x]; symmetric: [plane][x][y]
    ClMem m_proj, m_mats;        ///< one batch's padded projections and index matrices
    int m_batchCapacity = 0;     ///< views m_proj and m_mats hold
    int m_slow = 0, m_fast = 0;  ///< unpadded sizes of the padded projections
    ConeDeviceTimes m_times;     ///< since begin()
};

}  // namespace tomo::opencl
