// The paper-001 projectors: the matched Joseph pair against forwardProjectJoseph and the
// dot-product identity; the four ray orderings against each other; the tiled back-projector
// against the double-precision reference back-projector of core/projectors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/locality/JosephOperator.h"
#include "core/locality/LocalityOperator.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/projectors/ForwardProjector.h"

namespace tomo {
namespace {

std::vector<float> randomVector(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(0.f, 1.f);
    std::vector<float> v(n);
    for (float& e : v)
        e = d(rng);
    return v;
}

double dotD(std::span<const float> a, std::span<const float> b) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += double(a[i]) * b[i];
    return s;
}

double maxRel(std::span<const float> a, std::span<const float> b) {
    double d = 0, m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        d = std::max(d, std::abs(double(a[i]) - b[i]));
        m = std::max(m, std::abs(double(b[i])));
    }
    return d / m;
}

struct ProjectorSetup {
    ParallelGeometry geom;
    VolumeGeometry vol;
};

/// Non-square grid, off-centre axis, pitch != voxel size, angles over 200 degrees with
/// irregular spacing: every branch of the ray model.
ProjectorSetup makeSetup(int slices = 2) {
    ParallelGeometry::Params p;
    for (int i = 0; i < 37; ++i)
        p.angles.push_back(0.1 + i * 0.094 + 0.01 * std::sin(i));
    p.detectorCount = 45;
    p.rows = slices;
    p.detectorPitch = 1.25;
    p.centerOfRotation = 21.7;
    auto g = ParallelGeometry::create(p);
    return {*g, VolumeGeometry{33, 27, slices, 1.1, 0.3, -0.2}};
}

TEST(JosephOperator, ForwardEqualsForwardProjectJoseph) {
    ProjectorSetup s = makeSetup();
    auto op = JosephOperator::create(s.geom, s.vol);
    ASSERT_TRUE(op.isOk());
    std::vector<float> x = randomVector((*op)->domainSize(), 1), y((*op)->rangeSize());
    ASSERT_TRUE((*op)->forward(x, y, {}).isOk());
    Volume v(2, 27, 33);
    for (std::size_t z = 0; z < 2; ++z)
        for (std::size_t r = 0; r < 27; ++r)
            for (std::size_t c = 0; c < 33; ++c)
                v(z, r, c) = x[(z * 27 + r) * 33 + c];
    Sinograms ref;
    ASSERT_TRUE(forwardProjectJoseph(v, s.vol, s.geom, ref, {}).isOk());
    std::vector<float> flat;
    for (std::size_t r = 0; r < ref.dim(0) * ref.dim(1); ++r)
        for (float e : ref.rows().row(r))
            flat.push_back(e);
    EXPECT_LT(maxRel(y, flat), 1e-6);
}

TEST(JosephOperator, AdjointIsTheExactTranspose) {
    ProjectorSetup s = makeSetup();
    auto op = std::move(JosephOperator::create(s.geom, s.vol)).value();
    for (unsigned seed = 0; seed < 3; ++seed) {
        std::vector<float> x = randomVector(op->domainSize(), 10 + seed);
        std::vector<float> y = randomVector(op->rangeSize(), 20 + seed);
        std::vector<float> ax(op->rangeSize()), aty(op->domainSize());
        ASSERT_TRUE(op->forward(x, ax, {}).isOk());
        ASSERT_TRUE(op->adjoint(y, aty, {}).isOk());
        EXPECT_NEAR(dotD(ax, y) / dotD(x, aty), 1.0, 2e-6);
    }
    // Column j of A^T equals row j of A on a few unit vectors (the transpose entry by entry).
    std::vector<float> e(op->domainSize(), 0.f), col(op->rangeSize()), ey(op->rangeSize(), 0.f),
        row(op->domainSize());
    const std::size_t pixel = 27 * 33 + 13 * 33 + 17, ray = 45 * 37 + 5 * 45 + 22;
    e[pixel] = 1.f;
    ey[ray] = 1.f;
    ASSERT_TRUE(op->forward(e, col, {}).isOk());
    ASSERT_TRUE(op->adjoint(ey, row, {}).isOk());
    EXPECT_NEAR(col[ray], row[pixel], 1e-6);
}

TEST(JosephOperator, SubsetsPartitionTheProjections) {
    ProjectorSetup s = makeSetup(1);
    auto op = std::move(JosephOperator::create(s.geom, s.vol)).value();
    std::vector<float> x = randomVector(op->domainSize(), 3), full(op->rangeSize()),
                       parts(op->rangeSize(), -1.f), sum(op->domainSize(), 0.f),
                       part(op->domainSize()), all(op->domainSize());
    ASSERT_TRUE(op->forward(x, full, {}).isOk());
    for (int sIdx = 0; sIdx < 4; ++sIdx) {
        ASSERT_TRUE(op->forwardSubset(x, parts, sIdx, 4, {}).isOk());
        ASSERT_TRUE(op->adjointSubset(full, part, sIdx, 4, {}).isOk());
        for (std::size_t i = 0; i < sum.size(); ++i)
            sum[i] += part[i];
    }
    EXPECT_EQ(parts, full);
    ASSERT_TRUE(op->adjoint(full, all, {}).isOk());
    EXPECT_LT(maxRel(sum, all), 1e-5);
    EXPECT_EQ(op->forwardSubset(x, parts, 4, 4, {}).code(), ErrorCode::InvalidArgument);
}

TEST(LocalityOperator, FourOrderingsGiveTheSameProjections) {
    ProjectorSetup s = makeSetup();
    auto joseph = std::move(JosephOperator::create(s.geom, s.vol)).value();
    std::vector<float> x = randomVector(joseph->domainSize(), 5), ref(joseph->rangeSize());
    ASSERT_TRUE(joseph->forward(x, ref, {}).isOk());
    std::vector<float> first;
    for (RayOrdering o : {RayOrdering::Unordered, RayOrdering::Strips,
                          RayOrdering::StripsConsecutiveAngles, RayOrdering::StripSegments}) {
        auto op = std::move(LocalityOperator::create(s.geom, s.vol, o)).value();
        std::vector<float> y(op->rangeSize(), -7.f);
        ASSERT_TRUE(op->forward(x, y, ExecContext{2, {}, nullptr}).isOk());
        EXPECT_LT(maxRel(y, ref), 2e-5) << rayOrderingName(o);  // float vs double model
        if (first.empty())
            first = y;
        else
            EXPECT_LT(maxRel(y, first), 2e-6) << rayOrderingName(o);  // summation order only
        if (o != RayOrdering::StripSegments) {
            EXPECT_EQ(y, first) << rayOrderingName(o);
        }
    }
}

TEST(LocalityOperator, BackProjectionEqualsTheReferenceBackProjector) {
    ProjectorSetup s = makeSetup();
    auto op = std::move(LocalityOperator::create(s.geom, s.vol)).value();
    std::vector<float> y = randomVector(op->rangeSize(), 9), x(op->domainSize());
    ASSERT_TRUE(op->adjoint(y, x, {}).isOk());
    Sinograms sino(2, 37, 45);
    for (std::size_t r = 0; r < 2 * 37; ++r)
        for (std::size_t c = 0; c < 45; ++c)
            sino.rows()(r, c) = y[r * 45 + c];
    const std::vector<float> w(37, float(1.1 * 1.1 / 1.25));
    auto bp = makeCpuReferenceBackProjector(Interpolation::Linear);
    Volume ref;
    ASSERT_TRUE(bp->backProject(sino, s.geom, s.vol, w, ref, {}).isOk());
    std::vector<float> flat;
    for (std::size_t r = 0; r < ref.dim(0) * ref.dim(1); ++r)
        for (float e : ref.rows().row(r))
            flat.push_back(e);
    EXPECT_LT(maxRel(x, flat), 2e-5);
}

TEST(LocalityOperator, AdjointIsApproximate) {
    ProjectorSetup s = makeSetup();
    auto op = std::move(LocalityOperator::create(s.geom, s.vol)).value();
    EXPECT_FALSE(op->matchedAdjoint());
    std::vector<float> x = randomVector(op->domainSize(), 11),
                       y = randomVector(op->rangeSize(), 12);
    std::vector<float> ax(op->rangeSize()), aty(op->domainSize());
    ASSERT_TRUE(op->forward(x, ax, {}).isOk());
    ASSERT_TRUE(op->adjoint(y, aty, {}).isOk());
    EXPECT_NEAR(dotD(ax, y) / dotD(x, aty), 1.0, 0.01);
    // Subsets: the subset rows are those of the full projection.
    std::vector<float> full(op->rangeSize()), sub(op->rangeSize(), 0.f);
    ASSERT_TRUE(op->forward(x, full, {}).isOk());
    ASSERT_TRUE(op->forwardSubset(x, sub, 1, 3, {}).isOk());
    for (std::size_t z = 0; z < 2; ++z)
        for (std::size_t p = 0; p < 37; ++p)
            for (std::size_t j = 0; j < 45; ++j) {
                const std::size_t i = (z * 37 + p) * 45 + j;
                ASSERT_EQ(sub[i], p % 3 == 1 ? full[i] : 0.f) << i;
            }
}

TEST(RayOrdering, ParsesNamesAndLetters) {
    EXPECT_EQ(*parseRayOrdering("d"), RayOrdering::StripSegments);
    EXPECT_EQ(*parseRayOrdering("strips-consecutive"), RayOrdering::StripsConsecutiveAngles);
    EXPECT_EQ(parseRayOrdering("zigzag").status().code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
