// The GPU item loop written once (core/projectors/PassDriver.h), driven through a simulated
// device: launches run only when the driver waits for them, as on a real queue, so an upload
// that overwrites a sinogram a queued launch still reads, or a read-back of a band before its
// launches ran, is caught. The simulated kernel adds the packed samples of its projections to
// every pixel of its band, so the volume tells whether every item reached its place.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <stop_token>
#include <string>
#include <vector>

#include "core/base/Progress.h"
#include "core/data/Half.h"
#include "core/projectors/PassDriver.h"

namespace tomo {
namespace {

struct Launch {
    PassItem item;
    int begin = 0, end = 0;
    bool accumulate = false;
};

class SimulatedQueue final : public PassQueue {
  public:
    SimulatedQueue(int nx, int detectors, int channels, Volume& out)
        : m_nx(nx), m_det(detectors), m_ch(channels), m_out(out) {}

    Status allocate(const PassPlan& p) override {
        m_plan = p;
        const std::size_t floats = p.sinogramBytes / sizeof(float);
        for (int s = 0; s < 2; ++s) {
            m_staging[s].assign(floats, -1.0f);
            m_sinogram[s].assign(floats, 0.0f);
            m_band[s].assign(p.outputBytes / sizeof(float), 0.0f);
        }
        return Status::ok();
    }
    Result<void*> beginStaging(const PassItem& it) override {
        order.push_back("stage " + std::to_string(it.index));
        return static_cast<void*>(m_staging[it.slot].data());
    }
    Status upload(const PassItem& it) override {
        for (const Launch& l : m_queued)
            if (l.item.slot == it.slot) hazards.push_back("upload over a queued launch");
        m_sinogram[it.slot] = m_staging[it.slot];
        order.push_back("upload " + std::to_string(it.index));
        return Status::ok();
    }
    Status launch(const PassItem& it, int begin, int end, bool accumulate) override {
        if (failAtLaunch == launches) return internalError("simulated launch failure");
        ++launches;
        m_queued.push_back({it, begin, end, accumulate});
        maxQueued = std::max(maxQueued, static_cast<int>(m_queued.size()));
        return Status::ok();
    }
    Status waitLaunch() override {
        if (m_queued.empty()) return internalError("waited with nothing queued");
        run(m_queued.front());
        m_queued.pop_front();
        return Status::ok();
    }
    Status download(const PassItem& it) override {
        for (const Launch& l : m_queued)
            if (l.item.outputSlot == it.outputSlot) hazards.push_back("read-back before kernels");
        const std::vector<float>& band = m_band[it.outputSlot];
        for (int s = 0; s < it.count; ++s)
            for (int r = 0; r < it.rows; ++r)
                std::memcpy(&m_out(static_cast<std::size_t>(it.s0 + s),
                                   static_cast<std::size_t>(it.rowBegin + r), 0),
                            &band[(static_cast<std::size_t>(s) * it.rows + r) * m_nx],
                            sizeof(float) * static_cast<std::size_t>(m_nx));
        order.push_back("download " + std::to_string(it.index));
        return Status::ok();
    }
    Status finish() override {
        finished = true;
        return Status::ok();
    }

    std::vector<std::string> order, hazards;
    int launches = 0, maxQueued = 0, failAtLaunch = -1;
    bool finished = false;

  private:
    /// Pixel x of every row of slice s gets the packed samples at detector x mod det.
    void run(const Launch& l) {
        const PassItem& it = l.item;
        std::vector<float>& band = m_band[it.outputSlot];
        const std::vector<float>& sino = m_sinogram[it.slot];
        for (int s = 0; s < m_plan.slicesPerPass; ++s)
            for (int r = 0; r < it.rows; ++r)
                for (int x = 0; x < m_nx; ++x) {
                    float sum = l.accumulate
                                    ? band[(static_cast<std::size_t>(s) * it.rows + r) * m_nx + x]
                                    : 0.0f;
                    for (int p = l.begin; p < l.end; ++p)
                        sum += sino[(static_cast<std::size_t>(p) * m_det + x % m_det) * m_ch + s];
                    band[(static_cast<std::size_t>(s) * it.rows + r) * m_nx + x] = sum;
                }
    }

    int m_nx, m_det, m_ch;
    Volume& m_out;
    PassPlan m_plan;
    std::vector<float> m_staging[2], m_sinogram[2], m_band[2];
    std::deque<Launch> m_queued;
};

/// Records the fractions the sink sees.
struct RecordingSink final : ProgressSink {
    std::vector<double> fractions;
    void onProgress(double fraction, std::string_view) override { fractions.push_back(fraction); }
};

struct Job {
    int nz = 5, ny = 40, nx = 7, angles = 23, det = 6, channels = 2;
    Sinograms sino;
    Volume out;
    Job() {
        sino = Sinograms::create(nz, angles, det).value();
        for (int s = 0; s < nz; ++s)
            for (int a = 0; a < angles; ++a)
                for (int d = 0; d < det; ++d)
                    sino(s, a, d) = static_cast<float>(1 + s * 1000 + a * 10 + d) * 0.125f;
        out = Volume::create(nz, ny, nx).value();
    }
    PassPlan plan(int angleChunk, int bandRows, int perLaunch) const {
        PassLimits l;
        l.slices = nz;
        l.slicesPerPass = channels;
        l.nx = nx;
        l.ny = ny;
        l.angles = angles;
        l.maxAngleChunk = angleChunk;
        l.maxBandRows = bandRows;
        l.sinogramBytes = [this](int chunk) {
            return std::size_t(chunk) * det * channels * sizeof(float);
        };
        l.updatesPerLaunch = double(perLaunch) * nx * bandRows * channels;
        return planPasses(l, "test").value();
    }
    /// What the simulated kernels must produce: the sum over all projections at x mod det.
    float expected(int s, int x) const {
        float sum = 0;
        for (int a = 0; a < angles; ++a)
            sum += sino(s, a, x % det);
        return sum;
    }
    PassPacker packer() const {
        return [this](const PassItem& it, void* staging) {
            packPassSlices(sino, it.s0, it.count, it.a0, it.na, channels, false, staging);
        };
    }
};

TEST(PassDriver, EveryItemReachesItsBandWithoutHazards) {
    Job job;
    const PassPlan p = job.plan(/*angleChunk=*/5, /*bandRows=*/16, /*perLaunch=*/2);
    ASSERT_EQ(p.passes, 3);  // 2 + 2 + 1 slices
    ASSERT_EQ(p.bands, 3);   // 16 + 16 + 8 rows
    ASSERT_EQ(p.angleChunks, 5);
    SimulatedQueue queue(job.nx, job.det, job.channels, job.out);
    RecordingSink sink;
    Progress progress(&sink);
    const ExecContext ctx{1, {}, &progress};
    ASSERT_TRUE(runPasses(p, {job.nz, job.ny, job.angles}, queue, job.packer(), ctx).isOk());
    EXPECT_TRUE(queue.hazards.empty()) << queue.hazards.front();
    EXPECT_TRUE(queue.finished);
    EXPECT_LE(queue.maxQueued, 2);
    // One report per launch (9 bands x chunks of 5, 5, 5, 5, 3 projections in launches of 2),
    // rising to the end.
    ASSERT_EQ(sink.fractions.size(), 9u * 14u);
    EXPECT_TRUE(std::is_sorted(sink.fractions.begin(), sink.fractions.end()));
    EXPECT_DOUBLE_EQ(sink.fractions.back(), 1.0);
    for (int s = 0; s < job.nz; ++s)
        for (int r = 0; r < job.ny; ++r)
            for (int x = 0; x < job.nx; ++x)
                ASSERT_FLOAT_EQ(job.out(s, r, x), job.expected(s, x)) << s << " " << r << " " << x;
    // Item k + 1 is staged before item k's band is read back, and uploaded after it.
    const auto at = [&](const std::string& what) {
        return std::find(queue.order.begin(), queue.order.end(), what) - queue.order.begin();
    };
    EXPECT_LT(at("stage 5"), at("download 4"));
    EXPECT_LT(at("download 4"), at("upload 5"));
    EXPECT_EQ(std::count_if(queue.order.begin(), queue.order.end(),
                            [](const std::string& o) { return o.rfind("download", 0) == 0; }),
              9);
}

TEST(PassDriver, AStopRequestEndsTheRunWithinALaunch) {
    Job job;
    const PassPlan p = job.plan(23, 40, 1);
    SimulatedQueue queue(job.nx, job.det, job.channels, job.out);
    std::stop_source stop;
    stop.request_stop();
    const ExecContext ctx{1, stop.get_token(), nullptr};
    const Status s = runPasses(p, {job.nz, job.ny, job.angles}, queue, job.packer(), ctx);
    EXPECT_EQ(s.code(), ErrorCode::Cancelled);
    EXPECT_EQ(queue.launches, 1);
}

TEST(PassDriver, AQueueErrorIsReturnedAsIs) {
    Job job;
    SimulatedQueue queue(job.nx, job.det, job.channels, job.out);
    queue.failAtLaunch = 7;
    const Status s = runPasses(job.plan(5, 16, 2), {job.nz, job.ny, job.angles}, queue,
                               job.packer(), ExecContext{});
    EXPECT_EQ(s.code(), ErrorCode::Internal);
    EXPECT_NE(s.message().find("simulated launch failure"), std::string::npos);
}

TEST(PassDriver, RetryReleasesKeptBuffersOnceThenShrinksUntilTheSmallestItems) {
    std::vector<int> shrinks;
    int releases = 0;
    auto plan = [&](int shrink) -> Result<PassPlan> {
        PassPlan p;
        p.angleChunk = std::max(1, 8 >> shrink);
        p.bandRows = 16;
        shrinks.push_back(shrink);
        return p;
    };
    auto refuse = [](const PassPlan&) { return outOfMemory("refused"); };
    EXPECT_EQ(runWithRetry(plan, refuse, [&] { ++releases; }).code(), ErrorCode::OutOfMemory);
    // The first plan twice (after freeing other jobs' buffers), then 4, 2, 1 projections.
    EXPECT_EQ(shrinks, (std::vector<int>{0, 0, 1, 2, 3}));
    EXPECT_EQ(releases, 5);
    shrinks.clear();
    auto fitsAtTwo = [](const PassPlan& p) {
        return p.angleChunk <= 2 ? Status::ok() : outOfMemory("refused");
    };
    EXPECT_TRUE(runWithRetry(plan, fitsAtTwo).isOk());
    EXPECT_EQ(shrinks, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(runWithRetry(plan, [](const PassPlan&) { return invalidArgument("bad"); }).code(),
              ErrorCode::InvalidArgument);
}

TEST(PassDriver, PackingInterleavesSlicesAndZeroesTheMissingOnes) {
    Job job;
    // Slices 3 and 4 of 5 into 4 channels: channels 2 and 3 are zero.
    std::vector<float> f(static_cast<std::size_t>(2) * job.det * 4, -1.0f);
    packPassSlices(job.sino, 3, 2, 7, 2, 4, false, f.data());
    for (int a = 0; a < 2; ++a)
        for (int d = 0; d < job.det; ++d)
            for (int c = 0; c < 4; ++c)
                EXPECT_EQ(f[(a * job.det + d) * 4 + c], c < 2 ? job.sino(3 + c, 7 + a, d) : 0.0f);
    std::vector<std::uint16_t> h(static_cast<std::size_t>(job.det) * 4, 1);
    packPassSlices(job.sino, 1, 3, 2, 1, 4, true, h.data());
    for (int d = 0; d < job.det; ++d)
        for (int c = 0; c < 4; ++c)
            EXPECT_EQ(h[d * 4 + c], c < 3 ? floatToHalf(job.sino(1 + c, 2, d)) : 0);
    std::vector<float> one(job.det, -1.0f);
    packPassSlices(job.sino, 2, 1, 4, 1, 1, false, one.data());
    for (int d = 0; d < job.det; ++d)
        EXPECT_EQ(one[d], job.sino(2, 4, d));
    packPassSlices(job.sino, 2, 0, 4, 1, 1, false, one.data());
    for (int d = 0; d < job.det; ++d)
        EXPECT_EQ(one[d], 0.0f);
}

}  // namespace
}  // namespace tomo
