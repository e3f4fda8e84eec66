// The launch sequence of every GPU back-projection stage (core/projectors/PassDriver.h
// passSteps), the retry of a stage's buffers and the one packing of a pass. A stage's steps are
// replayed here on host arrays: the packing of each step that packs, the launches adding the
// packed samples of their projections to their band, bands copied into the volume when done;
// the volume tells whether every launch reached its place exactly once and read what was packed
// for it. The driver that runs the steps (core/pipeline/ChunkPipeline.h) is tested on the
// simulated device (tests/core/pipeline).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/data/Half.h"
#include "core/projectors/PassDriver.h"

namespace tomo {
namespace {

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
};

/// Replays @p steps: packs where a step packs, launches add the packed samples at x mod det.
void replay(const std::vector<PassStep>& steps, const PassPlan& p, Job& job) {
    std::vector<float> packed(p.sinogramBytes / sizeof(float), -1.0f);
    std::vector<float> band(p.outputBytes / sizeof(float), 1e30f);
    for (const PassStep& s : steps) {
        const PassItem& it = s.item;
        if (s.pack)
            packPassSlices(job.sino, it.s0, it.count, it.a0, it.na, job.channels, false,
                           packed.data());
        for (int c = 0; c < p.slicesPerPass; ++c)
            for (int r = 0; r < it.rows; ++r)
                for (int x = 0; x < job.nx; ++x) {
                    float& v = band[(std::size_t(c) * it.rows + r) * job.nx + x];
                    float sum = s.accumulate ? v : 0.0f;
                    for (int q = s.begin; q < s.end; ++q)
                        sum += packed[(std::size_t(q) * job.det + x % job.det) * job.channels + c];
                    v = sum;
                }
        if (!s.bandDone) continue;
        for (int c = 0; c < it.count; ++c)
            for (int r = 0; r < it.rows; ++r)
                std::memcpy(&job.out(std::size_t(it.s0 + c), std::size_t(it.rowBegin + r), 0),
                            &band[(std::size_t(c) * it.rows + r) * job.nx],
                            sizeof(float) * std::size_t(job.nx));
    }
}

TEST(PassDriver, EveryLaunchReachesItsBandOnceAfterItsPacking) {
    for (int angleChunk : {5, 23})
        for (int bandRows : {16, 40}) {
            SCOPED_TRACE(std::to_string(angleChunk) + " projections, bands of " +
                         std::to_string(bandRows));
            Job job;
            const PassPlan p = job.plan(angleChunk, bandRows, 2);
            const std::vector<PassStep> steps = passSteps(p, {job.nz, job.ny, job.angles}, job.nx);
            replay(steps, p, job);
            for (int s = 0; s < job.nz; ++s)
                for (int r = 0; r < job.ny; ++r)
                    for (int x = 0; x < job.nx; ++x)
                        ASSERT_FLOAT_EQ(job.out(s, r, x), job.expected(s, x)) << s << " " << r;
            // Launches of 2 projections: ceil(na / 2) per item; bands complete once each.
            const int bands = (job.ny + p.bandRows - 1) / p.bandRows;
            EXPECT_EQ(std::count_if(steps.begin(), steps.end(),
                                    [](const PassStep& s) { return s.bandDone; }),
                      3 * bands);
            double updates = 0;
            for (const PassStep& s : steps)
                updates += s.updates;
            EXPECT_DOUBLE_EQ(updates, 3.0 * job.angles * job.ny * job.nx * job.channels);
            // One angle chunk: each pass is packed once for all its bands.
            const auto packs =
                std::count_if(steps.begin(), steps.end(), [](const PassStep& s) { return s.pack; });
            EXPECT_EQ(packs, angleChunk == 23 ? 3 : 3 * bands * p.angleChunks);
        }
}

TEST(PassDriver, AShorterChunkHasFewerPasses) {
    Job job;
    const PassPlan p = job.plan(23, 40, 23);  // planned for 5 slices: 3 passes
    EXPECT_EQ(passSteps(p, {job.nz, job.ny, job.angles}, job.nx).size(), 3u);
    const std::vector<PassStep> two = passSteps(p, {2, job.ny, job.angles}, job.nx);
    ASSERT_EQ(two.size(), 1u);
    EXPECT_EQ(two[0].item.count, 2);
    const std::vector<PassStep> three = passSteps(p, {3, job.ny, job.angles}, job.nx);
    ASSERT_EQ(three.size(), 2u);
    EXPECT_EQ(three[1].item.s0, 2);
    EXPECT_EQ(three[1].item.count, 1);
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
