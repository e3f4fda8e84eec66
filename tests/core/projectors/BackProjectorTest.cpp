// Every registered CPU back-projector against the double reference, against each other, and
// against hand-computed geometry cases; determinism, linearity, cancellation, bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stop_token>

#include "ProjectorTestUtil.h"
#include "core/projectors/CpuBackProjectors.h"

namespace tomo {
namespace {

using test::unwrap;

BackProjectorRegistry cpuRegistry() {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    return registry;
}

const char* referenceId(Interpolation i) {
    return i == Interpolation::Linear ? "cpu.reference.lin" : "cpu.reference.nn";
}

Volume run(const BackProjectorRegistry& registry, const std::string& id, const Sinograms& sino,
           const ParallelGeometry& geom, const VolumeGeometry& vol, const std::vector<float>& w,
           int threads) {
    auto bp = unwrap(registry.make(id));
    Volume out;
    ExecContext ctx;
    ctx.threads = threads;
    Status s = bp->backProject(sino, geom, vol, w, out, ctx);
    EXPECT_TRUE(s.isOk()) << id << ": " << s.toString();
    return out;
}

/// Largest distance, over projections, of the double-precision detector index of pixel
/// (ix, iy) from a rounding tie of nearest interpolation (u + 0.5 integer) - small means float
/// and double may legitimately pick different bins.
double closestTie(const ParallelGeometry& geom, const VolumeGeometry& vol, int ix, int iy) {
    double best = 1.0;
    for (int p = 0; p < geom.angleCount(); ++p) {
        const double u = geom.detectorIndex(p, vol.x(ix), vol.y(iy)) + 0.5;
        best = std::min(best, std::abs(u - std::round(u)));
    }
    return best;
}

TEST(CpuBackProjectors, RegistersAllVariantsWithMetadata) {
    const BackProjectorRegistry registry = cpuRegistry();
    for (const char* id :
         {"cpu.reference.lin", "cpu.reference.nn", "cpu.scalar.lin", "cpu.scalar.nn",
          "cpu.simd.lin", "cpu.simd.nn", "cpu.simd.generic.lin", "cpu.simd.generic.nn"})
        EXPECT_TRUE(registry.contains(id)) << id;
    for (const BackProjectorInfo& info : registry.list()) {
        SCOPED_TRACE(info.id);
        EXPECT_EQ(info.backend, "cpu");
        EXPECT_TRUE(info.exact);
        EXPECT_EQ(info.interpolation == Interpolation::Linear, info.id.ends_with(".lin"));
        auto bp = unwrap(registry.make(info.id));
        EXPECT_EQ(bp->info().id, info.id);
        EXPECT_EQ(bp->info().slicesPerPass, info.slicesPerPass);
        if (info.id.starts_with("cpu.simd.")) {  // the multi-slice kernel (cpu.simd1.*: 1)
            EXPECT_EQ(info.slicesPerPass, info.parameters.at("isa") == "avx512" ? 16 : 8);
            EXPECT_EQ(info.parameters.at("tile"), "32x32");
        }
    }
    EXPECT_EQ(registry.list("cpu").size(), registry.list().size());
    EXPECT_FALSE(registry.make("cpu.nonexistent").isOk());
}

// Every float variant against the double reference on random data in an awkward geometry.
TEST(CpuBackProjectors, MatchReferenceOnRandomData) {
    const BackProjectorRegistry registry = cpuRegistry();
    const ParallelGeometry geom = test::awkwardGeometry(29, 53, 7);
    const std::vector<float> w = test::randomWeights(29, 8);
    for (int nz : {3, 11}) {
        const VolumeGeometry vol = test::awkwardGrid(37, 41, nz);
        Sinograms sino(static_cast<std::size_t>(nz), 29, 53);
        test::fillRandom(sino, 100 + static_cast<std::uint32_t>(nz));
        for (Interpolation mode : {Interpolation::Linear, Interpolation::Nearest}) {
            const Volume ref = run(registry, referenceId(mode), sino, geom, vol, w, 2);
            for (const BackProjectorInfo& info : registry.list()) {
                if (info.family == "reference" || info.interpolation != mode) continue;
                SCOPED_TRACE(info.id + " nz=" + std::to_string(nz));
                const Volume out = run(registry, info.id, sino, geom, vol, w, 2);
                if (mode == Interpolation::Linear) {
                    EXPECT_LE(test::maxRelDiff(out, ref), 1e-5);
                    continue;
                }
                // Nearest: exact agreement except where u is within float rounding of a tie.
                double maxRef = 0;
                for (std::size_t r = 0; r < ref.dim(0) * ref.dim(1); ++r)
                    for (float v : ref.rows().row(r))
                        maxRef = std::max(maxRef, double(std::abs(v)));
                int mismatches = 0;
                for (int z = 0; z < nz; ++z)
                    for (int iy = 0; iy < vol.ny; ++iy)
                        for (int ix = 0; ix < vol.nx; ++ix) {
                            const double d = std::abs(double(out(z, iy, ix)) - ref(z, iy, ix));
                            if (d <= 1e-5 * maxRef) continue;
                            ++mismatches;
                            EXPECT_LT(closestTie(geom, vol, ix, iy), 1e-4) << ix << "," << iy;
                        }
                EXPECT_LE(mismatches, nz * 3);
            }
        }
    }
}

// The SIMD variants and the scalar variant share their arithmetic: agreement within 1e-6
// (by construction they are bit-identical; the bound is the documented contract).
TEST(CpuBackProjectors, SimdMatchesScalar) {
    const BackProjectorRegistry registry = cpuRegistry();
    const ParallelGeometry geom = test::awkwardGeometry(29, 53, 11);
    const std::vector<float> w = test::randomWeights(29, 12);
    const VolumeGeometry vol = test::awkwardGrid(37, 41, 11);
    Sinograms sino(11, 29, 53);
    test::fillRandom(sino, 13);
    for (Interpolation mode : {Interpolation::Linear, Interpolation::Nearest}) {
        const Volume scalar =
            run(registry, mode == Interpolation::Linear ? "cpu.scalar.lin" : "cpu.scalar.nn", sino,
                geom, vol, w, 2);
        for (const BackProjectorInfo& info : registry.list()) {
            if (!info.id.starts_with("cpu.simd") || info.interpolation != mode) continue;
            SCOPED_TRACE(info.id);
            const Volume out = run(registry, info.id, sino, geom, vol, w, 2);
            EXPECT_LE(test::maxRelDiff(out, scalar), 1e-6);
            EXPECT_TRUE(test::bitIdentical(out, scalar));
        }
    }
}

// Several projection chunks and tile sizes give the same result as one chunk.
TEST(CpuBackProjectors, SimdChunkingAndTilingDoNotChangeResults) {
    const ParallelGeometry geom = test::awkwardGeometry(29, 53, 21);
    const std::vector<float> w = test::randomWeights(29, 22);
    const VolumeGeometry vol = test::awkwardGrid(37, 41, 9);
    Sinograms sino(9, 29, 53);
    test::fillRandom(sino, 23);
    auto scalar = makeCpuScalarBackProjector(Interpolation::Linear);
    Volume expected;
    ASSERT_TRUE(scalar->backProject(sino, geom, vol, w, expected, {}).isOk());
    CpuSimdOptions options;
    options.tileSize = 8;
    options.angleBlock = 5;
    options.chunkBytes = 4 * 1024;  // a few projections per chunk
    auto bp = unwrap(makeCpuSimdBackProjector(Interpolation::Linear, bestCpuIsa(), options));
    Volume out;
    ASSERT_TRUE(bp->backProject(sino, geom, vol, w, out, {}).isOk());
    EXPECT_TRUE(test::bitIdentical(out, expected));
    options.tileSize = 0;
    EXPECT_EQ(
        makeCpuSimdBackProjector(Interpolation::Linear, CpuIsa::Generic, options).status().code(),
        ErrorCode::InvalidArgument);
}

TEST(CpuBackProjectors, ThreadCountDoesNotChangeResults) {
    const BackProjectorRegistry registry = cpuRegistry();
    const ParallelGeometry geom = test::awkwardGeometry(29, 53, 31);
    const std::vector<float> w = test::randomWeights(29, 32);
    const VolumeGeometry vol = test::awkwardGrid(37, 41, 11);
    Sinograms sino(11, 29, 53);
    test::fillRandom(sino, 33);
    for (const BackProjectorInfo& info : registry.list()) {
        SCOPED_TRACE(info.id);
        const Volume one = run(registry, info.id, sino, geom, vol, w, 1);
        EXPECT_TRUE(test::bitIdentical(run(registry, info.id, sino, geom, vol, w, 2), one));
        EXPECT_TRUE(test::bitIdentical(run(registry, info.id, sino, geom, vol, w, 3), one));
    }
}

TEST(CpuBackProjectors, Linearity) {
    const BackProjectorRegistry registry = cpuRegistry();
    const ParallelGeometry geom = test::awkwardGeometry(29, 53, 41);
    const std::vector<float> w = test::randomWeights(29, 42);
    const VolumeGeometry vol = test::awkwardGrid(37, 41, 3);
    Sinograms x(3, 29, 53), y(3, 29, 53), combo(3, 29, 53);
    test::fillRandom(x, 43);
    test::fillRandom(y, 44);
    const float a = 0.75f, b = -1.25f;
    for (std::size_t r = 0; r < 3 * 29; ++r)
        for (std::size_t c = 0; c < 53; ++c)
            combo.rows()(r, c) = a * x.rows()(r, c) + b * y.rows()(r, c);
    for (const BackProjectorInfo& info : registry.list()) {
        SCOPED_TRACE(info.id);
        const Volume bx = run(registry, info.id, x, geom, vol, w, 2);
        const Volume by = run(registry, info.id, y, geom, vol, w, 2);
        const Volume bc = run(registry, info.id, combo, geom, vol, w, 2);
        Volume expected(3, 41, 37);
        for (std::size_t r = 0; r < 3 * 41; ++r)
            for (std::size_t c = 0; c < 37; ++c)
                expected.rows()(r, c) = a * bx.rows()(r, c) + b * by.rows()(r, c);
        EXPECT_LE(test::maxRelDiff(bc, expected), 1e-5);
    }
}

// Pins the conventions: at theta = 0, t = x, so a spike at bin j lights the column of pixels with
// x = (j - c) * pitch; at 90 degrees t = y, the row with y = (j - c) * pitch (counted from the
// top).
TEST(CpuBackProjectors, DeltaSinogramLightsTheExpectedColumnAndRow) {
    const BackProjectorRegistry registry = cpuRegistry();
    ParallelGeometry::Params p;
    p.angles = {0.0, kPi / 2};
    p.detectorCount = 9;
    p.detectorPitch = 2.0;  // pixels of size 1: half-pixel detector positions appear
    const ParallelGeometry geom = unwrap(ParallelGeometry::create(p));  // centre 4
    VolumeGeometry vol;
    vol.nx = vol.ny = 9;  // x(ix) = ix - 4, y(iy) = 4 - iy
    const std::vector<float> w = {3.f, 3.f};
    for (int proj : {0, 1}) {
        Sinograms sino(1, 2, 9);
        sino(0, static_cast<std::size_t>(proj), 5) = 1.f;  // t = (5 - 4) * 2 = 2
        for (const BackProjectorInfo& info : registry.list()) {
            SCOPED_TRACE(info.id + (proj ? " at 90 degrees" : " at 0 degrees"));
            const Volume out = run(registry, info.id, sino, geom, vol, w, 2);
            const bool linear = info.interpolation == Interpolation::Linear;
            for (int iy = 0; iy < 9; ++iy)
                for (int ix = 0; ix < 9; ++ix) {
                    // theta = 0: u = 4 + x / 2; theta = 90: u = 4 + y / 2.
                    const double coord = proj == 0 ? ix - 4.0 : 4.0 - iy;
                    const double dist = std::abs(coord - 2.0);  // in pixels; 2 px = 1 bin
                    double expected = 0;
                    if (linear)
                        expected = 3.0 * std::max(0.0, 1.0 - dist / 2.0);
                    else if (dist < 1.0 || coord == 1.0)
                        expected = 3.0;  // u = 4.5 rounds up to 5
                    EXPECT_NEAR(out(0, iy, ix), expected, 1e-5) << ix << "," << iy;
                }
        }
    }
}

TEST(CpuBackProjectors, GridFarOutsideTheDetectorReadsZeros) {
    const BackProjectorRegistry registry = cpuRegistry();
    const ParallelGeometry geom = test::awkwardGeometry(7, 21, 51);
    VolumeGeometry vol = test::awkwardGrid(13, 9, 2);
    vol.offsetX = 1e6;  // far beyond the detector at every angle (|t| >= 1e6 / sqrt(2))
    vol.offsetY = 1e6;
    Sinograms sino(2, 7, 21);
    sino.fill(1.f);
    for (const BackProjectorInfo& info : registry.list()) {
        SCOPED_TRACE(info.id);
        const Volume out = run(registry, info.id, sino, geom, vol, test::randomWeights(7, 1), 2);
        for (std::size_t r = 0; r < 2 * 9; ++r)
            for (float v : out.rows().row(r))
                EXPECT_EQ(v, 0.f);
    }
}

struct LastFraction : ProgressSink {
    double last = 0;
    void onProgress(double f, std::string_view) override { last = f; }
};

TEST(CpuBackProjectors, ProgressCancellationAndBadInput) {
    const BackProjectorRegistry registry = cpuRegistry();
    const ParallelGeometry geom = test::awkwardGeometry(5, 11, 61);
    const VolumeGeometry vol = test::awkwardGrid(9, 7, 2);
    const std::vector<float> w = test::randomWeights(5, 62);
    Sinograms sino(2, 5, 11);
    test::fillRandom(sino, 63);
    for (const BackProjectorInfo& info : registry.list()) {
        SCOPED_TRACE(info.id);
        auto bp = unwrap(registry.make(info.id));
        Volume out;
        LastFraction sink;
        Progress progress(&sink);
        ExecContext ctx;
        ctx.progress = &progress;
        ASSERT_TRUE(bp->backProject(sino, geom, vol, w, out, ctx).isOk());
        EXPECT_DOUBLE_EQ(progress.fraction(), 1.0);
        EXPECT_DOUBLE_EQ(sink.last, 1.0);

        std::stop_source stop;
        stop.request_stop();
        ctx.stop = stop.get_token();
        ctx.progress = nullptr;
        EXPECT_EQ(bp->backProject(sino, geom, vol, w, out, ctx).code(), ErrorCode::Cancelled);

        ctx.stop = {};
        Sinograms wrong(3, 5, 11);
        EXPECT_EQ(bp->backProject(wrong, geom, vol, w, out, ctx).code(),
                  ErrorCode::InvalidArgument);
        const std::vector<float> fewWeights(4, 1.f);
        EXPECT_EQ(bp->backProject(sino, geom, vol, fewWeights, out, ctx).code(),
                  ErrorCode::InvalidArgument);
        std::vector<float> nanWeight = w;
        nanWeight[2] = std::nanf("");
        EXPECT_EQ(bp->backProject(sino, geom, vol, nanWeight, out, ctx).code(),
                  ErrorCode::InvalidArgument);
        VolumeGeometry empty = vol;
        empty.nx = 0;
        EXPECT_EQ(bp->backProject(sino, geom, empty, w, out, ctx).code(),
                  ErrorCode::InvalidArgument);
    }
}

}  // namespace
}  // namespace tomo
