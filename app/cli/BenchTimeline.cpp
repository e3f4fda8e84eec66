// `tomo bench`'s timeline report (BenchTimeline.h).
#include "app/cli/BenchTimeline.h"

#include <algorithm>
#include <cstdio>

#include "core/projectors/DeviceBackProjection.h"

namespace tomo::cli {

std::optional<LinkBandwidth> measureBackendLink(const BackProjectorRegistry& registry,
                                                const std::string& variant, std::string& why) {
    auto bp = registry.make(variant);
    if (!bp.isOk()) {
        why = bp.status().message();
        return std::nullopt;
    }
    DeviceBackProjection* device = (*bp)->device();
    if (!device) return std::nullopt;  // the CPU: no link
    auto queues = device->openQueues();
    if (!queues.isOk()) {
        why = queues.status().message();
        return std::nullopt;
    }
    auto link = measureLink(**queues);
    if (!link.isOk()) {
        why = link.status().message();
        return std::nullopt;
    }
    return *link;
}

std::string timelineLine(const std::string& variant, const std::string& workload,
                         const TimelineReport& timeline) {
    const double bound = pipelineBound(timeline);
    char tail[96];
    std::snprintf(tail, sizeof tail, " | bound %.3f s (%.0f%% of the wall)", bound,
                  timeline.wall > 0 ? 100.0 * bound / timeline.wall : 0.0);
    return "  " + variant + " " + workload + ": " + formatTimeline(timeline) + tail;
}

std::string linkRateLine(const std::string& label, double uploadBytes, double downloadBytes,
                         double uploadSeconds, double downloadSeconds, const LinkBandwidth& link) {
    char line[160];
    std::snprintf(line, sizeof line,
                  ": transfers at the link's rate: upload %.3f s, download %.3f s; measured %.3f "
                  "s, %.3f s",
                  uploadBytes / std::max(link.hostToDevice, 1.0),
                  downloadBytes / std::max(link.deviceToHost, 1.0), uploadSeconds, downloadSeconds);
    return "  " + label + line;
}

std::string linkRateLine(const std::string& label, const TimelineReport& t,
                         const LinkBandwidth& link) {
    using S = TimelineStage;
    return linkRateLine(label, double(t.bytes[std::size_t(S::Upload)]),
                        double(t.bytes[std::size_t(S::Download)]), t.busyOf(S::Upload),
                        t.busyOf(S::Download), link);
}

void printTimelines(const std::vector<TimelineRow>& rows, const std::optional<LinkBandwidth>& link,
                    const std::string& linkWhy) {
    std::printf(
        "timeline (busy seconds per stage; efficiency = sum of busy / wall; bound = the "
        "busiest queue):\n");
    for (const TimelineRow& r : rows) {
        std::printf("%s\n", timelineLine(r.variant, r.workload, r.timeline).c_str());
        // The steps inside the stages, as the stage measured them (a GPU's events: device time).
        if (!r.timeline.parts.empty())
            std::printf("    parts: %s\n", formatTimelineParts(r.timeline).c_str());
    }
    if (link) {
        std::printf("%s\n", formatLink(*link).c_str());
        for (const TimelineRow& r : rows)
            std::printf("%s\n",
                        linkRateLine(r.variant + " " + r.workload, r.timeline, *link).c_str());
    } else if (!linkWhy.empty()) {
        std::printf("link: not measured (%s)\n", linkWhy.c_str());
    }
}

std::string timelineJsonMembers(const TimelineReport& timeline) {
    char bound[64];
    std::snprintf(bound, sizeof bound, ", \"bound_seconds\": %.6g", pipelineBound(timeline));
    return "\"timeline\": " + timelineJson(timeline) + bound;
}

}  // namespace tomo::cli
