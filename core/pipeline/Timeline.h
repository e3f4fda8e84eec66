#pragma once
/// @file Timeline.h
/// @brief One timeline for every reconstruction path (issue 27 item 5): busy intervals of the
/// stages a chunk goes through (read, upload, filter, kernels, download, host work, write) and
/// of the setup before the first chunk,
/// recorded by core's pipeline driver (ChunkPipeline.h) from host clocks and from device events
/// (DeviceQueues::eventSeconds), and the report `tomo bench` and `scripts/gpu-check` print: the
/// wall time, each stage's busy time and the overlap efficiency = (sum of busy times) / wall.
///
/// Busy time of a stage is the union of its intervals on each clock (host, or one device's
/// event clock), summed over clocks: two host threads copying at once count once, so the busy
/// time is how long the stage kept its resource occupied. An efficiency of 1 means the stages
/// ran one after the other; above 1, they overlapped (at most the number of stages busy).
/// Threading: add() and setWall() may be called from several threads.

#include <array>
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

namespace tomo {

/// Setup: what a run makes before its first chunk (the output's allocation, the device's queues,
/// stages, plans and staging rings), so that a call's timeline accounts for its whole wall time.
enum class TimelineStage : int { Read, Upload, Filter, Kernels, Download, Host, Write, Setup };
inline constexpr int kTimelineStages = 8;

/// "read", "upload", "filter", "kernels", "download", "host", "write", "setup".
const char* timelineStageName(TimelineStage stage);

/// Clocks a span can be measured on: the host's steady clock, or a device's events.
enum class TimelineClock : int { Host = 0, Device = 1 };

struct TimelineSpan {
    TimelineStage stage = TimelineStage::Host;
    TimelineClock clock = TimelineClock::Host;
    double begin = 0, end = 0;  ///< seconds on the span's clock
    std::size_t bytes = 0;      ///< bytes moved (transfers), else 0
};

/// A named step inside a stage (gridrec's pack, row FFT, gather, ...): its busy seconds summed
/// over the chunks, on the clock that ran it (a device's events, or the host's), and how many
/// times it ran. Steps are measured by the stage that runs them (Timeline::addPart); they say
/// where a stage's time goes, and are not part of busySum() (their stage is).
struct TimelinePart {
    std::string name;
    double seconds = 0;
    int count = 0;
};

/// What a run's timeline adds up to.
struct TimelineReport {
    double wall = 0;                                   ///< seconds of the whole run (host clock)
    std::array<double, kTimelineStages> busy{};        ///< per stage, seconds (union per clock)
    std::array<std::size_t, kTimelineStages> bytes{};  ///< per stage, bytes moved
    std::array<int, kTimelineStages> spans{};          ///< intervals recorded per stage
    std::vector<TimelinePart> parts;  ///< steps inside the stages, in the order first added

    double busyOf(TimelineStage s) const { return busy[static_cast<std::size_t>(s)]; }
    double busySum() const;
    /// busySum() / wall (0 without a wall time).
    double efficiency() const;
    /// Bytes per second of a transfer stage (0 when it did not run).
    double bandwidth(TimelineStage s) const;
    /// The part named @p name, or null.
    const TimelinePart* part(const std::string& name) const;
    /// Adds @p other's times (runs or slabs one after the other; parts by name).
    TimelineReport& operator+=(const TimelineReport& other);
};

/// Collects the spans of one run (thread-safe).
class Timeline {
  public:
    void add(const TimelineSpan& span);
    void add(TimelineStage stage, double begin, double end, std::size_t bytes = 0) {
        add(TimelineSpan{stage, TimelineClock::Host, begin, end, bytes});
    }
    void setWall(double seconds);
    /// Adds @p seconds to the part @p name (made on first use) and counts one run of it.
    void addPart(const std::string& name, double seconds);
    TimelineReport report() const;
    std::vector<TimelineSpan> spans() const;

  private:
    mutable std::mutex m_mutex;
    std::vector<TimelineSpan> m_spans;
    std::vector<TimelinePart> m_parts;
    double m_wall = 0;
};

/// Seconds on the host's steady clock (the Host clock of spans).
double timelineNow();

/// "wall 1.234 s | upload 0.400 s | filter 0.120 s | kernels 0.900 s | download 0.300 s |
/// host 0.200 s | efficiency 1.57" (stages that did not run are left out; read and write too
/// when they did not run).
std::string formatTimeline(const TimelineReport& report);
/// "pack 0.010 s | row FFT 0.020 s | ..." (empty without parts).
std::string formatTimelineParts(const TimelineReport& report);
/// {"wall": 1.234, "upload": 0.4, ..., "efficiency": 1.57, "upload_bytes": ..., "parts":
/// {"pack": 0.01, ...}} (parts only when there are some)
std::string timelineJson(const TimelineReport& report);

}  // namespace tomo
