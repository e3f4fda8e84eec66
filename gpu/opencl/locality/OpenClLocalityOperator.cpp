#include "gpu/opencl/locality/OpenClLocalityOperator.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/locality/DeviceLocality.h"
#include "gpu/opencl/internal/ClDeviceContext.h"
#include "gpu/opencl/internal/ClHandle.h"
#include "gpu/opencl/internal/ClQueues.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {
namespace {

constexpr std::size_t kGroupX = 32;  ///< work-group: detectors (forward) / tile width (back)
constexpr std::size_t kGroupY = 16;  ///< work-group: angles (forward) / tile height (back)

std::size_t roundUpTo(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

/// The OpenCL side of core's device operator (core/locality/DeviceLocality.h): kernels and the
/// host-computed tables, made once; stages that enqueue a chunk's launches.
class ClLocalityDevice final : public LocalityDevice {
  public:
    ClLocalityDevice(std::shared_ptr<ClDeviceContext> device, const ParallelGeometry& geom,
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

    /// Kernels and the host-computed setup tables (see the header).
    Status init();

    std::string prefix() const override { return "opencl.locality"; }
    Result<std::unique_ptr<DeviceQueues>> openQueues() override {
        return std::unique_ptr<DeviceQueues>(std::make_unique<ClQueues>(m_device));
    }
    std::size_t maxChunkSlices(std::size_t itemFloats) const override {
        return m_device->maxAllocation() / std::max<std::size_t>(1, itemFloats * sizeof(float));
    }
    Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues,
                                              const LocalityCall& call) override;

  private:
    friend class ClLocalityStage;
    /// A device buffer of @p bytes, filled from @p init.
    Result<ClMem> table(std::size_t bytes, const std::string& what, const void* init) {
        TOMO_ASSIGN_OR_RETURN(
            ClMem mem, m_device->createBuffer(CL_MEM_READ_ONLY, std::max<std::size_t>(bytes, 4),
                                              what + " of the OpenCL projector"));
        TOMO_RETURN_IF_ERROR(clCheck(clEnqueueWriteBuffer(m_device->queue(0), mem.get(), CL_TRUE, 0,
                                                          bytes, init, 0, nullptr, nullptr),
                                     "clEnqueueWriteBuffer(" + what + ")"));
        return mem;
    }

    std::shared_ptr<ClDeviceContext> m_device;
    VolumeGeometry m_vol;
    std::vector<RayAngle> m_rays;
    std::vector<double> m_angles;
    std::vector<double> m_centers;
    double m_pitch = 1;
    int m_detectors = 0;
    ClKernel m_forwardKernel, m_backKernel;
    ClMem m_rayPos0, m_rayRange, m_steps, m_u0, m_du;
};

Status ClLocalityDevice::init() {
    if (m_device->traits().maxWorkGroupSize < kGroupX * kGroupY)
        return unsupported("OpenCL projector: work-groups of " + std::to_string(kGroupX * kGroupY) +
                           " work-items needed, device '" + m_device->traits().name + "' allows " +
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
    TOMO_ASSIGN_OR_RETURN(m_rayPos0, table(pos0.size() * sizeof(float), "ray starts", pos0.data()));
    TOMO_ASSIGN_OR_RETURN(m_rayRange,
                          table(range.size() * sizeof(cl_int2), "ray line ranges", range.data()));
    TOMO_ASSIGN_OR_RETURN(m_steps,
                          table(steps.size() * sizeof(cl_float2), "ray steps", steps.data()));
    TOMO_ASSIGN_OR_RETURN(m_u0, table(u0.size() * sizeof(float), "tile positions", u0.data()));
    TOMO_ASSIGN_OR_RETURN(m_du, table(du.size() * sizeof(cl_float2), "pixel steps", du.data()));
    return Status::ok();
}

/// One call's kernels on a chunk: forward, one launch per orientation group (rows, then
/// columns) over every slice of the chunk; back-projection, one launch.
class ClLocalityStage final : public LocalityStage {
  public:
    ClLocalityStage(ClLocalityDevice& d, ClQueues& q, const LocalityCall& call)
        : LocalityStage(call, d.m_vol), m_d(d), m_q(q) {}
    Status prepare(std::size_t, std::size_t) override { return Status::ok(); }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int step,
               const ExecContext&) override {
        const LocalityLaunch& g = m_launches[std::size_t(step)];
        const VolumeGeometry& vol = m_d.m_vol;
        const cl_mem in = ClQueues::mem(b.input), out = ClQueues::mem(b.output);
        const cl_mem order = ClQueues::mem(m_call.orderOnDevice);
        const cl_ulong volumeStride = m_call.volumeStride, sinoStride = m_call.sinoStride;
        const cl_int first = m_call.subset, stepOf = m_call.subsets, det = m_d.m_detectors;
        if (!m_call.forward) {
            const float weight = static_cast<float>(vol.voxelSize * vol.voxelSize / m_d.m_pitch);
            TOMO_RETURN_IF_ERROR(setKernelArgs(m_d.m_backKernel, in, out, m_d.m_u0.get(),
                                               m_d.m_du.get(), order, cl_int(g.count),
                                               cl_int(vol.nx), cl_int(vol.ny), sinoStride,
                                               volumeStride, first, stepOf, det, weight));
            return launch(m_d.m_backKernel, std::size_t(vol.nx), std::size_t(vol.ny), c.count,
                          "localityBack");
        }
        const RayOrdering o = m_call.ordering;
        const cl_int spreadAngles = o == RayOrdering::Unordered || o == RayOrdering::Strips;
        const cl_int spreadDetectors = o == RayOrdering::Unordered;
        const cl_int segments = o == RayOrdering::StripSegments;
        TOMO_RETURN_IF_ERROR(
            setKernelArgs(m_d.m_forwardKernel, in, out, m_d.m_rayPos0.get(), m_d.m_rayRange.get(),
                          m_d.m_steps.get(), order, cl_int(g.begin), cl_int(g.count),
                          cl_int(g.rows), spreadAngles, spreadDetectors, segments, cl_int(vol.nx),
                          cl_int(vol.ny), volumeStride, sinoStride, first, stepOf, det));
        return launch(m_d.m_forwardKernel, std::size_t(det), std::size_t(g.count), c.count,
                      "localityForward");
    }

  private:
    /// One launch of 32 x 16 work-groups over (x, y) work-items rounded up, and @p slices.
    Status launch(const ClKernel& kernel, std::size_t x, std::size_t y, std::size_t slices,
                  const char* what) {
        const std::size_t global[3] = {roundUpTo(x, kGroupX), roundUpTo(y, kGroupY), slices};
        const std::size_t local[3] = {kGroupX, kGroupY, 1};
        return clCheck(clEnqueueNDRangeKernel(m_q.computeQueue(), kernel.get(), 3, nullptr, global,
                                              local, 0, nullptr, nullptr),
                       std::string("clEnqueueNDRangeKernel(") + what + ")");
    }
    ClLocalityDevice& m_d;
    ClQueues& m_q;
};

Result<std::unique_ptr<ChunkStage>> ClLocalityDevice::stage(DeviceQueues& queues,
                                                            const LocalityCall& call) {
    auto* q = dynamic_cast<ClQueues*>(&queues);
    if (!q) return invalidArgument("OpenCL projector: not an OpenCL device's queues");
    return std::unique_ptr<ChunkStage>(std::make_unique<ClLocalityStage>(*this, *q, call));
}

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
    auto backend = std::make_unique<ClLocalityDevice>(std::move(device), geom, vol);
    TOMO_RETURN_IF_ERROR(backend->init().withContext("OpenCL projector"));
    return std::unique_ptr<SubsetOperator>(
        std::make_unique<DeviceLocalityOperator>(std::move(backend), geom, vol, options.ordering));
}

}  // namespace tomo::opencl
