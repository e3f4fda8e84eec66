#include "gpu/cuda/locality/CudaLocalityOperator.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/locality/RayGeometry.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/locality/LocalityKernels.h"

namespace tomo::cuda {
namespace {

constexpr std::size_t kSliceAlign = 128;  ///< floats: slices start 512-byte aligned
constexpr int kMaxGridZ = 65535;          ///< slices per launch (gridDim.z)

std::size_t alignUp(std::size_t n) {
    return (n + kSliceAlign - 1) / kSliceAlign * kSliceAlign;
}

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

class CudaLocalityOperator final : public SubsetOperator {
  public:
    CudaLocalityOperator(std::shared_ptr<CudaDeviceContext> device, const ParallelGeometry& geom,
                         const VolumeGeometry& vol, RayOrdering ordering)
        : m_device(std::move(device)),
          m_vol(vol),
          m_rays(rayAngles(geom, vol)),
          m_angles(geom.angles()),
          m_pitch(geom.detectorPitch()),
          m_detectors(geom.detectorCount()),
          m_ordering(ordering) {
        const std::size_t nz = std::size_t(vol.nz);
        m_volumeStride = alignUp(std::size_t(vol.nx) * std::size_t(vol.ny));
        m_sinoStride = alignUp(m_rays.size() * std::size_t(m_detectors));
        m_domain = nz * std::size_t(vol.ny) * std::size_t(vol.nx);
        m_range = nz * m_rays.size() * std::size_t(m_detectors);
        for (int p = 0; p < geom.angleCount(); ++p)
            m_centers.push_back(geom.center(p));
    }

    /// Device buffers, constants and textures; OutOfMemory / Unsupported as documented.
    Status init() {
        TOMO_RETURN_IF_ERROR(m_device->activate());
        const std::size_t nz = std::size_t(m_vol.nz), angles = m_rays.size();
        TOMO_ASSIGN_OR_RETURN(m_x, DeviceBuffer::create(nz * m_volumeStride * sizeof(float),
                                                        "volume of the CUDA projector"));
        TOMO_ASSIGN_OR_RETURN(m_y, DeviceBuffer::create(nz * m_sinoStride * sizeof(float),
                                                        "sinograms of the CUDA projector"));
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
        TOMO_ASSIGN_OR_RETURN(m_list, DeviceBuffer::create(angles * sizeof(int), "angle list"));

        int maxLinear = 0;
        TOMO_RETURN_IF_ERROR(
            cudaCheck(cudaDeviceGetAttribute(&maxLinear, cudaDevAttrMaxTexture1DLinearWidth,
                                             m_device->traits().index),
                      "cudaDeviceGetAttribute(MaxTexture1DLinearWidth)"));
        const std::size_t perSlice = std::max(m_volumeStride, m_sinoStride);
        if (perSlice > std::size_t(maxLinear))
            return unsupported("CUDA projector: one slice needs " + std::to_string(perSlice) +
                               " texels but the device's 1-D texture limit is " +
                               std::to_string(maxLinear));
        const int chunk =
            static_cast<int>(std::min<std::size_t>(kMaxGridZ, std::size_t(maxLinear) / perSlice));
        for (int z0 = 0; z0 < m_vol.nz; z0 += chunk) {
            const int slices = std::min(chunk, m_vol.nz - z0);
            m_chunks.push_back({z0, slices});
            TOMO_ASSIGN_OR_RETURN(auto xt,
                                  linearTexture(m_x.as<float>() + std::size_t(z0) * m_volumeStride,
                                                std::size_t(slices) * m_volumeStride, "volume"));
            TOMO_ASSIGN_OR_RETURN(auto yt,
                                  linearTexture(m_y.as<float>() + std::size_t(z0) * m_sinoStride,
                                                std::size_t(slices) * m_sinoStride, "sinograms"));
            m_xTextures.push_back(std::move(xt));
            m_yTextures.push_back(std::move(yt));
        }
        // The constants' copies may still be in flight (pageable cudaMemcpy), and the operator's
        // stream does not synchronise with the legacy default stream.
        return cudaCheck(cudaDeviceSynchronize(), "upload of the projector constants");
    }

    std::size_t domainSize() const override { return m_domain; }
    std::size_t rangeSize() const override { return m_range; }
    bool matchedAdjoint() const override { return false; }
    std::string name() const override {
        return std::string("cuda.locality.") + rayOrderingName(m_ordering);
    }
    int angleCount() const override { return static_cast<int>(m_rays.size()); }
    int detectorCount() const override { return m_detectors; }

    Status forwardSubset(std::span<const float> x, std::span<float> y, int subset, int subsets,
                         const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
        TOMO_RETURN_IF_ERROR(m_device->activate());
        cudaStream_t stream = m_device->stream(0);
        const std::size_t plane = std::size_t(m_vol.nx) * std::size_t(m_vol.ny);
        TOMO_RETURN_IF_ERROR(
            cudaCheck(cudaMemcpy2DAsync(m_x.get(), m_volumeStride * sizeof(float), x.data(),
                                        plane * sizeof(float), plane * sizeof(float),
                                        std::size_t(m_vol.nz), cudaMemcpyHostToDevice, stream),
                      "upload of the volume"));
        // The subset's angles, rows group first, each group sorted by angle.
        SubsetLaunchOrder order = subsetLaunchOrder(m_rays, m_angles, subset, subsets, true);
        const int rowsCount = order.rowsCount;
        m_hostList = std::move(order.angles);
        const std::vector<int>& list = m_hostList;
        TOMO_RETURN_IF_ERROR(uploadList(stream));
        LocalityForwardArgs args;
        args.volumeStride = m_volumeStride;
        args.rays = m_rayBuffer.as<const LocalityRay>();
        args.ordering.spreadAngles =
            m_ordering == RayOrdering::Unordered || m_ordering == RayOrdering::Strips;
        args.ordering.spreadDetectors = m_ordering == RayOrdering::Unordered;
        args.ordering.segments = m_ordering == RayOrdering::StripSegments;
        args.nx = m_vol.nx;
        args.ny = m_vol.ny;
        args.angles = angleCount();
        args.detectors = m_detectors;
        args.sino = m_y.as<float>();
        args.sinoStride = m_sinoStride;
        for (std::size_t c = 0; c < m_chunks.size(); ++c) {
            if (ctx.stop.stop_requested()) return cancelled("CUDA forward projection cancelled");
            args.volume = m_xTextures[c].get();
            args.sliceBegin = m_chunks[c].first;
            args.slices = m_chunks[c].second;
            for (const bool rows : {true, false}) {
                args.alongRows = rows;
                args.projections = m_list.as<const int>() + (rows ? 0 : rowsCount);
                args.count = rows ? rowsCount : static_cast<int>(list.size()) - rowsCount;
                TOMO_RETURN_IF_ERROR(launchLocalityForward(args, stream));
            }
        }
        TOMO_RETURN_IF_ERROR(copyRows(y.data(), subset, subsets, cudaMemcpyDeviceToHost, stream));
        return cudaCheck(cudaStreamSynchronize(stream), "CUDA forward projection");
    }

    Status adjointSubset(std::span<const float> y, std::span<float> x, int subset, int subsets,
                         const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
        TOMO_RETURN_IF_ERROR(m_device->activate());
        cudaStream_t stream = m_device->stream(0);
        TOMO_RETURN_IF_ERROR(copyRows(const_cast<float*>(y.data()), subset, subsets,
                                      cudaMemcpyHostToDevice, stream));
        m_hostList = subsetLaunchOrder(m_rays, m_angles, subset, subsets, false).angles;
        const std::vector<int>& list = m_hostList;
        TOMO_RETURN_IF_ERROR(uploadList(stream));
        LocalityBackArgs args;
        args.sinoStride = m_sinoStride;
        args.cosines = m_cosines.as<const double>();
        args.sines = m_sines.as<const double>();
        args.centers = m_centerBuffer.as<const double>();
        args.projections = m_list.as<const int>();
        args.count = static_cast<int>(list.size());
        args.nx = m_vol.nx;
        args.ny = m_vol.ny;
        args.angles = angleCount();
        args.detectors = m_detectors;
        args.x0 = m_vol.x(0);
        args.y0 = m_vol.y(0);
        args.voxelSize = m_vol.voxelSize;
        args.pitch = m_pitch;
        args.weight = static_cast<float>(m_vol.voxelSize * m_vol.voxelSize / m_pitch);
        args.volume = m_x.as<float>();
        args.volumeStride = m_volumeStride;
        for (std::size_t c = 0; c < m_chunks.size(); ++c) {
            if (ctx.stop.stop_requested()) return cancelled("CUDA back-projection cancelled");
            args.sino = m_yTextures[c].get();
            args.sliceBegin = m_chunks[c].first;
            args.slices = m_chunks[c].second;
            TOMO_RETURN_IF_ERROR(launchLocalityBack(args, stream));
        }
        const std::size_t plane = std::size_t(m_vol.nx) * std::size_t(m_vol.ny);
        TOMO_RETURN_IF_ERROR(
            cudaCheck(cudaMemcpy2DAsync(x.data(), plane * sizeof(float), m_x.get(),
                                        m_volumeStride * sizeof(float), plane * sizeof(float),
                                        std::size_t(m_vol.nz), cudaMemcpyDeviceToHost, stream),
                      "download of the volume"));
        return cudaCheck(cudaStreamSynchronize(stream), "CUDA back-projection");
    }

  private:
    Result<DeviceBuffer> upload(const void* data, std::size_t bytes) {
        TOMO_ASSIGN_OR_RETURN(DeviceBuffer b, DeviceBuffer::create(bytes, "projector constants"));
        TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemcpy(b.get(), data, bytes, cudaMemcpyHostToDevice),
                                       "upload of the projector constants"));
        return b;
    }

    Status uploadList(cudaStream_t stream) {
        return cudaCheck(
            cudaMemcpyAsync(m_list.get(), m_hostList.data(), m_hostList.size() * sizeof(int),
                            cudaMemcpyHostToDevice, stream),
            "upload of the angle list");
    }

    /// Copies the rows of subset @p subset of @p subsets between the dense host stack @p host
    /// and the device sinograms (all rows when subsets == 1).
    Status copyRows(float* host, int subset, int subsets, cudaMemcpyKind kind,
                    cudaStream_t stream) {
        const std::size_t det = std::size_t(m_detectors), angles = m_rays.size();
        const std::size_t rowBytes = det * sizeof(float);
        float* device = m_y.as<float>();
        const bool up = kind == cudaMemcpyHostToDevice;
        if (subsets == 1) {
            const std::size_t sliceBytes = angles * rowBytes;
            const std::size_t devPitch = m_sinoStride * sizeof(float);
            return cudaCheck(up ? cudaMemcpy2DAsync(device, devPitch, host, sliceBytes, sliceBytes,
                                                    std::size_t(m_vol.nz), kind, stream)
                                : cudaMemcpy2DAsync(host, sliceBytes, device, devPitch, sliceBytes,
                                                    std::size_t(m_vol.nz), kind, stream),
                             up ? "upload of the sinograms" : "download of the sinograms");
        }
        const std::size_t rows =
            (angles - std::size_t(subset) + std::size_t(subsets) - 1) / std::size_t(subsets);
        const std::size_t pitch = std::size_t(subsets) * rowBytes;
        for (std::size_t z = 0; z < std::size_t(m_vol.nz); ++z) {
            float* h = host + (z * angles + std::size_t(subset)) * det;
            float* d = device + z * m_sinoStride + std::size_t(subset) * det;
            TOMO_RETURN_IF_ERROR(cudaCheck(
                up ? cudaMemcpy2DAsync(d, pitch, h, pitch, rowBytes, rows, kind, stream)
                   : cudaMemcpy2DAsync(h, pitch, d, pitch, rowBytes, rows, kind, stream),
                up ? "upload of the subset's sinogram rows" : "download of the subset's rows"));
        }
        return Status::ok();
    }

    std::shared_ptr<CudaDeviceContext> m_device;
    VolumeGeometry m_vol;
    std::vector<RayAngle> m_rays;
    std::vector<double> m_angles;
    std::vector<double> m_centers;
    double m_pitch = 1;
    int m_detectors = 0;
    RayOrdering m_ordering;
    std::size_t m_volumeStride = 0, m_sinoStride = 0, m_domain = 0, m_range = 0;
    DeviceBuffer m_x, m_y, m_rayBuffer, m_cosines, m_sines, m_centerBuffer, m_list;
    std::vector<std::pair<int, int>> m_chunks;  ///< (first slice, slices) per texture pair
    std::vector<TextureObject> m_xTextures, m_yTextures;
    std::vector<int> m_hostList;
};

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
    auto op =
        std::make_unique<CudaLocalityOperator>(std::move(device), geom, vol, options.ordering);
    TOMO_RETURN_IF_ERROR(op->init().withContext("CUDA projector"));
    return std::unique_ptr<SubsetOperator>(std::move(op));
}

}  // namespace tomo::cuda
