// cpu.simd.*: the tiled multi-slice back-projector (see CpuBackProjectors.h for the design and
// BackProjectionKernels.h for the arithmetic). Work is organised as
//   slice group (S slices) > projection chunk (compound sinogram <= chunkBytes) > tile,
// building each chunk's compound sinogram in parallel over projections, then running the tiles
// in parallel. A tile's accumulator is carried between chunks through the output volume
// (float, exact), so every pixel sums its projections in order 0..P-1 whatever the chunking.

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/Parallel.h"
#include "core/projectors/BackProjectionKernels.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/projectors/SingleSliceKernels.h"

namespace tomo {
namespace {

using detail::ceilDiv;

class SimdBackProjector final : public BackProjector {
  public:
    SimdBackProjector(BackProjectorInfo info, CpuIsa isa, Interpolation interpolation,
                      CpuSimdOptions options)
        : m_info(std::move(info)),
          m_isa(isa),
          m_linear(interpolation == Interpolation::Linear),
          m_options(options) {}

    const BackProjectorInfo& info() const override { return m_info; }

    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override;

  private:
    Status buildCompound(const Sinograms& sino, std::span<const float> weights, int z0, int p0,
                         int count, const ExecContext& ctx);

    BackProjectorInfo m_info;
    CpuIsa m_isa;
    bool m_linear;
    CpuSimdOptions m_options;
    int m_slices = cpuIsaSlices(m_isa);  ///< S
    int m_binFloats = m_linear ? 2 * m_slices : m_slices;
    std::size_t m_angleStride = 0;            ///< floats per projection of the compound
    AlignedBuffer<float> m_compound;          ///< [projection of chunk][bin][binFloats]
    std::vector<AlignedBuffer<float>> m_acc;  ///< per worker: [tile][tile][S]
    std::vector<std::vector<float>> m_rows;   ///< per worker: S padded v rows + S d rows
    std::unique_ptr<BackProjector> m_single;  ///< single-slice kernel for small calls
};

Status SimdBackProjector::buildCompound(const Sinograms& sino, std::span<const float> weights,
                                        int z0, int p0, int count, const ExecContext& ctx) {
    const int n = static_cast<int>(sino.dim(2)), nz = static_cast<int>(sino.dim(0));
    const int S = m_slices;
    const std::size_t bins = static_cast<std::size_t>(detail::paddedBins(n));
    return parallelFor(
        static_cast<std::size_t>(count), ctx.threads, ctx.stop, [&](std::size_t q, int worker) {
            std::vector<float>& rows = m_rows[static_cast<std::size_t>(worker)];
            rows.assign(2 * bins * static_cast<std::size_t>(S), 0.f);
            const std::size_t p = static_cast<std::size_t>(p0) + q;
            for (int s = 0; s < S && z0 + s < nz; ++s) {
                float* v = rows.data() + static_cast<std::size_t>(s) * bins;
                float* d = v + static_cast<std::size_t>(S) * bins;
                detail::buildPaddedRow(sino.row(static_cast<std::size_t>(z0 + s), p).data(), n,
                                       weights[p], v, d);
            }
            float* dst = m_compound.data() + q * m_angleStride;
            for (std::size_t b = 0; b < bins; ++b) {
                float* bin = dst + b * static_cast<std::size_t>(m_binFloats);
                for (int s = 0; s < S; ++s) {
                    const float* v = rows.data() + static_cast<std::size_t>(s) * bins;
                    bin[s] = v[b];
                    if (m_linear) bin[S + s] = v[static_cast<std::size_t>(S) * bins + b];
                }
            }
        });
}

Status SimdBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                      const VolumeGeometry& vol, std::span<const float> weights,
                                      Volume& out, const ExecContext& ctx) {
    if (vol.nz < m_options.singleSliceBelow && m_isa != CpuIsa::Generic) {
        const Interpolation mode = m_linear ? Interpolation::Linear : Interpolation::Nearest;
        if (!m_single)
            m_single = detail::makeSingleSliceBackProjector(
                detail::singleSliceBackProjectorInfo(m_isa, mode), m_isa, mode, m_options);
        return m_single->backProject(sino, geom, vol, weights, out, ctx);
    }
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    const int S = m_slices, G = detail::simdGroup(m_isa);
    const int n = geom.detectorCount(), angles = geom.angleCount();
    m_angleStride =
        static_cast<std::size_t>(detail::paddedBins(n)) * static_cast<std::size_t>(m_binFloats);

    // Projection chunks of balanced size whose compound sinogram fits the budget.
    const auto [chunks, chunkAngles] =
        detail::angleChunks(angles, m_angleStride * sizeof(float), m_options.chunkBytes);
    const std::size_t compoundFloats = static_cast<std::size_t>(chunkAngles) * m_angleStride;
    if (m_compound.size() < compoundFloats && !m_compound.tryAllocate(compoundFloats))
        return outOfMemory("back-projection: cannot allocate the " +
                           std::to_string(compoundFloats * sizeof(float) >> 20) +
                           " MiB compound sinogram");

    const int tile = ceilDiv(m_options.tileSize, G) * G;
    const int tilesX = ceilDiv(vol.nx, tile), tilesY = ceilDiv(vol.ny, tile);
    const std::size_t tiles = static_cast<std::size_t>(tilesX) * static_cast<std::size_t>(tilesY);
    const int groups = ceilDiv(vol.nz, S);
    const std::size_t accFloats = static_cast<std::size_t>(tile) * static_cast<std::size_t>(tile) *
                                  static_cast<std::size_t>(S);
    const std::size_t workers = static_cast<std::size_t>(resolveThreads(ctx.threads));
    m_acc.resize(workers);
    m_rows.resize(workers);
    for (AlignedBuffer<float>& acc : m_acc)
        if (acc.size() != accFloats && !acc.tryAllocate(accFloats))
            return outOfMemory("back-projection: cannot allocate tile accumulators");

    const std::vector<detail::ProjectionConstants> constants =
        detail::projectionConstants(geom, vol);
    if (ctx.progress) ctx.progress->setTotal(static_cast<std::uint64_t>(groups) * chunks * tiles);

    for (int group = 0; group < groups; ++group) {
        const int z0 = group * S;
        const int validSlices = std::min(S, vol.nz - z0);
        for (int chunk = 0; chunk < chunks; ++chunk) {
            const int p0 = chunk * chunkAngles;
            const int count = std::min(chunkAngles, angles - p0);
            TOMO_RETURN_IF_ERROR(buildCompound(sino, weights, z0, p0, count, ctx));
            TOMO_RETURN_IF_ERROR(
                parallelFor(tiles, ctx.threads, ctx.stop, [&](std::size_t i, int worker) {
                    const int x0 = static_cast<int>(i % static_cast<std::size_t>(tilesX)) * tile;
                    const int y0 = static_cast<int>(i / static_cast<std::size_t>(tilesX)) * tile;
                    const int w = std::min(tile, vol.nx - x0), h = std::min(tile, vol.ny - y0);
                    float* acc = m_acc[static_cast<std::size_t>(worker)].data();
                    std::memset(acc, 0, static_cast<std::size_t>(h) * tile * S * sizeof(float));
                    auto at = [&](int r, int c) {
                        return acc + (static_cast<std::size_t>(r) * tile + c) * S;
                    };
                    if (chunk > 0) {  // resume the sums of the earlier chunks
                        for (int s = 0; s < validSlices; ++s)
                            for (int r = 0; r < h; ++r) {
                                const float* src = out.row(static_cast<std::size_t>(z0 + s),
                                                           static_cast<std::size_t>(y0 + r))
                                                       .data() +
                                                   x0;
                                for (int c = 0; c < w; ++c)
                                    at(r, c)[s] = src[c];
                            }
                    }
                    detail::TileTask task;
                    task.compound = m_compound.data();
                    task.angleStride = m_angleStride;
                    task.constants = constants.data() + p0;
                    task.angles = count;
                    task.angleBlock = m_options.angleBlock;
                    task.maxIndex = static_cast<float>(n);
                    task.x0 = x0;
                    task.y0 = y0;
                    task.width = ceilDiv(w, G) * G;
                    task.height = h;
                    task.tileStride = tile;
                    task.acc = acc;
                    detail::backProjectTile(m_isa, m_linear, task);
                    for (int s = 0; s < validSlices; ++s)
                        for (int r = 0; r < h; ++r) {
                            float* dst = out.row(static_cast<std::size_t>(z0 + s),
                                                 static_cast<std::size_t>(y0 + r))
                                             .data() +
                                         x0;
                            for (int c = 0; c < w; ++c)
                                dst[c] = at(r, c)[s];
                        }
                    if (ctx.progress) ctx.progress->advance();
                }));
        }
    }
    return Status::ok();
}

}  // namespace

namespace detail {

BackProjectorInfo simdBackProjectorInfo(CpuIsa isa, Interpolation interpolation,
                                        const CpuSimdOptions& options) {
    const int group = simdGroup(isa);
    BackProjectorInfo info;
    info.id = std::string("cpu.simd.") + cpuIsaName(isa) +
              (interpolation == Interpolation::Linear ? ".lin" : ".nn");
    info.backend = "cpu";
    info.family = "cpu";
    info.interpolation = interpolation;
    info.slicesPerPass = cpuIsaSlices(isa);
    info.exact = true;
    info.description = std::string("multithreaded ") + cpuIsaName(isa) + " SIMD, " +
                       std::to_string(info.slicesPerPass) + " slices per pass, " +
                       interpolationName(interpolation) + " interpolation";
    const int tile = ceilDiv(options.tileSize, group) * group;
    info.parameters = {{"isa", cpuIsaName(isa)},
                       {"tile", std::to_string(tile) + "x" + std::to_string(tile)},
                       {"angleBlock", std::to_string(options.angleBlock)},
                       {"pixelGroup", std::to_string(group)},
                       {"chunkMiB", std::to_string(options.chunkBytes >> 20)}};
    if (options.singleSliceBelow > 0 && isa != CpuIsa::Generic)
        info.parameters["singleSliceBelow"] = std::to_string(options.singleSliceBelow);
    return info;
}

std::unique_ptr<BackProjector> makeSimdBackProjector(BackProjectorInfo info, CpuIsa isa,
                                                     Interpolation interpolation,
                                                     const CpuSimdOptions& options) {
    return std::make_unique<SimdBackProjector>(std::move(info), isa, interpolation, options);
}

}  // namespace detail

Result<std::unique_ptr<BackProjector>> makeCpuSimdBackProjector(Interpolation interpolation,
                                                                CpuIsa isa,
                                                                CpuSimdOptions options) {
    TOMO_RETURN_IF_ERROR(options.validate());
    if (!cpuIsaSupported(isa))
        return unsupported(std::string("this CPU does not support ") + cpuIsaName(isa));
    return detail::makeSimdBackProjector(detail::simdBackProjectorInfo(isa, interpolation, options),
                                         isa, interpolation, options);
}

}  // namespace tomo
