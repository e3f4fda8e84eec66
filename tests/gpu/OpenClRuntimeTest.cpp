// The OpenCL runtime layer: program cache (memory and disk), build errors with the build log,
// allocation limits and work splitting, binary16 conversion, and the no-platform fallback.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "OpenClTestSupport.h"
#include "core/projectors/GpuVariants.h"
#include "gpu/opencl/internal/ClBackProjector.h"
#include "gpu/opencl/internal/ClDeviceContext.h"
#include "gpu/opencl/internal/ClTextureLauncher.h"

namespace tomo {
namespace {

using opencl::ClDeviceContext;

std::filesystem::path freshDir(const std::string& name) {
    auto dir = std::filesystem::path(TOMO_TEST_BINARY_DIR) / "opencl-runtime-test" / name;
    std::filesystem::remove_all(dir);
    return dir;
}

constexpr const char* kTinySource =
    "__kernel void scaleKernel(__global float* x, float a) {\n"
    "    x[get_global_id(0)] *= a;\n}\n";

TEST(OpenClRuntime, ProgramsAreBuiltOnceAndCachedOnDisk) {
    TOMO_SKIP_WITHOUT_OPENCL();
    const auto dir = freshDir("cache");
    opencl::ClDeviceOptions options;
    options.cacheDirectory = dir.string();
    auto first = ClDeviceContext::open(-1, options);
    ASSERT_TRUE(first.isOk()) << first.status().toString();
    ASSERT_TRUE((*first)->program("tiny.cl", kTinySource, "-DX=1").isOk());
    ASSERT_TRUE((*first)->program("tiny.cl", kTinySource, "-DX=1").isOk());
    EXPECT_EQ((*first)->programStats().builds, 1);
    EXPECT_EQ((*first)->programStats().memoryHits, 1);
    const auto& t = (*first)->traits();
    const auto file =
        dir / (opencl::programCacheKey(t.name, t.driver, "-DX=1", kTinySource) + ".bin");
    EXPECT_TRUE(std::filesystem::exists(file)) << file;
    // A second context (a later run) loads the binary instead of compiling.
    auto second = ClDeviceContext::open(-1, options);
    ASSERT_TRUE(second.isOk());
    auto program = (*second)->program("tiny.cl", kTinySource, "-DX=1");
    ASSERT_TRUE(program.isOk());
    EXPECT_EQ((*second)->programStats().diskHits, 1);
    EXPECT_EQ((*second)->programStats().builds, 0);
    EXPECT_TRUE((*second)->kernel(*program, "scaleKernel").isOk());
    // Other options are another program.
    ASSERT_TRUE((*second)->program("tiny.cl", kTinySource, "-DX=2").isOk());
    EXPECT_EQ((*second)->programStats().builds, 1);
}

TEST(OpenClRuntime, CacheKeyDependsOnEveryPart) {
    const std::string k = opencl::programCacheKey("dev", "1.0", "-DA=1", "src");
    EXPECT_EQ(k.size(), 16u);
    EXPECT_EQ(k, opencl::programCacheKey("dev", "1.0", "-DA=1", "src"));
    EXPECT_NE(k, opencl::programCacheKey("dev2", "1.0", "-DA=1", "src"));
    EXPECT_NE(k, opencl::programCacheKey("dev", "1.1", "-DA=1", "src"));
    EXPECT_NE(k, opencl::programCacheKey("dev", "1.0", "-DA=2", "src"));
    EXPECT_NE(k, opencl::programCacheKey("dev", "1.0", "-DA=1", "src "));
    // The separator keeps "ab"+"c" and "a"+"bc" apart.
    EXPECT_NE(opencl::programCacheKey("ab", "c", "", ""),
              opencl::programCacheKey("a", "bc", "", ""));
    // FNV-1a 64 of the empty input followed by four separator bytes, computed by hand.
    std::uint64_t h = 14695981039346656037ull;
    for (int i = 0; i < 4; ++i)
        h *= 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    EXPECT_EQ(opencl::programCacheKey("", "", "", ""), hex);
}

TEST(OpenClRuntime, BuildErrorCarriesTheBuildLog) {
    TOMO_SKIP_WITHOUT_OPENCL();
    opencl::ClDeviceOptions options;
    options.diskCache = false;
    auto dev = ClDeviceContext::open(-1, options);
    ASSERT_TRUE(dev.isOk());
    auto program = (*dev)->program("broken.cl",
                                   "__kernel void brokenKernel(__global float* x) {\n"
                                   "    x[0] = undeclaredIdentifier;\n}\n",
                                   "");
    ASSERT_FALSE(program.isOk());
    const std::string m = program.status().message();
    EXPECT_EQ(program.status().code(), ErrorCode::DeviceError);
    EXPECT_NE(m.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << m;
    EXPECT_NE(m.find("build log"), std::string::npos) << m;
    EXPECT_NE(m.find("undeclaredIdentifier"), std::string::npos) << m;
}

TEST(OpenClRuntime, OversizeAllocationIsAnErrorNotACrash) {
    TOMO_SKIP_WITHOUT_OPENCL();
    auto dev = ClDeviceContext::open();
    ASSERT_TRUE(dev.isOk());
    const std::size_t tooBig = (*dev)->maxAllocation() + 1;
    auto buffer = (*dev)->createBuffer(CL_MEM_READ_WRITE, tooBig, "test buffer");
    ASSERT_FALSE(buffer.isOk());
    EXPECT_EQ(buffer.status().code(), ErrorCode::OutOfMemory);
    EXPECT_NE(buffer.status().message().find("exceeds the largest allocation"), std::string::npos)
        << buffer.status().message();
    auto image = (*dev)->createImage2d(CL_R, CL_FLOAT, (*dev)->traits().image2dMaxWidth + 1, 1,
                                       "test image");
    EXPECT_FALSE(image.isOk());

    // A back-projector whose buffers may not exceed 64 bytes cannot hold one 16-row band.
    const auto p = test::randomProblem({}, 21);
    opencl::ClBackProjectorOptions tiny;
    tiny.maxAllocation = 64;
    opencl::ClBackProjector bp(
        {}, *dev, std::make_unique<opencl::ClTextureLauncher>(opencl::TextureConfig{}), tiny);
    Volume out;
    Status s = bp.backProject(p.sino, p.geom, p.vol, p.weights, out, {});
    EXPECT_EQ(s.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(s.message().find("largest allocation of"), std::string::npos) << s.message();
}

TEST(OpenClRuntime, SmallAllocationLimitsSplitTheWork) {
    TOMO_SKIP_WITHOUT_OPENCL();
    auto dev = ClDeviceContext::open();
    ASSERT_TRUE(dev.isOk());
    test::ProblemShape shape;
    shape.nx = 40;
    shape.ny = 70;
    shape.angles = 29;
    shape.slices = 5;
    const auto p = test::randomProblem(shape, 22);
    const Volume ref = test::runVariant("cpu.reference.lin", p);
    for (int slices : {1, 2}) {
        opencl::TextureConfig config;
        config.slices = slices;
        ASSERT_EQ(opencl::textureSupport((*dev)->traits(), config), "");
        opencl::ClBackProjectorOptions options;
        options.maxAllocation = 40 * 16 * 2 * 4;  // output bands of 16 rows (5 bands)
        options.maxAngleChunk = 7;                // 5 angle chunks
        options.updatesPerLaunch = 2000;          // several launches per chunk
        BackProjectorInfo info;
        info.id = "split test";
        opencl::ClBackProjector bp(info, *dev, std::make_unique<opencl::ClTextureLauncher>(config),
                                   options);
        Volume out;
        Progress progress;
        ExecContext ctx;
        ctx.progress = &progress;
        ASSERT_TRUE(bp.backProject(p.sino, p.geom, p.vol, p.weights, out, ctx).isOk());
        EXPECT_LT(test::maxRelError(out, ref), 1e-4) << slices << " slices";
        EXPECT_DOUBLE_EQ(progress.fraction(), 1.0);
    }
}

// A buffer the device refuses (as a GPU out of memory would) is retried with smaller items
// (core/projectors/PassPlan.h), as on CUDA, and the result is unchanged; when even the smallest
// items are refused the answer is OutOfMemory.
TEST(OpenClRuntime, RefusedAllocationsRetryWithSmallerItems) {
    TOMO_SKIP_WITHOUT_OPENCL();
    auto dev = ClDeviceContext::open();
    ASSERT_TRUE(dev.isOk());
    test::ProblemShape shape;
    shape.nx = 48;
    shape.ny = 64;
    shape.angles = 40;
    shape.slices = 3;
    const auto p = test::randomProblem(shape, 23);
    const Volume ref = test::runVariant("cpu.reference.lin", p);
    auto run = [&](std::size_t refuseAbove, Volume& out) {
        opencl::ClBackProjectorOptions options;
        options.refuseAbove = refuseAbove;
        BackProjectorInfo info;
        info.id = "retry test";
        opencl::ClBackProjector bp(
            info, *dev, std::make_unique<opencl::ClTextureLauncher>(opencl::TextureConfig{}),
            options);
        return bp.backProject(p.sino, p.geom, p.vol, p.weights, out, {});
    };
    Volume whole, retried, none;
    ASSERT_TRUE(run(0, whole).isOk());
    // Output bands of 64 rows (12 KiB) refused: 16-row bands after the angle chunks shrank.
    ASSERT_TRUE(run(48 * 20 * 4, retried).isOk());
    EXPECT_LT(test::maxRelError(retried, ref), 1e-4);
    EXPECT_LT(test::maxRelError(retried, whole), 1e-6);
    const Status refused = run(64, none);
    EXPECT_EQ(refused.code(), ErrorCode::OutOfMemory) << refused.toString();
}

// Issue 12: one variant table for every GPU backend. Each entry is registered as
// "opencl.<name>" with core's metadata, or skipped with a reason (the CUDA launch bounds).
TEST(OpenClRuntime, EveryEntryOfTheOneVariantTableIsRegisteredOrSkippedWithAReason) {
    TOMO_SKIP_WITHOUT_OPENCL();
    BackProjectorRegistry registry;
    const auto report = opencl::registerBackProjectors(registry);
    ASSERT_TRUE(report.available) << report.message;
    EXPECT_EQ(report.registered.size() + report.skipped.size(), gpuVariants().size());
    for (const GpuVariant& v : gpuVariants()) {
        const std::string id = "opencl." + v.name;
        SCOPED_TRACE(id);
        if (v.name.find(".occ1") != std::string::npos) {
            const auto skipped = std::find_if(report.skipped.begin(), report.skipped.end(),
                                              [&](const auto& s) { return s.first == id; });
            ASSERT_NE(skipped, report.skipped.end());
            EXPECT_NE(skipped->second.find("CUDA launch bound"), std::string::npos);
            continue;
        }
        if (!registry.contains(id)) continue;  // a capability this device lacks (reported)
        const BackProjectorInfo expected = gpuVariantInfo(v, "opencl");
        for (const BackProjectorInfo& info : registry.list("opencl")) {
            if (info.id != id) continue;
            EXPECT_EQ(info.family, expected.family);
            EXPECT_EQ(info.slicesPerPass, expected.slicesPerPass);
            EXPECT_EQ(info.exact, expected.exact);
            for (const auto& [key, value] : expected.parameters)
                EXPECT_EQ(info.parameters.at(key), value) << key;
        }
    }
}

TEST(OpenClRuntime, NoPlatformMeansNoVariantsAndAMessage) {
    // The ICD loader reads OCL_ICD_VENDORS once per process: ask a child process (this binary).
    if (std::getenv("TOMO_TEST_CHILD_NO_PLATFORM")) {
        BackProjectorRegistry registry;
        const auto report = opencl::registerBackProjectors(registry);
        EXPECT_FALSE(report.available);
        EXPECT_EQ(report.message.rfind("no OpenCL platform", 0), 0u) << report.message;
        EXPECT_TRUE(registry.list("opencl").empty());
        return;
    }
    const auto empty = freshDir("no-vendors");
    std::filesystem::create_directories(empty);
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const std::string cmd = "TOMO_TEST_CHILD_NO_PLATFORM=1 OCL_ICD_VENDORS=" + empty.string() +
                            " '" + self +
                            "' --gtest_filter=OpenClRuntime.NoPlatformMeansNoVariantsAndAMessage"
                            " > /dev/null 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

}  // namespace
}  // namespace tomo
