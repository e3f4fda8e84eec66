// The gather the CUDA kernel runs (GatherMath.h over GatherPlan's tiles), emulated on the CPU,
// against the CPU's scatter (GridSpreading.h): the same grid for pairs and single slices, any
// axis, voxels larger than the pitch (samples wrapping around the grid more than once), tiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
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

/// Every sample tested against every point, in the order the tiles list their segments (view,
/// then the periodic shift y, x, then k), with the exact tests of the file comment of
/// GatherMath.h: the tiles' segments and the points' k ranges (products with reciprocals) may
/// only skip samples that add nothing, so the sums are the same floats.
std::vector<float> bruteForceGather(const FourierPlan& plan, const GatherGeometry& g,
                                    const float* samples) {
    const int mx = plan.gridX(), my = plan.gridY(), half = plan.rowLength() / 2;
    const double h = 0.5 * g.width, cx = 0.5 * mx, cy = 0.5 * my;
    // Per sample (p, k): the first grid point its kernel covers and its offsets z (GatherMath.h).
    struct At {
        double fx, fy;
        float zx, zy;
    };
    std::vector<At> at;
    double reach = 0;
    for (const FourierPlan::View& v : plan.views())
        for (int k = g.kMin; k <= half; ++k) {
            const double x = cx + k * v.ux, y = cy + k * v.uy;
            const double fx = std::floor(x - h), fy = std::floor(y - h);
            at.push_back(
                {fx, fy, 2.f * float(fx + 1 - x + h) - 1.f, 2.f * float(fy + 1 - y + h) - 1.f});
            reach = std::max({reach, std::abs(x - cx) + h, std::abs(y - cy) + h});
        }
    const int shifts = int(std::ceil(reach / std::min(mx, my))) + 1;  // every wrap and one more
    const std::size_t perView = std::size_t(half - g.kMin + 1);
    std::vector<float> grid(2 * std::size_t(mx) * my);
    for (int gy = 0; gy < my; ++gy)
        for (int gx = 0; gx < mx; ++gx) {
            float re = 0, im = 0;
            for (std::size_t p = 0; p < plan.views().size(); ++p)
                for (int sy = -shifts; sy <= shifts; ++sy)
                    for (int sx = -shifts; sx <= shifts; ++sx)
                        for (std::size_t n = 0; n < perView; ++n) {
                            const At& a = at[p * perView + n];
                            const int i = int(gx + double(sx) * mx - a.fx) - 1;
                            const int j = int(gy + double(sy) * my - a.fy) - 1;
                            if (i < 0 || i >= g.width || j < 0 || j >= g.width) continue;
                            const float w = gatherWeight(g, i, a.zx) * gatherWeight(g, j, a.zy);
                            const float* z = samples + 2 * (p * g.stride + n);
                            re += w * z[0];
                            im += w * z[1];
                        }
            grid[2 * (std::size_t(gy) * mx + gx)] = re;
            grid[2 * (std::size_t(gy) * mx + gx) + 1] = im;
        }
    return grid;
}

TEST(GatherPlan, GatherIsTheSumOverEverySampleBitForBit) {
    for (double voxel : {1.0, 2.3})
        for (bool pair : {true, false}) {
            const Case c = makeCase(voxel, -3.6);
            GridrecOptions options;
            options.kernelWidth = 5;
            options.oversampling = 1.5;
            const FourierPlan plan = *FourierPlan::create(c.geom, c.vol, options, cpuFftSizeRule());
            const GatherPlan gather = *GatherPlan::create(plan, 8);
            const int kMin = pair ? -plan.rowLength() / 2 : 0, stride = plan.rowLength() + 1;
            std::vector<float> samples(2 * plan.views().size() * std::size_t(stride));
            std::mt19937 rng(5);
            std::uniform_real_distribution<float> value(-1.f, 1.f);
            for (float& v : samples)
                v = value(rng);
            const GatherGeometry g = gather.geometry(plan, kMin, kMin, stride);
            std::vector<float> grid(2 * std::size_t(plan.gridX()) * plan.gridY());
            gather.gatherAll(plan, g, samples.data(), grid.data());
            const std::vector<float> expected = bruteForceGather(plan, g, samples.data());
            std::size_t differ = 0;
            for (std::size_t i = 0; i < grid.size(); ++i)
                differ += std::memcmp(&grid[i], &expected[i], sizeof(float)) != 0;
            EXPECT_EQ(differ, 0u) << "voxel " << voxel << " pair " << pair;
        }
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
