// The fast matched Joseph pair entry by entry: the dense matrix of forward() (unit images)
// against the double-precision Joseph weights step * max(0, 1 - |a + b j + d k - i|) of
// RayGeometry.h, and adjoint() (unit sinograms) against the transpose of that same dense
// forward matrix, on non-square grids with offsets, row- and column-dominant angles (including
// exactly 0 and 90 degrees, where rays hit pixel centres), rays leaving the image and detector
// pitches giving 2, 3 and many candidate rays per pixel (window and gather paths). Plus the
// adjoint line kernel of every instruction set against its portable loop.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/locality/JosephKernels.h"
#include "core/locality/JosephOperator.h"
#include "core/locality/RayGeometry.h"

namespace tomo {
namespace {

struct Case {
    int nx, ny;
    double pitch, center, voxel, cx, cy;
    std::vector<double> angles;
};

std::vector<Case> cases() {
    std::vector<double> irregular;
    for (int i = 0; i < 23; ++i)
        irregular.push_back(0.05 + i * 0.151 + 0.02 * std::sin(3.0 * i));
    const std::vector<double> axes = {0.0, kPi / 4, kPi / 2, 3 * kPi / 4, kPi, 1.3 * kPi};
    return {
        {19, 14, 1.25, 12.3, 1.1, 0.3, -0.2, irregular},  // 2 candidates, window path
        {16, 21, 1.0, 11.0, 1.0, 0.0, 0.0, axes},         // |b| = 1: 3 candidates, exact hits
        {13, 17, 0.4, 24.6, 1.0, -0.4, 0.7, irregular},   // fine pitch: many, gathers
        {21, 12, 2.7, 5.2, 1.0, 0.5, 0.25, irregular},    // coarse pitch, rays outside
    };
}

/// Dense forward matrix A[ray][pixel] (ray = angle * det + j, pixel = iy * nx + ix).
std::vector<double> denseForward(JosephOperator& op) {
    const std::size_t n = op.domainSize(), m = op.rangeSize();
    std::vector<double> a(m * n);
    std::vector<float> e(n, 0.f), col(m);
    for (std::size_t px = 0; px < n; ++px) {
        e[px] = 1.f;
        EXPECT_TRUE(op.forward(e, col, {1, {}, nullptr}).isOk());
        e[px] = 0.f;
        for (std::size_t r = 0; r < m; ++r)
            a[r * n + px] = col[r];
    }
    return a;
}

TEST(JosephOperatorEntries, ForwardIsTheJosephModelAndAdjointItsTranspose) {
    for (const Case& c : cases()) {
        ParallelGeometry::Params gp;
        gp.angles = c.angles;
        gp.detectorCount = 31;
        gp.detectorPitch = c.pitch;
        gp.centerOfRotation = c.center;
        auto geom = ParallelGeometry::create(gp);
        ASSERT_TRUE(geom.isOk());
        const VolumeGeometry vol{c.nx, c.ny, 1, c.voxel, c.cx, c.cy};
        auto op = std::move(JosephOperator::create(*geom, vol)).value();
        const std::size_t n = op->domainSize(), m = op->rangeSize(), det = 31;
        const std::vector<double> a = denseForward(*op);
        // Forward entries against the double-precision model (positions rounded to float:
        // |error| <= step * 4 ulp(|pos| < 64)).
        const std::vector<RayAngle> rays = rayAngles(*geom, vol);
        std::size_t nonzero = 0;
        for (std::size_t r = 0; r < m; ++r) {
            const RayAngle& ra = rays[r / det];
            const double j = double(r % det);
            for (int iy = 0; iy < c.ny; ++iy)
                for (int ix = 0; ix < c.nx; ++ix) {
                    const double k = ra.alongRows ? iy : ix, i = ra.alongRows ? ix : iy;
                    const double w =
                        ra.step * std::max(0.0, 1.0 - std::abs(ra.a + ra.b * j + ra.d * k - i));
                    const double got = a[r * n + std::size_t(iy * c.nx + ix)];
                    ASSERT_NEAR(got, w, 3e-5 * ra.step)
                        << "ray " << r << " pixel " << iy << "," << ix << " pitch " << c.pitch;
                    nonzero += got != 0.0;
                }
        }
        EXPECT_GT(nonzero, m);  // most rays cross the image
        // Adjoint of each unit sinogram = the row of the dense forward matrix.
        std::vector<float> ey(m, 0.f), row(n);
        for (std::size_t r = 0; r < m; ++r) {
            ey[r] = 1.f;
            ASSERT_TRUE(op->adjoint(ey, row, {1, {}, nullptr}).isOk());
            ey[r] = 0.f;
            for (std::size_t px = 0; px < n; ++px)
                ASSERT_NEAR(row[px], a[r * n + px], 1e-6 * rays[r / det].step)
                    << "ray " << r << " pixel " << px << " pitch " << c.pitch;
        }
    }
}

TEST(JosephOperatorEntries, AdjointIndependentOfThreadCountAndDotProductHolds) {
    const Case c = cases()[2];
    ParallelGeometry::Params gp;
    gp.angles = c.angles;
    gp.detectorCount = 40;
    gp.detectorPitch = 0.8;
    gp.centerOfRotation = 19.5;
    gp.rows = 3;
    auto geom = ParallelGeometry::create(gp);
    const VolumeGeometry vol{37, 29, 3, 1.0, 0.2, -0.6};
    auto op = std::move(JosephOperator::create(*geom, vol)).value();
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> dist(-1.f, 1.f);
    std::vector<float> x(op->domainSize()), y(op->rangeSize());
    for (float& v : x)
        v = dist(rng);
    for (float& v : y)
        v = dist(rng);
    std::vector<float> ax(y.size()), aty1(x.size()), aty2(x.size());
    ASSERT_TRUE(op->forward(x, ax, {2, {}, nullptr}).isOk());
    ASSERT_TRUE(op->adjoint(y, aty1, {1, {}, nullptr}).isOk());
    ASSERT_TRUE(op->adjoint(y, aty2, {2, {}, nullptr}).isOk());
    EXPECT_EQ(aty1, aty2);
    double lhs = 0, rhs = 0, scale = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        lhs += double(ax[i]) * y[i];
        scale += std::abs(double(ax[i]) * y[i]);
    }
    for (std::size_t i = 0; i < x.size(); ++i)
        rhs += double(x[i]) * aty1[i];
    EXPECT_NEAR(lhs, rhs, 1e-6 * scale);
}

TEST(JosephKernels, AdjointLineEqualsPortableLoopOnEveryIsa) {
    constexpr int kDet = 50, kPad = 12, kLength = 45;
    for (double b : {1.0, -1.3, 0.45, 2.2}) {
        std::vector<float> pos0(kDet + 2 * kPad + detail::kJosephWindow), sino(pos0.size(), 0.f);
        std::mt19937 rng(9);
        std::uniform_real_distribution<float> dist(0.f, 1.f);
        const double a = b > 0 ? -3.7 : 50.2;
        for (int j = -kPad; j < int(pos0.size()) - kPad; ++j) {
            pos0[std::size_t(j + kPad)] = static_cast<float>(a + b * j);
            if (j >= 0 && j < kDet) sino[std::size_t(j + kPad)] = dist(rng);
        }
        detail::JosephAdjointAngle g;
        g.pos0 = pos0.data() + kPad;
        g.sino = sino.data() + kPad;
        g.detectors = kDet;
        g.pad = kPad;
        g.halfWidth = detail::josephHalfWidth(b, 120.0, kDet);
        g.candidates = detail::josephCandidates(g.halfWidth);
        ASSERT_LT(g.candidates, kPad);
        g.window = detail::josephWindowFits(b, g.candidates);
        g.a = a;
        g.d = 0.31;
        g.invB = static_cast<float>(1.0 / b);
        g.step = 1.2f;
        // Double-precision reference of the same weights (float positions).
        std::vector<double> ref(7 * kLength, 0.0);
        for (int k = 3; k < 10; ++k)
            for (int i = 0; i < kLength; ++i)
                for (int j = 0; j < kDet; ++j) {
                    const float pos = g.pos0[j] + static_cast<float>(g.d) * float(k);
                    const double w = std::max(0.0, 1.0 - std::abs(double(pos) - i));
                    ref[std::size_t((k - 3) * kLength + i)] += 1.2 * w * g.sino[j];
                }
        for (CpuIsa isa : {CpuIsa::Generic, CpuIsa::Avx2, CpuIsa::Avx512}) {
            if (!cpuIsaSupported(isa)) continue;
            std::vector<float> acc(7 * kLength, 0.f);
            detail::josephAdjointLines(isa, g, 3, 10, 0, kLength, acc.data(), kLength);
            for (std::size_t n = 0; n < acc.size(); ++n)
                ASSERT_NEAR(acc[n], ref[n], 2e-6 * (1.0 + std::abs(ref[n])))
                    << cpuIsaName(isa) << " b " << b << " at " << n;
        }
    }
}

}  // namespace
}  // namespace tomo
