// The OpenCL cone-beam kernels' own options (ConeBackProjectorTest.cpp tests the registered
// variants of every backend): every way the symmetric kernel can share u and 1/h2 on this device
// (none, local memory, sub-group broadcasts where the device has them) gives the same volume;
// and a benchmark of each variant on a 128^3 volume from 180 views of 192^2 (disabled: run it
// with --gtest_also_run_disabled_tests --gtest_filter='OpenClCone.DISABLED_*').
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <random>

#include <sys/resource.h>

#include "ConeTestSupport.h"
#include "OpenClTestSupport.h"
#include "gpu/opencl/cone/ClConeBackProjector.h"

namespace tomo {
namespace {

using opencl::ClConeBackProjector;
using opencl::ClConeConfig;
using opencl::ClConeShare;

std::shared_ptr<opencl::ClDeviceContext> device() {
    return test::openClSetup().report.context;
}

ConeBackProjectorInfo infoOf(const std::string& id) {
    for (const ConeBackProjectorInfo& i : test::coneBackendRegistry().list())
        if (i.id == id) return i;
    return {};
}

/// Every configuration of the symmetric kernel this device can run.
std::vector<ClConeConfig> symmetricConfigs() {
    std::vector<ClConeConfig> configs = {{true, ClConeShare::None, false},
                                         {true, ClConeShare::Local, false},
                                         {true, ClConeShare::Local, true}};
    const auto& t = device()->traits();
    if (t.hasExtension("cl_khr_subgroups") || t.hasExtension("cl_intel_subgroups"))
        configs.push_back({true, ClConeShare::SubGroup, false});
    return configs;
}

std::string label(const ClConeConfig& c) {
    return std::string("share ") + opencl::clConeShareName(c.share) +
           (c.barrierPerView ? ", barrier per view" : "");
}

TEST(OpenClCone, EverySharingModeGivesTheSameVolume) {
    TOMO_SKIP_WITHOUT_OPENCL();
    const ConeBackProjectorInfo info = infoOf("opencl.fdk.symmetric");
    ASSERT_FALSE(info.id.empty());
    for (double offsetY : {0.0, 6.0}) {  // pairs, then whole columns
        const test::ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60, offsetY);
        Volume first;
        for (const ClConeConfig& config : symmetricConfigs()) {
            ClConeBackProjector bp(info, device(), config);
            auto out = test::runToVolume(c, bp);
            ASSERT_TRUE(out.isOk()) << label(config) << ": " << out.status().message();
            EXPECT_EQ(bp.config().share, config.share) << "the program did not build";
            if (first.empty()) {
                first = std::move(out).value();
                continue;
            }
            // The same float expressions per voxel, whoever evaluates u and 1/h2.
            EXPECT_EQ(test::relativeRmse(*out, first), 0.0) << label(config);
        }
    }
}

// coneTile reads the same taps from column-pair images (two per vload2), coneTileStaged from
// the patch staged in local memory (global taps where it does not fit), with the same
// arithmetic: the same bits, on mirror, column, tall and coarse geometries.
TEST(OpenClCone, TheTileVariantsGiveTheSameBits) {
    TOMO_SKIP_WITHOUT_OPENCL();
    auto tile = test::coneBackendRegistry().create("opencl.fdk.tile");
    ASSERT_TRUE(tile.isOk());
    for (const test::ConeCase& c : test::symmetricCases("ellipsoids:6:3")) {
        auto a = test::runToVolume(c, **tile);
        ASSERT_TRUE(a.isOk());
        for (const char* id : {"opencl.fdk.tile.pair", "opencl.fdk.tile.shared"}) {
            auto other = test::coneBackendRegistry().create(id);
            ASSERT_TRUE(other.isOk()) << id;
            auto b = test::runToVolume(c, **other);
            ASSERT_TRUE(b.isOk()) << id;
            EXPECT_EQ(test::relativeRmse(*b, *a), 0.0) << id << " " << c.grid.ny;
        }
    }
}

struct Seconds {
    double wall = 0, cpu = 0;  ///< cpu: of the whole process (PoCL's threads included)
};

double processCpuSeconds() {
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

/// Wall and CPU seconds of begin + add (batches of preferredBatch()) + finish of @p bp.
Seconds timeBackProjection(ConeBackProjector& bp, const ConeGeometry& g, const ConeVolumeGrid& grid,
                           const Array3<float>& views) {
    const double cpu0 = processCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_TRUE(bp.begin(g, grid, 0, grid.nz, {}).isOk());
    const int batch = bp.preferredBatch(), np = static_cast<int>(views.dim(0));
    for (int first = 0; first < np; first += batch) {
        const int n = std::min(batch, np - first);
        Array3<float> part(static_cast<std::size_t>(n), views.dim(1), views.dim(2));
        for (int p = 0; p < n; ++p)
            for (std::size_t r = 0; r < views.dim(1); ++r) {
                auto src = views.row(static_cast<std::size_t>(first + p), r);
                std::copy(src.begin(), src.end(), part.row(static_cast<std::size_t>(p), r).begin());
            }
        EXPECT_TRUE(bp.add(first, part, {}).isOk());
    }
    EXPECT_TRUE(bp.finish({}).isOk());
    return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
            processCpuSeconds() - cpu0};
}

TEST(OpenClCone, DISABLED_Benchmark128) {
    TOMO_SKIP_WITHOUT_OPENCL();
    const int np = 180, n = 128, det = 192;
    const ConeGeometry g =
        ConeGeometry::circular(300, 450, np, 0, 360, DetectorGrid::centred(det, det, 1.2, 1.2))
            .value();
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(n, n, n, 1.0);
    Array3<float> views(np, det, det);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (std::size_t r = 0; r < views.dim(0) * views.dim(1); ++r)
        for (float& x : views.rows().row(r))
            x = dist(rng);
    const double updates = static_cast<double>(grid.voxels()) * np;
    const double cores = std::max(1, device()->traits().computeUnits);
    // Best of 3 after a warm-up. On a CPU device (PoCL) the process's CPU time / compute units
    // estimates the wall time of a quiet machine when other jobs share the cores.
    auto report = [&](const std::string& name, ConeBackProjector& bp) {
        timeBackProjection(bp, g, grid, views);  // program build, first allocations
        Seconds best{1e30, 1e30};
        for (int rep = 0; rep < 3; ++rep) {
            const Seconds t = timeBackProjection(bp, g, grid, views);
            best = {std::min(best.wall, t.wall), std::min(best.cpu, t.cpu)};
        }
        std::cout << "  " << name << ": " << best.wall << " s, "
                  << updates / (best.wall * 1073741824.0) << " GU/s";
        if (device()->traits().isCpu)
            std::cout << "; CPU time / " << cores << ": "
                      << updates / (best.cpu / cores * 1073741824.0) << " GU/s";
        std::cout << "\n";
    };
    auto standard = test::coneBackendRegistry().create("opencl.fdk.standard").value();
    report("opencl.fdk.standard", *standard);
    auto registered = test::coneBackendRegistry().create("opencl.fdk.symmetric").value();
    report("opencl.fdk.symmetric (as registered)", *registered);
    for (const ClConeConfig& config : symmetricConfigs()) {
        ClConeBackProjector bp(infoOf("opencl.fdk.symmetric"), device(), config);
        report("opencl.fdk.symmetric, " + label(config), bp);
    }
    ConeBackProjectorRegistry cpu;
    registerCpuConeBackProjectors(cpu);
    for (const ConeBackProjectorInfo& info : cpu.list())
        report(info.id + " (for comparison)", *cpu.create(info.id).value());
}

}  // namespace
}  // namespace tomo
