#include "core/recon/Fbp.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace tomo {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

std::size_t fbpChunkSlices(const FbpOptions& options, const BackProjector& backProjector,
                           std::size_t slices, std::size_t angles, std::size_t detectors) {
    if (options.chunkSlices > 0)
        return std::min(static_cast<std::size_t>(options.chunkSlices), slices);
    const std::size_t pass =
        static_cast<std::size_t>(std::max(1, backProjector.info().slicesPerPass));
    const std::size_t bytesPerSlice = angles * alignedCount<float>(detectors) * sizeof(float);
    const std::size_t memoryCap = std::max<std::size_t>(
        1, (std::size_t{256} << 20) / std::max<std::size_t>(bytesPerSlice, 1));
    std::size_t chunk = std::max(pass, 8 / pass * pass);
    chunk = std::max(pass, std::min(chunk, memoryCap / pass * pass));
    return std::min(chunk, slices);
}

Status reconstructFbp(const Sinograms& sino, const ParallelGeometry& geom,
                      const VolumeGeometry& vol, BackProjector& backProjector,
                      const FbpOptions& options, Volume& out, const ExecContext& ctx,
                      FbpTimings* timings) {
    const auto t0 = Clock::now();
    FbpTimings local;
    TOMO_RETURN_IF_ERROR(options.filter.validate());
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (options.chunkSlices < 0) return invalidArgument("FBP: chunk size must not be negative");
    if (sino.dim(0) != static_cast<std::size_t>(vol.nz) ||
        sino.dim(1) != static_cast<std::size_t>(geom.angleCount()) ||
        sino.dim(2) != static_cast<std::size_t>(geom.detectorCount()))
        return invalidArgument("FBP: sinogram stack " + std::to_string(sino.dim(0)) + "x" +
                               std::to_string(sino.dim(1)) + "x" + std::to_string(sino.dim(2)) +
                               " does not match the geometry (" + std::to_string(vol.nz) + "x" +
                               std::to_string(geom.angleCount()) + "x" +
                               std::to_string(geom.detectorCount()) + ")");

    TOMO_ASSIGN_OR_RETURN(
        RampFilter filter,
        RampFilter::create(geom.detectorCount(), geom.detectorPitch(), options.filter));
    const std::vector<double> w = geom.angularWeights();
    const std::vector<float> weights(w.begin(), w.end());

    const int nz = vol.nz;
    const int chunk = static_cast<int>(
        fbpChunkSlices(options, backProjector, sino.dim(0), sino.dim(1), sino.dim(2)));
    const int chunks = (nz + chunk - 1) / chunk;
    TOMO_ASSIGN_OR_RETURN(
        out, Volume::create(static_cast<std::size_t>(nz), static_cast<std::size_t>(vol.ny),
                            static_cast<std::size_t>(vol.nx)));
    TOMO_ASSIGN_OR_RETURN(Sinograms scratch, Sinograms::create(static_cast<std::size_t>(chunk),
                                                               sino.dim(1), sino.dim(2)));
    Volume chunkOut;

    // Filtering is about a tenth of the work of back-projection for square images.
    constexpr double kFilterShare = 0.1;
    for (int c = 0; c < chunks; ++c) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        const int z0 = c * chunk;
        const int nc = std::min(chunk, nz - z0);
        const double from = static_cast<double>(c) / chunks,
                     to = static_cast<double>(c + 1) / chunks;

        // Stage 1: copy the chunk's sinograms and ramp-filter every row in place (the row-filter
        // stage of the backend, or the CPU's).
        auto tf = Clock::now();
        if (scratch.dim(0) != static_cast<std::size_t>(nc)) {
            TOMO_ASSIGN_OR_RETURN(
                scratch, Sinograms::create(static_cast<std::size_t>(nc), sino.dim(1), sino.dim(2)));
        }
        std::memcpy(scratch.data(), sino.plane(static_cast<std::size_t>(z0)).data(),
                    static_cast<std::size_t>(nc) * sino.dim(1) * sino.pitch() * sizeof(float));
        {
            Progress filterScope =
                ctx.progress
                    ? ctx.progress->child(from, from + (to - from) * kFilterShare, "filtering")
                    : Progress();
            ExecContext fctx{ctx.threads, ctx.stop, ctx.progress ? &filterScope : nullptr};
            TOMO_RETURN_IF_ERROR(options.rowFilter ? options.rowFilter->apply(filter, scratch, fctx)
                                                   : filter.apply(scratch.rows(), fctx));
        }
        local.filtering += secondsSince(tf);

        // Stage 2: back-project the filtered chunk with the angular weights.
        auto tb = Clock::now();
        VolumeGeometry chunkGrid = vol;
        chunkGrid.nz = nc;
        {
            Progress bpScope = ctx.progress ? ctx.progress->child(from + (to - from) * kFilterShare,
                                                                  to, "back-projection")
                                            : Progress();
            ExecContext bctx{ctx.threads, ctx.stop, ctx.progress ? &bpScope : nullptr};
            TOMO_RETURN_IF_ERROR(
                backProjector.backProject(scratch, geom, chunkGrid, weights, chunkOut, bctx));
        }
        std::memcpy(out.plane(static_cast<std::size_t>(z0)).data(), chunkOut.data(),
                    static_cast<std::size_t>(nc) * out.dim(1) * out.pitch() * sizeof(float));
        local.backProjection += secondsSince(tb);
    }
    local.total = secondsSince(t0);
    if (timings) *timings = local;
    return Status::ok();
}

}  // namespace tomo
