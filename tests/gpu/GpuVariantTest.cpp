// Every registered variant of the executable's GPU backend (OpenCL in tomo_gpu_tests, CUDA in
// tomo_gpu_cuda_tests; GpuTestSupport.h) against the double-precision CPU reference: the same
// source for every backend and variant, the list comes from the registry. Skips at run time
// when the backend has no device.
#include <gtest/gtest.h>

#include <iostream>
#include <stop_token>

#include "../core/projectors/NearestAccuracy.h"
#include "GpuTestSupport.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

using test::backendSetup;
using test::backendVariants;

/// Runs every variant and its reference on @p p and checks them; prints the errors.
void checkAllVariants(const test::BackProjectionProblem& p, const std::string& label) {
    const auto variants = backendVariants();
    ASSERT_FALSE(variants.empty());
    for (const BackProjectorInfo& info : variants) {
        SCOPED_TRACE(info.id + " on " + label);
        Volume ref = test::runVariant(test::referenceFor(info.interpolation), p);
        Volume out = test::runVariant(info.id, p);
        const double l2 = test::expectMatchesReference(info, out, ref);
        std::cout << "  " << label << "  " << info.id << ": rel L2 " << l2 << ", max rel "
                  << test::maxRelError(out, ref) << "\n";
    }
}

TEST(GpuVariants, RegistrationReportsDeviceAndSkippedVariants) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const auto& report = backendSetup();
    std::cout << report.backend << " device: " << report.device << "\n";
    for (const auto& [id, why] : report.skipped)
        std::cout << "  skipped " << id << ": " << why << "\n";
    EXPECT_EQ(report.registered.size(), backendVariants().size());
    for (const BackProjectorInfo& info : backendVariants()) {
        EXPECT_EQ(info.backend, report.backend);
        EXPECT_EQ(info.id.rfind(report.backend + "." + info.family + ".", 0), 0u) << info.id;
        EXPECT_TRUE(info.slicesPerPass == 1 || info.slicesPerPass == 2 || info.slicesPerPass == 4);
        // Reduced storage precision is always approximate; float32 variants may be approximate
        // too (oversampling).
        if (info.precision != "float32" || info.family == "oversampling") {
            EXPECT_FALSE(info.exact) << info.id;
        }
        EXPECT_FALSE(info.description.empty());
    }
    // The standard single-slice texture kernel runs on every device with float images.
    EXPECT_TRUE(report.registry->contains(report.backend + ".texture.lin.1s"));
}

TEST(GpuVariants, MatchReferenceOnRandomSinograms) {
    TOMO_SKIP_WITHOUT_BACKEND();
    // 37x35 image (not a tile multiple), 3 slices (odd for 2/4-slice passes), jittered angles,
    // shifted axis with per-projection corrections.
    checkAllVariants(test::randomProblem({}, 11), "random");
}

TEST(GpuVariants, MatchReferenceOnSheppLoganSinogram) {
    TOMO_SKIP_WITHOUT_BACKEND();
    test::ProblemShape shape;
    shape.nx = shape.ny = 48;
    shape.detectors = 64;
    shape.angles = 40;
    shape.slices = 2;
    shape.jitterAngles = false;
    shape.centerShift = 0.0;
    shape.voxelSize = 2.0 / 48;
    auto p = test::randomProblem(shape, 5);
    ParallelGeometry::Params params = p.geom.params();
    params.centerCorrection.clear();
    params.detectorPitch = 2.0 / 48;
    p.geom = ParallelGeometry::create(params).value();
    ASSERT_TRUE(Phantom::sheppLogan3d().project(p.geom, p.sino, 2).isOk());
    for (float& w : p.weights)
        w = static_cast<float>(kPi / shape.angles);
    checkAllVariants(p, "shepp-logan");
}

TEST(GpuVariants, MatchReferenceOnAwkwardShapes) {
    TOMO_SKIP_WITHOUT_BACKEND();
    struct Case {
        const char* name;
        test::ProblemShape shape;
    };
    std::vector<Case> cases;
    test::ProblemShape s;
    s.angles = 1;
    cases.push_back({"one projection", s});
    s = {};
    s.slices = 1;
    cases.push_back({"one slice", s});
    s = {};
    s.slices = 5;
    s.nx = 17;
    s.ny = 1;
    cases.push_back({"five slices, one row", s});
    s = {};
    s.detectors = 12;
    s.nx = 40;
    s.ny = 33;
    cases.push_back({"detector narrower than the image", s});
    s = {};
    s.centerShift = -9.7;
    s.voxelSize = 0.7;
    cases.push_back({"shifted centre, small voxels", s});
    s = {};
    s.range = kPi / 3;
    s.firstAngle = 2.0;
    cases.push_back({"limited angular range", s});
    s = {};
    s.nx = 1;
    s.ny = 1;
    s.slices = 2;
    cases.push_back({"one pixel", s});
    std::uint32_t seed = 100;
    for (const Case& c : cases)
        checkAllVariants(test::randomProblem(c.shape, seed++), c.name);
}

// Exact nearest variants at 1024^2 within the derived per-pixel flip bound of
// tests/core/projectors/NearestAccuracy.h (the CPU variants run the same check there): only
// samples whose exact coordinate lies within float rounding of a half-integer may pick the
// other bin. 16 projections, 2 slices keep it short on PoCL.
TEST(GpuVariants, NearestAt1024WithinFlipBound) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const test::NearestProblem problem = test::nearestProblem(1024, 16, 2);
    int checked = 0;
    for (const BackProjectorInfo& info : backendVariants()) {
        if (info.interpolation != Interpolation::Nearest || !info.exact) continue;
        auto bp = backendSetup().registry->make(info.id).value();
        test::expectNearestWithinFlipBound(*bp, problem);
        ++checked;
    }
    EXPECT_GE(checked, 1);
}

TEST(GpuVariants, ReportProgressAndHonourStop) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const auto p = test::randomProblem({}, 3);
    for (const BackProjectorInfo& info : backendVariants()) {
        SCOPED_TRACE(info.id);
        auto bp = backendSetup().registry->make(info.id).value();
        Progress progress;
        ExecContext ctx;
        ctx.progress = &progress;
        Volume out;
        ASSERT_TRUE(bp->backProject(p.sino, p.geom, p.vol, p.weights, out, ctx).isOk());
        EXPECT_DOUBLE_EQ(progress.fraction(), 1.0);
        const Volume first = out.clone();
        std::stop_source stop;
        stop.request_stop();
        ctx.stop = stop.get_token();
        EXPECT_EQ(bp->backProject(p.sino, p.geom, p.vol, p.weights, out, ctx).code(),
                  ErrorCode::Cancelled);
        // The instance stays usable after a cancelled call.
        ctx = {};
        Volume again;
        ASSERT_TRUE(bp->backProject(p.sino, p.geom, p.vol, p.weights, again, ctx).isOk());
        if (info.family == "hybrid" && info.backend == "cuda") {
            // Per-SM tickets: which tiles take the ALU path (float interpolation) and which the
            // texture path (8-bit filter weights) depends on the block schedule, so repeated runs
            // agree to the texture tolerance, not bit for bit.
            EXPECT_LT(test::maxRelError(again, first), test::exactTolerance(info));
        } else {
            EXPECT_EQ(test::maxRelError(again, first), 0.0);  // deterministic
        }
    }
}

}  // namespace
}  // namespace tomo
