#pragma once
// `tomo bench`'s timeline report (issue 27 item 5): for every variant, the FBP's wall time,
// each stage's busy time and the overlap efficiency (core/pipeline/Timeline.h), the pipeline's
// bound (its busiest queue) and, on a GPU backend, the host-device link measured on the same
// queues (core/pipeline/LinkBandwidth.h).
#include <optional>
#include <string>
#include <vector>

#include "core/pipeline/LinkBandwidth.h"
#include "core/projectors/BackProjector.h"

namespace tomo::cli {

/// The link of @p variant's device (measured on its queues), or none on the CPU or when the
/// device's queues cannot be opened (the reason in @p why).
std::optional<LinkBandwidth> measureBackendLink(const BackProjectorRegistry& registry,
                                                const std::string& variant, std::string& why);

/// "  <variant> <workload>: wall ... | efficiency 1.57 | bound 0.91 s (62% of the wall)".
std::string timelineLine(const std::string& variant, const std::string& workload,
                         const TimelineReport& timeline);

/// "  <label>: transfers at the link's rate: upload 0.12 s, download 0.10 s; measured 0.15 s,
/// 0.11 s": a run's bytes over @p link beside the transfer times it measured.
std::string linkRateLine(const std::string& label, double uploadBytes, double downloadBytes,
                         double uploadSeconds, double downloadSeconds, const LinkBandwidth& link);

/// The same for a run's timeline (its bytes and busy times of Upload and Download).
std::string linkRateLine(const std::string& label, const TimelineReport& t,
                         const LinkBandwidth& link);

/// A row of the timeline report: "<variant> <workload>" and its run's timeline.
struct TimelineRow {
    std::string variant, workload;
    TimelineReport timeline;
};

/// The report after a bench's table: a header, timelineLine() of every row, then @p link with
/// linkRateLine() of every row ("<variant> <workload>: ..."), or why the link was not measured (@p
/// linkWhy; nothing on the CPU, where both are empty).
void printTimelines(const std::vector<TimelineRow>& rows, const std::optional<LinkBandwidth>& link,
                    const std::string& linkWhy);

/// The JSON members of a row's timeline: "timeline": {...}, "bound_seconds": ...
std::string timelineJsonMembers(const TimelineReport& timeline);

}  // namespace tomo::cli
