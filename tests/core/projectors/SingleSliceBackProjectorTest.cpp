// The single-slice SIMD back-projector (cpu.simd1.*, and cpu.simd.lin/.nn on calls with few
// slices) against the float scalar path (bit for bit) and the double reference, in geometries
// that exercise the bin window, its gather fallback, the detector edges and the chunking.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ProjectorTestUtil.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/projectors/SingleSliceKernels.h"

namespace tomo {
namespace {

using test::unwrap;

BackProjectorRegistry cpuRegistry() {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    return registry;
}

/// Random angles plus exactly 0, 45, 90 and 135 degrees (and their opposites), off-centre axis
/// with per-projection corrections, detector pitch @p pitch.
ParallelGeometry mixedGeometry(int angles, int detectors, double pitch, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> angle(0.0, 2.0 * kPi), corr(-0.6, 0.6);
    ParallelGeometry::Params p;
    for (double a : {0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75})
        p.angles.push_back(a * kPi);
    while (static_cast<int>(p.angles.size()) < angles)
        p.angles.push_back(angle(rng));
    p.detectorCount = detectors;
    p.detectorPitch = pitch;
    p.centerOfRotation = 0.5 * (detectors - 1) - 2.71;
    for (int i = 0; i < angles; ++i)
        p.centerCorrection.push_back(corr(rng));
    return unwrap(ParallelGeometry::create(p));
}

/// Single-slice ids registered on this CPU plus the automatic cpu.simd.* alias.
std::vector<std::string> singleSliceIds(const BackProjectorRegistry& registry, Interpolation mode) {
    std::vector<std::string> ids;
    for (const BackProjectorInfo& info : registry.list())
        if (info.id.starts_with("cpu.simd1.") && info.interpolation == mode) ids.push_back(info.id);
    ids.push_back(mode == Interpolation::Linear ? "cpu.simd.lin" : "cpu.simd.nn");
    return ids;
}

Volume run(BackProjector& bp, const Sinograms& sino, const ParallelGeometry& geom,
           const VolumeGeometry& vol, const std::vector<float>& w, int threads) {
    Volume out;
    ExecContext ctx;
    ctx.threads = threads;
    const Status s = bp.backProject(sino, geom, vol, w, out, ctx);
    EXPECT_TRUE(s.isOk()) << bp.info().id << ": " << s.toString();
    return out;
}

Volume run(const BackProjectorRegistry& registry, const std::string& id, const Sinograms& sino,
           const ParallelGeometry& geom, const VolumeGeometry& vol, const std::vector<float>& w,
           int threads) {
    auto bp = unwrap(registry.make(id));
    return run(*bp, sino, geom, vol, w, threads);
}

/// Checks every single-slice variant against cpu.scalar.* (bit for bit) and, for linear
/// interpolation, against the double reference, for 1 and 3 slices of a random sinogram.
void expectMatchesScalar(const ParallelGeometry& geom, const VolumeGeometry& grid) {
    const BackProjectorRegistry registry = cpuRegistry();
    const int angles = geom.angleCount(), n = geom.detectorCount();
    const std::vector<float> w = test::randomWeights(angles, 5);
    for (int nz : {1, 3}) {
        VolumeGeometry vol = grid;
        vol.nz = nz;
        Sinograms sino(static_cast<std::size_t>(nz), static_cast<std::size_t>(angles),
                       static_cast<std::size_t>(n));
        test::fillRandom(sino, 70 + static_cast<std::uint32_t>(nz));
        for (Interpolation mode : {Interpolation::Linear, Interpolation::Nearest}) {
            const bool linear = mode == Interpolation::Linear;
            const Volume scalar =
                run(registry, linear ? "cpu.scalar.lin" : "cpu.scalar.nn", sino, geom, vol, w, 2);
            if (linear) {
                const Volume ref = run(registry, "cpu.reference.lin", sino, geom, vol, w, 2);
                EXPECT_LE(test::maxRelDiff(scalar, ref), 1e-5);
            }
            for (const std::string& id : singleSliceIds(registry, mode)) {
                SCOPED_TRACE(id + " nz=" + std::to_string(nz));
                const Volume out = run(registry, id, sino, geom, vol, w, 2);
                EXPECT_LE(test::maxRelDiff(out, scalar), 1e-6);
                EXPECT_TRUE(test::bitIdentical(out, scalar));
            }
        }
    }
}

TEST(SingleSliceBackProjector, RegisteredWithMetadata) {
    const BackProjectorRegistry registry = cpuRegistry();
    if (!cpuIsaSupported(CpuIsa::Avx2)) GTEST_SKIP() << "no AVX2: no single-slice kernel";
    for (const char* id : {"cpu.simd1.avx2.lin", "cpu.simd1.avx2.nn"})
        EXPECT_TRUE(registry.contains(id)) << id;
    EXPECT_EQ(registry.contains("cpu.simd1.avx512.lin"), cpuIsaSupported(CpuIsa::Avx512));
    for (const BackProjectorInfo& info : registry.list()) {
        if (!info.id.starts_with("cpu.simd1.")) continue;
        SCOPED_TRACE(info.id);
        EXPECT_EQ(info.family, "cpu");
        EXPECT_EQ(info.slicesPerPass, 1);
        EXPECT_TRUE(info.exact);
        EXPECT_EQ(info.parameters.at("window"),
                  info.parameters.at("isa") == "avx512" ? "32" : "16");
    }
    // The automatic alias and the pinned variants (the same kernels) state the same switch;
    // the multi-slice kernel alone (default options) never switches.
    auto alias = unwrap(registry.make("cpu.simd.lin"));
    EXPECT_GT(std::stoi(alias->info().parameters.at("singleSliceBelow")), 1);
    auto pinned = unwrap(registry.make("cpu.simd.avx2.lin"));
    EXPECT_EQ(std::stoi(pinned->info().parameters.at("singleSliceBelow")),
              detail::singleSliceCrossover(CpuIsa::Avx2, Interpolation::Linear));
    if (cpuIsaSupported(CpuIsa::Avx512)) {
        auto pinned512 = unwrap(registry.make("cpu.simd.avx512.lin"));
        EXPECT_EQ(pinned512->info().parameters.at("singleSliceBelow"),
                  alias->info().parameters.at("singleSliceBelow"));
    }
    auto alone = unwrap(makeCpuSimdBackProjector(Interpolation::Linear, CpuIsa::Avx2));
    EXPECT_EQ(alone->info().parameters.count("singleSliceBelow"), 0u);
    CpuSimdOptions bad;
    bad.singleSliceBelow = -1;
    EXPECT_EQ(makeCpuSimdBackProjector(Interpolation::Linear, CpuIsa::Avx2, bad).status().code(),
              ErrorCode::InvalidArgument);
}

// Voxel 1.4 / pitch 1.3: windows of ~17 bins; odd sizes, an offset grid reaching past both
// detector edges (zero padding and edge fade).
TEST(SingleSliceBackProjector, MatchesScalarBitForBit) {
    const ParallelGeometry geom = mixedGeometry(37, 53, 1.3, 3);
    VolumeGeometry vol;
    vol.nx = 67;
    vol.ny = 45;
    vol.voxelSize = 1.4;
    vol.offsetX = 9.7;
    vol.offsetY = -6.3;
    expectMatchesScalar(geom, vol);
}

// Voxel 1.9 x pitch: the window (2G bins) is nearly full at 0 and 90 degrees.
TEST(SingleSliceBackProjector, MatchesScalarWithAFullWindow) {
    const ParallelGeometry geom = mixedGeometry(23, 71, 1.0, 4);
    VolumeGeometry vol;
    vol.nx = 41;
    vol.ny = 39;
    vol.voxelSize = 1.9;
    vol.offsetX = -3.1;
    expectMatchesScalar(geom, vol);
}

// Voxel 2.6 x pitch: near 0 and 90 degrees the span exceeds the window and the gather
// fallback runs; diagonal angles (|cx| = 1.84) still use the window.
TEST(SingleSliceBackProjector, MatchesScalarBeyondTheWindow) {
    const ParallelGeometry geom = mixedGeometry(19, 97, 0.5, 5);
    VolumeGeometry vol;
    vol.nx = 35;
    vol.ny = 37;
    vol.voxelSize = 1.3;
    vol.offsetY = 2.2;
    expectMatchesScalar(geom, vol);
}

TEST(SingleSliceBackProjector, ThreadCountDoesNotChangeResults) {
    const BackProjectorRegistry registry = cpuRegistry();
    const ParallelGeometry geom = mixedGeometry(29, 61, 1.1, 6);
    const std::vector<float> w = test::randomWeights(29, 7);
    VolumeGeometry vol;
    vol.nx = 133;  // several tiles per row and per column, partial tiles at both ends
    vol.ny = 71;
    vol.voxelSize = 0.9;
    Sinograms sino(1, 29, 61);
    test::fillRandom(sino, 8);
    for (Interpolation mode : {Interpolation::Linear, Interpolation::Nearest})
        for (const std::string& id : singleSliceIds(registry, mode)) {
            SCOPED_TRACE(id);
            const Volume one = run(registry, id, sino, geom, vol, w, 1);
            EXPECT_TRUE(test::bitIdentical(run(registry, id, sino, geom, vol, w, 2), one));
        }
}

// Several projection chunks and angle blocks give the same result as the scalar path.
TEST(SingleSliceBackProjector, ChunkingDoesNotChangeResults) {
    if (!cpuIsaSupported(CpuIsa::Avx2)) GTEST_SKIP() << "no AVX2: no single-slice kernel";
    const ParallelGeometry geom = mixedGeometry(31, 45, 1.2, 9);
    const std::vector<float> w = test::randomWeights(31, 10);
    VolumeGeometry vol;
    vol.nx = 50;
    vol.ny = 33;
    vol.nz = 2;
    Sinograms sino(2, 31, 45);
    test::fillRandom(sino, 11);
    CpuSimdOptions options;
    options.angleBlock = 5;
    options.chunkBytes = 2048;  // a few projections per chunk
    options.singleSliceBelow = 4096;
    for (Interpolation mode : {Interpolation::Linear, Interpolation::Nearest}) {
        auto scalar = makeCpuScalarBackProjector(mode);
        const Volume expected = run(*scalar, sino, geom, vol, w, 2);
        for (CpuIsa isa : {CpuIsa::Avx2, CpuIsa::Avx512}) {
            if (!cpuIsaSupported(isa)) continue;
            SCOPED_TRACE(cpuIsaName(isa));
            auto bp = unwrap(makeCpuSimdBackProjector(mode, isa, options));
            EXPECT_TRUE(test::bitIdentical(run(*bp, sino, geom, vol, w, 2), expected));
        }
    }
}

}  // namespace
}  // namespace tomo
