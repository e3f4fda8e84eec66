// The forward projector's ray-group kernel: every instruction set against a double-precision
// evaluation of the same samples, and bit for bit against the portable scalar loop.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/locality/LocalityKernels.h"

namespace tomo::detail {
namespace {

TEST(LocalityKernels, RayGroupSumsMatchDoubleReferenceOnEveryIsa) {
    constexpr int kLines = 41, kLength = 37;
    const std::size_t pitch = kLength + 2 * kLinePad;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(0.f, 1.f);
    std::vector<float> image(kLines * pitch, 0.f);
    for (int k = 0; k < kLines; ++k)
        for (int i = 0; i < kLength; ++i)
            image[std::size_t(k) * pitch + std::size_t(i + kLinePad)] = value(rng);
    RayGroup g;
    g.image = image.data();
    g.linePitch = pitch;
    g.lineLength = kLength;
    g.d = -0.37f;
    for (int l = 0; l < kRayLanes; ++l) {
        g.pos0[l] = 3.3f + 1.21f * float(l);
        // Active lines where -1 < pos < kLength; lane 5 unused (empty range).
        const double lo = std::max(0.0, std::floor(double(g.pos0[l] - kLength) / -g.d));
        const double hi =
            std::min<double>(kLines, std::ceil((double(g.pos0[l]) + 1.0) / -g.d) + 1.0);
        g.first[l] = l == 5 ? 0 : int(lo);
        g.last[l] = l == 5 ? 0 : int(hi);
    }
    for (auto [kBegin, kEnd] : {std::pair{0, kLines}, std::pair{7, 23}}) {
        float generic[kRayLanes];
        sumRayGroup(CpuIsa::Generic, g, kBegin, kEnd, generic);
        for (int l = 0; l < kRayLanes; ++l) {
            double ref = 0;
            for (int k = std::max(kBegin, g.first[l]); k < std::min(kEnd, g.last[l]); ++k) {
                const double pos = double(g.pos0[l] + g.d * float(k));
                const double fl = std::floor(pos), f = pos - fl;
                const float* line = image.data() + std::size_t(k) * pitch + kLinePad;
                const int i = int(fl);
                ref += (1 - f) * line[i] + f * line[i + 1];
            }
            EXPECT_NEAR(generic[l], ref, 1e-5 * std::max(1.0, std::abs(ref))) << l;
        }
        EXPECT_EQ(generic[5], 0.f);
        for (CpuIsa isa : {CpuIsa::Avx2, CpuIsa::Avx512}) {
            if (!cpuIsaSupported(isa)) continue;
            float simd[kRayLanes];
            sumRayGroup(isa, g, kBegin, kEnd, simd);
            for (int l = 0; l < kRayLanes; ++l)
                EXPECT_EQ(simd[l], generic[l]) << cpuIsaName(isa) << " lane " << l;
        }
    }
}

}  // namespace
}  // namespace tomo::detail
