#include "core/mbir/MbirDeviceSolve.h"

#include <algorithm>
#include <system_error>

namespace tomo {

/// @p in as a matrix of @p cols columns, transposed into @p out. For nz slices, cols = nz turns
/// the image's lines [y][x][slice] into planes [slice][y][x] (and the sinograms'
/// [view][channel][slice] into [slice][view][channel]); cols = elements per slice turns them back.
void mbirTranspose(const std::vector<float>& in, std::size_t cols, std::vector<float>& out) {
    const std::size_t rows = in.size() / cols;
    out.resize(in.size());
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            out[c * rows + r] = in[r * cols + c];
}

std::future<MbirFoundLayout> findMbirLayoutAside(const MbirSliceGeometry& g,
                                                 const MbirOptions& options, MbirMatrixCache* cache,
                                                 Timeline& timeline, int threads) {
    if (!options.device || !cache || threads == 1) return {};
    try {
        return std::async(std::launch::async, [&g, &options, cache, &timeline] {
            MbirFoundLayout found;
            found.begin = timelineNow();
            found.layout = cache->layouts().find(g, options.gpu, options.memoryBudget,
                                                 &found.source, &found.note);
            found.end = timelineNow();
            timeline.add(TimelineStage::Host, found.begin, found.end);
            return found;
        });
    } catch (const std::system_error&) {
        return {};
    }
}

Result<std::unique_ptr<MbirDeviceSolve>> startMbirDevice(
    const MbirSliceGeometry& g, const MbirMatrix& matrix, const MbirOptions& options,
    const IcdSettings& settings, const std::vector<float>& x, const MbirSinograms& sino,
    MbirMatrixCache* cache, std::future<MbirFoundLayout>& aside, MbirReport& report,
    Timeline& timeline, const ExecContext& ctx) {
    MbirFoundLayout found;
    if (aside.valid()) {
        const double waited = timelineNow();
        found = aside.get();
        addHostStep(report.hostSteps, &timeline, "layout wait", waited, timelineNow());
    }
    auto solve = std::make_unique<MbirDeviceSolve>();
    solve->slices = std::size_t(sino.slices());
    const double opened = timelineNow();
    TOMO_ASSIGN_OR_RETURN(solve->device, options.device());
    addHostStep(report.hostSteps, &timeline, "device", opened, timelineNow());
    // The tiles live on the device alone (built there from the matrix): its budget bounds them.
    const std::size_t budget = solve->device->memoryBudget();
    double start = timelineNow();
    MbirMatrixSource source = MbirMatrixSource::Built;
    std::string cacheNote;
    const bool fromAside = found.layout != nullptr;
    if (fromAside) {  // read beside the setup (its span is on the timeline already)
        solve->layout = std::move(found.layout);
        source = found.source;
        cacheNote = found.note;
        start = found.begin;
    } else if (cache) {
        TOMO_ASSIGN_OR_RETURN(solve->layout, cache->layouts().get(g, matrix, options.gpu, budget,
                                                                  ctx, &source, &cacheNote));
    } else {
        TOMO_ASSIGN_OR_RETURN(GpuIcdLayout layout,
                              GpuIcdLayout::build(g, matrix, options.gpu, budget, ctx));
        solve->layout = std::make_shared<const GpuIcdLayout>(std::move(layout));
    }
    const double layoutSeconds = (fromAside ? found.end : timelineNow()) - start;
    addHostStep(report.hostSteps, fromAside ? nullptr : &timeline,
                fromAside ? "layout (beside the setup)" : "layout", start, start + layoutSeconds);
    solve->device->setTimeline(&timeline);
    if (!cacheNote.empty()) report.notes.push_back(cacheNote);
    GpuIcdOptions gpu = options.gpu;
    if (gpu.batch == 0) gpu.batch = automaticBatch(*solve->layout);
    const IcdKernelConstants constants =
        icdKernelConstants(*settings.prior, settings.weights, settings.invSigmaY2,
                           settings.positivity, options.zeroSkip);
    const int nz = sino.slices();
    if (nz == 1) {
        TOMO_RETURN_IF_ERROR(solve->device->load(*solve->layout, matrix, gpu, constants, 1, x,
                                                 sino.error(), sino.weight()));
    } else {  // slice-major planes on the device (GpuIcd.h, stacks)
        const double planes = timelineNow();
        std::vector<float> xz, ez, wz;
        mbirTranspose(x, solve->slices, xz);
        mbirTranspose(sino.error(), solve->slices, ez);
        mbirTranspose(sino.weight(), solve->slices, wz);
        addHostStep(report.hostSteps, &timeline, "stack planes", planes, timelineNow());
        TOMO_RETURN_IF_ERROR(
            solve->device->load(*solve->layout, matrix, gpu, constants, nz, xz, ez, wz));
    }
    solve->plan = std::make_unique<GpuIcdPlan>(*solve->layout, gpu, *solve->device, nz);
    const std::string stack =
        nz > 1 ? std::to_string(nz) + " slices coupled by the prior, launches of " +
                     std::to_string(icdLaunchSize(gpu.batch, nz)) + " SVs (" +
                     std::to_string(gpu.batch) + " per slice" +
                     (options.gpu.batch == 0 ? ", automatic), " : "), ")
               : std::to_string(gpu.batch) + (options.gpu.batch == 0 ? " (automatic)" : "") +
                     " per launch, ";
    report.notes.push_back(
        "GPU-ICD on " + solve->device->name() + ": " + std::to_string(solve->layout->svCount()) +
        " SVs of " + std::to_string(gpu.side) + ", " + stack + std::to_string(gpu.blocksPerSv) +
        " work-groups of " + std::to_string(gpu.groupSize) + " each, " +
        std::to_string(solve->layout->deviceBytes(gpu.batch, nz) >> 20) +
        " MiB on the device (layout " +
        (source == MbirMatrixSource::Memory
             ? std::string("from memory)")
             : std::string(source == MbirMatrixSource::Disk ? "from disk" : "built") + " in " +
                   std::to_string(layoutSeconds).substr(0, 5) + " s)"));
    return solve;
}

}  // namespace tomo
