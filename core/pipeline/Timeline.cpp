// The timeline of a pipeline run and its report (Timeline.h).
#include "core/pipeline/Timeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace tomo {

const char* timelineStageName(TimelineStage stage) {
    switch (stage) {
        case TimelineStage::Read:
            return "read";
        case TimelineStage::Upload:
            return "upload";
        case TimelineStage::Filter:
            return "filter";
        case TimelineStage::Kernels:
            return "kernels";
        case TimelineStage::Download:
            return "download";
        case TimelineStage::Host:
            return "host";
        case TimelineStage::Write:
            return "write";
        case TimelineStage::Setup:
            return "setup";
    }
    return "?";
}

double TimelineReport::busySum() const {
    double sum = 0;
    for (double b : busy)
        sum += b;
    return sum;
}

double TimelineReport::efficiency() const {
    return wall > 0 ? busySum() / wall : 0.0;
}

double TimelineReport::bandwidth(TimelineStage s) const {
    const double t = busyOf(s);
    return t > 0 ? static_cast<double>(bytes[static_cast<std::size_t>(s)]) / t : 0.0;
}

namespace {

void addTo(std::vector<TimelinePart>& parts, const std::string& name, double seconds, int count) {
    for (TimelinePart& p : parts)
        if (p.name == name) {
            p.seconds += seconds;
            p.count += count;
            return;
        }
    parts.push_back({name, seconds, count});
}

}  // namespace

const TimelinePart* TimelineReport::part(const std::string& name) const {
    for (const TimelinePart& p : parts)
        if (p.name == name) return &p;
    return nullptr;
}

TimelineReport& TimelineReport::operator+=(const TimelineReport& other) {
    wall += other.wall;
    for (const TimelinePart& p : other.parts)
        addTo(parts, p.name, p.seconds, p.count);
    for (std::size_t i = 0; i < busy.size(); ++i) {
        busy[i] += other.busy[i];
        bytes[i] += other.bytes[i];
        spans[i] += other.spans[i];
    }
    return *this;
}

void Timeline::add(const TimelineSpan& span) {
    std::lock_guard lock(m_mutex);
    m_spans.push_back(span);
}

void Timeline::addPart(const std::string& name, double seconds) {
    std::lock_guard lock(m_mutex);
    addTo(m_parts, name, seconds, 1);
}

void Timeline::setWall(double seconds) {
    std::lock_guard lock(m_mutex);
    m_wall = seconds;
}

std::vector<TimelineSpan> Timeline::spans() const {
    std::lock_guard lock(m_mutex);
    return m_spans;
}

TimelineReport Timeline::report() const {
    std::vector<TimelineSpan> spans = this->spans();
    TimelineReport r;
    {
        std::lock_guard lock(m_mutex);
        r.wall = m_wall;
        r.parts = m_parts;
    }
    // Union of the intervals of each (stage, clock): sorted by start, merged where they touch.
    std::sort(spans.begin(), spans.end(), [](const TimelineSpan& a, const TimelineSpan& b) {
        if (a.stage != b.stage) return a.stage < b.stage;
        if (a.clock != b.clock) return a.clock < b.clock;
        return a.begin < b.begin;
    });
    for (std::size_t i = 0; i < spans.size();) {
        const TimelineSpan& first = spans[i];
        const auto s = static_cast<std::size_t>(first.stage);
        double begin = first.begin, end = first.end;
        for (; i < spans.size() && spans[i].stage == first.stage && spans[i].clock == first.clock;
             ++i) {
            const TimelineSpan& x = spans[i];
            r.bytes[s] += x.bytes;
            ++r.spans[s];
            if (x.begin > end) {  // a gap: close the merged interval
                r.busy[s] += end - begin;
                begin = x.begin;
                end = x.end;
            } else {
                end = std::max(end, x.end);
            }
        }
        r.busy[s] += end - begin;
    }
    return r;
}

double timelineNow() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string formatTimeline(const TimelineReport& r) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "wall %.3f s", r.wall);
    std::string out = buf;
    for (int i = 0; i < kTimelineStages; ++i) {
        const auto s = static_cast<TimelineStage>(i);
        if (r.spans[static_cast<std::size_t>(i)] == 0) continue;
        std::snprintf(buf, sizeof buf, " | %s %.3f s", timelineStageName(s), r.busyOf(s));
        out += buf;
    }
    std::snprintf(buf, sizeof buf, " | efficiency %.2f", r.efficiency());
    return out + buf;
}

std::string timelineJson(const TimelineReport& r) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "{\"wall\": %.6g", r.wall);
    std::string out = buf;
    for (int i = 0; i < kTimelineStages; ++i) {
        const auto s = static_cast<TimelineStage>(i);
        std::snprintf(buf, sizeof buf, ", \"%s\": %.6g", timelineStageName(s), r.busyOf(s));
        out += buf;
    }
    for (TimelineStage s : {TimelineStage::Upload, TimelineStage::Download}) {
        std::snprintf(buf, sizeof buf, ", \"%s_bytes\": %zu", timelineStageName(s),
                      r.bytes[static_cast<std::size_t>(s)]);
        out += buf;
    }
    std::snprintf(buf, sizeof buf, ", \"efficiency\": %.4g", r.efficiency());
    out += buf;
    if (!r.parts.empty()) {
        out += ", \"parts\": {";
        for (std::size_t i = 0; i < r.parts.size(); ++i) {
            std::snprintf(buf, sizeof buf, "\": %.6g", r.parts[i].seconds);
            out += (i ? ", \"" : "\"") + r.parts[i].name + buf;  // the code's names: plain ASCII
        }
        out += "}";
    }
    return out + "}";
}

std::string formatTimelineParts(const TimelineReport& r) {
    std::string out;
    char buf[48];
    for (const TimelinePart& p : r.parts) {
        std::snprintf(buf, sizeof buf, " %.3f s", p.seconds);
        out += (out.empty() ? "" : " | ") + p.name + buf;
    }
    return out;
}

}  // namespace tomo
