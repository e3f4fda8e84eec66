#include "gpu/opencl/locality/OpenClLocalityOperator.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/locality/RayGeometry.h"
#include "gpu/opencl/internal/ClDeviceContext.h"
#include "gpu/opencl/internal/ClHandle.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {
namespace {

constexpr std::size_t kGroupX = 32;  ///< work-group: detectors (forward) / tile width (back)
constexpr std::size_t kGroupY = 16;  ///< work-group: angles (forward) / tile height (back)

std::size_t roundUpTo(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

class OpenClLocalityOperator final : public SubsetOperator {
  public:
    OpenClLocalityOperator(std::shared_ptr<ClDeviceContext> device, const ParallelGeometry& geom,
                           const VolumeGeometry& vol, RayOrdering ordering)
        : m_device(std::move(device)),
          m_vol(vol),
          m_rays(rayAngles(geom, vol)),
          m_angles(geom.angles()),
          m_pitch(geom.detectorPitch()),
          m_detectors(geom.detectorCount()),
          m_ordering(ordering) {
        m_domain = std::size_t(vol.nz) * std::size_t(vol.ny) * std::size_t(vol.nx);
        m_range = std::size_t(vol.nz) * m_rays.size() * std::size_t(m_detectors);
        for (int p = 0; p < geom.angleCount(); ++p)
            m_centers.push_back(geom.center(p));
    }

    /// Kernels, buffers and the host-computed setup tables (see the header).
    Status init() {
        if (m_device->traits().maxWorkGroupSize < kGroupX * kGroupY)
            return unsupported("OpenCL projector: work-groups of " +
                               std::to_string(kGroupX * kGroupY) + " work-items needed, device '" +
                               m_device->traits().name + "' allows " +
                               std::to_string(m_device->traits().maxWorkGroupSize));
        TOMO_ASSIGN_OR_RETURN(ClProgram program,
                              m_device->program("locality.cl", kernelSource("locality.cl"), ""));
        TOMO_ASSIGN_OR_RETURN(m_forwardKernel, m_device->kernel(program, "localityForward"));
        TOMO_ASSIGN_OR_RETURN(m_backKernel, m_device->kernel(program, "localityBack"));

        const std::size_t angles = m_rays.size(), det = std::size_t(m_detectors);
        // Forward: per ray the float start position and active lines, per angle (d, step).
        std::vector<float> pos0(angles * det);
        std::vector<cl_int2> range(angles * det);
        std::vector<cl_float2> steps(angles);
        for (std::size_t p = 0; p < angles; ++p) {
            const RayAngle& r = m_rays[p];
            steps[p] = {{float(r.d), float(r.step)}};
            for (std::size_t j = 0; j < det; ++j) {
                const double start = r.a + r.b * double(j);
                const auto [first, last] = activeLines(start, r.d, r.lineLength, r.lines);
                pos0[p * det + j] = float(start);
                range[p * det + j] = {{first, last}};
            }
        }
        // Back-projection: per (projection, tile) u0, per projection (dux, duy).
        const std::size_t tilesX = (std::size_t(m_vol.nx) + kGroupX - 1) / kGroupX;
        const std::size_t tilesY = (std::size_t(m_vol.ny) + kGroupY - 1) / kGroupY;
        const std::size_t tiles = tilesX * tilesY;
        std::vector<float> u0(angles * tiles);
        std::vector<cl_float2> du(angles);
        const double x0 = m_vol.x(0), y0 = m_vol.y(0), vs = m_vol.voxelSize;
        for (std::size_t p = 0; p < angles; ++p) {
            const double c = std::cos(m_angles[p]), s = std::sin(m_angles[p]);
            du[p] = {{float(vs * c / m_pitch), float(-vs * s / m_pitch)}};
            for (std::size_t t = 0; t < tiles; ++t) {
                const double xs = x0 + double((t % tilesX) * kGroupX) * vs;
                const double ys = y0 - double((t / tilesX) * kGroupY) * vs;
                u0[p * tiles + t] = float(m_centers[p] + (xs * c + ys * s) / m_pitch);
            }
        }
        TOMO_ASSIGN_OR_RETURN(m_x, buffer(m_domain * sizeof(float), "volume", nullptr));
        TOMO_ASSIGN_OR_RETURN(m_y, buffer(m_range * sizeof(float), "sinograms", nullptr));
        TOMO_ASSIGN_OR_RETURN(m_rayPos0,
                              buffer(pos0.size() * sizeof(float), "ray starts", pos0.data()));
        TOMO_ASSIGN_OR_RETURN(
            m_rayRange, buffer(range.size() * sizeof(cl_int2), "ray line ranges", range.data()));
        TOMO_ASSIGN_OR_RETURN(m_steps,
                              buffer(steps.size() * sizeof(cl_float2), "ray steps", steps.data()));
        TOMO_ASSIGN_OR_RETURN(m_u0, buffer(u0.size() * sizeof(float), "tile positions", u0.data()));
        TOMO_ASSIGN_OR_RETURN(m_du,
                              buffer(du.size() * sizeof(cl_float2), "pixel steps", du.data()));
        TOMO_ASSIGN_OR_RETURN(m_list, buffer(angles * sizeof(cl_int), "angle list", nullptr));
        return Status::ok();
    }

    std::size_t domainSize() const override { return m_domain; }
    std::size_t rangeSize() const override { return m_range; }
    bool matchedAdjoint() const override { return false; }
    std::string name() const override {
        return std::string("opencl.locality.") + rayOrderingName(m_ordering);
    }
    int angleCount() const override { return static_cast<int>(m_rays.size()); }
    int detectorCount() const override { return m_detectors; }

    Status forwardSubset(std::span<const float> x, std::span<float> y, int subset, int subsets,
                         const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
        if (ctx.stop.stop_requested()) return cancelled("OpenCL forward projection cancelled");
        TOMO_RETURN_IF_ERROR(
            clCheck(clEnqueueWriteBuffer(m_device->queue(0), m_x.get(), CL_TRUE, 0,
                                         m_domain * sizeof(float), x.data(), 0, nullptr, nullptr),
                    "clEnqueueWriteBuffer(volume)"));
        // The subset's angles, rows group first, each group sorted by angle.
        const SubsetLaunchOrder order = subsetLaunchOrder(m_rays, m_angles, subset, subsets, true);
        const std::vector<int>& list = order.angles;
        const int rowsCount = order.rowsCount;
        TOMO_RETURN_IF_ERROR(uploadList(list));
        const cl_int spreadAngles =
            m_ordering == RayOrdering::Unordered || m_ordering == RayOrdering::Strips;
        const cl_int spreadDetectors = m_ordering == RayOrdering::Unordered;
        const cl_int segments = m_ordering == RayOrdering::StripSegments;
        for (const bool rows : {true, false}) {
            const cl_int count = rows ? rowsCount : static_cast<int>(list.size()) - rowsCount;
            if (count == 0) continue;
            if (ctx.stop.stop_requested()) return cancelled("OpenCL forward projection cancelled");
            // The columns group's indices start at element rowsCount of the list.
            const cl_int listBegin = rows ? 0 : rowsCount;
            TOMO_RETURN_IF_ERROR(setKernelArgs(
                m_forwardKernel, m_x.get(), m_y.get(), m_rayPos0.get(), m_rayRange.get(),
                m_steps.get(), m_list.get(), listBegin, count, cl_int(rows), spreadAngles,
                spreadDetectors, segments, cl_int(m_vol.nx), cl_int(m_vol.ny), cl_int(angleCount()),
                cl_int(m_detectors)));
            TOMO_RETURN_IF_ERROR(launch(m_forwardKernel, std::size_t(m_detectors),
                                        std::size_t(count), "localityForward"));
        }
        return copyRows(y.data(), subset, subsets, false);
    }

    Status adjointSubset(std::span<const float> y, std::span<float> x, int subset, int subsets,
                         const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(checkSubsetCall(x.size(), y.size(), subset, subsets));
        if (ctx.stop.stop_requested()) return cancelled("OpenCL back-projection cancelled");
        TOMO_RETURN_IF_ERROR(copyRows(const_cast<float*>(y.data()), subset, subsets, true));
        const std::vector<int> list =
            subsetLaunchOrder(m_rays, m_angles, subset, subsets, false).angles;
        TOMO_RETURN_IF_ERROR(uploadList(list));
        const float weight = static_cast<float>(m_vol.voxelSize * m_vol.voxelSize / m_pitch);
        TOMO_RETURN_IF_ERROR(setKernelArgs(m_backKernel, m_y.get(), m_x.get(), m_u0.get(),
                                           m_du.get(), m_list.get(), cl_int(list.size()),
                                           cl_int(m_vol.nx), cl_int(m_vol.ny), cl_int(angleCount()),
                                           cl_int(m_detectors), weight));
        TOMO_RETURN_IF_ERROR(
            launch(m_backKernel, std::size_t(m_vol.nx), std::size_t(m_vol.ny), "localityBack"));
        return clCheck(clEnqueueReadBuffer(m_device->queue(1), m_x.get(), CL_TRUE, 0,
                                           m_domain * sizeof(float), x.data(), 0, nullptr, nullptr),
                       "clEnqueueReadBuffer(volume)");
    }

  private:
    /// A device buffer of @p bytes, filled from @p init when not null.
    Result<ClMem> buffer(std::size_t bytes, const std::string& what, const void* init) {
        TOMO_ASSIGN_OR_RETURN(
            ClMem mem, m_device->createBuffer(CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 4),
                                              what + " of the OpenCL projector"));
        if (init && bytes > 0)
            TOMO_RETURN_IF_ERROR(
                clCheck(clEnqueueWriteBuffer(m_device->queue(0), mem.get(), CL_TRUE, 0, bytes, init,
                                             0, nullptr, nullptr),
                        "clEnqueueWriteBuffer(" + what + ")"));
        return mem;
    }

    Status uploadList(const std::vector<int>& list) {
        if (list.empty()) return Status::ok();
        return clCheck(
            clEnqueueWriteBuffer(m_device->queue(0), m_list.get(), CL_TRUE, 0,
                                 list.size() * sizeof(cl_int), list.data(), 0, nullptr, nullptr),
            "clEnqueueWriteBuffer(angle list)");
    }

    /// One launch of 32 x 16 work-groups over (x, y) work-items rounded up, and every slice.
    /// Uploads were blocking, so the kernel queue needs no event from the upload queue.
    Status launch(const ClKernel& kernel, std::size_t x, std::size_t y, const char* what) {
        const std::size_t global[3] = {roundUpTo(x, kGroupX), roundUpTo(y, kGroupY),
                                       std::size_t(m_vol.nz)};
        const std::size_t local[3] = {kGroupX, kGroupY, 1};
        return clCheck(clEnqueueNDRangeKernel(m_device->queue(1), kernel.get(), 3, nullptr, global,
                                              local, 0, nullptr, nullptr),
                       std::string("clEnqueueNDRangeKernel(") + what + ")");
    }

    /// Copies the rows of subset @p subset of @p subsets between @p host and the device
    /// sinograms (upload when @p toDevice); blocking. One rectangle per slice: rows subset,
    /// subset + subsets, ... of det floats with a row pitch of subsets * det floats.
    Status copyRows(float* host, int subset, int subsets, bool toDevice) {
        const std::size_t rowBytes = std::size_t(m_detectors) * sizeof(float);
        if (subsets == 1) {
            return toDevice ? clCheck(clEnqueueWriteBuffer(m_device->queue(0), m_y.get(), CL_TRUE,
                                                           0, m_range * sizeof(float), host, 0,
                                                           nullptr, nullptr),
                                      "clEnqueueWriteBuffer(sinograms)")
                            : clCheck(clEnqueueReadBuffer(m_device->queue(1), m_y.get(), CL_TRUE, 0,
                                                          m_range * sizeof(float), host, 0, nullptr,
                                                          nullptr),
                                      "clEnqueueReadBuffer(sinograms)");
        }
        const std::size_t rows = std::size_t((angleCount() - subset + subsets - 1) / subsets);
        const std::size_t pitch = std::size_t(subsets) * rowBytes;
        const std::size_t sliceBytes = std::size_t(angleCount()) * rowBytes;
        cl_command_queue queue = m_device->queue(toDevice ? 0 : 1);
        for (int z = 0; z < m_vol.nz; ++z) {
            const std::size_t origin[3] = {
                std::size_t(z) * sliceBytes + std::size_t(subset) * rowBytes, 0, 0};
            const std::size_t region[3] = {rowBytes, rows, 1};
            const cl_int err =
                toDevice
                    ? clEnqueueWriteBufferRect(queue, m_y.get(), CL_FALSE, origin, origin, region,
                                               pitch, 0, pitch, 0, host, 0, nullptr, nullptr)
                    : clEnqueueReadBufferRect(queue, m_y.get(), CL_FALSE, origin, origin, region,
                                              pitch, 0, pitch, 0, host, 0, nullptr, nullptr);
            if (err != CL_SUCCESS) {
                clFinish(queue);  // the enqueued copies still use the host memory
                return clCheck(err, toDevice ? "clEnqueueWriteBufferRect(sinogram rows)"
                                             : "clEnqueueReadBufferRect(sinogram rows)");
            }
        }
        return clCheck(clFinish(queue), "copy of the sinogram rows");
    }

    std::shared_ptr<ClDeviceContext> m_device;
    VolumeGeometry m_vol;
    std::vector<RayAngle> m_rays;
    std::vector<double> m_angles;
    std::vector<double> m_centers;
    double m_pitch = 1;
    int m_detectors = 0;
    RayOrdering m_ordering;
    std::size_t m_domain = 0, m_range = 0;
    ClKernel m_forwardKernel, m_backKernel;
    ClMem m_x, m_y, m_rayPos0, m_rayRange, m_steps, m_u0, m_du, m_list;
};

}  // namespace

Result<std::unique_ptr<SubsetOperator>> makeOpenClLocalityOperator(
    const ParallelGeometry& geom, const VolumeGeometry& vol, const OpenClLocalityOptions& options) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (vol.nz != geom.rows())
        return invalidArgument("OpenCL projector: the grid has " + std::to_string(vol.nz) +
                               " slices but the geometry " + std::to_string(geom.rows()) +
                               " detector rows");
    std::shared_ptr<ClDeviceContext> device = options.context;
    if (!device) {
        ClDeviceOptions deviceOptions;
        deviceOptions.cacheDirectory = options.cacheDirectory;
        TOMO_ASSIGN_OR_RETURN(device, ClDeviceContext::open(options.device, deviceOptions));
    }
    auto op =
        std::make_unique<OpenClLocalityOperator>(std::move(device), geom, vol, options.ordering);
    TOMO_RETURN_IF_ERROR(op->init().withContext("OpenCL projector"));
    return std::unique_ptr<SubsetOperator>(std::move(op));
}

}  // namespace tomo::opencl
