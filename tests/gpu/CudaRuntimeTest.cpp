// CUDA-specific tests. Without a GPU: the binary16 packing, the compiled variant list and its
// metadata, and the selection model against RECORDED device traits (an H100 and an A100 as
// tomo devices reports them). With a GPU: the cuFFT row-filter stage against the CPU's, FBP
// with it against the CPU FBP, forced chunking against one pass, and the device context's plan
// cache.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>

#include "GpuTestSupport.h"
#include "core/phantom/Phantom.h"
#include "core/projectors/GpuVariants.h"
#include "core/recon/Fbp.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/Selector.h"
#include "core/selection/VariantCost.h"
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/CudaRowFilter.h"
#include "gpu/cuda/internal/CudaBackProjector.h"

namespace tomo {
namespace {

// Issue 11: the half variant binds genuine half texels (16-bit float channels, converted by the
// texture unit), not binary16 bits through a float texture.
TEST(CudaHalf, HalfVariantBindsAHalf4Texture) {
    const auto half = cuda::launcherFor("cuda.texture.half.nn.4s").value();
    const cudaChannelFormatDesc d = cuda::sinogramChannelDesc(half);
    EXPECT_EQ(d.f, cudaChannelFormatKindFloat);
    EXPECT_EQ(d.x, 16);
    EXPECT_EQ(d.y, 16);
    EXPECT_EQ(d.z, 16);
    EXPECT_EQ(d.w, 16);
    EXPECT_EQ(half.texelBytes(), 8u);
    const cudaChannelFormatDesc f4 =
        cuda::sinogramChannelDesc(cuda::launcherFor("cuda.texture.nn.4s").value());
    EXPECT_EQ(f4.x + f4.y + f4.z + f4.w, 128);
    const cudaChannelFormatDesc f1 =
        cuda::sinogramChannelDesc(cuda::launcherFor("cuda.texture.lin.1s").value());
    EXPECT_EQ(f1.x, 32);
    EXPECT_EQ(f1.y + f1.z + f1.w, 0);
    // The packed texels are the IEEE binary16 values of the slices, slice s in channel s.
    Sinograms sino(3, 1, 2);
    sino(0, 0, 0) = 1.0f;
    sino(1, 0, 0) = -2.0f;
    sino(2, 0, 0) = 1.0f / 3.0f;
    sino(0, 0, 1) = 65504.0f;
    std::uint16_t texels[8] = {};
    cuda::packPass(half, sino, 0, 3, 0, 1, texels);
    EXPECT_EQ(texels[0], 0x3c00);
    EXPECT_EQ(texels[1], 0xc000);
    EXPECT_EQ(texels[2], 0x3555);
    EXPECT_EQ(texels[3], 0x0000);  // the fourth channel of a 3-slice pass
    EXPECT_EQ(texels[4], 0x7bff);
}

// Issue 12: the CUDA list is core's one variant table (GpuVariants.h), every entry compiled.
TEST(CudaVariants, CompiledListIsTheOneTableAndHasACostModel) {
    const auto variants = cuda::compiledVariants();
    EXPECT_EQ(variants.size(), 35u);
    EXPECT_EQ(variants.size(), gpuVariants().size());
    std::set<std::string> ids;
    for (const BackProjectorInfo& info : variants) {
        SCOPED_TRACE(info.id);
        EXPECT_TRUE(ids.insert(info.id).second) << "duplicate id";
        EXPECT_EQ(info.backend, "cuda");
        EXPECT_EQ(info.id.rfind("cuda." + info.family + ".", 0), 0u);
        EXPECT_EQ(info.exact, info.precision == "float32" && info.family != "oversampling");
        auto cost = costFor(info);
        ASSERT_TRUE(cost.isOk()) << cost.status().toString();
        EXPECT_EQ(cost->slicesPerPass, info.slicesPerPass);
    }
    for (const char* id :
         {"cuda.texture.lin.1s", "cuda.texture.half.nn.4s", "cuda.alu.lin.2s.64x64",
          "cuda.alu.acm.lin.1s.32x32", "cuda.hybrid.lin.1s", "cuda.oversampling.sampler.nn.1s",
          "cuda.alu.lin.1s.32x32.occ1", "cuda.alu.lin.2s.64x64.occ1"})
        EXPECT_EQ(ids.count(id), 1u) << id;
}

/// A device record as `tomo devices` prints it for a CUDA GPU (recorded, not queried).
DeviceInfo recordedGpu(const char* name, int sms, double mhz, const char* cc) {
    DeviceInfo d;
    d.backend = "cuda";
    d.name = name;
    d.vendor = "NVIDIA";
    d.computeUnits = sms;
    d.clockMHz = mhz;
    d.properties = {{"compute capability", cc}};
    return d;
}

BackProjectorRegistry modelRegistry() {
    // Ranking reads metadata only; the factories are never called by Selector::rank().
    BackProjectorRegistry r;
    for (const BackProjectorInfo& info : cuda::compiledVariants())
        r.add(info, [] { return std::unique_ptr<BackProjector>(); });
    return r;
}

TEST(CudaSelection, RanksRecordedH100AndA100ByThePaperModel) {
    const DeviceInfo h100 = recordedGpu("NVIDIA H100 80GB HBM3", 132, 1980.0, "9.0");
    const DeviceInfo a100 = recordedGpu("NVIDIA A100-SXM4-80GB", 108, 1410.0, "8.0");
    const DeviceTraits th = traitsFor(h100), ta = traitsFor(a100);
    // Per-SM figures of GpuTraitTable: 128 (H100) and 64 (A100) FP32 lanes, 4 texels per clock.
    EXPECT_NEAR(th.fp32.value, 132 * 1.980 * 128, 1e-6);
    EXPECT_NEAR(ta.fp32.value, 108 * 1.410 * 64, 1e-6);
    EXPECT_NEAR(th.texture32.value, 132 * 1.980 * 4, 1e-6);

    const BackProjectorRegistry registry = modelRegistry();
    const auto rankH = Selector(registry, th).rank("cuda");
    const auto rankA = Selector(registry, ta).rank("cuda");
    ASSERT_EQ(rankH.size(), cuda::compiledVariants().size());
    auto find = [](const std::vector<CandidateReport>& rank, const std::string& id) {
        for (const CandidateReport& c : rank)
            if (c.info.id == id) return c;
        ADD_FAILURE() << id << " not ranked";
        return CandidateReport{};
    };
    // The single-slice texture kernel is texture-bound at 0.9 of the filter rate (paper §5.4).
    const CandidateReport texH = find(rankH, "cuda.texture.lin.1s");
    EXPECT_EQ(texH.prediction.bottleneck, "texture32");
    EXPECT_NEAR(texH.prediction.gups, 0.9 * 132 * 1.980 * 4, 1e-6);
    const CandidateReport texA = find(rankA, "cuda.texture.lin.1s");
    EXPECT_NEAR(texH.prediction.gups / texA.prediction.gups, (132 * 1980.0) / (108 * 1410.0), 1e-9);
    // Ranked best first; every prediction positive and bounded by the device's fp32 rate.
    for (std::size_t i = 1; i < rankH.size(); ++i)
        EXPECT_GE(rankH[i - 1].prediction.gups, rankH[i].prediction.gups);
    for (const CandidateReport& c : rankH) {
        EXPECT_GT(c.prediction.gups, 0.0) << c.info.id;
        EXPECT_FALSE(c.prediction.bottleneck.empty()) << c.info.id;
    }
    // The exact linear favourite on the H100 beats the plain texture kernel (the paper's
    // conclusion for every architecture since Maxwell), and 2 slices per fetch double the
    // texture kernel's limit.
    for (const CandidateReport& c : rankH)
        if (c.info.exact && c.info.interpolation == Interpolation::Linear) {
            EXPECT_GT(c.prediction.gups, texH.prediction.gups) << c.info.id;
            break;
        }
    EXPECT_GT(find(rankH, "cuda.texture.zorder.lin.2s").prediction.gups, texH.prediction.gups);
}

TEST(CudaDeviceContext, OpenReportsWhyThereIsNoDevice) {
    auto ctx = cuda::CudaDeviceContext::open();
    if (ctx.isOk()) {
        // With a GPU: plan cache reuse.
        ASSERT_TRUE((*ctx)->fftPlans(256, 8).isOk());
        ASSERT_TRUE((*ctx)->fftPlans(256, 8).isOk());
        ASSERT_TRUE((*ctx)->fftPlans(512, 8).isOk());
        EXPECT_EQ((*ctx)->fftPlanCount(), 2u);
        // Gridrec's complex plans: kept by shape and user (a slot on its own stream).
        const int grid[2] = {96, 80};
        const auto first = (*ctx)->c2cPlan(2, grid, 3, 0);
        ASSERT_TRUE(first.isOk()) << first.status().toString();
        EXPECT_EQ(*(*ctx)->c2cPlan(2, grid, 3, 0), *first);
        EXPECT_NE(*(*ctx)->c2cPlan(2, grid, 3, 1), *first);
        EXPECT_EQ((*ctx)->fftPlanCount(), 4u);
        // The row plans follow the chunk: however many shapes, a few are kept (and a plan held
        // by its caller outlives its eviction).
        const auto held = (*ctx)->fftPlans(256, 8);
        for (int batch = 1; batch <= 12; ++batch)
            ASSERT_TRUE((*ctx)->fftPlans(128, batch).isOk());
        EXPECT_EQ((*ctx)->fftPlanCount(), cuda::CudaDeviceContext::kRowPlans + 2);
        ASSERT_TRUE(held.isOk());
        EXPECT_EQ(held->use_count(), 1);  // evicted, still the caller's
        // Every scratch buffer starts where a texture may (cudaMalloc promises only 256 bytes).
        const auto lock = (*ctx)->lockScratch();
        for (std::size_t bytes : {std::size_t(4), std::size_t(300), std::size_t(1) << 20}) {
            auto b = (*ctx)->device("alignment." + std::to_string(bytes), bytes);
            ASSERT_TRUE(b.isOk());
            EXPECT_EQ(
                reinterpret_cast<std::uintptr_t>((*b)->get()) % (*ctx)->traits().textureAlignment,
                0u);
        }
        (*ctx)->releaseScratch();
        EXPECT_GT((*ctx)->memoryBudget(), 0u);
        return;
    }
    EXPECT_FALSE(test::deviceRequired()) << ctx.status().toString();
    EXPECT_EQ(ctx.status().code(), ErrorCode::NotFound);
    EXPECT_EQ(ctx.status().message().rfind("no CUDA device", 0), 0u) << ctx.status().message();
}

/// FBP options with the cuFFT row-filter stage on @p bp's device context.
FbpOptions cufftOptions(BackProjector& bp) {
    FbpOptions options;
    auto* cuda = dynamic_cast<cuda::CudaBackProjector*>(&bp);
    if (cuda == nullptr) return options;
    auto stage = cuda::makeCufftRowFilter(cuda->context());
    EXPECT_TRUE(stage.isOk()) << stage.status().toString();
    if (stage.isOk()) options.rowFilter = *stage;
    return options;
}

// FBP's two stages on CUDA: rows filtered by cuFFT equal the CPU stage's (RampFilter::apply) to
// float rounding, for a window with a cutoff and across the stage's blocks of 4096 rows.
TEST(CufftRowFilter, EqualsTheCpuStageAcrossBlocks) {
    TOMO_SKIP_WITHOUT_BACKEND();
    auto bp = test::backendSetup().registry->make("cuda.texture.lin.1s").value();
    const FbpOptions options = cufftOptions(*bp);
    ASSERT_TRUE(options.rowFilter);
    EXPECT_EQ(options.rowFilter->name().rfind("cufft on ", 0), 0u);
    FilterOptions window;
    window.window = FilterWindow::Hann;
    window.cutoff = 0.7;
    const RampFilter filter = RampFilter::create(96, 0.5, window).value();
    // 3 x 6000 rows: five blocks, the last partial.
    Sinograms rows = Sinograms::create(3, 6000, 96).value();
    std::uint32_t state = 12345;
    for (std::size_t z = 0; z < 3; ++z)
        for (std::size_t a = 0; a < 6000; ++a)
            for (std::size_t d = 0; d < 96; ++d) {
                state = state * 1664525u + 1013904223u;
                rows(z, a, d) = static_cast<float>(state >> 8) / 16777216.0f;
            }
    Sinograms cpu = rows.clone();
    ASSERT_TRUE(filter.apply(cpu.rows(), {}).isOk());
    ASSERT_TRUE(options.rowFilter->apply(filter, rows, {}).isOk());
    double worst = 0, scale = 0;
    for (std::size_t z = 0; z < 3; ++z)
        for (std::size_t a = 0; a < 6000; ++a)
            for (std::size_t d = 0; d < 96; ++d) {
                worst = std::max(worst, double(std::abs(rows(z, a, d) - cpu(z, a, d))));
                scale = std::max(scale, double(std::abs(cpu(z, a, d))));
            }
    EXPECT_GT(scale, 0.0);
    EXPECT_LT(worst, 1e-5 * scale);
    Sinograms narrow = Sinograms::create(1, 4, 95).value();
    EXPECT_EQ(options.rowFilter->apply(filter, narrow, {}).code(), ErrorCode::InvalidArgument);
}

TEST(CudaFbp, EqualsCpuFbpOnSheppLogan) {
    TOMO_SKIP_WITHOUT_BACKEND();
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, 60);
    params.detectorCount = 72;
    params.rows = 5;
    params.detectorPitch = 2.0 / 64;
    const ParallelGeometry geom = ParallelGeometry::create(params).value();
    Sinograms sino;
    ASSERT_TRUE(Phantom::sheppLogan3d().project(geom, sino, 2).isOk());
    const VolumeGeometry vol{64, 64, 5, 2.0 / 64};
    const auto& registry = *test::backendSetup().registry;
    auto reference = registry.make("cpu.reference.lin").value();
    Volume cpu;
    ASSERT_TRUE(reconstructFbp(sino, geom, vol, *reference, {}, cpu, {}).isOk());
    for (const char* id : {"cuda.texture.lin.1s", "cuda.texture.lin.2s", "cuda.alu.lin.1s.32x32",
                           "cuda.alu.acm.hx.lin.4s.64x64", "cuda.hybrid.lin.2s"}) {
        Volume gpu;
        FbpTimings t;
        auto bp = registry.make(id).value();
        Status s = reconstructFbp(sino, geom, vol, *bp, cufftOptions(*bp), gpu, {}, &t);
        ASSERT_TRUE(s.isOk()) << id << ": " << s.toString();
        const BackProjectorInfo& info = bp->info();
        EXPECT_LT(test::maxRelError(gpu, cpu), test::exactTolerance(info) + 1e-4) << id;
        EXPECT_GT(t.filtering, 0.0) << id;
    }
}

TEST(CufftRowFilter, NeedsADeviceContext) {
    // Without cuFFT: its reason; with it: the missing context.
    EXPECT_FALSE(cuda::makeCufftRowFilter(nullptr).isOk());
}

// Issue 11 item 5: pinned staging, device buffers and cuFFT plans are made once per device
// context and reused; the FBP runs on the back-projector's own context.
TEST(CudaDeviceContext, BuffersAndPlansAreReusedAcrossCalls) {
    TOMO_SKIP_WITHOUT_BACKEND();
    test::ProblemShape shape;
    shape.nx = 64;
    shape.ny = 64;
    shape.detectors = 64;
    shape.angles = 40;
    const auto p = test::randomProblem(shape, 5);
    const auto& registry = *test::backendSetup().registry;
    auto bp = registry.make("cuda.texture.lin.2s").value();
    auto* cuda = dynamic_cast<cuda::CudaBackProjector*>(bp.get());
    ASSERT_NE(cuda, nullptr);
    cuda::CudaDeviceContext& dev = *cuda->context();
    Volume a, b;
    ASSERT_TRUE(bp->backProject(p.sino, p.geom, p.vol, p.weights, a, {}).isOk());
    const std::size_t allocations = dev.scratchAllocations();
    EXPECT_GT(allocations, 0u);
    ASSERT_TRUE(bp->backProject(p.sino, p.geom, p.vol, p.weights, b, {}).isOk());
    EXPECT_EQ(dev.scratchAllocations(), allocations) << "the second call allocated";
    EXPECT_EQ(test::maxRelError(b, a), 0.0);
    // Another variant from the registry shares the context.
    auto other = registry.make("cuda.alu.lin.2s.32x32").value();
    EXPECT_EQ(dynamic_cast<cuda::CudaBackProjector*>(other.get())->context().get(), &dev);
    Volume f1, f2;
    const FbpOptions options = cufftOptions(*bp);
    ASSERT_TRUE(reconstructFbp(p.sino, p.geom, p.vol, *bp, options, f1, {}).isOk());
    const std::size_t plans = dev.fftPlansMade(), afterFbp = dev.scratchAllocations();
    ASSERT_TRUE(reconstructFbp(p.sino, p.geom, p.vol, *bp, options, f2, {}).isOk());
    EXPECT_EQ(dev.fftPlansMade(), plans) << "the second FBP planned";
    EXPECT_EQ(dev.scratchAllocations(), afterFbp) << "the second FBP allocated";
    EXPECT_EQ(test::maxRelError(f2, f1), 0.0);
    // After releaseScratch() (what an out-of-memory retry does) the next call allocates again.
    {
        const auto lock = dev.lockScratch();
        dev.releaseScratch();
        EXPECT_EQ(dev.scratchBytes(), 0u);
    }
    ASSERT_TRUE(bp->backProject(p.sino, p.geom, p.vol, p.weights, b, {}).isOk());
    EXPECT_GT(dev.scratchAllocations(), afterFbp);
    EXPECT_EQ(test::maxRelError(b, a), 0.0);
}

TEST(CudaBackProjector, ForcedChunksEqualOnePass) {
    TOMO_SKIP_WITHOUT_BACKEND();
    test::ProblemShape shape;
    shape.nx = 70;
    shape.ny = 67;
    shape.angles = 50;
    const auto p = test::randomProblem(shape, 31);
    const auto& registry = *test::backendSetup().registry;
    for (const char* id :
         {"cuda.texture.lin.2s", "cuda.alu.acm.lin.1s.64x64", "cuda.hybrid.lin.1s"}) {
        SCOPED_TRACE(id);
        auto whole = registry.make(id).value();
        Volume a;
        ASSERT_TRUE(whole->backProject(p.sino, p.geom, p.vol, p.weights, a, {}).isOk());
        auto device = cuda::CudaDeviceContext::open().value();
        cuda::CudaBackProjectorOptions options;
        options.maxAngleChunk = 7;
        options.maxBandRows = 16;
        options.updatesPerLaunch = 1e4;  // many launches per chunk
        cuda::CudaBackProjector split(whole->info(), device, cuda::launcherFor(id).value(),
                                      options);
        Volume b;
        ASSERT_TRUE(split.backProject(p.sino, p.geom, p.vol, p.weights, b, {}).isOk());
        // Chunks change only the float summation order (and, for the hybrid, which tiles run
        // the texture path: its 8-bit filter weights).
        const bool hybrid = whole->info().family == "hybrid";
        EXPECT_LT(test::maxRelError(b, a), hybrid ? test::exactTolerance(whole->info()) : 1e-5);
        EXPECT_GT(split.lastKernelSeconds(), 0.0);
    }
}

}  // namespace
}  // namespace tomo
