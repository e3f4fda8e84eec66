#include "gpu/cuda/locality/CudaLocalityOperator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/locality/DeviceLocality.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/internal/CudaQueues.h"
#include "gpu/cuda/locality/LocalityKernels.h"

namespace tomo::cuda {
namespace {

constexpr std::size_t kSliceAlign = 128;  ///< floats: slices start 512-byte aligned
constexpr int kMaxGridZ = 65535;          ///< slices per launch (gridDim.z)

/// A 1-D texture object over @p count floats at @p data (point sampling).
Result<TextureObject> linearTexture(const float* data, std::size_t count, const char* what) {
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = const_cast<float*>(data);
    res.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    res.res.linear.sizeInBytes = count * sizeof(float);
    cudaTextureDesc tex{};
    tex.filterMode = cudaFilterModePoint;
    tex.readMode = cudaReadModeElementType;
    cudaTextureObject_t object = 0;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaCreateTextureObject(&object, &res, &tex, nullptr),
                                   std::string("cudaCreateTextureObject(") + what + ", " +
                                       mebibytes(count * sizeof(float)) + ")"));
    return TextureObject(object);
}

/// The CUDA side of core's device operator (core/locality/DeviceLocality.h): the constant
/// tables, made once, the device's limits, and stages that launch a chunk's kernels.
class CudaLocalityDevice final : public LocalityDevice {
  public:
    CudaLocalityDevice(std::shared_ptr<CudaDeviceContext> device, const ParallelGeometry& geom,
                       const VolumeGeometry& vol)
        : m_device(std::move(device)),
          m_vol(vol),
          m_rays(rayAngles(geom, vol)),
          m_angles(geom.angles()),
          m_pitch(geom.detectorPitch()),
          m_detectors(geom.detectorCount()) {
        for (int p = 0; p < geom.angleCount(); ++p)
            m_centers.push_back(geom.center(p));
    }

    /// Constants and the device's texture limits; DeviceError / OutOfMemory as documented.
    Status init();

    std::string prefix() const override { return "cuda.locality"; }
    Result<std::unique_ptr<DeviceQueues>> openQueues() override {
        TOMO_ASSIGN_OR_RETURN(std::unique_ptr<CudaQueues> q, CudaQueues::open(m_device));
        return std::unique_ptr<DeviceQueues>(std::move(q));
    }
    std::size_t sliceAlignment() const override { return kSliceAlign; }
    std::size_t maxChunkSlices(std::size_t itemFloats) const override {
        return std::min<std::size_t>(kMaxGridZ, m_maxLinear / std::max<std::size_t>(1, itemFloats));
    }
    Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues,
                                              const LocalityCall& call) override;

  private:
    friend class CudaLocalityStage;
    Result<DeviceBuffer> upload(const void* data, std::size_t bytes) {
        TOMO_ASSIGN_OR_RETURN(DeviceBuffer b, DeviceBuffer::create(bytes, "projector constants"));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemcpy(b.get(), data, bytes, cudaMemcpyHostToDevice),
                                       "upload of the projector constants"));
        return b;
    }

    std::shared_ptr<CudaDeviceContext> m_device;
    VolumeGeometry m_vol;
    std::vector<RayAngle> m_rays;
    std::vector<double> m_angles;
    std::vector<double> m_centers;
    double m_pitch = 1;
    int m_detectors = 0;
    std::size_t m_maxLinear = 0;     ///< texels of a 1-D linear texture
    std::size_t m_textureAlign = 1;  ///< bytes a texture's base must be aligned to
    DeviceBuffer m_rayBuffer, m_cosines, m_sines, m_centerBuffer;
};

Status CudaLocalityDevice::init() {
    TOMO_RETURN_IF_ERROR(m_device->activate());
    const std::size_t angles = m_rays.size();
    std::vector<LocalityRay> rays(angles);
    std::vector<double> cosines(angles), sines(angles);
    for (std::size_t p = 0; p < angles; ++p) {
        rays[p] = {m_rays[p].a, m_rays[p].b, m_rays[p].d, float(m_rays[p].step)};
        cosines[p] = std::cos(m_angles[p]);
        sines[p] = std::sin(m_angles[p]);
    }
    TOMO_ASSIGN_OR_RETURN(m_rayBuffer, upload(rays.data(), rays.size() * sizeof(LocalityRay)));
    TOMO_ASSIGN_OR_RETURN(m_cosines, upload(cosines.data(), angles * sizeof(double)));
    TOMO_ASSIGN_OR_RETURN(m_sines, upload(sines.data(), angles * sizeof(double)));
    TOMO_ASSIGN_OR_RETURN(m_centerBuffer, upload(m_centers.data(), angles * sizeof(double)));
    int maxLinear = 0;
    const int index = m_device->traits().index;
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaDeviceGetAttribute(&maxLinear, cudaDevAttrMaxTexture1DLinearWidth, index),
                  "cudaDeviceGetAttribute(MaxTexture1DLinearWidth)"));
    m_maxLinear = std::size_t(std::max(maxLinear, 0));
    // The pipeline's buffers start at the device's texture alignment (CudaDeviceContext::device).
    m_textureAlign = m_device->traits().textureAlignment;
    // The constants' copies may still be in flight (pageable cudaMemcpy), and the pipeline's
    // streams do not synchronise with the legacy default stream.
    return cudaCheck(cudaDeviceSynchronize(), "upload of the projector constants");
}

/// One call's kernels on a chunk: forward, one launch per orientation group (rows, then
/// columns) over every slice of the chunk; back-projection, one launch. The chunk's input is
/// read through a texture object over its ring slot, made once per slot and call.
class CudaLocalityStage final : public LocalityStage {
  public:
    CudaLocalityStage(CudaLocalityDevice& d, CudaQueues& q, const LocalityCall& call)
        : LocalityStage(call, d.m_vol), m_d(d), m_q(q) {}
    Status prepare(std::size_t chunkItems, std::size_t) override {
        m_inputFloats = chunkItems * (m_call.forward ? m_call.volumeStride : m_call.sinoStride);
        return Status::ok();
    }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int step,
               const ExecContext&) override;

  private:
    Result<cudaTextureObject_t> texture(const DeviceBufferRef& input);

    CudaLocalityDevice& m_d;
    CudaQueues& m_q;
    std::size_t m_inputFloats = 0;
    std::vector<std::pair<void*, TextureObject>> m_textures;  ///< per ring slot's buffer
};

Result<cudaTextureObject_t> CudaLocalityStage::texture(const DeviceBufferRef& input) {
    for (const auto& [handle, object] : m_textures)
        if (handle == input.handle) return object.get();
    if (reinterpret_cast<std::uintptr_t>(input.handle) % m_d.m_textureAlign != 0)
        return internalError("CUDA projector: a pipeline buffer is not aligned for a texture");
    TOMO_ASSIGN_OR_RETURN(TextureObject t,
                          linearTexture(static_cast<const float*>(input.handle), m_inputFloats,
                                        m_call.forward ? "volume chunk" : "sinogram chunk"));
    const cudaTextureObject_t object = t.get();
    m_textures.emplace_back(input.handle, std::move(t));
    return object;
}

Status CudaLocalityStage::run(const PipelineChunk& c, const ChunkBuffers& b, int step,
                              const ExecContext&) {
    const LocalityLaunch& g = m_launches[std::size_t(step)];
    const VolumeGeometry& vol = m_d.m_vol;
    TOMO_ASSIGN_OR_RETURN(const cudaTextureObject_t in, texture(b.input));
    const int* order = CudaQueues::ptr<const int>(m_call.orderOnDevice);
    if (m_call.forward) {
        LocalityForwardArgs args;
        args.volume = in;
        args.volumeStride = m_call.volumeStride;
        args.rays = m_d.m_rayBuffer.as<const LocalityRay>();
        const RayOrdering o = m_call.ordering;
        args.ordering.spreadAngles = o == RayOrdering::Unordered || o == RayOrdering::Strips;
        args.ordering.spreadDetectors = o == RayOrdering::Unordered;
        args.ordering.segments = o == RayOrdering::StripSegments;
        args.nx = vol.nx;
        args.ny = vol.ny;
        args.detectors = m_d.m_detectors;
        args.slices = static_cast<int>(c.count);
        args.sino = CudaQueues::ptr<float>(b.output);
        args.sinoStride = m_call.sinoStride;
        args.subsetFirst = m_call.subset;
        args.subsetStep = m_call.subsets;
        args.alongRows = g.rows;
        args.projections = order + g.begin;
        args.count = g.count;
        return launchLocalityForward(args, m_q.computeStream());
    }
    LocalityBackArgs args;
    args.sino = in;
    args.sinoStride = m_call.sinoStride;
    args.cosines = m_d.m_cosines.as<const double>();
    args.sines = m_d.m_sines.as<const double>();
    args.centers = m_d.m_centerBuffer.as<const double>();
    args.projections = order;
    args.count = g.count;
    args.nx = vol.nx;
    args.ny = vol.ny;
    args.detectors = m_d.m_detectors;
    args.x0 = vol.x(0);
    args.y0 = vol.y(0);
    args.voxelSize = vol.voxelSize;
    args.pitch = m_d.m_pitch;
    args.weight = static_cast<float>(vol.voxelSize * vol.voxelSize / m_d.m_pitch);
    args.slices = static_cast<int>(c.count);
    args.volume = CudaQueues::ptr<float>(b.output);
    args.volumeStride = m_call.volumeStride;
    args.subsetFirst = m_call.subset;
    args.subsetStep = m_call.subsets;
    return launchLocalityBack(args, m_q.computeStream());
}

Result<std::unique_ptr<ChunkStage>> CudaLocalityDevice::stage(DeviceQueues& queues,
                                                              const LocalityCall& call) {
    auto* q = dynamic_cast<CudaQueues*>(&queues);
    if (!q) return invalidArgument("CUDA projector: not a CUDA device's queues");
    return std::unique_ptr<ChunkStage>(std::make_unique<CudaLocalityStage>(*this, *q, call));
}

}  // namespace

Result<std::unique_ptr<SubsetOperator>> makeCudaLocalityOperator(
    const ParallelGeometry& geom, const VolumeGeometry& vol, const CudaLocalityOptions& options) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (vol.nz != geom.rows())
        return invalidArgument("CUDA projector: the grid has " + std::to_string(vol.nz) +
                               " slices but the geometry " + std::to_string(geom.rows()) +
                               " detector rows");
    std::shared_ptr<CudaDeviceContext> device = options.context;
    if (!device) {
        TOMO_ASSIGN_OR_RETURN(device, CudaDeviceContext::open(options.device));
    }
    auto backend = std::make_unique<CudaLocalityDevice>(std::move(device), geom, vol);
    TOMO_RETURN_IF_ERROR(backend->init().withContext("CUDA projector"));
    return std::unique_ptr<SubsetOperator>(
        std::make_unique<DeviceLocalityOperator>(std::move(backend), geom, vol, options.ordering));
}

}  // namespace tomo::cuda
