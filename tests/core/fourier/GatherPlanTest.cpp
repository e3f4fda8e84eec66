// The gather the CUDA kernel runs (GatherMath.h over GatherPlan's tiles), emulated on the CPU,
// against the CPU's scatter (GridSpreading.h): the same grid for pairs and single slices, any
// axis, voxels larger than the pitch (samples wrapping around the grid more than once), tiles.
#include <gtest/gtest.h>

#include <random>

#include "core/fourier/GatherPlan.h"
#include "core/fourier/Gridrec.h"
#include "core/fourier/GridrecStages.h"

namespace tomo {
namespace {

struct Case {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms sino;
};

Case makeCase(double voxel, double shift) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.05, kPi + 0.05, 23);
    p.detectorCount = 40;
    p.rows = 2;
    p.centerOfRotation = 19.5 + shift;
    Case c{*ParallelGeometry::create(p), VolumeGeometry{37, 30, 2, voxel, 0.4, -1.1},
           Sinograms(2, 23, 40)};
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> value(-1.f, 1.f);
    for (std::size_t s = 0; s < 2; ++s)
        for (std::size_t a = 0; a < 23; ++a)
            for (float& v : c.sino.row(s, a))
                v = value(rng);
    return c;
}

/// max |scatter - gather| / max |scatter| over the grid of one group.
double gatherAgainstScatter(const Case& c, bool pair, int tile) {
    GridrecOptions options;
    options.kernelWidth = 5;
    options.oversampling = 1.5;
    const FourierPlan plan = *FourierPlan::create(c.geom, c.vol, options, cpuFftSizeRule());
    auto work = detail::GridrecWork::create(plan, 1);
    EXPECT_TRUE(work.isOk());
    Volume unused;
    const detail::GridrecGroup group{&c.sino, 0, pair, &unused};
    EXPECT_TRUE(detail::computeSpectra(*work, group, {}).isOk());
    EXPECT_TRUE(detail::spreadSamples(*work, pair, {}).isOk());
    auto gather = GatherPlan::create(plan, tile);
    EXPECT_TRUE(gather.isOk());
    const int kMin = pair ? -plan.rowLength() / 2 : 0;
    const GatherGeometry g =
        gather->geometry(plan, kMin, kMin, static_cast<int>(work->sampleStride));
    std::vector<float> grid(2 * std::size_t(plan.gridX()) * plan.gridY());
    gather->gatherAll(plan, g, reinterpret_cast<const float*>(work->samples.data()), grid.data());
    double diff = 0, peak = 0;
    for (int y = 0; y < plan.gridY(); ++y)
        for (int x = 0; x < plan.gridX(); ++x) {
            const auto scattered = work->grid[std::size_t(y) * work->gridStride + x];
            const float* gathered = &grid[2 * (std::size_t(y) * plan.gridX() + x)];
            peak = std::max(peak, double(std::abs(scattered)));
            diff = std::max({diff, double(std::abs(scattered.real() - gathered[0])),
                             double(std::abs(scattered.imag() - gathered[1]))});
        }
    EXPECT_GT(peak, 0.0);
    return diff / peak;
}

TEST(GatherPlan, GatherEqualsTheCpuScatter) {
    for (double voxel : {1.0, 2.3})  // 2.3: samples wrap around the grid twice
        for (double shift : {0.0, -3.6})
            for (bool pair : {true, false})
                for (int tile : {8, 16})
                    EXPECT_LT(gatherAgainstScatter(makeCase(voxel, shift), pair, tile), 1e-5)
                        << "voxel " << voxel << " shift " << shift << " pair " << pair << " tile "
                        << tile;
}

TEST(GatherPlan, TilesListTheirSegmentsInViewOrder) {
    const Case c = makeCase(1.0, 0.0);
    const FourierPlan plan = *FourierPlan::create(c.geom, c.vol, {}, cpuFftSizeRule());
    const GatherPlan gather = *GatherPlan::create(plan, 16);
    ASSERT_EQ(gather.tileStart.size(), std::size_t(gather.tilesX * gather.tilesY) + 1);
    EXPECT_EQ(gather.tileStart.back(), gather.segments.size());
    // Every line passes the centre: the centre's tile lists every view.
    const int centre = (plan.gridY() / 2 / 16) * gather.tilesX + plan.gridX() / 2 / 16;
    EXPECT_GE(gather.tileStart[centre + 1] - gather.tileStart[centre], 23u);
    for (int t = 0; t < gather.tilesX * gather.tilesY; ++t) {
        EXPECT_LE(gather.tileStart[t], gather.tileStart[t + 1]);
        for (std::uint32_t s = gather.tileStart[t] + 1; s < gather.tileStart[t + 1]; ++s)
            EXPECT_LE(gather.segments[s - 1].view, gather.segments[s].view);
    }
    EXPECT_EQ(GatherPlan::create(plan, 2).status().code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
