#include "app/jobs/IterativeJob.h"

#include <algorithm>
#include <utility>

#include "core/iterative/AlgorithmSchema.h"

namespace tomo::app {

Result<IterativeOutcome> runIterativeJob(const ReconService& service,
                                         std::shared_ptr<const Dataset> data,
                                         const IterativeJobSpec& spec,
                                         const std::function<void(IterationReport)>& onReport,
                                         const std::function<bool()>& finishEarly,
                                         const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(AlgorithmSpec algorithm, findAlgorithm(spec.algorithm));
    if (!algorithm.iterative)
        return invalidArgument("'" + spec.algorithm + "' is not an iterative algorithm");
    ReconRequest request = datasetRequest(data, spec.algorithm);
    request.parameters = spec.parameters;
    request.backend = spec.backend;
    request.initial = spec.initial;
    request.frontEnd = spec.frontEnd;

    using Clock = std::chrono::steady_clock;
    Clock::time_point lastPreview{};
    bool previewed = false;
    ReconCallbacks callbacks;
    callbacks.onIteration = [&](const IterationInfo& info, const SlabInfo&) {
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

    TOMO_ASSIGN_OR_RETURN(ReconReport report, service.run(request, callbacks, ctx));
    IterativeOutcome outcome;
    outcome.recon.image = std::move(report.image);
    outcome.recon.variant = spec.algorithm;
    outcome.recon.provenance = report.provenance;
    outcome.summary = std::move(report.lastSummary);
    outcome.recon.timings.total = outcome.summary.seconds;
    outcome.backend = report.backend;
    outcome.deviceOperator = report.deviceOperator;
    outcome.notes = std::move(report.notes);
    // Metrics only when the truth has every slice (as the per-iteration errors).
    const bool truthMatches =
        !data->truth.empty() && data->truth.dim(0) == static_cast<std::size_t>(data->grid.nz);
    if (truthMatches && report.metrics) {
        outcome.recon.metrics = *report.metrics;
        outcome.recon.hasMetrics = true;
    }
    if (truthMatches) measureOverFieldOfView(outcome.recon, *data);
    return outcome;
}

}  // namespace tomo::app
