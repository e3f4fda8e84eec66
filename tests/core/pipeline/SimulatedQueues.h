#pragma once
// The simulated device of the pipeline tests: core's DeviceQueues (core/pipeline/DeviceQueues.h)
// over host memory, with three in-order queues on a simulated clock. Every operation gets a
// start and an end time when it is enqueued (after its queue's previous work, the events its
// queue waits for, and the host's issue time), and runs - its data effect - only when the host
// synchronises past its start, in start order, so that work the driver forgot to order runs in
// the wrong order and gives wrong data. While running, the simulator checks every device buffer
// access against the others:
//  - two accesses of one buffer, at least one a write, whose [start, end) intervals overlap
//    ("... overlaps ..."): a read before its upload completed, an overwrite before a download
//    finished, a host staging buffer reused under a transfer;
//  - a device buffer written twice with no read in between ("overwrite before use");
//  - a device buffer read before anything wrote it.
// The trace keeps each operation's label, queue, issue, start and end time.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/pipeline/DeviceQueues.h"

namespace tomo::test {

struct SimOp {
    std::string what;
    QueueRole role = QueueRole::Compute;
    double issue = 0, start = 0, end = 0;
};

/// A device buffer's access by an operation.
struct SimAccess {
    void* buffer = nullptr;
    bool write = false;
};

/// Simulated seconds per byte of the transfers.
struct SimCosts {
    double uploadPerByte = 1e-9, downloadPerByte = 1e-9;
};

class SimulatedQueues final : public DeviceQueues {
  public:
    using Costs = SimCosts;
    explicit SimulatedQueues(SimCosts costs = {}, std::size_t budget = std::size_t(1) << 30);

    std::string deviceName() const override { return "simulated device"; }
    std::size_t memoryBudget() const override { return m_budget; }
    Result<DeviceBufferRef> deviceBuffer(const std::string& key, std::size_t bytes) override;
    Result<void*> pinnedBuffer(const std::string& key, std::size_t bytes) override;
    void releaseBuffers() override;
    Status upload(QueueRole role, DeviceBufferRef dst, std::size_t offset, const void* src,
                  std::size_t bytes) override;
    Status download(QueueRole role, void* dst, DeviceBufferRef src, std::size_t offset,
                    std::size_t bytes) override;
    Result<QueueEvent> record(QueueRole role) override;
    Status wait(QueueRole role, const QueueEvent& event) override;
    Status sync(const QueueEvent& event) override;
    Result<double> eventSeconds(const QueueEvent& event) override;
    void drain() noexcept override;

    /// A kernel of @p seconds on @p role's queue touching @p access; @p effect runs with it.
    Status kernel(QueueRole role, std::string what, double seconds, std::vector<SimAccess> access,
                  std::function<void()> effect);
    /// The bytes of a device buffer (for the simulated stages).
    std::byte* memory(const DeviceBufferRef& ref) const {
        return static_cast<std::byte*>(ref.handle);
    }

    /// Refuses device buffers larger than this (0: none), as a device out of memory would.
    std::size_t refuseAbove = 0;
    /// Every allocation made (device and pinned), for the reuse tests.
    int allocations = 0;

    std::vector<SimOp> trace() const;
    std::vector<std::string> hazards() const;
    /// The host's simulated clock (advanced by the driver thread's syncs).
    double hostTime() const;

  private:
    struct Buffer {
        std::vector<std::byte> bytes;
        bool device = true;
        bool written = false, unread = false;
        std::string lastWriter;
    };
    struct Pending {
        SimOp op;
        std::vector<SimAccess> access;
        std::function<void()> effect;
        long order = 0;
    };
    struct Queue {
        double tail = 0, readyAfter = 0;
    };
    Status enqueue(QueueRole role, std::string what, double seconds, std::vector<SimAccess> access,
                   std::function<void()> effect);
    void runUntil(double time);
    void check(const Pending& p);
    Buffer* bufferOf(void* handle);

    Costs m_costs;
    std::size_t m_budget;
    mutable std::recursive_mutex m_mutex;
    std::thread::id m_driver;
    double m_host = 0;
    Queue m_queues[kQueueRoles];
    std::map<std::string, std::unique_ptr<Buffer>> m_buffers;
    std::vector<std::unique_ptr<Buffer>> m_released;  // kept: pending ops may still name them
    std::vector<Pending> m_pending;
    long m_order = 0;
    std::vector<Pending> m_done;  // executed, for the overlap checks
    std::vector<SimOp> m_trace;
    std::vector<std::string> m_hazards;
};

/// A simulator lent to code that owns the DeviceQueues it is given (an operator's openQueues(),
/// a GPU-ICD device), so the test keeps the simulator across calls.
class BorrowedQueues final : public DeviceQueues {
  public:
    explicit BorrowedQueues(SimulatedQueues& sim) : m(sim) {}
    std::string deviceName() const override { return m.deviceName(); }
    std::size_t memoryBudget() const override { return m.memoryBudget(); }
    Result<DeviceBufferRef> deviceBuffer(const std::string& key, std::size_t bytes) override {
        return m.deviceBuffer(key, bytes);
    }
    Result<void*> pinnedBuffer(const std::string& key, std::size_t bytes) override {
        return m.pinnedBuffer(key, bytes);
    }
    void releaseBuffers() override { m.releaseBuffers(); }
    Status upload(QueueRole role, DeviceBufferRef dst, std::size_t offset, const void* src,
                  std::size_t bytes) override {
        return m.upload(role, dst, offset, src, bytes);
    }
    Status download(QueueRole role, void* dst, DeviceBufferRef src, std::size_t offset,
                    std::size_t bytes) override {
        return m.download(role, dst, src, offset, bytes);
    }
    Result<QueueEvent> record(QueueRole role) override { return m.record(role); }
    Status wait(QueueRole role, const QueueEvent& e) override { return m.wait(role, e); }
    Status sync(const QueueEvent& e) override { return m.sync(e); }
    Result<double> eventSeconds(const QueueEvent& e) override { return m.eventSeconds(e); }
    void drain() noexcept override { m.drain(); }

  private:
    SimulatedQueues& m;
};

}  // namespace tomo::test
