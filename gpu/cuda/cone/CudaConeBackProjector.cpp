// CudaConeBackProjector: slab accumulator, projection storage, launches and read-back around
// kernels/ConeKernels.cu (see CudaConeBackProjector.h); the registration of
// CudaConeBackProjectors.h.
#include "gpu/cuda/cone/CudaConeBackProjector.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "core/cone/Fdk.h"
#include "core/pipeline/SlabDownload.h"
#include "gpu/cuda/cone/CudaConeBackProjectors.h"
#include "gpu/cuda/internal/CudaQueues.h"

namespace tomo::cuda {
namespace {

constexpr std::size_t kTransposeChunkMax = 65535;  ///< planes per transpose launch (grid z)

Result<CudaArray> createLayeredArray(int width, int height, int layers) {
    const cudaChannelFormatDesc desc =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaExtent extent{static_cast<std::size_t>(width), static_cast<std::size_t>(height),
                      static_cast<std::size_t>(layers)};
    cudaArray_t array = nullptr;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaMalloc3DArray(&array, &desc, extent, cudaArrayLayered),
                                   "cudaMalloc3DArray(cone projections, " + std::to_string(width) +
                                       " x " + std::to_string(height) + " x " +
                                       std::to_string(layers) + " layers)"));
    return CudaArray(array);
}

/// Point sampling, unnormalised coordinates, element reads (the software bilinear of the
/// kernels needs the texels themselves).
Result<TextureObject> createPointTexture(cudaArray_t array) {
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc tex{};
    tex.addressMode[0] = tex.addressMode[1] = tex.addressMode[2] = cudaAddressModeBorder;
    tex.filterMode = cudaFilterModePoint;
    tex.readMode = cudaReadModeElementType;
    tex.normalizedCoords = 0;
    cudaTextureObject_t object = 0;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaCreateTextureObject(&object, &res, &tex, nullptr),
                                   "cudaCreateTextureObject(cone projections)"));
    return TextureObject(object);
}

}  // namespace

CudaConeBackProjector::CudaConeBackProjector(ConeBackProjectorInfo info,
                                             std::shared_ptr<CudaDeviceContext> device,
                                             CudaConeConfig config)
    : m_info(std::move(info)), m_device(std::move(device)), m_config(config) {}

CudaConeBackProjector::~CudaConeBackProjector() = default;

std::size_t CudaConeBackProjector::deviceBudget() const {
    return m_device->memoryBudget();
}

std::size_t CudaConeBackProjector::bytesFor(std::size_t plane, std::size_t planes,
                                            std::size_t batchPixels) const {
    // The texture path pads a batch into a scratch buffer ("cone.packed", CudaConeStage.cpp) and
    // copies it into the layered array: two copies of a batch; __ldg reads the padded buffer,
    // column-pair images take twice the floats.
    const std::size_t batches = m_config.fetch == ConeFetch::Texture || m_config.pairs ? 2 : 1;
    // download()'s ring of transpose stagings.
    const std::size_t transpose =
        m_config.symmetric ? stagingRing(plane, planes, kTransposeChunkMax).floats(plane) : 0;
    return 4 * (plane * planes + batches * batchPixels + transpose);
}

void CudaConeBackProjector::reset() {
    m_acc = DeviceBuffer();
    m_geometry.reset();
}

Status CudaConeBackProjector::allocateViews(const DetectorGrid& d) {
    const int slow = m_config.symmetric ? d.nu : d.nv, fast = m_config.symmetric ? d.nv : d.nu;
    if (slow == m_slow && fast == m_fast) return Status::ok();
    m_texture.reset();
    m_array.reset();
    m_proj = DeviceBuffer();
    m_slow = m_fast = 0;
    const int width = fast + cone::kPadBefore + cone::kPadAfter;
    const int height = slow + cone::kPadBefore + cone::kPadAfter;
    if (m_config.fetch == ConeFetch::Ldg) {
        TOMO_ASSIGN_OR_RETURN(m_proj, DeviceBuffer::create(m_config.imageFloats(slow, fast) *
                                                               kConeBatch * sizeof(float),
                                                           "cone projections"));
    } else {
        int maxWidth = 0, maxHeight = 0;
        const int dev = m_device->traits().index;
        cudaDeviceGetAttribute(&maxWidth, cudaDevAttrMaxTexture2DLayeredWidth, dev);
        cudaDeviceGetAttribute(&maxHeight, cudaDevAttrMaxTexture2DLayeredHeight, dev);
        if (width > maxWidth || height > maxHeight)
            return unsupported(m_info.id + ": padded projections of " + std::to_string(width) +
                               " x " + std::to_string(height) +
                               " exceed the layered texture limit of " + m_device->traits().name);
        TOMO_ASSIGN_OR_RETURN(m_array, createLayeredArray(width, height, kConeBatch));
        TOMO_ASSIGN_OR_RETURN(m_texture, createPointTexture(m_array.get()));
    }
    m_slow = slow;
    m_fast = fast;
    return Status::ok();
}

Status CudaConeBackProjector::begin(const ConeGeometry& geometry, const ConeVolumeGrid& grid,
                                    int firstPlane, int planes, const ExecContext&) {
    reset();
    m_times = {};
    TOMO_ASSIGN_OR_RETURN(const ConeSymmetry has,
                          cone::checkBegin(m_info, geometry, grid, firstPlane, planes));
    TOMO_RETURN_IF_ERROR(m_device->activate());
    const DetectorGrid& d = geometry.detector();
    const std::size_t voxels = grid.slab(firstPlane, planes).voxels();
    const std::size_t image = static_cast<std::size_t>(d.nu + 3) * (d.nv + 3);
    const std::size_t need =
        bytesFor(voxels / std::size_t(planes), std::size_t(planes), image * kConeBatch);
    if (need > m_device->memoryBudget())
        return cone::slabTooLarge(m_info, planes, need, m_device->memoryBudget(),
                                  m_device->traits().name);
    TOMO_RETURN_IF_ERROR(allocateViews(d));
    TOMO_ASSIGN_OR_RETURN(m_acc, DeviceBuffer::create(voxels * sizeof(float), "cone volume slab"));
    const cudaStream_t stream = m_device->stream(0);
    Status zeroed = cudaCheck(cudaMemsetAsync(m_acc.get(), 0, voxels * sizeof(float), stream),
                              "cudaMemsetAsync(cone volume slab)");
    if (zeroed.isOk())
        zeroed = cudaCheck(cudaStreamSynchronize(stream), "zeroing the cone volume slab");
    if (!zeroed.isOk()) {
        m_acc = DeviceBuffer();
        return zeroed;
    }
    m_geometry.emplace(geometry);
    m_grid = grid;
    m_first = firstPlane;
    m_planes = planes;
    const bool pairs = m_config.mirror && has == ConeSymmetry::Mirror;
    m_kernel = !m_config.symmetric ? ConeKernel::Standard
               : m_config.tile     ? (pairs ? ConeKernel::TileMirror : ConeKernel::TileColumn)
               : pairs             ? ConeKernel::ShflMirror
                                   : ConeKernel::ShflColumn;
    return Status::ok();
}

Status CudaConeBackProjector::launch(const float* matrices, int count, cudaStream_t stream) {
    const DetectorGrid& d = m_geometry->detector();
    ConeLaunchArgs a;
    a.kernel = m_kernel;
    a.fetch = m_config.fetch;
    a.proj = m_proj.as<const float>();
    a.texture = m_texture.get();
    a.views = count;
    a.stride = m_fast + cone::kPadBefore + cone::kPadAfter;
    a.image = m_config.imageFloats(m_slow, m_fast);
    a.pairs = m_config.pairs;
    a.staged = m_config.staged;
    a.maxU = static_cast<float>(d.nu);
    a.maxV = static_cast<float>(d.nv);
    a.nv1 = static_cast<float>(d.nv - 1);
    a.acc = m_acc.as<float>();
    a.nx = m_grid.nx;
    a.ny = m_grid.ny;
    a.planes = m_planes;
    a.firstPlane = m_first;
    return launchConeBackProjection(a, matrices, stream);
}

Status CudaConeBackProjector::add(int first, const Array3<float>& views, const ExecContext& ctx) {
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
    io.chunkItems = static_cast<std::size_t>(std::max(1, std::min(n, 4 * kConeBatch)));
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

Status CudaConeBackProjector::download(Volume& out, int threads) {
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<CudaQueues> queues, CudaQueues::open(m_device));
    const std::size_t nx = static_cast<std::size_t>(m_grid.nx), ny = m_grid.ny, plane = nx * ny;
    SlabDownloadPlan plan;
    // The ring of transpose stagings that bytesFor() counts.
    std::vector<DeviceBuffer> staging;
    if (!m_config.symmetric) {
        const DeviceBufferRef acc{m_acc.get(), out.dim(0) * plane * sizeof(float)};
        plan = rowsAsTheyLie(acc, nx, kStagingRingFloats / 2);
    } else {
        const StagingRing ring = stagingRing(plane, std::size_t(m_planes), kTransposeChunkMax);
        const std::size_t chunk = ring.chunkPlanes;
        plan.chunkRows = chunk * ny;
        for (std::size_t s = 0; s < ring.slots; ++s) {
            TOMO_ASSIGN_OR_RETURN(
                DeviceBuffer b,
                DeviceBuffer::create(plane * chunk * sizeof(float), "cone transpose"));
            staging.push_back(std::move(b));
        }
        plan.prepare = [&](std::size_t first, std::size_t count, int slot) -> Result<DeviceRows> {
            DeviceBuffer& dst = staging[std::size_t(slot)];
            TOMO_RETURN_IF_ERROR(
                launchConeTranspose(m_acc.as<const float>(), dst.as<float>(), m_grid.nx, m_grid.ny,
                                    static_cast<int>(first / ny), static_cast<int>(count / ny),
                                    queues->computeStream()));
            return DeviceRows{DeviceBufferRef{dst.get(), plane * chunk * sizeof(float)}, 0};
        };
    }
    // The stagings are freed after downloadSlab drained or synchronised the queues.
    TOMO_ASSIGN_OR_RETURN(const SlabDownloadTimes t, downloadSlab(*queues, plan, out, threads));
    if (m_config.symmetric) m_times.transpose += t.prepare;  // else an empty step
    m_times.download += t.download;
    return Status::ok();
}

Status CudaConeBackProjector::finishInto(Volume& out, const ExecContext& ctx) {
    if (!m_geometry) return internalError("ConeBackProjector::finish before begin");
    Status status = cone::checkFinishInto(m_info, out, m_planes, m_grid);
    if (status.isOk()) status = download(out, ctx.threads);
    reset();
    return status;
}

Result<Volume> CudaConeBackProjector::finish(const ExecContext& ctx) {
    return cone::finishIntoNew(*this, m_planes, m_grid, ctx);
}

Result<std::unique_ptr<DeviceQueues>> CudaConeBackProjector::openQueues() {
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<CudaQueues> q, CudaQueues::open(m_device));
    return std::unique_ptr<DeviceQueues>(std::move(q));
}

// Registration (CudaConeBackProjectors.h).

namespace {

struct ConeSpec {
    ConeBackProjectorInfo info;
    CudaConeConfig config;
};

std::vector<ConeSpec> coneSpecs() {
    const auto symmetric = [](const char* id, const char* what, int preference) {
        return ConeBackProjectorInfo{id,   "cuda",    "symmetric", ConeSymmetry::Column,
                                     what, preference};
    };
    return {
        {{"cuda.fdk.standard", "cuda", "standard", ConeSymmetry::General,
          "CUDA, RTK-32-like standard scheme (any geometry): 32 views per launch, matrices in "
          "constant memory, layered texture, point sampling and FP32 software bilinear",
          0},
         {false, false, ConeFetch::Texture}},
        {symmetric("cuda.fdk.shfl.tex",
                   "CUDA shflBP (paper 003, Listing 1), Tex-Tran: u and 1/h2 per column by warp "
                   "shuffles, voxel and mirror in registers, transposed projections in a layered "
                   "texture",
                   10),
         {true, true, ConeFetch::Texture}},
        {symmetric("cuda.fdk.shfl.ldg",
                   "CUDA shflBP (paper 003, Listing 1), L1-Tran: u and 1/h2 per column by warp "
                   "shuffles, voxel and mirror in registers, transposed projections by __ldg",
                   20),
         {true, true, ConeFetch::Ldg}},
        {symmetric("cuda.fdk.shfl.ldg.column",
                   "CUDA shflBP without the mirror (one thread per voxel of each column), "
                   "transposed projections by __ldg",
                   5),
         {true, false, ConeFetch::Ldg}},
        // Below shfl.ldg until a GPU run measures it faster (docs/cone-beam.md, "The CUDA
        // kernels against paper 003").
        {symmetric("cuda.fdk.tile",
                   "CUDA iFDK tile: shflBP with every column term shuffled once per view (v = "
                   "v0 + j dv), 4 voxel pairs per thread, blocks walked in (x, z) patches for L2 "
                   "reuse, transposed projections by __ldg",
                   15),
         {true, true, ConeFetch::Ldg, true}},
        {symmetric("cuda.fdk.tile.pair",
                   "CUDA iFDK tile from column-pair images: the tile kernel with detector columns "
                   "u and u+1 interleaved, two taps per 8-byte __ldg (fewer L1 wavefronts, twice "
                   "the projection memory)",
                   14),
         {true, true, ConeFetch::Ldg, true, true}},
        {symmetric("cuda.fdk.tile.shared",
                   "CUDA iFDK tile from shared memory: the tile kernel with each view's detector "
                   "patch staged by coalesced __ldg and the taps read from shared memory (global "
                   "taps for a view whose patch exceeds 8 columns x 256 rows)",
                   13),
         {true, true, ConeFetch::Ldg, true, false, true}},
    };
}

}  // namespace

std::vector<ConeBackProjectorInfo> compiledConeVariants() {
    std::vector<ConeBackProjectorInfo> out;
    for (const ConeSpec& s : coneSpecs())
        out.push_back(s.info);
    return out;
}

void registerCudaConeBackProjectors(ConeBackProjectorRegistry& registry,
                                    std::shared_ptr<CudaDeviceContext> device) {
    if (!device) return;
    for (ConeSpec& s : coneSpecs()) {
        s.info.description += " on " + device->traits().label();
        registry.add(s.info,
                     [info = s.info, config = s.config,
                      device]() -> Result<std::unique_ptr<ConeBackProjector>> {
                         return std::unique_ptr<ConeBackProjector>(
                             std::make_unique<CudaConeBackProjector>(info, device, config));
                     });
    }
}

}  // namespace tomo::cuda
