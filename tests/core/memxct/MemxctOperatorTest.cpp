// The MemXCT operator: exact adjoint, agreement with analytic line integrals, memory estimate,
// masking, kernels, slices and errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <stop_token>
#include <vector>

#include "core/memxct/MemxctOperator.h"
#include "core/phantom/Phantom.h"
#include "core/projectors/ForwardProjector.h"

namespace tomo {
namespace {

ParallelGeometry makeGeometry(int angles, int detectors, int rows, double pitch = 1.0,
                              bool corrections = false) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.0, kPi, angles);
    p.detectorCount = detectors;
    p.rows = rows;
    p.detectorPitch = pitch;
    if (corrections)
        for (int a = 0; a < angles; ++a)
            p.centerCorrection.push_back(0.3 * std::sin(a * 0.7));
    return ParallelGeometry::create(p).value();
}

std::vector<float> randomVector(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v)
        x = u(rng);
    return v;
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += double(a[i]) * b[i];
    return s;
}

TEST(MemxctOperator, AdjointIsTheExactTranspose) {
    const ParallelGeometry geom = makeGeometry(23, 40, 2, 1.3, true);
    VolumeGeometry vol;
    vol.nx = 37;
    vol.ny = 29;
    vol.nz = 2;
    vol.voxelSize = 1.1;
    vol.offsetX = 0.4;
    for (bool mask : {false, true})
        for (MemxctKernel kernel : {MemxctKernel::Csr, MemxctKernel::Buffered}) {
            MemxctOptions o;
            o.kernel = kernel;
            o.circleMask = mask;
            o.tileSize = 8;
            o.bufferFloats = 64;  // several stages per partition
            o.partitionRows = 16;
            auto op = MemxctOperator::create(geom, vol, o, {2, {}, nullptr});
            ASSERT_TRUE(op.isOk()) << op.status().toString();
            EXPECT_TRUE((*op)->matchedAdjoint());
            const auto x = randomVector((*op)->domainSize(), 1);
            const auto y = randomVector((*op)->rangeSize(), 2);
            std::vector<float> ax((*op)->rangeSize()), aty((*op)->domainSize());
            ASSERT_TRUE((*op)->forward(x, ax, {2, {}, nullptr}).isOk());
            ASSERT_TRUE((*op)->adjoint(y, aty, {2, {}, nullptr}).isOk());
            const double lhs = dot(ax, y), rhs = dot(x, aty);
            EXPECT_GT(lhs, 0.0);
            EXPECT_NEAR(lhs / rhs, 1.0, 2e-6) << "mask " << mask << " " << (*op)->name();
        }
}

TEST(MemxctOperator, ProjectsAPhantomLikeItsAnalyticSinogram) {
    const int n = 128;
    const ParallelGeometry geom = makeGeometry(90, n, 1);
    const VolumeGeometry vol = VolumeGeometry::forDetector(geom, n);
    const Phantom phantom = Phantom::sheppLogan2d(0.5 * n);
    Volume image;
    ASSERT_TRUE(phantom.rasterize(vol, image, 8).isOk());
    Sinograms analytic;
    ASSERT_TRUE(phantom.project(geom, analytic, 1).isOk());
    MemxctOptions o;
    o.circleMask = false;
    auto op = MemxctOperator::create(geom, vol, o, {2, {}, nullptr});
    ASSERT_TRUE(op.isOk()) << op.status().toString();
    std::vector<float> x(static_cast<std::size_t>(n * n)), y((*op)->rangeSize());
    for (int iy = 0; iy < n; ++iy)
        for (int ix = 0; ix < n; ++ix)
            x[static_cast<std::size_t>(iy * n + ix)] = image(0, iy, ix);
    ASSERT_TRUE((*op)->forward(x, y, {2, {}, nullptr}).isOk());
    Sinograms joseph;
    ASSERT_TRUE(forwardProjectJoseph(image, vol, geom, joseph, {2, {}, nullptr}).isOk());
    double err = 0, errJoseph = 0, norm = 0, maxAbs = 0;
    for (int a = 0; a < 90; ++a)
        for (int d = 0; d < n; ++d) {
            const double ref = analytic(0, a, d), got = y[static_cast<std::size_t>(a * n + d)];
            err += (got - ref) * (got - ref);
            errJoseph += (joseph(0, a, d) - ref) * (joseph(0, a, d) - ref);
            norm += ref * ref;
            maxAbs = std::max(maxAbs, std::abs(ref));
        }
    // Pixelisation of the phantom (its sharp skull edges) is the only difference; the
    // interpolating Joseph projector of the same image is off by a similar amount.
    std::printf("relative L2 error: Siddon %.4f, Joseph %.4f\n", std::sqrt(err / norm),
                std::sqrt(errJoseph / norm));
    EXPECT_LT(std::sqrt(err / norm), 0.03);
    EXPECT_LT(std::sqrt(err / norm), 1.2 * std::sqrt(errJoseph / norm));
    EXPECT_GT(maxAbs, 10.0);
}

TEST(MemxctOperator, MemoryEstimateBoundsTheBuiltSystem) {
    const ParallelGeometry geom = makeGeometry(60, 64, 1);
    const VolumeGeometry vol = VolumeGeometry::forDetector(geom, 64);
    for (bool mask : {false, true}) {
        MemxctOptions o;
        o.circleMask = mask;
        auto est = estimateMemxctMemory(geom, vol, o);
        ASSERT_TRUE(est.isOk());
        auto sys = MemxctSystem::build(geom, vol, o, {2, {}, nullptr});
        ASSERT_TRUE(sys.isOk());
        EXPECT_GE(est->nonzeros, sys->nonzeros());
        EXPECT_LT(double(est->nonzeros), 1.25 * double(sys->nonzeros())) << "mask " << mask;
        EXPECT_GT(double(est->residentBytes), 0.7 * double(sys->residentBytes()));
        EXPECT_LT(double(est->residentBytes), 1.6 * double(sys->residentBytes()));
    }
}

TEST(MemxctOperator, RefusesWhenOverBudget) {
    const ParallelGeometry geom = makeGeometry(60, 64, 1);
    const VolumeGeometry vol = VolumeGeometry::forDetector(geom, 64);
    MemxctOptions o;
    o.memoryBudgetBytes = 1 << 20;  // the system needs a few MiB
    auto op = MemxctOperator::create(geom, vol, o, {});
    ASSERT_FALSE(op.isOk());
    EXPECT_EQ(op.status().code(), ErrorCode::OutOfMemory);
    EXPECT_NE(op.status().message().find("budget"), std::string::npos);
}

TEST(MemxctOperator, MaskKernelsAndSlicesAreConsistent) {
    const ParallelGeometry geom = makeGeometry(31, 32, 3);
    VolumeGeometry vol = VolumeGeometry::forDetector(geom, 32);
    vol.nz = 3;
    MemxctOptions o;
    o.keepCsr = true;
    o.bufferFloats = 100;
    o.tileSize = 4;
    auto op = MemxctOperator::create(geom, vol, o, {2, {}, nullptr});
    ASSERT_TRUE(op.isOk());
    const std::size_t slice = 32 * 32, samples = 31 * 32;
    auto x = randomVector(3 * slice, 5);
    const auto y = randomVector(3 * samples, 6);
    std::vector<float> fb(3 * samples), fc(3 * samples), bb(3 * slice), bc(3 * slice);
    ASSERT_TRUE((*op)->forward(x, fb, {}).isOk());
    ASSERT_TRUE((*op)->adjoint(y, bb, {}).isOk());
    (*op)->setKernel(MemxctKernel::Csr);
    ASSERT_TRUE((*op)->forward(x, fc, {}).isOk());
    ASSERT_TRUE((*op)->adjoint(y, bc, {}).isOk());
    for (std::size_t i = 0; i < fb.size(); ++i)
        EXPECT_NEAR(fb[i], fc[i], 1e-4) << i;
    for (std::size_t i = 0; i < bb.size(); ++i)
        EXPECT_NEAR(bb[i], bc[i], 1e-4) << i;
    // Outside the circle the adjoint is zero and forward ignores the input.
    const auto& image = (*op)->system().imageOrdering();
    std::size_t outside = 0;
    for (std::size_t p = 0; p < slice; ++p)
        if (image.curveIndex(p) < 0) {
            ++outside;
            EXPECT_EQ(bc[slice + p], 0.0f);
            x[2 * slice + p] = 1e6f;
        }
    EXPECT_GT(outside, 100u);
    std::vector<float> f2(3 * samples);
    ASSERT_TRUE((*op)->forward(x, f2, {}).isOk());
    EXPECT_EQ(f2, fc);
    // The same matrix serves every slice: slice 2 alone through a one-slice operator.
    const ParallelGeometry one = makeGeometry(31, 32, 1);
    vol.nz = 1;
    auto op1 = MemxctOperator::create(one, vol, o, {});
    ASSERT_TRUE(op1.isOk());
    (*op1)->setKernel(MemxctKernel::Csr);
    std::vector<float> f1(samples);
    ASSERT_TRUE(
        (*op1)->forward(std::span<const float>(x).subspan(2 * slice, slice), f1, {}).isOk());
    for (std::size_t i = 0; i < samples; ++i)
        EXPECT_EQ(f1[i], fc[2 * samples + i]);
}

TEST(MemxctOperator, ReportsBadSizesAndCancellation) {
    const ParallelGeometry geom = makeGeometry(10, 16, 2);
    VolumeGeometry vol = VolumeGeometry::forDetector(geom, 16);
    vol.nz = 1;
    EXPECT_EQ(MemxctOperator::create(geom, vol, {}, {}).status().code(),
              ErrorCode::InvalidArgument);  // vol.nz = 1 but 2 detector rows
    vol.nz = 2;
    MemxctOptions bad;
    bad.tileSize = 12;
    EXPECT_EQ(MemxctOperator::create(geom, vol, bad, {}).status().code(),
              ErrorCode::InvalidArgument);
    auto op = MemxctOperator::create(geom, vol, {}, {});
    ASSERT_TRUE(op.isOk());
    std::vector<float> x((*op)->domainSize()), y((*op)->rangeSize() - 1);
    EXPECT_EQ((*op)->forward(x, y, {}).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ((*op)->adjoint(y, x, {}).code(), ErrorCode::InvalidArgument);
    std::stop_source stop;
    stop.request_stop();
    y.resize((*op)->rangeSize());
    EXPECT_EQ((*op)->forward(x, y, {1, stop.get_token(), nullptr}).code(), ErrorCode::Cancelled);
}

}  // namespace
}  // namespace tomo
