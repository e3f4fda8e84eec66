// Nearest interpolation of every CPU variant at 1024^2 against the double reference, within the
// derived per-pixel flip bound of NearestAccuracy.h (the GPU variants run the same check in
// tests/gpu/GpuVariantTest.cpp).
#include <gtest/gtest.h>

#include "NearestAccuracy.h"
#include "ProjectorTestUtil.h"
#include "core/projectors/CpuBackProjectors.h"

namespace tomo {
namespace {

TEST(NearestAccuracy, CpuVariantsAt1024WithinFlipBound) {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    // 16 projections, 2 slices: 3.4e7 samples, a fraction of a second per variant.
    const test::NearestProblem problem = test::nearestProblem(1024, 16, 2);
    int checked = 0;
    for (const BackProjectorInfo& info : registry.list("cpu")) {
        if (info.interpolation != Interpolation::Nearest || info.family == "reference") continue;
        auto bp = test::unwrap(registry.make(info.id));
        test::expectNearestWithinFlipBound(*bp, problem);
        ++checked;
    }
    EXPECT_GE(checked, 3);  // scalar, simd alias, generic at least
}

/// A defective nearest kernel: cpu.scalar.nn reading half a bin too far (u + 1/2).
class HalfBinOff final : public BackProjector {
  public:
    explicit HalfBinOff(std::unique_ptr<BackProjector> inner) : m_inner(std::move(inner)) {}
    const BackProjectorInfo& info() const override { return m_inner->info(); }
    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override {
        ParallelGeometry::Params params = geom.params();
        params.centerOfRotation += 0.5;
        TOMO_ASSIGN_OR_RETURN(ParallelGeometry shifted, ParallelGeometry::create(params));
        return m_inner->backProject(sino, shifted, vol, weights, out, ctx);
    }

  private:
    std::unique_ptr<BackProjector> m_inner;
};

// The check itself fails a kernel half a bin off and one that interpolates linearly.
TEST(NearestAccuracy, FlipBoundCatchesDefects) {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    const test::NearestProblem problem = test::nearestProblem(256, 8, 1);
    HalfBinOff off(test::unwrap(registry.make("cpu.scalar.nn")));
    EXPECT_GT(test::checkNearest(off, problem).pixelsOverBound, 256 * 256 / 2);
    auto linear = test::unwrap(registry.make("cpu.scalar.lin"));
    EXPECT_GT(test::checkNearest(*linear, problem).pixelsOverBound, 256 * 256 / 2);
    auto nearest = test::unwrap(registry.make("cpu.scalar.nn"));
    EXPECT_EQ(test::checkNearest(*nearest, problem).pixelsOverBound, 0);
}

}  // namespace
}  // namespace tomo
