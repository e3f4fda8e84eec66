// MemXCT's SpMV partitioned over the ranks (issue 16, item 3) against the one-process system:
// forward the same bits as the CSR kernel, adjoint within rounding (partial sums added in rank
// order), the pair exactly transposed, and the all-to-all's piecewise path (2^31 counts).
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "DistTestEnvironment.h"
#include "core/memxct/PartitionedMemxct.h"

namespace tomo {
namespace {

Communicator& world() {
    return test::DistEnvironment::world();
}

struct Problem {
    ParallelGeometry geometry;
    VolumeGeometry grid;
};

Problem problem(int slices) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, 45);
    p.detectorCount = 70;
    p.rows = slices;
    return {*ParallelGeometry::create(p), VolumeGeometry{50, 50, slices, 70.0 / 50}};
}

/// Deterministic values (the same on every rank).
std::vector<float> values(std::size_t n, float phase) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i)
        v[i] = std::sin(0.013f * float(i) + phase) + 0.5f;
    return v;
}

TEST(PartitionedMemxct, CutsFollowTilesAndCoverTheCurve) {
    const Problem pr = problem(1);
    MemxctOptions o;
    o.tileSize = 8;
    auto orderings = memxctOrderings(pr.geometry, pr.grid, o);
    ASSERT_TRUE(orderings.isOk());
    for (int parts : {1, 2, 3, 4}) {
        const auto cuts = curvePartition(orderings->image, parts);
        ASSERT_EQ(cuts.size(), std::size_t(parts) + 1);
        EXPECT_EQ(cuts.front(), 0u);
        EXPECT_EQ(cuts.back(), orderings->image.size());
        for (int k = 1; k < parts; ++k) {
            EXPECT_LE(cuts[k - 1], cuts[k]);
            // within two tiles of the equal share
            EXPECT_LE(std::abs(double(cuts[k]) - double(orderings->image.size() * k / parts)),
                      2 * 64.0);
        }
    }
}

TEST(PartitionedMemxct, MatchesTheOneProcessSystem) {
    const int slices = 2;
    const Problem pr = problem(slices);
    MemxctOptions o;
    o.kernel = MemxctKernel::Csr;
    o.tileSize = 8;
    auto whole = MemxctSystem::build(pr.geometry, pr.grid, o, {});
    ASSERT_TRUE(whole.isOk());
    auto op = PartitionedMemxctOperator::create(pr.geometry, pr.grid, o, world(), {});
    ASSERT_TRUE(op.isOk()) << op.status().message();
    ASSERT_TRUE((*op)->connect().isOk());
    const std::size_t pixels = whole->imageOrdering().size(), rays = whole->sinogramOrdering().size();
    const auto me = std::size_t(world().rank());
    const std::size_t p0 = (*op)->pixelCuts()[me], r0 = (*op)->rayCuts()[me];
    const std::size_t owned = (*op)->ownedPixels(), mine = (*op)->ownedRays();
    const std::vector<float> x = values(pixels, 0.3f), y = values(rays, 1.1f);
    // One process, per slice (the same vectors on both slices, scaled).
    std::vector<float> ax(rays), aty(pixels);
    ASSERT_TRUE(whole->forward(MemxctKernel::Csr, x, ax, {}).isOk());
    ASSERT_TRUE(whole->adjoint(MemxctKernel::Csr, y, aty, {}).isOk());
    std::vector<float> xPart(owned * slices), yPart(mine * slices), axPart(mine * slices),
        atyPart(owned * slices);
    for (int z = 0; z < slices; ++z) {
        for (std::size_t k = 0; k < owned; ++k)
            xPart[z * owned + k] = x[p0 + k] * float(z + 1);
        for (std::size_t k = 0; k < mine; ++k)
            yPart[z * mine + k] = y[r0 + k] * float(z + 1);
    }
    ASSERT_TRUE((*op)->forward(xPart, axPart, {}).isOk());
    ASSERT_TRUE((*op)->adjoint(yPart, atyPart, {}).isOk());
    for (int z = 0; z < slices; ++z) {
        std::vector<float> ax2(rays), xs(x);
        for (float& v : xs)
            v *= float(z + 1);
        ASSERT_TRUE(whole->forward(MemxctKernel::Csr, xs, ax2, {}).isOk());
        for (std::size_t k = 0; k < mine; ++k)
            ASSERT_EQ(axPart[z * mine + k], ax2[r0 + k]) << "ray " << r0 + k;  // same bits
        for (std::size_t k = 0; k < owned; ++k)
            ASSERT_NEAR(atyPart[z * owned + k], aty[p0 + k] * float(z + 1),
                        1e-5f * (1 + std::abs(aty[p0 + k] * float(z + 1))));
    }
    // <A x, y> = <x, A^T y> over all ranks (the partitioned pair is an exact transpose).
    double sums[2] = {0, 0};
    for (std::size_t i = 0; i < axPart.size(); ++i)
        sums[0] += double(axPart[i]) * yPart[i];
    for (std::size_t i = 0; i < atyPart.size(); ++i)
        sums[1] += double(xPart[i]) * atyPart[i];
    std::vector<double> all(4 * std::size_t(world().size()), 0.0);
    ASSERT_TRUE(world()
                    .allgather(std::as_bytes(std::span<const double>(sums)),
                               std::as_writable_bytes(std::span<double>(all).first(
                                   2 * std::size_t(world().size()))))
                    .isOk());
    double lhs = 0, rhs = 0;
    for (int r = 0; r < world().size(); ++r) {
        lhs += all[2 * std::size_t(r)];
        rhs += all[2 * std::size_t(r) + 1];
    }
    EXPECT_NEAR(lhs, rhs, 1e-5 * std::abs(lhs));
}

TEST(PartitionedMemxct, AllToAllInPiecesEqualsOneCall) {
    const auto n = std::size_t(world().size()), me = std::size_t(world().rank());
    std::vector<std::size_t> sendBytes(n), recvBytes(n);
    std::vector<std::byte> send;
    for (std::size_t r = 0; r < n; ++r) {
        sendBytes[r] = 100 + 37 * r + 11 * me;  // to r from me
        recvBytes[r] = 100 + 37 * me + 11 * r;  // from r to me
        for (std::size_t k = 0; k < sendBytes[r]; ++k)
            send.push_back(std::byte((me * 31 + r * 7 + k) & 0xff));
    }
    const std::size_t total = std::accumulate(recvBytes.begin(), recvBytes.end(), std::size_t(0));
    std::vector<std::byte> once(total), pieces(total);
    ASSERT_TRUE(world().alltoallv(send, sendBytes, once, recvBytes).isOk());
    ASSERT_TRUE(world().alltoallv(send, sendBytes, pieces, recvBytes, 64).isOk());  // pairwise
    EXPECT_EQ(once, pieces);
    std::size_t at = 0;
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t k = 0; k < recvBytes[r]; ++k, ++at)
            ASSERT_EQ(once[at], std::byte((r * 31 + me * 7 + k) & 0xff));
}

}  // namespace
}  // namespace tomo
