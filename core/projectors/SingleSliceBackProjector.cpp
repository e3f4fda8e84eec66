// cpu.simd1.<isa>.*: the single-slice SIMD back-projector (SingleSliceKernels.h). Work is
// organised as slice > projection chunk (padded rows <= chunkBytes) > tile, building each
// chunk's padded weighted rows in parallel over projections, then running the tiles in
// parallel. A tile's sums are carried between chunks through the output volume (float, exact),
// so every pixel sums its projections in order 0..P-1 whatever the chunking.

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/Parallel.h"
#include "core/projectors/SingleSliceKernels.h"

namespace tomo {
namespace {

using detail::ceilDiv;

/// Tile rows; the tile width is kTileGroups groups of pixels (64 pixels with AVX-512).
constexpr int kTileRows = 32;
constexpr int kTileGroups = 4;

class SingleSliceBackProjector final : public BackProjector {
  public:
    SingleSliceBackProjector(BackProjectorInfo info, CpuIsa isa, Interpolation interpolation,
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
    BackProjectorInfo m_info;
    CpuIsa m_isa;
    bool m_linear;
    CpuSimdOptions m_options;
    AlignedBuffer<float> m_rows;              ///< [projection of chunk][v | d][rowStride]
    std::vector<AlignedBuffer<float>> m_acc;  ///< per worker: [kTileRows][tile width]
};

Status SingleSliceBackProjector::backProject(const Sinograms& sino, const ParallelGeometry& geom,
                                             const VolumeGeometry& vol,
                                             std::span<const float> weights, Volume& out,
                                             const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
    const int G = detail::simdGroup(m_isa);
    const int n = geom.detectorCount(), angles = geom.angleCount();
    const std::size_t bins = static_cast<std::size_t>(detail::paddedBins(n));
    const std::size_t rowStride = detail::singleSliceRowStride(n);
    const std::size_t angleStride = m_linear ? 2 * rowStride : rowStride;

    // Projection chunks of balanced size whose rows fit the budget.
    const auto [chunks, chunkAngles] =
        detail::angleChunks(angles, angleStride * sizeof(float), m_options.chunkBytes);
    const std::size_t rowFloats = static_cast<std::size_t>(chunkAngles) * angleStride;
    if (m_rows.size() < rowFloats && !m_rows.tryAllocate(rowFloats))
        return outOfMemory("back-projection: cannot allocate the " +
                           std::to_string(rowFloats * sizeof(float) >> 20) + " MiB padded rows");

    const int tileW = kTileGroups * G;
    const int tilesX = ceilDiv(vol.nx, tileW), tilesY = ceilDiv(vol.ny, kTileRows);
    const std::size_t tiles = static_cast<std::size_t>(tilesX) * static_cast<std::size_t>(tilesY);
    const std::size_t accFloats =
        static_cast<std::size_t>(kTileRows) * static_cast<std::size_t>(tileW);
    m_acc.resize(static_cast<std::size_t>(resolveThreads(ctx.threads)));
    for (AlignedBuffer<float>& acc : m_acc)
        if (acc.size() != accFloats && !acc.tryAllocate(accFloats))
            return outOfMemory("back-projection: cannot allocate tile accumulators");

    const std::vector<detail::ProjectionConstants> constants =
        detail::projectionConstants(geom, vol);
    if (ctx.progress) ctx.progress->setTotal(static_cast<std::uint64_t>(vol.nz) * chunks * tiles);

    for (std::size_t z = 0; z < static_cast<std::size_t>(vol.nz); ++z) {
        for (int chunk = 0; chunk < chunks; ++chunk) {
            const int p0 = chunk * chunkAngles;
            const int count = std::min(chunkAngles, angles - p0);
            TOMO_RETURN_IF_ERROR(parallelFor(
                static_cast<std::size_t>(count), ctx.threads, ctx.stop, [&](std::size_t q, int) {
                    const std::size_t p = static_cast<std::size_t>(p0) + q;
                    float* v = m_rows.data() + q * angleStride;
                    float* d = v + rowStride;
                    if (m_linear) {
                        detail::buildPaddedRow(sino.row(z, p).data(), n, weights[p], v, d);
                        std::fill(d + bins, d + rowStride, 0.f);
                    } else {  // the same values, without the differences
                        v[0] = v[1] = 0.f;
                        const float* src = sino.row(z, p).data();
                        for (int k = 0; k < n; ++k)
                            v[k + detail::kPadLeft] = weights[p] * src[k];
                        v[bins - 1] = 0.f;
                    }
                    std::fill(v + bins, v + rowStride, 0.f);
                }));
            TOMO_RETURN_IF_ERROR(
                parallelFor(tiles, ctx.threads, ctx.stop, [&](std::size_t i, int worker) {
                    const int x0 = static_cast<int>(i % static_cast<std::size_t>(tilesX)) * tileW;
                    const int y0 =
                        static_cast<int>(i / static_cast<std::size_t>(tilesX)) * kTileRows;
                    const int w = std::min(tileW, vol.nx - x0),
                              h = std::min(kTileRows, vol.ny - y0);
                    float* acc = m_acc[static_cast<std::size_t>(worker)].data();
                    for (int r = 0; r < h; ++r) {
                        float* a = acc + static_cast<std::size_t>(r) * tileW;
                        std::fill(a, a + tileW, 0.f);
                        if (chunk > 0)  // resume the sums of the earlier chunks
                            std::memcpy(a, out.row(z, static_cast<std::size_t>(y0 + r)).data() + x0,
                                        static_cast<std::size_t>(w) * sizeof(float));
                    }
                    detail::SliceTileTask task;
                    task.rows = m_rows.data();
                    task.rowStride = rowStride;
                    task.angleStride = angleStride;
                    task.constants = constants.data() + p0;
                    task.angles = count;
                    task.angleBlock = m_options.angleBlock;
                    task.maxIndex = static_cast<float>(n);
                    task.x0 = x0;
                    task.y0 = y0;
                    task.width = ceilDiv(w, G) * G;
                    task.height = h;
                    task.accStride = tileW;
                    task.acc = acc;
                    if (m_isa == CpuIsa::Avx512) {
                        detail::backProjectSliceTileAvx512(m_linear, task);
                    } else {
                        detail::backProjectSliceTileAvx2(m_linear, task);
                    }
                    for (int r = 0; r < h; ++r)
                        std::memcpy(out.row(z, static_cast<std::size_t>(y0 + r)).data() + x0,
                                    acc + static_cast<std::size_t>(r) * tileW,
                                    static_cast<std::size_t>(w) * sizeof(float));
                    if (ctx.progress) ctx.progress->advance();
                }));
        }
    }
    return Status::ok();
}

}  // namespace

namespace detail {

int singleSliceCrossover(CpuIsa isa, Interpolation interpolation) {
    // Measured on a 2-core AMD EPYC (Zen 5), 1024 projections x 1024^2, 2 threads: one pass of
    // the multi-slice kernel costs as much as ~7 (AVX-512, linear), ~4 (AVX-512, nearest),
    // ~3 (AVX2, linear) or ~2 (AVX2, nearest) single-slice passes.
    const bool linear = interpolation == Interpolation::Linear;
    switch (isa) {
        case CpuIsa::Avx512:
            return linear ? 7 : 4;
        case CpuIsa::Avx2:
            return linear ? 3 : 2;
        case CpuIsa::Generic:
            return 0;
    }
    return 0;
}

BackProjectorInfo singleSliceBackProjectorInfo(CpuIsa isa, Interpolation interpolation) {
    const int group = simdGroup(isa);
    BackProjectorInfo info;
    info.id = std::string("cpu.simd1.") + cpuIsaName(isa) +
              (interpolation == Interpolation::Linear ? ".lin" : ".nn");
    info.backend = "cpu";
    info.family = "cpu";
    info.interpolation = interpolation;
    info.slicesPerPass = 1;
    info.exact = true;
    info.description = std::string("multithreaded ") + cpuIsaName(isa) +
                       " SIMD across pixels (bin window + permute), 1 slice per pass, " +
                       interpolationName(interpolation) + " interpolation";
    info.parameters = {
        {"isa", cpuIsaName(isa)},
        {"tile", std::to_string(kTileGroups * group) + "x" + std::to_string(kTileRows)},
        {"pixelGroup", std::to_string(group)},
        {"window", std::to_string(2 * group)},
        {"angleBlock", "16"},
        {"chunkMiB", "64"}};
    return info;
}

std::unique_ptr<BackProjector> makeSingleSliceBackProjector(BackProjectorInfo info, CpuIsa isa,
                                                            Interpolation interpolation,
                                                            const CpuSimdOptions& options) {
    info.parameters["angleBlock"] = std::to_string(options.angleBlock);
    info.parameters["chunkMiB"] = std::to_string(options.chunkBytes >> 20);
    return std::make_unique<SingleSliceBackProjector>(std::move(info), isa, interpolation, options);
}

}  // namespace detail
}  // namespace tomo
