// GPU-ICD's one host loop (core/mbir/QueuedIcdDevice.h) on the simulated device of the pipeline
// tests (tests/core/pipeline/SimulatedQueues.h), with stand-in kernels: what CUDA and OpenCL run
// around their kernels, without a GPU. The images and sinograms of a stack arrive whole and come
// back whole; the pass list reaches the kernels and their statistics come back (no read before
// its upload, no overwrite before use: the simulator's hazards); the tiles are built from the
// matrix's codes sent slab after slab (each voxel's codes reach its build); a second solve of the
// same layout uploads only its state, another layout all of it, and the first again all of it.
#include <gtest/gtest.h>

#include <algorithm>
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
/// The tile build counts, per voxel, the builds that found its codes of @p matrix in the slab at
/// its place (into @p built), and writes j % 251 + 1 into the first byte of each of voxel j's
/// tiles (so readTiles() shows the tiles buffer).
class StandInKernels final : public IcdKernels {
  public:
    explicit StandInKernels(test::SimulatedQueues& q, const MbirMatrix* matrix = nullptr,
                            std::vector<int>* built = nullptr)
        : m_q(q), m_matrix(matrix), m_built(built) {}
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

    Status buildTiles(const IcdLaunchState& s, int first, int count) override {
        auto at = [&](IcdBuffer b) { return s.buffers[std::size_t(b)]; };
        const auto codes = reinterpret_cast<const std::uint8_t*>(m_q.memory(at(kIcdCodes)));
        auto tiles = reinterpret_cast<std::uint8_t*>(m_q.memory(at(kIcdTiles)));
        const GpuIcdLayout* l = s.layout;
        const MbirMatrix* matrix = m_matrix;
        std::vector<int>* built = m_built;
        std::vector<test::SimAccess> access;
        for (IcdBuffer read :
             {kIcdCodes, kIcdChunkMeta, kIcdSvBase, kIcdChannelTerms, kIcdViewRuns})
            access.push_back({at(read).handle, false});
        // A later slab adds its voxels' tiles to the buffer the earlier ones wrote (the
        // simulator tracks whole buffers: a write after a write, unread, is a hazard).
        if (first > 0) access.push_back({at(kIcdTiles).handle, false});
        access.push_back({at(kIcdTiles).handle, true});
        return m_q.kernel(QueueRole::Compute, "icd tiles", 1e-3, std::move(access), [=] {
            for (int k = 0; k < count; ++k) {
                const std::size_t j = std::size_t(first + k);
                const std::uint8_t* column = codes + std::size_t(k) * l->columnSize;
                if (matrix && built && std::equal(column, column + l->columnSize, matrix->codes(j)))
                    ++(*built)[j];
                for (int c = 0; c < l->chunks; ++c) {
                    const std::size_t m = 2 * (j * std::size_t(l->chunks) + std::size_t(c));
                    if (l->chunkMeta[m + 1] >> 16)
                        tiles[std::size_t(l->chunkMeta[m]) * kIcdChunkViews] =
                            std::uint8_t(j % 251 + 1);
                }
            }
        });
    }

  private:
    test::SimulatedQueues& m_q;
    const MbirMatrix* m_matrix;
    std::vector<int>* m_built;
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

/// A layout of a case's slice with its matrix.
struct Layout {
    MbirMatrix matrix;
    GpuIcdLayout layout;
};

/// load, one pass over @p list in batches of 3, read back.
Solve solve(test::SimulatedQueues& q, IcdResidentLayout& resident, const Layout& with, int slices,
            const std::vector<std::int32_t>& list, Timeline* timeline = nullptr) {
    const GpuIcdLayout& layout = with.layout;
    std::unique_ptr<IcdDevice> device =
        makeQueuedIcdDevice(std::make_unique<test::BorrowedQueues>(q),
                            std::make_unique<StandInKernels>(q, &with.matrix), resident);
    device->setTimeline(timeline);
    GpuIcdOptions o;
    o.side = layout.side;
    o.batch = 3;
    const std::size_t plane = layout.voxels(), nz = std::size_t(slices);
    const std::size_t sheet = std::size_t(layout.views) * (layout.channels + 2 * layout.padding);
    std::vector<float> x(nz * plane), e(nz * sheet), w(nz * sheet, 1.f);
    std::iota(x.begin(), x.end(), 0.f);
    std::iota(e.begin(), e.end(), 7.f);
    EXPECT_TRUE(device->load(layout, with.matrix, o, {}, slices, x, e, w).isOk());
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

Layout layoutOf(const test::MbirCase& c, int side) {
    const MbirSliceGeometry g(c.geom, c.vol);
    auto a = MbirMatrix::build(g, MbirEntryType::Uint8, {});
    GpuIcdOptions o;
    o.side = side;
    auto l = GpuIcdLayout::build(g, *a, o, std::size_t(1) << 30, {});
    EXPECT_TRUE(l.isOk());
    return {std::move(*a), std::move(*l)};
}

/// Uploads of a layout's tables (kIcdChunkMeta .. kIcdViewRuns) and of its codes' slabs.
int layoutUploads(const GpuIcdLayout& l) {
    return (kIcdViewRuns - kIcdChunkMeta + 1) +
           int((l.voxels() + l.slabVoxels() - 1) / l.slabVoxels());
}

TEST(QueuedIcdDevice, OneHostLoopMovesTheStackAndKeepsTheLayout) {
    const test::MbirCase c = test::makeMbirCase(24, 20, 0);
    const Layout a = layoutOf(c, 6), b = layoutOf(c, 8);
    test::SimulatedQueues q;
    IcdResidentLayout resident;                                        // the device context's
    const std::vector<std::int32_t> list = {0, 17, 3, 22, 9, 31, 40};  // entries of 3 slices
    const Solve first = solve(q, resident, a, 3, list);
    for (std::size_t i = 0; i < list.size(); ++i) {
        EXPECT_EQ(first.moved[i], float(list[i]) + 0.5f) << "entry " << i;
        EXPECT_EQ(first.updates[i], 1);
    }
    // Uploads: 3 state buffers, 8 tables of the layout and 1 slab of codes, and the pass list
    // with its two zeroed counts.
    const int state = 3 + 3, la = layoutUploads(a.layout), lb = layoutUploads(b.layout);
    EXPECT_EQ(la, 8 + 1);
    EXPECT_EQ(uploads(q), state + la);
    solve(q, resident, a, 3, list);
    EXPECT_EQ(uploads(q), 2 * state + la) << "the same layout: its buffers stay";
    solve(q, resident, b, 1, {1, 2});
    EXPECT_EQ(uploads(q), 3 * state + la + lb) << "another layout: uploaded";
    solve(q, resident, a, 2, list);
    EXPECT_EQ(uploads(q), 4 * state + 2 * la + lb) << "the first again: uploaded again";
    q.releaseBuffers();
    resident.forget();  // as a device context does when it frees its buffers
    solve(q, resident, a, 2, list);
    EXPECT_EQ(uploads(q), 5 * state + 3 * la + lb);
    EXPECT_TRUE(q.hazards().empty()) << q.hazards().front();
}

// Issue 27 item 5: the host loop's timeline, on the simulated device's clock: one upload span for
// load (every buffer's contents), the codes' upload and the tile build's kernel, one upload span
// per pass (its list and zeroed statistics), one kernel span per batch, the pass's statistics
// and the read-back as downloads, in the queue's order, with the bytes each moved; a second
// solve of the same layout uploads only the state and builds no tiles.
TEST(QueuedIcdDevice, TheTimelineHasEveryTransferAndBatchInTheQueuesOrder) {
    const test::MbirCase c = test::makeMbirCase(24, 20, 0);
    const Layout with = layoutOf(c, 6);
    const GpuIcdLayout& a = with.layout;
    test::SimulatedQueues q;
    IcdResidentLayout resident;
    const std::vector<std::int32_t> list = {0, 17, 3, 22, 9, 31, 40};  // 3 batches of 3
    Timeline timeline;
    solve(q, resident, with, 3, list, &timeline);
    std::vector<TimelineSpan> spans = timeline.spans();
    ASSERT_EQ(spans.size(), 4u + 3u + 2u);
    const std::vector<TimelineStage> order = {
        TimelineStage::Upload,  TimelineStage::Upload,   TimelineStage::Kernels,
        TimelineStage::Upload,  TimelineStage::Kernels,  TimelineStage::Kernels,
        TimelineStage::Kernels, TimelineStage::Download, TimelineStage::Download};
    std::size_t state = 0, layoutBytes = 0;
    for (int b = 0; b < kIcdBufferCount; ++b) {
        const IcdBufferSpec spec = icdBuffers(a, 3, 3)[std::size_t(b)];
        if (b == kIcdTiles || b > kIcdViewRuns) continue;  // built, or no contents
        (icdLayoutBuffer(b) ? layoutBytes : state) += spec.bytes;
    }
    const std::size_t codes = a.voxels() * a.columnSize;
    const std::size_t x = 3 * a.voxels() * 4;
    const std::size_t e = 3 * std::size_t(a.views) * std::size_t(a.channels + 2 * a.padding) * 4;
    const std::vector<std::size_t> bytes = {
        state + layoutBytes, codes, 0, 3 * list.size() * 4, 0, 0, 0, list.size() * 8, x + e};
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
    EXPECT_EQ(r.bytes[std::size_t(TimelineStage::Upload)], bytes[0] + bytes[1] + bytes[3]);

    Timeline again;
    solve(q, resident, with, 3, list, &again);
    EXPECT_EQ(again.spans().front().bytes, state) << "the layout stayed on the device";
    EXPECT_EQ(again.spans().size(), spans.size() - 2);
}

TEST(QueuedIcdDevice, AStackTooBigForTheDeviceSaysHowManySlicesFit) {
    const test::MbirCase c = test::makeMbirCase(24, 20, 0);
    const Layout with = layoutOf(c, 6);
    const GpuIcdLayout& a = with.layout;
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
    const Status s = device->load(a, with.matrix, o, {}, 8, x, e, w);
    ASSERT_EQ(s.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(s.message().find("at most 2 of these 8 slices fit at once"), std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("--chunk 2"), std::string::npos) << s.message();
    EXPECT_TRUE(device->load(a, with.matrix, o, {}, 2, x, e, w).isOk()) << "the advice holds";
}

// Issue 27 item 4: the tiles are built on the device from the matrix's codes, sent slab after
// slab through one buffer (here 7 voxels' codes and 3 bytes a slab: 83 slabs, the last one of
// 2 voxels): every voxel's codes reach the build once and at their place (no slab overwritten
// before its kernel read it: the simulator's hazards), readTiles() gives back the tiles buffer,
// and another matrix than the layout's is refused.
TEST(QueuedIcdDevice, TheTilesAreBuiltFromEveryVoxelsCodesSlabAfterSlab) {
    const test::MbirCase c = test::makeMbirCase(24, 20, 0);
    Layout with = layoutOf(c, 6);
    GpuIcdLayout& a = with.layout;
    a.codeSlabBytes = 7 * a.columnSize + 3;
    ASSERT_EQ(a.slabVoxels(), 7u);
    ASSERT_EQ(a.voxels(), 576u);
    test::SimulatedQueues q;
    IcdResidentLayout resident;
    std::vector<int> built(a.voxels(), 0);
    std::unique_ptr<IcdDevice> device =
        makeQueuedIcdDevice(std::make_unique<test::BorrowedQueues>(q),
                            std::make_unique<StandInKernels>(q, &with.matrix, &built), resident);
    GpuIcdOptions o;
    o.side = a.side;
    o.batch = 3;
    const std::size_t sheet = std::size_t(a.views) * (a.channels + 2 * a.padding);
    const std::vector<float> x(a.voxels()), e(sheet), w(sheet, 1.f);
    ASSERT_TRUE(device->load(a, with.matrix, o, {}, 1, x, e, w).isOk());
    EXPECT_EQ(uploads(q), 3 + 8 + 83);
    for (std::size_t j = 0; j < a.voxels(); ++j)
        ASSERT_EQ(built[j], 1) << "voxel " << j;
    std::vector<std::uint8_t> tiles;
    ASSERT_TRUE(device->readTiles(tiles).isOk());
    ASSERT_EQ(tiles.size(), a.tileBytes());
    for (std::size_t m = 0; m < a.chunkMeta.size(); m += 2) {
        if (a.chunkMeta[m + 1] >> 16) {
            ASSERT_EQ(tiles[std::size_t(a.chunkMeta[m]) * kIcdChunkViews],
                      std::uint8_t(m / 2 / std::size_t(a.chunks) % 251 + 1));
        }
    }
    EXPECT_TRUE(q.hazards().empty()) << q.hazards().front();

    const test::MbirCase other = test::makeMbirCase(20, 20, 0);
    const Layout elsewhere = layoutOf(other, 6);
    EXPECT_EQ(device->load(a, elsewhere.matrix, o, {}, 1, x, e, w).code(),
              ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
