// The simulated device of the pipeline tests (SimulatedQueues.h).
#include "tests/core/pipeline/SimulatedQueues.h"

#include <algorithm>
#include <cstring>

namespace tomo::test {
namespace {

struct SimEvent final : QueueEventBase {
    double time = 0;
};

double timeOf(const QueueEvent& e) {
    return e ? static_cast<const SimEvent&>(*e).time : 0.0;
}

}  // namespace

SimulatedQueues::SimulatedQueues(Costs costs, std::size_t budget)
    : m_costs(costs), m_budget(budget), m_driver(std::this_thread::get_id()) {}

SimulatedQueues::Buffer* SimulatedQueues::bufferOf(void* handle) {
    for (auto& [key, b] : m_buffers)
        if (b->bytes.data() == handle) return b.get();
    for (auto& b : m_released)
        if (b->bytes.data() == handle) return b.get();
    return nullptr;
}

Result<DeviceBufferRef> SimulatedQueues::deviceBuffer(const std::string& key, std::size_t bytes) {
    std::lock_guard lock(m_mutex);
    if (refuseAbove > 0 && bytes > refuseAbove)
        return outOfMemory("simulated device: " + key + " of " + std::to_string(bytes) +
                           " bytes refused");
    auto& b = m_buffers[key];
    if (!b || b->bytes.size() < bytes) {
        if (b) m_released.push_back(std::move(b));
        b = std::make_unique<Buffer>();
        b->bytes.assign(std::max<std::size_t>(bytes, 1), std::byte{0x7f});
        ++allocations;
    }
    return DeviceBufferRef{b->bytes.data(), b->bytes.size()};
}

Result<void*> SimulatedQueues::pinnedBuffer(const std::string& key, std::size_t bytes) {
    std::lock_guard lock(m_mutex);
    auto& b = m_buffers["pinned:" + key];
    if (!b || b->bytes.size() < bytes) {
        if (b) m_released.push_back(std::move(b));
        b = std::make_unique<Buffer>();
        b->device = false;
        b->bytes.assign(std::max<std::size_t>(bytes, 1), std::byte{0x7f});
        ++allocations;
    }
    return static_cast<void*>(b->bytes.data());
}

void SimulatedQueues::releaseBuffers() {
    std::lock_guard lock(m_mutex);
    for (auto& [key, b] : m_buffers)
        m_released.push_back(std::move(b));
    m_buffers.clear();
}

Status SimulatedQueues::enqueue(QueueRole role, std::string what, double seconds,
                                std::vector<SimAccess> access, std::function<void()> effect) {
    std::lock_guard lock(m_mutex);
    Queue& q = m_queues[static_cast<int>(role)];
    const double host = std::this_thread::get_id() == m_driver ? m_host : 0.0;
    Pending p;
    p.op.what = std::move(what);
    p.op.role = role;
    p.op.issue = host;
    p.op.start = std::max({q.tail, q.readyAfter, host});
    p.op.end = p.op.start + seconds;
    p.access = std::move(access);
    p.effect = std::move(effect);
    p.order = m_order++;
    q.tail = p.op.end;
    m_pending.push_back(std::move(p));
    return Status::ok();
}

Status SimulatedQueues::upload(QueueRole role, DeviceBufferRef dst, std::size_t offset,
                               const void* src, std::size_t bytes) {
    if (offset + bytes > dst.bytes) return internalError("simulated upload out of bounds");
    std::byte* to = static_cast<std::byte*>(dst.handle) + offset;
    return enqueue(role, "upload", double(bytes) * m_costs.uploadPerByte,
                   {{dst.handle, true}, {const_cast<void*>(src), false}},
                   [to, src, bytes] { std::memcpy(to, src, bytes); });
}

Status SimulatedQueues::download(QueueRole role, void* dst, DeviceBufferRef src, std::size_t offset,
                                 std::size_t bytes) {
    if (offset + bytes > src.bytes) return internalError("simulated download out of bounds");
    const std::byte* from = static_cast<const std::byte*>(src.handle) + offset;
    return enqueue(role, "download", double(bytes) * m_costs.downloadPerByte,
                   {{src.handle, false}, {dst, true}},
                   [dst, from, bytes] { std::memcpy(dst, from, bytes); });
}

Status SimulatedQueues::kernel(QueueRole role, std::string what, double seconds,
                               std::vector<SimAccess> access, std::function<void()> effect) {
    return enqueue(role, std::move(what), seconds, std::move(access), std::move(effect));
}

Result<QueueEvent> SimulatedQueues::record(QueueRole role) {
    std::lock_guard lock(m_mutex);
    const Queue& q = m_queues[static_cast<int>(role)];
    // An event on an idle queue completes when the host enqueues it.
    const double host = std::this_thread::get_id() == m_driver ? m_host : 0.0;
    auto e = std::make_shared<SimEvent>();
    e->time = std::max({q.tail, q.readyAfter, host});
    return QueueEvent(std::move(e));
}

Status SimulatedQueues::wait(QueueRole role, const QueueEvent& event) {
    std::lock_guard lock(m_mutex);
    Queue& q = m_queues[static_cast<int>(role)];
    q.readyAfter = std::max(q.readyAfter, timeOf(event));
    return Status::ok();
}

Status SimulatedQueues::sync(const QueueEvent& event) {
    std::lock_guard lock(m_mutex);
    if (!event) return Status::ok();
    runUntil(timeOf(event));
    if (std::this_thread::get_id() == m_driver) m_host = std::max(m_host, timeOf(event));
    return Status::ok();
}

Result<double> SimulatedQueues::eventSeconds(const QueueEvent& event) {
    return timeOf(event);
}

void SimulatedQueues::drain() noexcept {
    std::lock_guard lock(m_mutex);
    runUntil(1e300);
}

void SimulatedQueues::runUntil(double time) {
    // Ops whose start is not after `time`, in start order (ties: enqueue order).
    std::sort(m_pending.begin(), m_pending.end(), [](const Pending& a, const Pending& b) {
        return a.op.start != b.op.start ? a.op.start < b.op.start : a.order < b.order;
    });
    std::size_t n = 0;
    while (n < m_pending.size() && m_pending[n].op.start <= time)
        ++n;
    for (std::size_t i = 0; i < n; ++i) {
        Pending& p = m_pending[i];
        check(p);
        if (p.effect) p.effect();
        m_trace.push_back(p.op);
        p.effect = nullptr;
        m_done.push_back(std::move(p));
    }
    m_pending.erase(m_pending.begin(), m_pending.begin() + static_cast<std::ptrdiff_t>(n));
}

void SimulatedQueues::check(const Pending& p) {
    for (const SimAccess& a : p.access) {
        Buffer* b = bufferOf(a.buffer);
        if (!b) continue;  // the caller's own memory
        for (const Pending& d : m_done)
            for (const SimAccess& o : d.access)
                if (o.buffer == a.buffer && (o.write || a.write) && d.op.end > p.op.start)
                    m_hazards.push_back(p.op.what + " overlaps " + d.op.what);
        if (!b->device) continue;
        if (a.write) {
            if (b->unread)
                m_hazards.push_back("overwrite before use: " + p.op.what + " over " +
                                    b->lastWriter);
            b->written = b->unread = true;
            b->lastWriter = p.op.what;
        } else {
            if (!b->written) m_hazards.push_back("read before any write: " + p.op.what);
            b->unread = false;
        }
    }
}

std::vector<SimOp> SimulatedQueues::trace() const {
    std::lock_guard lock(m_mutex);
    return m_trace;
}

std::vector<std::string> SimulatedQueues::hazards() const {
    std::lock_guard lock(m_mutex);
    return m_hazards;
}

double SimulatedQueues::hostTime() const {
    std::lock_guard lock(m_mutex);
    return m_host;
}

}  // namespace tomo::test
