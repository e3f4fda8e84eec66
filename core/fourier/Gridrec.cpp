// Gridrec on the CPU: plan, working memory, then the four stages per group of slices (Gridrec.h).
#include "core/fourier/Gridrec.h"

#include <string>

#include "core/base/Parallel.h"
#include "core/filter/ComplexRowFft.h"
#include "core/fourier/GridrecPipeline.h"
#include "core/fourier/GridrecStages.h"
#include "core/pipeline/ChunkPipeline.h"

namespace tomo {
namespace {

/// One of the CPU's stages of a group (GridrecStages.h) as a stage of the pipeline driver:
/// spectra count as the timeline's Filter, spreading and the transforms as its Kernels. Each
/// step marks its progress scope done (weights 1, 4, 2, 3: roughly their share of the time) and
/// adds its host seconds to the timeline's part of its name (kCpuGridrecParts).
class GroupStage final : public ChunkStage {
  public:
    enum class Kind { Spectra, Spreading, Transform };
    GroupStage(Kind kind, detail::GridrecWork& work, const Sinograms& sino, Volume& out,
               Timeline& timeline)
        : m_kind(kind), m_work(work), m_sino(sino), m_out(out), m_timeline(timeline) {}
    TimelineStage timelineStage() const override {
        return m_kind == Kind::Spectra ? TimelineStage::Filter : TimelineStage::Kernels;
    }
    std::string label() const override {
        return m_kind == Kind::Spectra
                   ? "gridrec: spectra"
                   : (m_kind == Kind::Spreading ? "gridrec: spreading" : "gridrec: transform");
    }
    Status prepare(std::size_t, std::size_t) override { return Status::ok(); }
    int steps(const PipelineChunk&) const override { return m_kind == Kind::Transform ? 2 : 1; }
    double work(const PipelineChunk&, int step) const override {
        return m_kind == Kind::Spectra ? 1.0 : (m_kind == Kind::Spreading ? 4.0 : 2.0 + step);
    }
    Status run(const PipelineChunk& c, const ChunkBuffers&, int step,
               const ExecContext& ctx) override {
        const detail::GridrecGroup group{&m_sino, c.first, c.count == 2, &m_out};
        const ExecContext inner{ctx.threads, ctx.stop, nullptr, ctx.across};
        const double begin = timelineNow();
        Status s;
        if (m_kind == Kind::Spectra)
            s = detail::computeSpectra(m_work, group, inner);
        else if (m_kind == Kind::Spreading)
            s = detail::spreadSamples(m_work, group.pair, inner);
        else if (step == 0)
            s = detail::transformGridRows(m_work, inner);
        else
            s = detail::transformColumns(m_work, group, inner);
        if (!s.isOk()) return s;
        const int part = m_kind == Kind::Transform ? 2 + step : static_cast<int>(m_kind);
        m_timeline.addPart(kCpuGridrecParts[static_cast<std::size_t>(part)], timelineNow() - begin);
        if (ctx.progress) ctx.progress->done();
        return s;
    }

  private:
    Kind m_kind;
    detail::GridrecWork& m_work;
    const Sinograms& m_sino;
    Volume& m_out;
    Timeline& m_timeline;
};

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
    const double t0 = timelineNow();
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
    const double planEnd = timelineNow();
    Timeline timeline;
    // Host mode of the pipeline driver: one group (two slices) per chunk, read from the caller's
    // stack and written into @p out in place (no load or store copies).
    using Kind = GroupStage::Kind;
    GroupStage spectra(Kind::Spectra, work, sino, out, timeline),
        spreading(Kind::Spreading, work, sino, out, timeline),
        transform(Kind::Transform, work, sino, out, timeline);
    PipelineIo io;
    io.items = static_cast<std::size_t>(vol.nz);
    io.chunkItems = 2;
    io.load = io.store = [](const PipelineChunk&) { return Status::ok(); };
    Progress scope = ctx.progress ? ctx.progress->child(0.0, 1.0, "gridrec") : Progress();
    const ExecContext inner{ctx.threads, ctx.stop, ctx.progress ? &scope : nullptr, ctx.across};
    TOMO_RETURN_IF_ERROR(
        runPipeline(nullptr, io, {&spectra, &spreading, &transform}, inner, &timeline));
    if (timings) *timings = gridrecTimings(timeline, t0, planEnd);
    return Status::ok();
}

}  // namespace tomo
