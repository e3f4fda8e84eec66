// The OpenCL side of core's pipeline (issue 27), on whatever OpenCL device the machine has
// (PoCL here): the device packing equals core's packPassSlices byte for byte; FBP through the
// pipeline reports its timeline (uploads, kernels, downloads with their bytes; the CPU filter on
// the packing thread) and a second run of the same shape allocates nothing; VkFFT's device
// filter (when built) equals the CPU filter to float rounding, alone and inside FBP.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "OpenClTestSupport.h"
#include "core/cone/Fdk.h"
#include "core/phantom/Phantom.h"
#include "core/projectors/PassDriver.h"
#include "core/recon/Fbp.h"
#include "gpu/opencl/internal/ClKernelLauncher.h"
#include "gpu/opencl/internal/ClQueues.h"
#include "gpu/opencl/internal/KernelSources.h"
#include "tests/core/cone/ConeTestSupport.h"
#include "tomo/config.h"
#if TOMO_WITH_VKFFT
#include "gpu/opencl/OpenClRowFilter.h"
#endif

namespace tomo {
namespace {

using opencl::ClQueues;

std::shared_ptr<opencl::ClDeviceContext> context() {
    return test::openClSetup().report.context;
}

Sinograms randomRows(int slices, int angles, int detectors, unsigned seed) {
    Sinograms s = Sinograms::create(slices, angles, detectors).value();
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (std::size_t r = 0; r < s.dim(0) * s.dim(1); ++r)
        for (float& v : s.rows().row(r))
            v = u(rng) * 7.0f;
    return s;
}

TEST(OpenClPipeline, DevicePackingEqualsTheOnePackingByteForByte) {
    TOMO_SKIP_WITHOUT_OPENCL();
    const Sinograms rows = randomRows(5, 9, 13, 3);
    ClQueues q(context());
    auto& dev = q.context();
    const std::size_t bytes = rows.dim(0) * rows.dim(1) * rows.pitch() * 4;
    const DeviceBufferRef in = q.deviceBuffer("test.rows", bytes).value();
    ASSERT_TRUE(q.upload(QueueRole::Compute, in, 0, rows.data(), bytes).isOk());
    const auto program = dev.program("pack.cl", opencl::kernelSource("pack.cl"), "").value();
    for (bool half : {false, true})
        for (int channels : {1, 2, 4}) {
            SCOPED_TRACE(std::to_string(channels) + (half ? " binary16" : " float") + " channels");
            const int s0 = 3, count = std::min(2, channels), a0 = 4, na = 5;
            const std::size_t outBytes = std::size_t(na) * 13 * channels * (half ? 2 : 4);
            const DeviceBufferRef out = q.deviceBuffer("test.packed", outBytes).value();
            auto k = dev.kernel(program, half ? "packPassHalf" : "packPass").value();
            ASSERT_TRUE(opencl::setKernelArgs(k, ClQueues::mem(in), cl_int(rows.pitch()), cl_int(9),
                                              cl_int(s0), cl_int(count), cl_int(a0), cl_int(na),
                                              cl_int(13), cl_int(channels), ClQueues::mem(out))
                            .isOk());
            opencl::ClEvent done;
            ASSERT_TRUE(opencl::enqueueKernel2d(q.computeQueue(), k, 64, 8, 64, 4, {}, done, "pack")
                            .isOk());
            std::vector<std::uint8_t> device(outBytes), host(outBytes);
            ASSERT_TRUE(q.download(QueueRole::Compute, device.data(), out, 0, outBytes).isOk());
            ASSERT_TRUE(q.sync(q.record(QueueRole::Compute).value()).isOk());
            packPassSlices(rows, s0, count, a0, na, channels, half, host.data());
            EXPECT_EQ(std::memcmp(device.data(), host.data(), outBytes), 0);
        }
}

/// A Shepp-Logan FBP case of @p slices slices.
struct FbpCase {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms sino;
};
FbpCase sheppLogan(int slices) {
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, 60);
    params.detectorCount = 72;
    params.rows = slices;
    params.detectorPitch = 2.0 / 64;
    FbpCase c{ParallelGeometry::create(params).value(), {64, 64, slices, 2.0 / 64}, {}};
    EXPECT_TRUE(Phantom::sheppLogan3d().project(c.geom, c.sino, 2).isOk());
    return c;
}

TEST(OpenClPipeline, FbpReportsItsTimelineAndASecondRunAllocatesNothing) {
    TOMO_SKIP_WITHOUT_OPENCL();
    const FbpCase c = sheppLogan(5);
    const auto& registry = test::openClSetup().registry;
    if (!registry.contains("opencl.texture.lin.1s")) GTEST_SKIP() << "no texture variant";
    auto bp = registry.make("opencl.texture.lin.1s").value();
    FbpOptions options;
    options.chunkSlices = 2;  // chunks of 2 + 2 + 1 slices
    Volume a, b;
    FbpTimings t;
    ASSERT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *bp, options, a, {}, &t).isOk());
    const TimelineReport& r = t.timeline;
    using S = TimelineStage;
    for (S s : {S::Upload, S::Filter, S::Kernels, S::Download, S::Host})
        EXPECT_GT(r.busyOf(s), 0.0) << timelineStageName(s);
    EXPECT_EQ(r.spans[std::size_t(S::Upload)], 3);
    EXPECT_EQ(r.spans[std::size_t(S::Download)], 3);
    EXPECT_EQ(r.bytes[std::size_t(S::Upload)], c.sino.dim(0) * c.sino.dim(1) * c.sino.pitch() * 4);
    EXPECT_EQ(r.bytes[std::size_t(S::Download)], std::size_t(5) * 64 * 64 * 4);
    EXPECT_GT(r.wall, 0.0);
    EXPECT_GT(r.efficiency(), 0.0);
    const std::size_t allocations = context()->scratchAllocations();
    ASSERT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *bp, options, b, {}).isOk());
    EXPECT_EQ(context()->scratchAllocations(), allocations);
    EXPECT_EQ(test::maxRelError(b, a), 0.0);
}

#if TOMO_WITH_VKFFT
TEST(OpenClPipeline, VkfftFilterEqualsTheCpuFilterAloneAndInFbp) {
    TOMO_SKIP_WITHOUT_OPENCL();
    auto stage = opencl::makeOpenClRowFilter(context());
    ASSERT_TRUE(stage.isOk()) << stage.status().toString();
    EXPECT_EQ((*stage)->name().rfind("vkfft on ", 0), 0u);
    FilterOptions filterOptions;
    filterOptions.window = FilterWindow::Hann;
    const RampFilter filter = RampFilter::create(45, 0.5, filterOptions).value();
    Sinograms rows = randomRows(3, 11, 45, 5), cpu = randomRows(3, 11, 45, 5);
    ASSERT_TRUE((*stage)->apply(filter, rows, {}).isOk());
    ASSERT_TRUE(filter.apply(cpu.rows(), {}).isOk());
    double maxAbs = 0, maxDiff = 0;
    for (std::size_t r = 0; r < rows.dim(0) * rows.dim(1); ++r)
        for (std::size_t d = 0; d < rows.dim(2); ++d) {
            maxAbs = std::max(maxAbs, double(std::fabs(cpu.rows().row(r)[d])));
            maxDiff =
                std::max(maxDiff, double(std::fabs(rows.rows().row(r)[d] - cpu.rows().row(r)[d])));
        }
    EXPECT_GT(maxAbs, 0.0);
    EXPECT_LT(maxDiff, 1e-5 * maxAbs);
    // Inside FBP: the rows are filtered on the device between upload and back-projection.
    const FbpCase c = sheppLogan(3);
    const auto& registry = test::openClSetup().registry;
    auto reference = registry.make("cpu.reference.lin").value();
    auto bp = registry.make("opencl.texture.lin.1s").value();
    FbpOptions options;
    options.chunkSlices = 2;
    Volume expected, got;
    FbpTimings t;
    ASSERT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *reference, options, expected, {}).isOk());
    options.rowFilter = *stage;
    ASSERT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *bp, options, got, {}, &t).isOk());
    EXPECT_LT(test::maxRelError(got, expected), 1e-4);
    EXPECT_EQ(t.timeline.spans[std::size_t(TimelineStage::Filter)], 2);  // one step per chunk
}

// Issue 27 item 4: what an FBP run needs on the device is made when it is prepared
// (core/recon prepareFbp; the GUI and ReconService::prepare call it when data are loaded), not
// by its first chunk: the run then makes no VkFFT plan and allocates no buffer, and gives the
// bits of a run of the same shape.
TEST(OpenClPipeline, PreparedFbpFindsItsPlanAndBuffersBeforeTheFirstChunk) {
    TOMO_SKIP_WITHOUT_OPENCL();
    const FbpCase c = sheppLogan(3);
    const auto& registry = test::openClSetup().registry;
    if (!registry.contains("opencl.texture.lin.1s")) GTEST_SKIP() << "no texture variant";
    auto bp = registry.make("opencl.texture.lin.1s").value();
    FbpOptions options;
    options.rowFilter = opencl::makeOpenClRowFilter(context()).value();
    options.chunkSlices = 3;  // one chunk of 3 x 60 rows: a plan no other test here makes
    const SinogramChunkLayout in{60, 72, c.sino.pitch()};
    const std::size_t plans = context()->cachedMade();
    ASSERT_TRUE(prepareFbp(3, in, c.geom, c.vol, *bp, options).isOk());
    EXPECT_EQ(context()->cachedMade(), plans + 1);  // the plan, made before any chunk
    const std::size_t allocations = context()->scratchAllocations();
    Volume prepared, again;
    ASSERT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *bp, options, prepared, {}).isOk());
    EXPECT_EQ(context()->cachedMade(), plans + 1);  // found in the cache
    EXPECT_EQ(context()->scratchAllocations(), allocations);
    ASSERT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *bp, options, again, {}).isOk());
    EXPECT_EQ(test::maxRelError(prepared, again), 0.0);
    // A shape that does not match the geometry is refused as the run would refuse it.
    EXPECT_EQ(prepareFbp(4, in, c.geom, c.vol, *bp, options).code(), ErrorCode::InvalidArgument);
}

// The FFT plans follow the chunk (rows of a block = slices x angles), so a session of previews
// of other sizes asks for many: the context keeps a few (the least recently used go), and a run
// after an eviction still filters right.
TEST(OpenClPipeline, VkfftPlansOfEveryChunkSizeAreKeptToAFew) {
    TOMO_SKIP_WITHOUT_OPENCL();
    auto stage = opencl::makeOpenClRowFilter(context());
    ASSERT_TRUE(stage.isOk()) << stage.status().toString();
    const RampFilter filter = RampFilter::create(45, 0.5, FilterOptions{}).value();
    for (int slices = 1; slices <= 7; ++slices) {
        Sinograms rows = randomRows(slices, 11, 45, 9), cpu = randomRows(slices, 11, 45, 9);
        ASSERT_TRUE((*stage)->apply(filter, rows, {}).isOk());
        ASSERT_TRUE(filter.apply(cpu.rows(), {}).isOk());
        EXPECT_LE(context()->cachedCount(), opencl::ClDeviceContext::kCached);
        double maxAbs = 0, maxDiff = 0;
        for (std::size_t r = 0; r < rows.dim(0) * rows.dim(1); ++r)
            for (std::size_t d = 0; d < rows.dim(2); ++d) {
                maxAbs = std::max(maxAbs, double(std::fabs(cpu.rows().row(r)[d])));
                maxDiff = std::max(maxDiff,
                                   double(std::fabs(rows.rows().row(r)[d] - cpu.rows().row(r)[d])));
            }
        EXPECT_LT(maxDiff, 1e-5 * maxAbs) << slices << " slices";
    }
    EXPECT_EQ(context()->cachedCount(), opencl::ClDeviceContext::kCached);
}

// FDK with the ramp on the device (issue 27 item 3): each batch of views is uploaded, filtered
// by VkFFT and back-projected into the resident slab; the CPU applies the weights on the
// packing thread. The volume equals the CPU FDK's to float rounding.
TEST(OpenClPipeline, FdkWithTheRampOnTheDeviceEqualsTheCpuFdk) {
    TOMO_SKIP_WITHOUT_OPENCL();
    test::ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60);
    ConeBackProjectorRegistry cpuRegistry;
    registerCpuConeBackProjectors(cpuRegistry);
    auto cpu = cpuRegistry.create("cpu.fdk.standard");
    ASSERT_TRUE(cpu.isOk()) << cpu.status().toString();
    const Result<Volume> expected = test::runToVolume(c, **cpu);
    ASSERT_TRUE(expected.isOk()) << expected.status().toString();
    c.options.rowFilter = opencl::makeOpenClRowFilter(context()).value();
    for (const char* id : {"opencl.fdk.standard", "opencl.fdk.symmetric"}) {
        auto gpu = test::coneBackendRegistry().create(id);
        if (!gpu.isOk()) continue;
        FdkReport report;
        const Result<Volume> got = test::runToVolume(c, **gpu, 0, &report);
        ASSERT_TRUE(got.isOk()) << id << ": " << got.status().toString();
        EXPECT_LT(test::relativeRmse(*got, *expected), 1e-5) << id;
        EXPECT_GT(report.timings.filter, 0.0) << id;
        EXPECT_GT(report.timings.device.upload, 0.0) << id;
    }
}
#endif

}  // namespace
}  // namespace tomo
