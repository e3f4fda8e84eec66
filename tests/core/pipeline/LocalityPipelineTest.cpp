// The GPU projector pair's host loop (core/locality/DeviceLocality.h) on the simulated device:
// a simulated LocalityDevice whose kernels run the CPU pair slice by slice on the chunk's device
// buffers (reading the subset's order from its device copy) must give the CPU pair's bits for
// every slice, subset and chunk size, leave the rows outside a subset alone, keep the event
// order (no read before its upload, no overwrite before its download, chunk k + 1's upload
// issued before chunk k's kernels end) and report the timeline of its calls.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "core/locality/DeviceLocality.h"
#include "core/locality/LocalityOperator.h"
#include "tests/core/pipeline/SimulatedQueues.h"

namespace tomo::test {
namespace {

constexpr int kSlices = 7, kAngles = 30, kDetectors = 37;
constexpr double kKernelSeconds = 1e-3;  ///< simulated seconds of one slice's kernel

struct Problem {
    ParallelGeometry geom, slice;  ///< the stack's and one slice's
    VolumeGeometry vol, sliceVol;
};

Problem makeProblem() {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.0, kPi, kAngles);
    p.detectorCount = kDetectors;
    p.detectorPitch = 1.25;
    p.centerOfRotation = 17.6;
    p.rows = kSlices;
    const ParallelGeometry stack = ParallelGeometry::create(p).value();
    p.rows = 1;
    Problem pr{stack, ParallelGeometry::create(p).value(), {}, {}};
    pr.vol.nx = 29;
    pr.vol.ny = 23;
    pr.vol.nz = kSlices;
    pr.vol.voxelSize = 1.5;
    pr.vol.offsetX = 0.8;
    pr.sliceVol = pr.vol;
    pr.sliceVol.nz = 1;
    return pr;
}

/// A device whose kernel is the CPU pair on each slice of the chunk, on the device buffers.
class SimLocalityDevice final : public LocalityDevice {
  public:
    SimLocalityDevice(SimulatedQueues& sim, const Problem& p)
        : m_sim(sim), m_op(LocalityOperator::create(p.slice, p.sliceVol).value()), m_p(p) {}
    std::string prefix() const override { return "sim.locality"; }
    Result<std::unique_ptr<DeviceQueues>> openQueues() override {
        return std::unique_ptr<DeviceQueues>(std::make_unique<BorrowedQueues>(m_sim));
    }
    std::size_t sliceAlignment() const override { return 16; }  // padded items
    std::size_t maxChunkSlices(std::size_t) const override { return 64; }
    Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues&, const LocalityCall& call) override;

    SimulatedQueues& m_sim;
    std::unique_ptr<LocalityOperator> m_op;
    Problem m_p;
};

class SimLocalityStage final : public ChunkStage {
  public:
    SimLocalityStage(SimLocalityDevice& d, const LocalityCall& call) : m_d(d), m_call(call) {}
    TimelineStage timelineStage() const override { return TimelineStage::Kernels; }
    Status prepare(std::size_t, std::size_t) override { return Status::ok(); }
    int steps(const PipelineChunk&) const override { return 1; }
    double work(const PipelineChunk& c, int) const override { return double(c.count); }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int, const ExecContext&) override {
        const std::string what =
            std::string(m_call.forward ? "forward " : "back ") + std::to_string(c.index);
        return m_d.m_sim.kernel(QueueRole::Compute, what, kKernelSeconds * double(c.count),
                                {{b.input.handle, false},
                                 {m_call.orderOnDevice.handle, false},
                                 {b.output.handle, true}},
                                [this, c, b] { effect(c, b); });
    }

  private:
    void effect(const PipelineChunk& c, const ChunkBuffers& b) const {
        const auto* order = reinterpret_cast<const int*>(m_d.m_sim.memory(m_call.orderOnDevice));
        const auto* in = reinterpret_cast<const float*>(m_d.m_sim.memory(b.input));
        auto* out = reinterpret_cast<float*>(m_d.m_sim.memory(b.output));
        const std::size_t det = kDetectors, plane = m_d.m_op->domainSize();
        std::vector<float> y(m_d.m_op->rangeSize(), 0.f), x(plane);
        const ExecContext ctx{1, {}, nullptr};
        for (std::size_t z = 0; z < c.count; ++z) {
            if (m_call.forward) {
                std::memcpy(x.data(), in + z * m_call.volumeStride, plane * sizeof(float));
                ASSERT_TRUE(
                    m_d.m_op->forwardSubset(x, y, m_call.subset, m_call.subsets, ctx).isOk());
            }
            for (std::size_t i = 0; i < m_call.order.size(); ++i) {
                const int p = order[i];
                float* row = out + z * m_call.sinoStride + std::size_t(m_call.rowOf(p)) * det;
                const float* from = in + z * m_call.sinoStride + std::size_t(m_call.rowOf(p)) * det;
                if (m_call.forward)
                    std::memcpy(row, y.data() + std::size_t(p) * det, det * sizeof(float));
                else
                    std::memcpy(y.data() + std::size_t(p) * det, from, det * sizeof(float));
            }
            if (!m_call.forward) {
                ASSERT_TRUE(
                    m_d.m_op->adjointSubset(y, x, m_call.subset, m_call.subsets, ctx).isOk());
                std::memcpy(out + z * m_call.volumeStride, x.data(), plane * sizeof(float));
            }
        }
    }
    SimLocalityDevice& m_d;
    const LocalityCall& m_call;
};

Result<std::unique_ptr<ChunkStage>> SimLocalityDevice::stage(DeviceQueues&,
                                                             const LocalityCall& call) {
    return std::unique_ptr<ChunkStage>(std::make_unique<SimLocalityStage>(*this, call));
}

std::vector<float> values(std::size_t n, unsigned seed) {
    std::vector<float> v(n);
    for (float& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = static_cast<float>(seed >> 8) / 16777216.0f;
    }
    return v;
}

/// The CPU pair applied slice by slice on the host: what the device operator must give.
struct Reference {
    const Problem& p;
    std::unique_ptr<LocalityOperator> op = LocalityOperator::create(p.slice, p.sliceVol).value();
    std::size_t plane() const { return op->domainSize(); }
    std::size_t rows() const { return op->rangeSize(); }
    void forward(const std::vector<float>& x, std::vector<float>& y, int s, int n) {
        for (std::size_t z = 0; z < kSlices; ++z) {
            std::vector<float> xs(x.begin() + long(z * plane()),
                                  x.begin() + long((z + 1) * plane()));
            std::vector<float> ys(y.begin() + long(z * rows()), y.begin() + long((z + 1) * rows()));
            ASSERT_TRUE(op->forwardSubset(xs, ys, s, n, {1, {}, nullptr}).isOk());
            std::copy(ys.begin(), ys.end(), y.begin() + long(z * rows()));
        }
    }
    void adjoint(const std::vector<float>& y, std::vector<float>& x, int s, int n) {
        for (std::size_t z = 0; z < kSlices; ++z) {
            std::vector<float> ys(y.begin() + long(z * rows()), y.begin() + long((z + 1) * rows()));
            std::vector<float> xs(plane());
            ASSERT_TRUE(op->adjointSubset(ys, xs, s, n, {1, {}, nullptr}).isOk());
            std::copy(xs.begin(), xs.end(), x.begin() + long(z * plane()));
        }
    }
};

TEST(LocalityPipeline, EqualsTheCpuPairSliceBySliceForEverySubsetAndChunkBitForBit) {
    const Problem p = makeProblem();
    Reference ref{p};
    for (const std::size_t chunk : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(0)})
        for (const auto& [s, n] : {std::pair{0, 1}, std::pair{1, 3}, std::pair{4, 5}}) {
            SCOPED_TRACE("chunk " + std::to_string(chunk) + ", subset " + std::to_string(s) +
                         " of " + std::to_string(n));
            SimulatedQueues sim;
            DeviceLocalityOperator op(std::make_unique<SimLocalityDevice>(sim, p), p.geom, p.vol,
                                      RayOrdering::StripSegments);
            op.setChunkSlices(chunk);
            const std::vector<float> x = values(op.domainSize(), 3);
            std::vector<float> y(op.rangeSize(), -7.f), yRef = y;
            ASSERT_TRUE(op.forwardSubset(x, y, s, n, {2, {}, nullptr}).isOk());
            ref.forward(x, yRef, s, n);
            EXPECT_EQ(y, yRef);  // the other subsets' rows keep their -7
            const std::vector<float> r = values(op.rangeSize(), 5);
            std::vector<float> back(op.domainSize(), -7.f), backRef(op.domainSize());
            ASSERT_TRUE(op.adjointSubset(r, back, s, n, {2, {}, nullptr}).isOk());
            ref.adjoint(r, backRef, s, n);
            EXPECT_EQ(back, backRef);
            EXPECT_TRUE(sim.hazards().empty()) << sim.hazards().front();
        }
}

std::vector<SimOp> ops(const std::vector<SimOp>& trace, const std::string& prefix, QueueRole role) {
    std::vector<SimOp> out;
    for (const SimOp& op : trace)
        if (op.what.rfind(prefix, 0) == 0 && op.role == role) out.push_back(op);
    return out;
}

TEST(LocalityPipeline, TheNextChunksUploadIsIssuedBeforeThisChunksKernelsEnd) {
    const Problem p = makeProblem();
    // A chunk of 2 slices uploads in about its kernels' time: everything can overlap.
    SimCosts costs;
    costs.uploadPerByte = costs.downloadPerByte = kKernelSeconds / (29.0 * 23 * 4);
    SimulatedQueues sim(costs);
    DeviceLocalityOperator op(std::make_unique<SimLocalityDevice>(sim, p), p.geom, p.vol,
                              RayOrdering::StripSegments);
    op.setChunkSlices(2);
    const std::vector<float> x = values(op.domainSize(), 3);
    std::vector<float> y(op.rangeSize());
    ASSERT_TRUE(op.forward(x, y, {2, {}, nullptr}).isOk());
    const std::vector<SimOp> trace = sim.trace();
    const std::vector<SimOp> uploads = ops(trace, "upload", QueueRole::Upload);
    const std::vector<SimOp> downloads = ops(trace, "download", QueueRole::Download);
    const std::vector<SimOp> order = ops(trace, "upload", QueueRole::Compute);
    ASSERT_EQ(uploads.size(), 4u);  // 7 slices in chunks of 2
    ASSERT_EQ(downloads.size(), 4u);
    ASSERT_EQ(order.size(), 1u);  // the subset's order, once per call
    for (int k = 0; k < 4; ++k) {
        const SimOp kernel = ops(trace, "forward " + std::to_string(k), QueueRole::Compute).at(0);
        EXPECT_GE(kernel.start, uploads[k].end) << "chunk " << k;  // no read before its upload
        EXPECT_GE(kernel.start, order[0].end);
        EXPECT_GE(downloads[k].start, kernel.end) << "chunk " << k;
        if (k + 1 < 4) {
            EXPECT_LT(uploads[k + 1].issue, kernel.end) << "chunk " << k;
            EXPECT_LT(uploads[k + 1].start, kernel.end) << "chunk " << k;
        }
        if (k >= 1) {
            EXPECT_LT(downloads[k - 1].start, kernel.end) << "chunk " << k;
        }
    }
    EXPECT_TRUE(sim.hazards().empty());
    // The timeline of the call: the kernels' busy time is their simulated time, and the
    // transfers overlap them.
    const TimelineReport& r = op.timeline();
    EXPECT_NEAR(r.busyOf(TimelineStage::Kernels), kSlices * kKernelSeconds, 1e-12);
    EXPECT_GT(r.busyOf(TimelineStage::Upload), 0.0);
    EXPECT_GT(r.busyOf(TimelineStage::Download), 0.0);
    EXPECT_EQ(r.bytes[static_cast<std::size_t>(TimelineStage::Upload)],
              std::size_t(kSlices) * ((29 * 23 + 15) / 16 * 16) * sizeof(float));
    std::vector<float> back(op.domainSize());
    ASSERT_TRUE(op.adjoint(y, back, {2, {}, nullptr}).isOk());
    EXPECT_EQ(op.timeline().spans[static_cast<std::size_t>(TimelineStage::Kernels)], 8);
    op.resetTimeline();
    EXPECT_EQ(op.timeline().busySum(), 0.0);
}

TEST(LocalityPipeline, OutOfMemoryRetriesWithSmallerChunksAndTheSameBits) {
    // A device that refuses buffers of more than two slices: the call's first chunks of 7
    // fail, the kept buffers (the subset's order among them) are freed and the chunk halved
    // until it fits; the order is uploaded again and the result is the CPU pair's.
    const Problem p = makeProblem();
    Reference ref{p};
    SimulatedQueues sim;
    sim.refuseAbove = 2 * 29 * 23 * sizeof(float) + 64;
    DeviceLocalityOperator op(std::make_unique<SimLocalityDevice>(sim, p), p.geom, p.vol,
                              RayOrdering::StripSegments);
    op.setChunkSlices(kSlices);
    const std::vector<float> x = values(op.domainSize(), 3);
    std::vector<float> y(op.rangeSize(), -7.f), yRef = y;
    const Status s = op.forwardSubset(x, y, 1, 3, {2, {}, nullptr});
    ASSERT_TRUE(s.isOk()) << s.toString();
    ref.forward(x, yRef, 1, 3);
    EXPECT_EQ(y, yRef);
    EXPECT_TRUE(sim.hazards().empty());
    // Chunks of 1 slice (7 -> 3 -> 1; 16-float items of 667 floats exceed 2 slices at 3).
    EXPECT_EQ(ops(sim.trace(), "upload", QueueRole::Upload).size(), std::size_t(kSlices));
}

TEST(LocalityPipeline, AStopRequestCancelsTheCall) {
    const Problem p = makeProblem();
    SimulatedQueues sim;
    DeviceLocalityOperator op(std::make_unique<SimLocalityDevice>(sim, p), p.geom, p.vol,
                              RayOrdering::StripSegments);
    op.setChunkSlices(1);
    std::stop_source stop;
    stop.request_stop();
    std::vector<float> x(op.domainSize()), y(op.rangeSize());
    const Status s = op.forward(x, y, {1, stop.get_token(), nullptr});
    EXPECT_EQ(s.code(), ErrorCode::Cancelled) << s.toString();
    EXPECT_NE(s.message().find("sim.locality forward projection"), std::string::npos);
}

}  // namespace
}  // namespace tomo::test
