#pragma once
/// @file LinkBandwidth.h
/// @brief The host-device link as the pipeline uses it (issue 27 item 2: the bench prints H2D
/// and D2H bandwidth beside the model): pinned staging to a device buffer and back, timed by
/// the queues' events, written once for every backend (DeviceQueues.h), and the bound the
/// pipeline's overlap can reach: the busiest queue of a run's timeline.

#include <cstddef>
#include <string>

#include "core/base/Status.h"
#include "core/pipeline/DeviceQueues.h"
#include "core/pipeline/Timeline.h"

namespace tomo {

struct LinkBandwidth {
    double hostToDevice = 0, deviceToHost = 0;  ///< bytes per second (best of the repeats)
    std::size_t bytes = 0;                      ///< per transfer
};

/// Uploads @p bytes from pinned memory to the device and downloads them, @p repeats times on
/// the Upload and Download queues (buffers "link.pinned", "link.device"); the best of each.
Result<LinkBandwidth> measureLink(DeviceQueues& queues, std::size_t bytes = std::size_t(256) << 20,
                                  int repeats = 3);

/// The wall time a run could reach with perfect overlap: its setup (serial, before the first
/// chunk) plus its busiest resource, the upload queue, the compute queue (filter and kernels) or
/// the download queue (and on the host, the copies).
double pipelineBound(const TimelineReport& r);

/// "link: H2D 12.3 GB/s, D2H 11.9 GB/s (pinned, 256 MiB)".
std::string formatLink(const LinkBandwidth& link);

}  // namespace tomo
