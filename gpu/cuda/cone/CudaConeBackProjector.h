#pragma once
/// @file CudaConeBackProjector.h
/// @brief The CUDA cone-beam back-projectors (kernels/ConeKernels.cu): core's ConeBackProjector
/// on one CudaDeviceContext. Internal to tomo_gpu_cuda (CUDA types); the registration is in
/// CudaConeBackProjectors.h.
///
/// Device memory of a slab (paper 003's memory inequality, bytesFor()): the slab's accumulator
/// in plain device memory (y-contiguous for the shfl kernels), the padded projections of one
/// launch (kConeBatch views: a linear buffer for __ldg; for the texture fetch the layered array
/// and the scratch buffer the views are padded into before their copy into it), and for the shfl
/// kernels a staging buffer for the transpose back to [plane][y][x] of at most 16 Mi floats.
/// begin() returns OutOfMemory when that exceeds the context's budget or an allocation fails
/// (runFdk then halves the slab). Batches of views reach the slab through core's pipeline
/// (device(): CudaConeStage.cpp): uploaded from pinned staging on stream 0, padded (and
/// transposed) on the device into the launch's storage and back-projected on stream 1 in groups
/// of 32 views, while the next batch uploads; runFdk puts the cuFFT ramp stage before it, add()
/// runs the stage alone on views in memory. The pipeline's queues hold the context's scratch lock
/// (the __constant__ matrices are per device, ConeKernels.h). Not yet run on a GPU in this form.

#include <memory>
#include <optional>

#include "core/cone/ConeBackProjector.h"
#include "core/cone/ConeKernelSupport.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/kernels/ConeKernels.h"

namespace tomo::cuda {

struct CudaConeConfig {
    bool symmetric = false;  ///< the shfl kernels (else the standard kernel)
    bool mirror = true;      ///< shfl: the pair kernel on Mirror geometries (false: columns)
    ConeFetch fetch = ConeFetch::Texture;
    bool tile = false;    ///< shfl with Ldg: the tile kernels (ConeKernels.h)
    bool pairs = false;   ///< tile: column-pair images (twice the memory of a batch)
    bool staged = false;  ///< tile: the detector patch staged in shared memory
    /// Floats of one padded image of @p slow x @p fast pixels in this configuration's layout.
    std::size_t imageFloats(int slow, int fast) const {
        return static_cast<std::size_t>(fast + cone::kPadBefore + cone::kPadAfter) *
               static_cast<std::size_t>(slow + cone::kPadBefore + cone::kPadAfter) *
               (pairs ? 2 : 1);
    }
};

struct ArrayDeleter {
    void operator()(cudaArray_t a) const { cudaFreeArray(a); }
};
using CudaArray = CudaHandle<cudaArray_t, ArrayDeleter>;

class CudaConeBackProjector final : public ConeBackProjector, public ConeDeviceBackProjection {
  public:
    CudaConeBackProjector(ConeBackProjectorInfo info, std::shared_ptr<CudaDeviceContext> device,
                          CudaConeConfig config);
    ~CudaConeBackProjector() override;

    const ConeBackProjectorInfo& info() const override { return m_info; }
    Status begin(const ConeGeometry& geometry, const ConeVolumeGrid& grid, int firstPlane,
                 int planes, const ExecContext& ctx) override;
    Status add(int first, const Array3<float>& views, const ExecContext& ctx) override;
    Result<Volume> finish(const ExecContext& ctx) override;
    Status finishInto(Volume& out, const ExecContext& ctx) override;
    std::size_t bytesFor(std::size_t plane, std::size_t planes,
                         std::size_t batchPixels) const override;
    int preferredBatch() const override { return kConeBatch; }
    /// The slab's uploads, kernels, transposes and downloads, timed with CUDA events.
    ConeDeviceTimes deviceTimes() const override { return m_times; }
    std::size_t deviceBudget() const override;
    ConeDeviceBackProjection* device() override { return this; }
    Result<std::unique_ptr<DeviceQueues>> openQueues() override;
    Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues, int firstView,
                                              std::size_t pitch) override;
    Status weigh(DeviceQueues& queues, const FdkWeightLaunch& launch) override;

  private:
    friend class CudaConeStage;
    Status allocateViews(const DetectorGrid& d);
    Status launch(const float* matrices, int count, cudaStream_t stream);
    /// The slab into @p out (any content), every stored float written once (SlabDownload.h).
    Status download(Volume& out, int threads);
    void reset();

    ConeBackProjectorInfo m_info;
    std::shared_ptr<CudaDeviceContext> m_device;
    CudaConeConfig m_config;

    std::optional<ConeGeometry> m_geometry;
    ConeVolumeGrid m_grid;  ///< the whole volume
    int m_first = 0, m_planes = 0;
    ConeKernel m_kernel = ConeKernel::Standard;
    DeviceBuffer m_acc;  ///< standard: [plane][y][x]; shfl: [plane][x][y]
    // One launch's projections, kept across slabs of the same detector.
    int m_slow = 0, m_fast = 0;  ///< unpadded image sizes the storage below was made for
    DeviceBuffer m_proj;         ///< Ldg
    CudaArray m_array;           ///< Texture: kConeBatch layers
    TextureObject m_texture;
    ConeDeviceTimes m_times;  ///< since begin()
};

}  // namespace tomo::cuda
