// The forward projector's ray-group kernel: every instruction set against a double-precision
// evaluation of the same samples, and bit for bit against the portable scalar loop; the
// AVX-512 window path against the gathers and the scalar loop on strips around the window
// limit, crossing the image edges.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/locality/LocalityKernels.h"
#include "core/locality/RayGeometry.h"

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

/// Double-precision sum of lane @p l's samples (the float positions of the kernel).
double referenceSum(const RayGroup& g, int l, int kBegin, int kEnd) {
    double ref = 0;
    for (int k = std::max(kBegin, g.first[l]); k < std::min(kEnd, g.last[l]); ++k) {
        const double pos = double(g.pos0[l] + g.d * float(k));
        const double fl = std::floor(pos), f = pos - fl;
        const int i = int(fl);
        const float* line = g.image + std::size_t(k) * g.linePitch + kLinePad;
        ref += (1 - f) * line[i] + f * line[i + 1];
    }
    return ref;
}

TEST(LocalityKernels, WindowPathEqualsGathersAndScalarLaneByLane) {
    // Lines exactly as long as the image (no slack after the last line: the window's masked
    // loads must not read past it). Rays enter and leave through every edge.
    constexpr int kLines = 53, kLength = 61;
    const std::size_t pitch = kLength + 2 * kLinePad;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> value(-1.f, 1.f);
    std::vector<float> image(kLines * pitch, 0.f);
    for (int k = 0; k < kLines; ++k)
        for (int i = 0; i < kLength; ++i)
            image[std::size_t(k) * pitch + std::size_t(i + kLinePad)] = value(rng);
    struct Strip {
        float start, b, d;  // pos0_l = start + b l; position step per line d
        int emptyLanes;     // trailing lanes left unused (pos0 = 0, empty range)
        bool fits;          // expected rayGroupFitsWindow
    };
    const float limitStep = kWindowSpread / float(kRayLanes - 1);
    const Strip strips[] = {
        {-20.3f, 1.f, 0.83f, 0, true},                  // pitch = voxel, rays cross the left edge
        {40.7f, 1.41421f, -0.99f, 0, true},            // 45 degrees, right edge
        {-9.999f, limitStep, 0.61f, 0, true},          // spread exactly at the limit
        {70.01f, -limitStep, -1.0f, 0, true},          // decreasing positions, limit
        {-9.5f, limitStep * 1.002f, 0.37f, 0, false},  // just past the limit: gathers
        {3.2f, 0.8f, 0.f, 0, true},                    // rays along the lines
        {50.5f, -1.2f, 0.2f, 5, true},                 // partial group (empty lanes)
        {1.1f, 4.7f, -0.3f, 0, false},                 // spread detectors (ordering (a))
    };
    for (const Strip& s : strips) {
        RayGroup g;
        g.image = image.data();
        g.linePitch = pitch;
        g.lineLength = kLength;
        g.d = s.d;
        for (int l = 0; l < kRayLanes - s.emptyLanes; ++l) {
            g.pos0[l] = s.start + s.b * float(l);
            const auto [lo, hi] = activeLines(g.pos0[l], g.d, kLength, kLines);
            g.first[l] = lo;
            g.last[l] = hi;
        }
        EXPECT_EQ(rayGroupFitsWindow(g), s.fits) << s.start << " " << s.b;
        for (auto [kBegin, kEnd] : {std::pair{0, kLines}, std::pair{9, 31}}) {
            float generic[kRayLanes];
            sumRayGroup(CpuIsa::Generic, g, kBegin, kEnd, generic);
            for (int l = 0; l < kRayLanes; ++l) {
                const double ref = referenceSum(g, l, kBegin, kEnd);
                EXPECT_NEAR(generic[l], ref, 1e-5 * std::max(1.0, std::abs(ref))) << l;
            }
            for (int l = kRayLanes - s.emptyLanes; l < kRayLanes; ++l)
                EXPECT_EQ(generic[l], 0.f) << l;
            for (CpuIsa isa : {CpuIsa::Avx2, CpuIsa::Avx512}) {
                if (!cpuIsaSupported(isa)) continue;
                for (bool window : {true, false}) {
                    float simd[kRayLanes];
                    sumRayGroup(isa, g, kBegin, kEnd, simd, window);
                    for (int l = 0; l < kRayLanes; ++l)
                        EXPECT_EQ(simd[l], generic[l])
                            << cpuIsaName(isa) << (window ? " window" : " gather") << " strip "
                            << s.start << " lane " << l << " lines " << kBegin;
                }
            }
        }
    }
}

}  // namespace
}  // namespace tomo::detail
