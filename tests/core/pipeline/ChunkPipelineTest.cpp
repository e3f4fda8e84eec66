// Core's pipeline driver (core/pipeline/ChunkPipeline.h) on the simulated device
// (SimulatedQueues.h): FBP and back-projection through it equal the CPU pipeline bit for bit,
// with no hazard, the order of events the driver promises, its overlap, stop, errors and the
// out-of-memory retry. The same driver and FBP composition run on CUDA and OpenCL.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "core/base/Progress.h"
#include "core/pipeline/LinkBandwidth.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"
#include "tests/core/pipeline/FbpProblem.h"
#include "tests/core/pipeline/SimulatedFbp.h"

namespace tomo::test {
namespace {

using Problem = FbpProblem;

/// The CPU pipeline (host mode): the reference every device run must equal bit for bit.
Volume cpuFbp(const Problem& p, const std::string& id, int chunk) {
    auto bp = cpuBackProjector(id);
    FbpOptions options;
    options.chunkSlices = chunk;
    Volume out;
    EXPECT_TRUE(reconstructFbp(p.sino, p.geom, p.vol, *bp, options, out, {}).isOk());
    return out;
}

void expectBitIdentical(const Volume& a, const Volume& b) {
    ASSERT_EQ(a.dim(0), b.dim(0));
    ASSERT_EQ(a.dim(1), b.dim(1));
    ASSERT_EQ(a.dim(2), b.dim(2));
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r)
        ASSERT_EQ(
            std::memcmp(a.rows().row(r).data(), b.rows().row(r).data(), a.dim(2) * sizeof(float)),
            0)
            << "row " << r;
}

struct RecordingSink final : ProgressSink {
    std::vector<double> fractions;
    void onProgress(double fraction, std::string_view) override { fractions.push_back(fraction); }
};

/// An FBP on the simulated device: the device filter stage when @p deviceFilter, else the
/// CPU's filter on the packing thread.
struct DeviceFbp {
    std::shared_ptr<SimulatedQueues> sim;
    Volume out;
    FbpTimings timings;
    Status status;
    DeviceFbp(const Problem& p, const std::string& id, int chunk, bool deviceFilter,
              SimulatedQueues::Costs costs = {}, const ExecContext& ctx = {},
              std::size_t refuseAbove = 0)
        : sim(std::make_shared<SimulatedQueues>(costs)) {
        sim->refuseAbove = refuseAbove;
        SimulatedGpuBackProjector bp(cpuBackProjector(id), sim);
        FbpOptions options;
        options.chunkSlices = chunk;
        if (deviceFilter) options.rowFilter = std::make_shared<SimulatedRowFilter>(sim);
        status = reconstructFbp(p.sino, p.geom, p.vol, bp, options, out, ctx, &timings);
    }
};

std::vector<SimOp> opsNamed(const std::vector<SimOp>& trace, const std::string& prefix) {
    std::vector<SimOp> out;
    for (const SimOp& op : trace)
        if (op.what.rfind(prefix, 0) == 0) out.push_back(op);
    return out;
}

/// Transfer costs: negligible, uploads ten times a chunk's kernels, downloads ten times.
std::vector<SimCosts> costProfiles() {
    const double chunkBytes = 3.0 * 60 * 48 * 4;
    return {{1e-9, 1e-9}, {0.06 / chunkBytes, 1e-9}, {1e-9, 0.06 / chunkBytes}};
}

TEST(ChunkPipeline, FbpOnTheDeviceEqualsTheCpuPipelineBitForBit) {
    const Problem p;
    for (const char* id : {"cpu.simd.lin", "cpu.scalar.nn"})
        for (bool deviceFilter : {true, false})
            for (const SimCosts& costs : costProfiles()) {
                SCOPED_TRACE(std::string(id) +
                             (deviceFilter ? ", device filter" : ", host filter") + ", upload " +
                             std::to_string(costs.uploadPerByte) + " s/B, download " +
                             std::to_string(costs.downloadPerByte) + " s/B");
                const Volume reference = cpuFbp(p, id, 3);
                RecordingSink sink;
                Progress progress(&sink);
                const DeviceFbp run(p, id, 3, deviceFilter, costs, {0, {}, &progress});
                ASSERT_TRUE(run.status.isOk()) << run.status.toString();
                const std::vector<std::string> hazards = run.sim->hazards();
                EXPECT_TRUE(hazards.empty()) << hazards.front();
                expectBitIdentical(run.out, reference);
                // Four chunks (3 + 3 + 3 + 2 slices): one upload and one download each.
                EXPECT_EQ(opsNamed(run.sim->trace(), "upload").size(), 4u);
                EXPECT_EQ(opsNamed(run.sim->trace(), "download").size(), 4u);
                EXPECT_EQ(opsNamed(run.sim->trace(), "filter").size(), deviceFilter ? 4u : 0u);
                ASSERT_FALSE(sink.fractions.empty());
                EXPECT_TRUE(std::is_sorted(sink.fractions.begin(), sink.fractions.end()));
                EXPECT_DOUBLE_EQ(sink.fractions.back(), 1.0);
            }
}

TEST(ChunkPipeline, BackProjectionOnTheDeviceEqualsTheCpuVariant) {
    const Problem p;
    const std::vector<double> w = p.geom.angularWeights();
    const std::vector<float> weights(w.begin(), w.end());
    auto cpu = cpuBackProjector("cpu.simd.lin");
    auto sim = std::make_shared<SimulatedQueues>();
    SimulatedGpuBackProjector gpu(cpuBackProjector("cpu.simd.lin"), sim);
    gpu.chunkSlices = p.slices;  // one call of the CPU kernel on the whole stack, as below
    Volume a, b;
    ASSERT_TRUE(cpu->backProject(p.sino, p.geom, p.vol, weights, a, {}).isOk());
    ASSERT_TRUE(gpu.backProject(p.sino, p.geom, p.vol, weights, b, {}).isOk());
    expectBitIdentical(b, a);
    EXPECT_TRUE(sim->hazards().empty());
}

TEST(ChunkPipeline, TheNextChunksUploadIsIssuedBeforeThisChunksKernelsEnd) {
    const Problem p;
    // Transfers as long as a chunk's filter: everything can overlap.
    SimulatedQueues::Costs costs;
    costs.uploadPerByte = costs.downloadPerByte = 2e-3 / (3.0 * 60 * 48 * 4);
    const DeviceFbp run(p, "cpu.simd.lin", 3, true, costs);
    ASSERT_TRUE(run.status.isOk());
    const std::vector<SimOp> trace = run.sim->trace();
    const std::vector<SimOp> uploads = opsNamed(trace, "upload");
    const std::vector<SimOp> downloads = opsNamed(trace, "download");
    ASSERT_EQ(uploads.size(), 4u);
    for (int k = 0; k + 1 < 4; ++k) {
        const SimOp kernels = opsNamed(trace, "bp write " + std::to_string(k)).at(0);
        const SimOp filter = opsNamed(trace, "filter " + std::to_string(k)).at(0);
        // Chunk k + 1's upload is issued before chunk k's kernels end, and runs beside them.
        EXPECT_LT(uploads[k + 1].issue, kernels.end) << "chunk " << k;
        EXPECT_LT(uploads[k + 1].start, kernels.end) << "chunk " << k;
        EXPECT_GE(uploads[k + 1].start, uploads[k].end);
        // Chunk k's download starts after its kernels and overlaps chunk k + 1's.
        EXPECT_GE(downloads[k].start, kernels.end);
        const SimOp next = opsNamed(trace, "filter " + std::to_string(k + 1)).at(0);
        EXPECT_LT(downloads[k].start, next.end) << "chunk " << k;
        EXPECT_GE(filter.start, uploads[k].end);  // no read before its upload
    }
    EXPECT_TRUE(run.sim->hazards().empty());
    // The timeline: each device stage's busy time is the sum of its simulated durations.
    const TimelineReport& r = run.timings.timeline;
    double up = 0, down = 0;
    for (const SimOp& op : uploads)
        up += op.end - op.start;
    for (const SimOp& op : downloads)
        down += op.end - op.start;
    EXPECT_NEAR(r.busyOf(TimelineStage::Upload), up, 1e-12);
    EXPECT_NEAR(r.busyOf(TimelineStage::Download), down, 1e-12);
    EXPECT_NEAR(r.busyOf(TimelineStage::Filter), 4 * 2e-3, 1e-12);
    EXPECT_NEAR(r.busyOf(TimelineStage::Kernels), 4 * (1e-4 + 4e-3 + 1e-4), 1e-12);
    EXPECT_EQ(r.bytes[static_cast<std::size_t>(TimelineStage::Upload)],
              std::size_t(p.slices) * p.angles * p.sino.pitch() * 4);
    EXPECT_DOUBLE_EQ(run.timings.filtering, r.busyOf(TimelineStage::Filter));
    EXPECT_DOUBLE_EQ(run.timings.backProjection, r.busyOf(TimelineStage::Kernels));
}

TEST(ChunkPipeline, TheSimulatorCatchesWorkThatIsNotOrdered) {
    // What the driver must never do, done by hand: a kernel reading a buffer whose upload is
    // still running, a second upload over data nobody read, a read of a buffer never written.
    SimulatedQueues sim({1e-3, 1e-3});
    DeviceBufferRef a = sim.deviceBuffer("a", 100).value();
    DeviceBufferRef b = sim.deviceBuffer("b", 100).value();
    void* host = sim.pinnedBuffer("h", 100).value();
    ASSERT_TRUE(sim.upload(QueueRole::Upload, a, 0, host, 100).isOk());
    ASSERT_TRUE(sim.kernel(QueueRole::Compute, "k", 1e-3, {{a.handle, false}}, {}).isOk());
    ASSERT_TRUE(sim.upload(QueueRole::Upload, a, 0, host, 100).isOk());
    ASSERT_TRUE(sim.upload(QueueRole::Upload, a, 0, host, 100).isOk());
    ASSERT_TRUE(
        sim.kernel(QueueRole::Compute, "never written", 1e-3, {{b.handle, false}}, {}).isOk());
    sim.drain();
    const std::vector<std::string> h = sim.hazards();
    auto has = [&](const std::string& text) {
        return std::any_of(h.begin(), h.end(),
                           [&](const std::string& x) { return x.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(has("k overlaps upload"));
    EXPECT_TRUE(has("overwrite before use: upload over upload"));
    EXPECT_TRUE(has("read before any write: never written"));
    // With the kernel waiting for the upload, and the second upload for the kernel: none.
    SimulatedQueues ordered({1e-3, 1e-3});
    a = ordered.deviceBuffer("a", 100).value();
    host = ordered.pinnedBuffer("h", 100).value();
    ASSERT_TRUE(ordered.upload(QueueRole::Upload, a, 0, host, 100).isOk());
    QueueEvent up = ordered.record(QueueRole::Upload).value();
    ASSERT_TRUE(ordered.wait(QueueRole::Compute, up).isOk());
    ASSERT_TRUE(ordered.kernel(QueueRole::Compute, "k", 1e-3, {{a.handle, false}}, {}).isOk());
    QueueEvent done = ordered.record(QueueRole::Compute).value();
    ASSERT_TRUE(ordered.wait(QueueRole::Upload, done).isOk());
    ASSERT_TRUE(ordered.upload(QueueRole::Upload, a, 0, host, 100).isOk());
    ordered.drain();
    EXPECT_TRUE(ordered.hazards().empty()) << ordered.hazards().front();
}

TEST(ChunkPipeline, AStopRequestEndsTheRunWithinTwoSteps) {
    const Problem p;
    std::stop_source stop;
    stop.request_stop();
    const DeviceFbp run(p, "cpu.simd.lin", 3, true, {}, {0, stop.get_token(), nullptr});
    EXPECT_EQ(run.status.code(), ErrorCode::Cancelled);
    // The first chunk's filter and first back-projection step were enqueued, no more.
    EXPECT_EQ(opsNamed(run.sim->trace(), "bp").size(), 1u);
    EXPECT_TRUE(run.sim->hazards().empty());
}

TEST(ChunkPipeline, OutOfMemoryFreesTheKeptBuffersThenHalvesTheChunk) {
    const Problem p;
    const Volume reference = cpuFbp(p, "cpu.scalar.lin", 1);
    // Buffers of 4 slices are refused, of 2 too (2 x 60 x 48 x 4 bytes = 23040): 1 slice fits.
    const DeviceFbp run(p, "cpu.scalar.lin", 4, true, {}, {}, 15000);
    ASSERT_TRUE(run.status.isOk()) << run.status.toString();
    expectBitIdentical(run.out, reference);
    EXPECT_EQ(opsNamed(run.sim->trace(), "upload").size(), std::size_t(p.slices));
    const DeviceFbp none(p, "cpu.scalar.lin", 4, true, {}, {}, 100);
    EXPECT_EQ(none.status.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(none.status.message().find("refused"), std::string::npos);
}

TEST(ChunkPipeline, ASecondRunOfTheSameShapeAllocatesNothing) {
    const Problem p;
    auto sim = std::make_shared<SimulatedQueues>();
    SimulatedGpuBackProjector bp(cpuBackProjector("cpu.simd.lin"), sim);
    FbpOptions options;
    options.chunkSlices = 3;
    Volume out;
    ASSERT_TRUE(reconstructFbp(p.sino, p.geom, p.vol, bp, options, out, {}).isOk());
    const int first = sim->allocations;
    EXPECT_EQ(first, 8);  // two slots of staging in and out, device input and output
    ASSERT_TRUE(reconstructFbp(p.sino, p.geom, p.vol, bp, options, out, {}).isOk());
    EXPECT_EQ(sim->allocations, first);
}

TEST(ChunkPipeline, TheLinkIsTimedOnTheQueuesAndTheBoundIsTheBusiestQueue) {
    SimulatedQueues sim({1e-9, 2e-9});
    const LinkBandwidth link = measureLink(sim, std::size_t(1) << 20, 2).value();
    EXPECT_NEAR(link.hostToDevice, 1e9, 1.0);
    EXPECT_NEAR(link.deviceToHost, 5e8, 1.0);
    EXPECT_EQ(formatLink(link), "link: H2D 1.0 GB/s, D2H 0.5 GB/s (pinned, 1 MiB)");
    EXPECT_TRUE(sim.hazards().empty());
    TimelineReport r;
    r.busy[std::size_t(TimelineStage::Upload)] = 1.0;
    r.busy[std::size_t(TimelineStage::Filter)] = 0.5;
    r.busy[std::size_t(TimelineStage::Kernels)] = 1.0;
    r.busy[std::size_t(TimelineStage::Download)] = 0.7;
    r.busy[std::size_t(TimelineStage::Host)] = 0.2;
    EXPECT_DOUBLE_EQ(pipelineBound(r), 1.5);  // filter and kernels share the compute queue
}

}  // namespace
}  // namespace tomo::test
