// ClConeBackProjector: slab accumulator, batch upload, launches and read-back around
// kernels/cone.cl (see ClConeBackProjector.h); the registration of OpenClConeBackProjectors.h.
#include "gpu/opencl/cone/ClConeBackProjector.h"

#include <algorithm>
#include <cstring>

#include "core/cone/ConeTileWalk.h"
#include "core/cone/Fdk.h"
#include "core/pipeline/SlabDownload.h"
#include "gpu/opencl/cone/OpenClConeBackProjectors.h"
#include "gpu/opencl/internal/ClQueues.h"
#include "gpu/opencl/internal/KernelSources.h"

namespace tomo::opencl {
namespace {

constexpr std::size_t kStandardGroup[2] = {32, 4};
constexpr int kLaunchViewsMax = 256;           ///< views per launch (matrices in __constant memory)
constexpr int kTileVoxels = TOMO_TILE_VOXELS;  ///< core/cone/ConeTileWalk.h
constexpr int kTileRows = TOMO_TILE_ROWS, kTileCols = TOMO_TILE_COLS;

std::size_t roundUp(std::size_t n, std::size_t m) {
    return (n + m - 1) / m * m;
}

/// Work-items per symmetric work-group: one column's jcount, at most 64.
std::size_t columnGroup(int jcount, std::size_t maxGroup) {
    return std::max<std::size_t>(1, std::min<std::size_t>({64, maxGroup, roundUp(jcount, 8)}));
}

Status enqueue3d(cl_command_queue queue, const ClKernel& kernel, const std::size_t global[3],
                 const std::size_t local[3], ClEvent& done, const char* name) {
    return clCheck(clEnqueueNDRangeKernel(queue, kernel.get(), 3, nullptr, global, local, 0,
                                          nullptr, done.out()),
                   std::string("clEnqueueNDRangeKernel(") + name + ")");
}

}  // namespace

const char* clConeShareName(ClConeShare share) {
    switch (share) {
        case ClConeShare::None:
            return "none";
        case ClConeShare::Local:
            return "local";
        case ClConeShare::SubGroup:
            return "subgroup";
    }
    return "?";
}

ClConeBackProjector::ClConeBackProjector(ConeBackProjectorInfo info,
                                         std::shared_ptr<ClDeviceContext> device,
                                         ClConeConfig config)
    : m_info(std::move(info)), m_device(std::move(device)), m_config(config) {}

ClConeBackProjector::~ClConeBackProjector() = default;

Status ClConeBackProjector::prepare() {
    if (m_kernel) return Status::ok();
    std::string options = "-DSHARE=" + std::to_string(static_cast<int>(m_config.share));
    if (m_config.barrierPerView && m_config.share == ClConeShare::Local)
        options += " -DLOOP_BARRIER=1";
    if (m_config.share == ClConeShare::SubGroup &&
        !m_device->traits().hasExtension("cl_intel_subgroups"))
        options += " -cl-std=CL2.0";  // cl_khr_subgroups' built-ins are OpenCL C 2.0
    const std::string source =
        std::string(kernelSource("ConeTileWalk.h")) + "\n" + std::string(kernelSource("cone.cl"));
    Result<ClProgram> built = m_device->program("cone.cl", source, options);
    if (!built.isOk() && m_config.share == ClConeShare::SubGroup) {
        // A driver that lists the extension but does not compile its built-ins: local memory.
        m_config.share = ClConeShare::Local;
        return prepare();
    }
    TOMO_ASSIGN_OR_RETURN(ClProgram program, std::move(built));
    const char* name = !m_config.symmetric ? "coneStandard"
                       : m_config.staged   ? "coneTileStaged"
                       : m_config.tile     ? "coneTile"
                                           : "coneSymmetric";
    TOMO_ASSIGN_OR_RETURN(m_kernel, m_device->kernel(program, name));
    if (m_config.symmetric) {
        TOMO_ASSIGN_OR_RETURN(m_transpose, m_device->kernel(program, "coneColumnsToVolume"));
    }
    TOMO_ASSIGN_OR_RETURN(m_pad, m_device->kernel(program, "conePad"));
    return Status::ok();
}

std::size_t ClConeBackProjector::deviceBudget() const {
    return m_device->memoryBudget();
}

std::size_t ClConeBackProjector::bytesFor(std::size_t plane, std::size_t planes,
                                          std::size_t batchPixels) const {
    // download()'s ring of transpose stagings.
    const std::size_t transpose =
        m_config.symmetric ? stagingRing(plane, planes, planes).floats(plane) : 0;
    const std::size_t batch = batchPixels * (m_config.pairs ? 2 : 1);
    return 4 * (plane * planes + batch + transpose) + 48 * kLaunchViewsMax;
}

void ClConeBackProjector::reset() {
    m_acc.reset();
    m_geometry.reset();
}

Status ClConeBackProjector::begin(const ConeGeometry& geometry, const ConeVolumeGrid& grid,
                                  int firstPlane, int planes, const ExecContext&) {
    reset();
    m_times = {};
    TOMO_ASSIGN_OR_RETURN(const ConeSymmetry has,
                          cone::checkBegin(m_info, geometry, grid, firstPlane, planes));
    TOMO_RETURN_IF_ERROR(prepare());
    const DetectorGrid& d = geometry.detector();
    const std::size_t voxels = grid.slab(firstPlane, planes).voxels();
    const std::size_t image = static_cast<std::size_t>(d.nu + 3) * (d.nv + 3);
    const std::size_t need =
        bytesFor(voxels / std::size_t(planes), std::size_t(planes), image * kBatch);
    if (need > m_device->memoryBudget())
        return cone::slabTooLarge(m_info, planes, need, m_device->memoryBudget(),
                                  m_device->traits().name);
    TOMO_ASSIGN_OR_RETURN(m_acc, m_device->createBuffer(CL_MEM_READ_WRITE, voxels * sizeof(float),
                                                        "cone volume slab"));
    const float zero = 0.0f;
    ClEvent filled;
    TOMO_RETURN_IF_ERROR(
        clCheck(clEnqueueFillBuffer(m_device->queue(1), m_acc.get(), &zero, sizeof zero, 0,
                                    voxels * sizeof(float), 0, nullptr, filled.out()),
                "clEnqueueFillBuffer(cone volume slab)"));
    TOMO_RETURN_IF_ERROR(waitFor(filled, "the zeroing of the cone volume slab"));
    m_geometry.emplace(geometry);
    m_grid = grid;
    m_first = firstPlane;
    m_planes = planes;
    m_mirror = has == ConeSymmetry::Mirror;
    if (m_batchCapacity == 0 || m_slow != (m_config.symmetric ? d.nu : d.nv) ||
        m_fast != (m_config.symmetric ? d.nv : d.nu)) {
        m_batchCapacity = 0;  // another detector: the batch buffers are remade
        m_slow = m_config.symmetric ? d.nu : d.nv;
        m_fast = m_config.symmetric ? d.nv : d.nu;
    }
    Status batch = allocateBatch(kBatch);
    if (!batch.isOk()) reset();
    return batch;
}

Status ClConeBackProjector::allocateBatch(int views) {
    if (views <= m_batchCapacity) return Status::ok();
    m_proj.reset();
    m_mats.reset();
    m_batchCapacity = 0;
    const std::size_t n = static_cast<std::size_t>(views);
    TOMO_ASSIGN_OR_RETURN(m_proj,
                          m_device->createBuffer(CL_MEM_READ_WRITE, n * imageSize() * sizeof(float),
                                                 "cone projection batch"));
    TOMO_ASSIGN_OR_RETURN(
        m_mats, m_device->createBuffer(CL_MEM_READ_ONLY, n * 12 * sizeof(float), "cone matrices"));
    m_batchCapacity = views;
    return Status::ok();
}

Status ClConeBackProjector::enqueueBackProjection(int views, ClEvent& done) {
    const DetectorGrid& d = m_geometry->detector();
    const int stride = m_fast + cone::kPadBefore + cone::kPadAfter;
    const int image = static_cast<int>(imageSize());
    const float maxU = static_cast<float>(d.nu), maxV = static_cast<float>(d.nv);
    const cl_mem proj = m_proj.get(), mats = m_mats.get(), acc = m_acc.get();
    const int nx = m_grid.nx, ny = m_grid.ny;
    if (!m_config.symmetric) {
        TOMO_RETURN_IF_ERROR(setKernelArgs(m_kernel, proj, mats, views, stride, image, maxU, maxV,
                                           acc, nx, ny, m_planes, m_first));
        const std::size_t global[3] = {roundUp(nx, kStandardGroup[0]),
                                       roundUp(ny, kStandardGroup[1]),
                                       static_cast<std::size_t>(m_planes)};
        const std::size_t local[3] = {kStandardGroup[0], kStandardGroup[1], 1};
        return enqueue3d(m_device->queue(1), m_kernel, global, local, done, "coneStandard");
    }
    const float nv1 = static_cast<float>(d.nv - 1);
    const int mirror = m_mirror ? 1 : 0;
    if (m_config.tile) return enqueueTile(views, done);
    TOMO_RETURN_IF_ERROR(setKernelArgs(m_kernel, proj, mats, views, stride, image, maxU, maxV, nv1,
                                       acc, nx, ny, m_first, mirror));
    const int jcount = m_mirror ? (ny + 1) / 2 : ny;
    const std::size_t group = columnGroup(jcount, m_device->traits().maxWorkGroupSize);
    const std::size_t global[3] = {roundUp(jcount, group), static_cast<std::size_t>(nx),
                                   static_cast<std::size_t>(m_planes)};
    const std::size_t local[3] = {group, 1, 1};
    return enqueue3d(m_device->queue(1), m_kernel, global, local, done, "coneSymmetric");
}

Status ClConeBackProjector::enqueueTile(int views, ClEvent& done) {
    const DetectorGrid& d = m_geometry->detector();
    const int stride = m_fast + cone::kPadBefore + cone::kPadAfter;
    const int image = static_cast<int>(imageSize());
    const float maxU = static_cast<float>(d.nu), maxV = static_cast<float>(d.nv);
    const float nv1 = static_cast<float>(d.nv - 1);
    const int nx = m_grid.nx, ny = m_grid.ny, mirror = m_mirror ? 1 : 0;
    const int pairs = m_config.pairs ? 1 : 0;
    const int jcount = m_mirror ? (ny + 1) / 2 : ny;
    const int jBlocks = (jcount + 32 * kTileVoxels - 1) / (32 * kTileVoxels);
    const int iBlocks = (nx + kTileCols - 1) / kTileCols;
    const int kBlocks = (m_planes + TOMO_TILE_PLANES - 1) / TOMO_TILE_PLANES;
    if (static_cast<long long>(jBlocks) * iBlocks * kBlocks > 0x7fffffffLL)
        return unsupported(m_info.id + ": a slab of " + std::to_string(m_planes) +
                           " planes needs more than 2^31 work-groups");
    TOMO_RETURN_IF_ERROR(setKernelArgs(m_kernel, m_proj.get(), m_mats.get(), views, stride, image,
                                       maxU, maxV, nv1, m_acc.get(), nx, ny, m_first, mirror, pairs,
                                       m_planes, jBlocks, iBlocks, kBlocks));
    const std::size_t groups = static_cast<std::size_t>(jBlocks) * iBlocks * kBlocks;
    const std::size_t global[3] = {32 * groups, kTileRows, 1};
    const std::size_t local[3] = {32, kTileRows, 1};
    return enqueue3d(m_device->queue(1), m_kernel, global, local, done, "coneTile");
}

Status ClConeBackProjector::add(int first, const Array3<float>& views, const ExecContext& ctx) {
    if (!m_geometry) return internalError("ConeBackProjector::add before begin");
    const DetectorGrid& d = m_geometry->detector();
    const int n = static_cast<int>(views.dim(0));
    if (first < 0 || first + n > m_geometry->viewCount() || views.dim(1) != std::size_t(d.nv) ||
        views.dim(2) != std::size_t(d.nu))
        return invalidArgument(m_info.id + ": views do not match the geometry");
    // The views through core's pipeline with the back-projection stage alone.
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<DeviceQueues> queues, openQueues());
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ChunkStage> bp, stage(*queues, first, views.pitch()));
    const std::size_t image = views.dim(1) * views.pitch() * sizeof(float);
    PipelineIo io;
    io.items = static_cast<std::size_t>(n);
    io.chunkItems = static_cast<std::size_t>(std::max(1, std::min(n, 4 * kBatch)));
    io.inputBytesPerItem = image;
    const auto* base = reinterpret_cast<const std::byte*>(views.data());
    io.pack = [base, image](const PipelineChunk& c, std::size_t offset, std::size_t bytes,
                            std::byte* dst) {
        std::memcpy(dst, base + c.first * image + offset, bytes);
    };
    Timeline timeline;
    TOMO_RETURN_IF_ERROR(runPipeline(queues.get(), io, {bp.get()}, ctx, &timeline));
    const TimelineReport r = timeline.report();
    m_times.upload += r.busyOf(TimelineStage::Upload);
    m_times.kernel += r.busyOf(TimelineStage::Kernels);
    return Status::ok();
}

Status ClConeBackProjector::download(Volume& out, int threads) {
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<DeviceQueues> opened, openQueues());
    auto& queues = static_cast<ClQueues&>(*opened);
    const std::size_t nx = m_grid.nx, ny = m_grid.ny, plane = nx * ny;
    SlabDownloadPlan plan;
    // The ring of transpose stagings that bytesFor() counts.
    std::vector<ClMem> staging;
    if (!m_config.symmetric) {
        const DeviceBufferRef acc{m_acc.get(), out.dim(0) * plane * sizeof(float)};
        plan = rowsAsTheyLie(acc, nx, kStagingRingFloats / 2);
    } else {
        const StagingRing ring = stagingRing(plane, std::size_t(m_planes), std::size_t(m_planes));
        const std::size_t chunk = ring.chunkPlanes;
        plan.chunkRows = chunk * ny;
        for (std::size_t s = 0; s < ring.slots; ++s) {
            TOMO_ASSIGN_OR_RETURN(
                ClMem mem, m_device->createBuffer(CL_MEM_READ_WRITE, plane * chunk * sizeof(float),
                                                  "cone transpose staging"));
            staging.push_back(std::move(mem));
        }
        plan.prepare = [&](std::size_t first, std::size_t count, int slot) -> Result<DeviceRows> {
            const cl_mem cols = m_acc.get(), dst = staging[std::size_t(slot)].get();
            const int k0 = static_cast<int>(first / ny);
            TOMO_RETURN_IF_ERROR(setKernelArgs(m_transpose, cols, dst, m_grid.nx, m_grid.ny, k0));
            const std::size_t global[3] = {roundUp(ny, 16), roundUp(nx, 16), count / ny};
            const std::size_t local[3] = {16, 16, 1};
            ClEvent done;
            TOMO_RETURN_IF_ERROR(enqueue3d(queues.computeQueue(), m_transpose, global, local, done,
                                           "coneColumnsToVolume"));
            return DeviceRows{DeviceBufferRef{dst, plane * chunk * sizeof(float)}, 0};
        };
    }
    TOMO_ASSIGN_OR_RETURN(const SlabDownloadTimes t, downloadSlab(queues, plan, out, threads));
    if (m_config.symmetric) m_times.transpose += t.prepare;  // else an empty step
    m_times.download += t.download;
    return Status::ok();
}

Status ClConeBackProjector::finishInto(Volume& out, const ExecContext& ctx) {
    if (!m_geometry) return internalError("ConeBackProjector::finish before begin");
    Status status = cone::checkFinishInto(m_info, out, m_planes, m_grid);
    if (status.isOk()) status = download(out, ctx.threads);
    reset();
    return status;
}

Result<Volume> ClConeBackProjector::finish(const ExecContext& ctx) {
    return cone::finishIntoNew(*this, m_planes, m_grid, ctx);
}

Result<std::unique_ptr<DeviceQueues>> ClConeBackProjector::openQueues() {
    return std::unique_ptr<DeviceQueues>(std::make_unique<ClQueues>(m_device));
}

std::size_t ClConeBackProjector::imageSize() const {
    return static_cast<std::size_t>(m_fast + cone::kPadBefore + cone::kPadAfter) *
           static_cast<std::size_t>(m_slow + cone::kPadBefore + cone::kPadAfter) *
           (m_config.pairs ? 2 : 1);
}

// Registration (OpenClConeBackProjectors.h).

namespace {

/// How the symmetric kernel shares u and 1/h2 on @p traits' device.
ClConeShare shareFor(const ClDeviceTraits& traits) {
    if (traits.hasExtension("cl_khr_subgroups") || traits.hasExtension("cl_intel_subgroups"))
        return ClConeShare::SubGroup;
    return ClConeShare::Local;
}

void addCone(ConeBackProjectorRegistry& registry, const std::shared_ptr<ClDeviceContext>& device,
             ConeBackProjectorInfo info, ClConeConfig config) {
    registry.add(info, [info, device, config]() -> Result<std::unique_ptr<ConeBackProjector>> {
        return std::unique_ptr<ConeBackProjector>(
            std::make_unique<ClConeBackProjector>(info, device, config));
    });
}

}  // namespace

void registerOpenClConeBackProjectors(ConeBackProjectorRegistry& registry,
                                      std::shared_ptr<ClDeviceContext> device) {
    if (!device) return;
    const ClDeviceTraits& t = device->traits();
    const std::string on = " on " + t.name;
    if (t.maxWorkGroupSize >= 128)
        addCone(
            registry, device,
            {"opencl.fdk.standard", "opencl", "standard", ConeSymmetry::General,
             "OpenCL" + on + ", standard voxel-driven scheme (any geometry), 32x4 work-groups", 0},
            {false, ClConeShare::None, false});
    const ClConeShare share = shareFor(t);
    // On CPU devices (PoCL 3.1, 2 cores, 128^3 from 180 views of 192^2, CPU time / 2, four
    // noisy runs): local sharing 0.10-0.135 GU/s, none 0.10-0.12, local with a barrier per view
    // 0.12-0.15 (docs/opencl.md).
    const ClConeConfig symmetric{true, share, t.isCpu && share == ClConeShare::Local};
    if (t.maxWorkGroupSize >= 8 && t.localMemBytes >= 32 * 8)
        addCone(
            registry, device,
            {"opencl.fdk.symmetric", "opencl", "symmetric", ConeSymmetry::Column,
             "OpenCL" + on +
                 ", paper 003's Algorithm 4: a work-group per voxel column, voxel "
                 "pairs on mirror geometries, u and 1/h2 shared (" +
                 clConeShareName(share) + (symmetric.barrierPerView ? ", a barrier per view" : "") +
                 "), transposed projections",
             10},
            symmetric);
    // Below opencl.fdk.symmetric until a GPU measures it faster (docs/cone-beam.md).
    if (t.maxWorkGroupSize >= 32 * kTileRows && t.localMemBytes >= 5 * 4 * 32 * kTileRows)
        addCone(registry, device,
                {"opencl.fdk.tile", "opencl", "symmetric", ConeSymmetry::Column,
                 "OpenCL" + on +
                     ", iFDK tile (CUDA's cuda.fdk.tile): column terms per view once per "
                     "work-group row (v = v0 + j dv), 4 voxel pairs per work-item, groups walked "
                     "in (x, z) patches, transposed projections",
                 5},
                {true, ClConeShare::Local, false, true});
    if (t.maxWorkGroupSize >= 32 * kTileRows && t.localMemBytes >= 5 * 4 * 32 * kTileRows)
        addCone(registry, device,
                {"opencl.fdk.tile.pair", "opencl", "symmetric", ConeSymmetry::Column,
                 "OpenCL" + on +
                     ", iFDK tile from column-pair images (CUDA's cuda.fdk.tile.pair): detector "
                     "columns u and u+1 interleaved, two taps per 8-byte load",
                 4},
                {true, ClConeShare::Local, false, true, true});
    // coneTileStaged's local memory: the stage, the column terms and the patches.
    const std::size_t stagedBytes =
        4 * (TOMO_TILE_STAGE_VIEWS * 2 * TOMO_TILE_STAGE_COLS * TOMO_TILE_STAGE_ROWS +
             5 * 32 * kTileRows + 6 * 32);
    if (t.maxWorkGroupSize >= 32 * kTileRows && t.localMemBytes >= stagedBytes)
        addCone(registry, device,
                {"opencl.fdk.tile.shared", "opencl", "symmetric", ConeSymmetry::Column,
                 "OpenCL" + on +
                     ", iFDK tile from local memory (CUDA's cuda.fdk.tile.shared): each view's "
                     "detector patch staged by the work-group, then the taps from local memory",
                 3},
                {true, ClConeShare::Local, false, true, false, true});
}

}  // namespace tomo::opencl
