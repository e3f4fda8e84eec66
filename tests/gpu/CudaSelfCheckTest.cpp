// The full-size CUDA self-check's logic, on the CPU (no device needed): the windowed reference
// equals the full CPU FBP on those rows, the tolerance bounds follow their derivation, a CPU
// float back-projector passes as an exact candidate and a damaged one fails, the command line
// parses, and TOMO_REQUIRE_DEVICE turns a "no device" skip into a failure.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "GpuTestSupport.h"
#include "core/projectors/CpuBackProjectors.h"
#include "gpu/cuda/selfcheck/CheckProblem.h"
#include "gpu/cuda/selfcheck/CheckTolerance.h"
#include "gpu/cuda/selfcheck/SelfCheckOptions.h"

namespace tomo::cuda {
namespace {

struct Small {
    CheckProblem problem;
    std::unique_ptr<BackProjector> reference, candidate;
};

Small small(const char* candidate) {
    CheckShape shape;
    shape.size = 96;
    shape.projections = 120;
    shape.slices = 2;
    shape.windowRows = 4;
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    return {CheckProblem::create(shape).value(), registry.make("cpu.reference.lin").value(),
            registry.make(candidate).value()};
}

std::vector<double> bounds(const CheckProblem& p, ToleranceKind kind) {
    const SliceMagnitudes m = sliceMagnitudes(p.filtered(), p.weights());
    std::vector<double> b;
    for (std::size_t s = 0; s < m.absSum.size(); ++s)
        b.push_back(errorBound(kind, m.absSum[s], m.diffSum[s], m.weightSum[s],
                               coordinateError(p.coordinateMagnitude())));
    return b;
}

TEST(CudaSelfCheck, WindowsEqualTheFullReferenceOnTheirRows) {
    Small s = small("cpu.simd.lin");
    const CheckProblem& p = s.problem;
    Volume full;
    ASSERT_TRUE(
        s.reference->backProject(p.filtered(), p.geometry(), p.grid(), p.weights(), full, {})
            .isOk());
    const auto windows = p.reference(*s.reference, {}).value();
    ASSERT_EQ(windows.size(), p.windowBegins().size());
    double worst = 0;
    for (std::size_t k = 0; k < windows.size(); ++k)
        for (std::size_t z = 0; z < 2; ++z)
            for (std::size_t r = 0; r < 4; ++r)
                for (std::size_t x = 0; x < 96; ++x)
                    worst = std::max(worst, std::abs(double(windows[k](z, r, x)) -
                                                     full(z, p.windowBegins()[k] + r, x)));
    EXPECT_LT(worst, 1e-6);  // the same double sums at the same pixel centres
    // Distinct slices: a kernel that mixes slices up fails.
    EXPECT_GT(std::abs(double(full(0, 48, 48)) - full(1, 48, 48)), 1e-3);
}

TEST(CudaSelfCheck, FloatCandidatePassesAndDamagedFails) {
    Small s = small("cpu.simd.lin");
    const CheckProblem& p = s.problem;
    const auto ref = p.reference(*s.reference, {}).value();
    Volume out;
    ASSERT_TRUE(s.candidate->backProject(p.filtered(), p.geometry(), p.grid(), p.weights(), out, {})
                    .isOk());
    const Verdict good = judge(ToleranceKind::ExactLinear, out, ref, p.windowBegins(),
                               bounds(p, ToleranceKind::ExactLinear));
    EXPECT_TRUE(good.pass) << good.reason;
    EXPECT_LT(good.relL2, kExactRelative);
    EXPECT_LT(good.maxAbsOverBound, 1.0);
    // One projection of 120 left out: inside the worst-case texture bound, caught by the caps.
    std::vector<float> w = p.weights();
    w[17] = 0.0f;
    Volume missing;
    ASSERT_TRUE(
        s.candidate->backProject(p.filtered(), p.geometry(), p.grid(), w, missing, {}).isOk());
    for (ToleranceKind k : {ToleranceKind::ExactLinear, ToleranceKind::TextureLinear}) {
        const Verdict bad = judge(k, missing, ref, p.windowBegins(), bounds(p, k));
        EXPECT_FALSE(bad.pass) << toleranceName(k);
    }
    // One slice of the pass lost (what a flushed half texel would do).
    Volume lost = out.clone();
    for (std::size_t r = 0; r < lost.dim(1); ++r)
        for (float& v : lost.row(1, r))
            v = 0.0f;
    EXPECT_FALSE(judge(ToleranceKind::HalfNearest, lost, ref, p.windowBegins(),
                       bounds(p, ToleranceKind::HalfNearest))
                     .pass);
    Volume nan = out.clone();
    nan(0, 0, 3) = NAN;
    EXPECT_FALSE(judge(ToleranceKind::Oversampling, nan, ref, p.windowBegins(),
                       bounds(p, ToleranceKind::Oversampling))
                     .pass);
}

TEST(CudaSelfCheck, BoundsFollowTheirDerivation) {
    EXPECT_DOUBLE_EQ(coordinateError(2048), std::ldexp(1.0, -11));
    EXPECT_DOUBLE_EQ(coordinateError(2049), std::ldexp(1.0, -10));
    const double A = 10, D = 4, W = 3, du = 1e-3;
    EXPECT_DOUBLE_EQ(errorBound(ToleranceKind::ExactLinear, A, D, W, du), du * D + kSummation * A);
    EXPECT_DOUBLE_EQ(errorBound(ToleranceKind::TextureLinear, A, D, W, du),
                     (1.0 / 512 + du) * D + kSummation * A);
    EXPECT_DOUBLE_EQ(errorBound(ToleranceKind::HalfLinear, A, D, W, du),
                     du * D + A / 2048 + W * std::ldexp(1.0, -25) + kSummation * A);
    EXPECT_DOUBLE_EQ(errorBound(ToleranceKind::Oversampling, A, D, W, du),
                     (0.125 + 1.0 / 512 + du) * D + kSummation * A);
    // A_s and D_s of a tiny stack by hand: rows {1, -2, 0} and {0, 0, 3}, weights 0.5 and 2.
    Sinograms s(1, 2, 3);
    s(0, 0, 0) = 1;
    s(0, 0, 1) = -2;
    s(0, 1, 2) = 3;
    const std::vector<float> w{0.5f, 2.0f};
    const SliceMagnitudes m = sliceMagnitudes(s, w);
    EXPECT_DOUBLE_EQ(m.absSum[0], 0.5 * 2 + 2 * 3);
    EXPECT_DOUBLE_EQ(m.diffSum[0], 0.5 * 3 + 2 * 3);
    EXPECT_DOUBLE_EQ(m.weightSum[0], 2.5);
}

TEST(CudaSelfCheck, KindsFollowTheMetadata) {
    BackProjectorInfo i;
    i.family = "alu";
    i.interpolation = Interpolation::Linear;
    i.precision = "float32";
    EXPECT_EQ(toleranceKind(i), ToleranceKind::ExactLinear);
    i.family = "texture";
    EXPECT_EQ(toleranceKind(i), ToleranceKind::TextureLinear);
    i.family = "hybrid";
    EXPECT_EQ(toleranceKind(i), ToleranceKind::TextureLinear);
    i.interpolation = Interpolation::Nearest;
    EXPECT_EQ(toleranceKind(i), ToleranceKind::ExactNearest);
    i.precision = "half";
    EXPECT_EQ(toleranceKind(i), ToleranceKind::HalfNearest);
    i.family = "oversampling";
    EXPECT_EQ(toleranceKind(i), ToleranceKind::Oversampling);
}

TEST(CudaSelfCheck, CommandLine) {
    auto o = parseSelfCheckOptions({"--family", "alu", "--size", "512", "--no-fbp"}).value();
    EXPECT_EQ(o.family, "alu");
    EXPECT_EQ(o.shape.size, 512);
    EXPECT_FALSE(o.fbp);
    EXPECT_EQ(o.effectiveBandRows(), 128);
    EXPECT_EQ(o.effectiveAngleChunk(), 3 * 2048 / 16 + 1);  // 385: 6 chunks, the last partial
    EXPECT_TRUE(selectsVariant(o, "cuda.alu.lin.1s.32x32", "alu"));
    EXPECT_FALSE(selectsVariant(o, "cuda.texture.lin.1s", "texture"));
    o.variants = "cuda.alu.nn.1s.32x32,cuda.alu.lin.2s.32x32";
    EXPECT_TRUE(selectsVariant(o, "cuda.alu.lin.2s.32x32", "alu"));
    EXPECT_FALSE(selectsVariant(o, "cuda.alu.lin.2s", "alu"));
    EXPECT_TRUE(parseSelfCheckOptions({"--bench", "--repeat", "1"}).value().bench);
    for (const std::vector<std::string>& bad : {std::vector<std::string>{"--size"},
                                                {"--size", "0"},
                                                {"--size", "12x"},
                                                {"--family", "gpu"},
                                                {"--frobnicate"},
                                                {"--size", "64", "--window-rows", "17"}})
        EXPECT_EQ(parseSelfCheckOptions(bad).status().code(), ErrorCode::InvalidArgument)
            << bad.front();
}

void skipForLackOfDevice() {
    TOMO_DEVICE_SKIP("no device in this test");
}

TEST(GpuTestSupport, RequireDeviceTurnsSkipsIntoFailures) {
    const char* old = std::getenv("TOMO_REQUIRE_DEVICE");
    const std::string saved = old ? old : "";
    setenv("TOMO_REQUIRE_DEVICE", "1", 1);
    EXPECT_TRUE(test::deviceRequired());
    EXPECT_FATAL_FAILURE(skipForLackOfDevice(), "TOMO_REQUIRE_DEVICE is set, but no device");
    setenv("TOMO_REQUIRE_DEVICE", "0", 1);
    EXPECT_FALSE(test::deviceRequired());
    if (old)
        setenv("TOMO_REQUIRE_DEVICE", saved.c_str(), 1);
    else
        unsetenv("TOMO_REQUIRE_DEVICE");
}

}  // namespace
}  // namespace tomo::cuda
