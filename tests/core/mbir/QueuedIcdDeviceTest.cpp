// GPU-ICD's one host loop (core/mbir/QueuedIcdDevice.h) on the simulated device of the pipeline
// tests (tests/core/pipeline/SimulatedQueues.h), with stand-in kernels: what CUDA and OpenCL run
// around their kernels, without a GPU. The images and sinograms of a stack arrive whole and come
// back whole; the pass list reaches the kernels and their statistics come back (no read before
// its upload, no overwrite before use: the simulator's hazards); a second solve of the same
// layout uploads only its state, another layout all of it, and the first again all of it.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "../pipeline/SimulatedQueues.h"
#include "MbirTestData.h"
#include "core/mbir/QueuedIcdDevice.h"

namespace tomo {
namespace {

/// One kernel per batch: per entry, moved = entry + 0.5 and one update; the image's first
/// voxel of every slice gains the pass's rotation per batch (so read() shows the kernels ran).
class StandInKernels final : public IcdKernels {
  public:
    explicit StandInKernels(test::SimulatedQueues& q) : m_q(q) {}
    std::string name() const override { return "stand-in"; }
    Status prepare(const GpuIcdOptions&) override { return Status::ok(); }
    Status runBatch(const IcdLaunchState& s, int first, int count) override {
        auto at = [&](IcdBuffer b) { return s.buffers[std::size_t(b)]; };
        const auto list = reinterpret_cast<const std::int32_t*>(m_q.memory(at(kIcdPassList)));
        auto moved = reinterpret_cast<float*>(m_q.memory(at(kIcdMoved)));
        auto updates = reinterpret_cast<std::int32_t*>(m_q.memory(at(kIcdUpdates)));
        auto x = reinterpret_cast<float*>(m_q.memory(at(kIcdImage)));
        const std::size_t plane = s.layout->voxels();
        const int slices = s.slices;
        const float step = float(s.rotation);
        std::vector<test::SimAccess> access;  // reads what the real kernels read before writing
        for (int b = kIcdImage; b <= kIcdUpdates; ++b)
            access.push_back({s.buffers[std::size_t(b)].handle, false});
        for (IcdBuffer written : {kIcdMoved, kIcdUpdates, kIcdImage})
            access.push_back({at(written).handle, true});
        return m_q.kernel(QueueRole::Compute, "icd batch", 1e-3, std::move(access), [=] {
            for (int i = first; i < first + count; ++i) {
                moved[i] = float(list[i]) + 0.5f;
                updates[i] = 1;
            }
            for (int z = 0; z < slices; ++z)
                x[std::size_t(z) * plane] += step;
        });
    }

  private:
    test::SimulatedQueues& m_q;
};

int uploads(const test::SimulatedQueues& q) {
    int n = 0;
    for (const test::SimOp& op : q.trace())
        n += op.what == "upload";
    return n;
}

struct Solve {
    std::vector<float> x, e;
    std::vector<float> moved;
    std::vector<std::int32_t> updates;
};

/// load, one pass over @p list in batches of 3, read back.
Solve solve(test::SimulatedQueues& q, IcdResidentLayout& resident, const GpuIcdLayout& layout,
            int slices, const std::vector<std::int32_t>& list, Timeline* timeline = nullptr) {
    std::unique_ptr<IcdDevice> device = makeQueuedIcdDevice(
        std::make_unique<test::BorrowedQueues>(q), std::make_unique<StandInKernels>(q), resident);
    device->setTimeline(timeline);
    GpuIcdOptions o;
    o.side = layout.side;
    o.batch = 3;
    const std::size_t plane = layout.voxels(), nz = std::size_t(slices);
    const std::size_t sheet = std::size_t(layout.views) * (layout.channels + 2 * layout.padding);
    std::vector<float> x(nz * plane), e(nz * sheet), w(nz * sheet, 1.f);
    std::iota(x.begin(), x.end(), 0.f);
    std::iota(e.begin(), e.end(), 7.f);
    EXPECT_TRUE(device->load(layout, o, {}, slices, x, e, w).isOk());
    EXPECT_TRUE(device->beginPass(list, 5, true).isOk());
    for (int first = 0; first < int(list.size()); first += 3)
        EXPECT_TRUE(device->runBatch(first, std::min(3, int(list.size()) - first)).isOk());
    Solve s;
    EXPECT_TRUE(device->endPass(s.moved, s.updates).isOk());
    EXPECT_TRUE(device->read(s.x, s.e).isOk());
    const float batches = float((list.size() + 2) / 3);
    for (std::size_t z = 0; z < nz; ++z)
        x[z * plane] += 5.f * batches;
    EXPECT_EQ(s.x, x) << "the images, whole, with the kernels' change";
    EXPECT_EQ(s.e, e) << "the error sinograms, whole";
    return s;
}

GpuIcdLayout layoutOf(const test::MbirCase& c, int side) {
    const MbirSliceGeometry g(c.geom, c.vol);
    auto a = MbirMatrix::build(g, MbirEntryType::Uint8, {});
    GpuIcdOptions o;
    o.side = side;
    auto l = GpuIcdLayout::build(g, *a, o, std::size_t(1) << 30, {});
    EXPECT_TRUE(l.isOk());
    return std::move(*l);
}

TEST(QueuedIcdDevice, OneHostLoopMovesTheStackAndKeepsTheLayout) {
    const test::MbirCase c = test::makeMbirCase(24, 20, 0);
    const GpuIcdLayout a = layoutOf(c, 6), b = layoutOf(c, 8);
    test::SimulatedQueues q;
    IcdResidentLayout resident;                                        // the device context's
    const std::vector<std::int32_t> list = {0, 17, 3, 22, 9, 31, 40};  // entries of 3 slices
    const Solve first = solve(q, resident, a, 3, list);
    for (std::size_t i = 0; i < list.size(); ++i) {
        EXPECT_EQ(first.moved[i], float(list[i]) + 0.5f) << "entry " << i;
        EXPECT_EQ(first.updates[i], 1);
    }
    // Uploads: 3 state buffers, 7 of the layout, and the pass list with its two zeroed counts.
    EXPECT_EQ(uploads(q), 3 + 7 + 3);
    solve(q, resident, a, 3, list);
    EXPECT_EQ(uploads(q), 2 * 13 - 7) << "the same layout: its buffers stay";
    solve(q, resident, b, 1, {1, 2});
    EXPECT_EQ(uploads(q), 2 * 13 - 7 + 13) << "another layout: uploaded";
    solve(q, resident, a, 2, list);
    EXPECT_EQ(uploads(q), 3 * 13 - 7 + 13) << "the first again: uploaded again";
    q.releaseBuffers();
    resident.forget();  // as a device context does when it frees its buffers
    solve(q, resident, a, 2, list);
    EXPECT_EQ(uploads(q), 4 * 13 - 7 + 13);
    EXPECT_TRUE(q.hazards().empty()) << q.hazards().front();
}

// Issue 27 item 5: the host loop's timeline, on the simulated device's clock: one upload span for
// load (every buffer's contents) and one per pass (its list and zeroed statistics), one kernel
// span per batch, the pass's statistics and the read-back as downloads, in the queue's order,
// with the bytes each moved; a second solve of the same layout uploads only the state.
TEST(QueuedIcdDevice, TheTimelineHasEveryTransferAndBatchInTheQueuesOrder) {
    const test::MbirCase c = test::makeMbirCase(24, 20, 0);
    const GpuIcdLayout a = layoutOf(c, 6);
    test::SimulatedQueues q;
    IcdResidentLayout resident;
    const std::vector<std::int32_t> list = {0, 17, 3, 22, 9, 31, 40};  // 3 batches of 3
    Timeline timeline;
    solve(q, resident, a, 3, list, &timeline);
    std::vector<TimelineSpan> spans = timeline.spans();
    ASSERT_EQ(spans.size(), 2u + 3u + 2u);
    const std::vector<TimelineStage> order = {TimelineStage::Upload,  TimelineStage::Upload,
                                              TimelineStage::Kernels, TimelineStage::Kernels,
                                              TimelineStage::Kernels, TimelineStage::Download,
                                              TimelineStage::Download};
    std::size_t state = 0, layoutBytes = 0;
    for (int b = 0; b < kIcdBufferCount; ++b) {
        const IcdBufferSpec spec = icdBuffers(a, 3, 3)[std::size_t(b)];
        (icdLayoutBuffer(b) ? layoutBytes : state) += b <= kIcdSvSize ? spec.bytes : 0;
    }
    const std::size_t x = 3 * a.voxels() * 4;
    const std::size_t e = 3 * std::size_t(a.views) * std::size_t(a.channels + 2 * a.padding) * 4;
    const std::vector<std::size_t> bytes = {
        state + layoutBytes, 3 * list.size() * 4, 0, 0, 0, list.size() * 8, x + e};
    for (std::size_t k = 0; k < spans.size(); ++k) {
        EXPECT_EQ(spans[k].stage, order[k]) << "span " << k;
        EXPECT_EQ(spans[k].clock, TimelineClock::Device);
        EXPECT_EQ(spans[k].bytes, bytes[k]) << "span " << k;
        EXPECT_LT(spans[k].begin, spans[k].end) << "span " << k;
        if (k > 0) {
            EXPECT_GE(spans[k].begin, spans[k - 1].end) << "span " << k;
        }
    }
    const TimelineReport r = timeline.report();
    EXPECT_GT(r.busyOf(TimelineStage::Kernels), 0);
    EXPECT_EQ(r.bytes[std::size_t(TimelineStage::Upload)], bytes[0] + bytes[1]);

    Timeline again;
    solve(q, resident, a, 3, list, &again);
    EXPECT_EQ(again.spans().front().bytes, state) << "the layout stayed on the device";
    EXPECT_EQ(again.spans().size(), spans.size());
}

TEST(QueuedIcdDevice, AStackTooBigForTheDeviceSaysHowManySlicesFit) {
    const test::MbirCase c = test::makeMbirCase(24, 20, 0);
    const GpuIcdLayout a = layoutOf(c, 6);
    const std::size_t two = a.deviceBytes(3, 2), three = a.deviceBytes(3, 3);
    ASSERT_LT(two, three);
    test::SimulatedQueues q({}, (two + three) / 2);  // room for 2 slices, not 3
    IcdResidentLayout resident;
    std::unique_ptr<IcdDevice> device = makeQueuedIcdDevice(
        std::make_unique<test::BorrowedQueues>(q), std::make_unique<StandInKernels>(q), resident);
    GpuIcdOptions o;
    o.side = a.side;
    o.batch = 3;
    const std::size_t plane = a.voxels();
    const std::size_t sheet = std::size_t(a.views) * (a.channels + 2 * a.padding);
    const std::vector<float> x(8 * plane), e(8 * sheet), w(8 * sheet, 1.f);
    const Status s = device->load(a, o, {}, 8, x, e, w);
    ASSERT_EQ(s.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(s.message().find("at most 2 of these 8 slices fit at once"), std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("--chunk 2"), std::string::npos) << s.message();
    EXPECT_TRUE(device->load(a, o, {}, 2, x, e, w).isOk()) << "the advice holds";
}

}  // namespace
}  // namespace tomo
