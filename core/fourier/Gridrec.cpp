// Gridrec on the CPU: plan, working memory, then the four stages per group of slices (Gridrec.h).
#include "core/fourier/Gridrec.h"

#include <chrono>
#include <string>

#include "core/base/Parallel.h"
#include "core/filter/ComplexRowFft.h"
#include "core/fourier/GridrecStages.h"

namespace tomo {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Progress weights of the four stages of a group (roughly their share of the time).
constexpr int kStageWeights[4] = {1, 4, 2, 3};
constexpr int kGroupWeight = 10;

Status checkShapes(const Sinograms& sino, const ParallelGeometry& geom, const VolumeGeometry& vol) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (sino.dim(0) != static_cast<std::size_t>(vol.nz) ||
        sino.dim(1) != static_cast<std::size_t>(geom.angleCount()) ||
        sino.dim(2) != static_cast<std::size_t>(geom.detectorCount()))
        return invalidArgument("gridrec: sinogram stack " + std::to_string(sino.dim(0)) + "x" +
                               std::to_string(sino.dim(1)) + "x" + std::to_string(sino.dim(2)) +
                               " does not match the geometry (" + std::to_string(vol.nz) + "x" +
                               std::to_string(geom.angleCount()) + "x" +
                               std::to_string(geom.detectorCount()) + ")");
    return Status::ok();
}

}  // namespace

FftSizeRule cpuFftSizeRule() {
    return ComplexRowFft::supportsLength(3) ? FftSizeRule::Smooth : FftSizeRule::PowerOfTwo;
}

FourierCostModel cpuFourierCost() {
    // Fitted to the stage times of one slice of 2048^2 and 4096^2 (N views) for widths 2 to 12
    // on the 2-core development machine (AMD EPYC, AVX-512, FFTW 3.3.10; docs/performance.md,
    // "Gridrec"): spreading 10.5 ns per sample plus 1.7 ns per kernel row, the grid's
    // transforms 0.3 ns and the rows' 0.4 ns per point-log2.
    FourierCostModel cost;
    cost.secondsPerSample = 10.5e-9;
    cost.secondsPerRow = 1.7e-9;
    cost.secondsPerFftPoint = 0.3e-9;
    cost.rowSecondsPerPoint = 0.4e-9;
    return cost;
}

Status reconstructGridrec(const Sinograms& sino, const ParallelGeometry& geom,
                          const VolumeGeometry& vol, const GridrecOptions& options, Volume& out,
                          const ExecContext& ctx, GridrecTimings* timings, std::string* describe) {
    const auto t0 = Clock::now();
    GridrecTimings local;
    TOMO_RETURN_IF_ERROR(checkShapes(sino, geom, vol));
    TOMO_ASSIGN_OR_RETURN(
        FourierPlan plan,
        FourierPlan::create(geom, vol, options, cpuFftSizeRule(), cpuFourierCost()));
    if (describe) *describe = plan.describe();
    const int workers = resolveThreads(ctx.threads);
    TOMO_ASSIGN_OR_RETURN(detail::GridrecWork work,
                          detail::GridrecWork::create(plan, workers, vol.nz > 1));
    TOMO_ASSIGN_OR_RETURN(
        out, Volume::create(static_cast<std::size_t>(vol.nz), static_cast<std::size_t>(vol.ny),
                            static_cast<std::size_t>(vol.nx)));
    local.plan = secondsSince(t0);

    const auto slices = static_cast<std::size_t>(vol.nz);
    const std::size_t groups = (slices + 1) / 2;
    Progress scope = ctx.progress ? ctx.progress->child(0.0, 1.0, "gridrec") : Progress();
    Progress* progress = ctx.progress ? &scope : nullptr;
    if (progress) progress->setTotal(groups * kGroupWeight);
    ExecContext inner{ctx.threads, ctx.stop, nullptr};
    for (std::size_t g = 0; g < groups; ++g) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        const detail::GridrecGroup group{&sino, 2 * g, 2 * g + 1 < slices, &out};
        auto t = Clock::now();
        TOMO_RETURN_IF_ERROR(detail::computeSpectra(work, group, inner));
        local.spectra += secondsSince(t);
        if (progress) progress->advance(kStageWeights[0]);
        t = Clock::now();
        TOMO_RETURN_IF_ERROR(detail::spreadSamples(work, group.pair, inner));
        local.spreading += secondsSince(t);
        if (progress) progress->advance(kStageWeights[1]);
        t = Clock::now();
        TOMO_RETURN_IF_ERROR(detail::transformGridRows(work, inner));
        if (progress) progress->advance(kStageWeights[2]);
        TOMO_RETURN_IF_ERROR(detail::transformColumns(work, group, inner));
        local.transform += secondsSince(t);
        if (progress) progress->advance(kStageWeights[3]);
    }
    local.total = secondsSince(t0);
    if (timings) *timings = local;
    return Status::ok();
}

}  // namespace tomo
