#include "app/jobs/IterativeJob.h"

#include <algorithm>
#include <utility>

#include "core/iterative/IterativeReconstruction.h"

namespace tomo::app {

Result<IterativeOutcome> runIterativeJob(const Dataset& data, const IterativeJobSpec& spec,
                                         const std::function<void(IterationReport)>& onReport,
                                         const std::function<bool()>& finishEarly,
                                         const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(AlgorithmSpec algorithm, findAlgorithm(spec.algorithm));
    if (!algorithm.iterative)
        return invalidArgument("'" + spec.algorithm + "' is not an iterative algorithm");
    TOMO_ASSIGN_OR_RETURN(ParameterValues values,
                          ParameterValues::resolve(algorithm, spec.parameters));
    IterativeRequest request;
    request.algorithm = spec.algorithm;
    request.parameters = std::move(values);
    const bool truthMatches = !data.truth.empty() &&
                              data.truth.dim(0) == static_cast<std::size_t>(data.grid.nz) &&
                              data.truth.dim(1) == static_cast<std::size_t>(data.grid.ny) &&
                              data.truth.dim(2) == static_cast<std::size_t>(data.grid.nx);
    if (truthMatches) request.reference = &data.truth;

    using Clock = std::chrono::steady_clock;
    Clock::time_point lastPreview{};
    bool previewed = false;
    IterationCallback callback = [&](const IterationInfo& info) {
        if (ctx.stop.stop_requested()) return IterationAction::Cancel;
        IterationReport report;
        report.info = info;
        report.info.iterate = nullptr;
        const Clock::time_point now = Clock::now();
        const bool due = !previewed || now - lastPreview >= spec.previewInterval;
        if (info.iterate != nullptr && !info.iterate->empty() && (spec.snapshots || due)) {
            std::size_t z = std::min<std::size_t>(
                static_cast<std::size_t>(std::max(spec.previewSlice, 0)), info.iterate->dim(0) - 1);
            report.slice =
                std::make_shared<const SliceImage>(SliceImage::copyOf(info.iterate->plane(z)));
            if (due) {
                report.preview = true;
                previewed = true;
                lastPreview = now;
            }
        }
        if (onReport) onReport(std::move(report));
        if (finishEarly && finishEarly()) return IterationAction::StopAndKeep;
        return IterationAction::Continue;
    };

    IterativeOutcome outcome;
    TOMO_RETURN_IF_ERROR(reconstructIterative(data.sinograms, data.geometry, data.grid, request,
                                              callback, outcome.recon.image, outcome.summary, ctx));
    outcome.recon.variant = spec.algorithm;
    outcome.recon.timings.total = outcome.summary.seconds;
    if (truthMatches) {
        TOMO_ASSIGN_OR_RETURN(outcome.recon.metrics,
                              compareImages(outcome.recon.image.plane(0), data.truth.plane(0)));
        outcome.recon.hasMetrics = true;
    }
    return outcome;
}

}  // namespace tomo::app
