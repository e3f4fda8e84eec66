// The host-device link and the pipeline's bound (LinkBandwidth.h).
#include "core/pipeline/LinkBandwidth.h"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace tomo {
namespace {

/// Seconds of the transfers @p enqueue puts on @p role's queue, from events around them.
Result<double> timed(DeviceQueues& q, QueueRole role, const std::function<Status()>& enqueue) {
    TOMO_ASSIGN_OR_RETURN(QueueEvent begin, q.record(role));
    TOMO_RETURN_IF_ERROR(enqueue());
    TOMO_ASSIGN_OR_RETURN(QueueEvent end, q.record(role));
    TOMO_RETURN_IF_ERROR(q.sync(end));
    TOMO_ASSIGN_OR_RETURN(double b, q.eventSeconds(begin));
    TOMO_ASSIGN_OR_RETURN(double e, q.eventSeconds(end));
    return e - b;
}

}  // namespace

Result<LinkBandwidth> measureLink(DeviceQueues& q, std::size_t bytes, int repeats) {
    LinkBandwidth link;
    link.bytes = bytes;
    TOMO_ASSIGN_OR_RETURN(void* host, q.pinnedBuffer("link.pinned", bytes));
    TOMO_ASSIGN_OR_RETURN(DeviceBufferRef dev, q.deviceBuffer("link.device", bytes));
    std::fill_n(static_cast<unsigned char*>(host), bytes, static_cast<unsigned char>(1));
    double up = 1e300, down = 1e300;
    for (int r = 0; r < std::max(1, repeats); ++r) {
        TOMO_ASSIGN_OR_RETURN(double u, timed(q, QueueRole::Upload, [&] {
                                  return q.upload(QueueRole::Upload, dev, 0, host, bytes);
                              }));
        TOMO_ASSIGN_OR_RETURN(double d, timed(q, QueueRole::Download, [&] {
                                  return q.download(QueueRole::Download, host, dev, 0, bytes);
                              }));
        up = std::min(up, u);
        down = std::min(down, d);
    }
    link.hostToDevice = up > 0 ? double(bytes) / up : 0.0;
    link.deviceToHost = down > 0 ? double(bytes) / down : 0.0;
    return link;
}

double pipelineBound(const TimelineReport& r) {
    using S = TimelineStage;
    return r.busyOf(S::Setup) +
           std::max({r.busyOf(S::Upload), r.busyOf(S::Filter) + r.busyOf(S::Kernels),
                     r.busyOf(S::Download), r.busyOf(S::Host)});
}

std::string formatLink(const LinkBandwidth& link) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "link: H2D %.1f GB/s, D2H %.1f GB/s (pinned, %zu MiB)",
                  link.hostToDevice * 1e-9, link.deviceToHost * 1e-9, link.bytes >> 20);
    return buf;
}

}  // namespace tomo
