// The OpenCL ALU, oversampling and hybrid back-projectors (gpu/opencl/internal/AluLauncher.h) against
// the CPU double-precision reference; the h_m range invariant on the host and in the kernels;
// the paper's quality ordering (oversampling closer to linear than nearest, with the cache
// filled by the ALUs or by a linear sampler); FP rounding equal to plain rounding; the binary16
// cache equal to float arithmetic on a binary16-rounded sinogram. Cases needing an OpenCL device
// skip without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "GpuTestSupport.h"
#include "TestUtil.h"
#include "core/filter/RampFilter.h"
#include "core/phantom/Phantom.h"
#include "core/projectors/CpuBackProjectors.h"
#include "gpu/opencl/internal/AluLauncher.h"
#include "gpu/opencl/internal/ClBackProjector.h"

namespace tomo::opencl {
namespace {

template <class T>
T unwrap(Result<T> r) {
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    return std::move(r).value();
}

/// The shared device of this test binary, or null without OpenCL (cases then skip).
std::shared_ptr<ClDeviceContext> device() {
    static std::shared_ptr<ClDeviceContext> dev = [] {
        ClDeviceOptions o;
        o.cacheDirectory = std::string(TOMO_TEST_BINARY_DIR) + "/opencl-program-cache";
        auto r = ClDeviceContext::open(-1, o);
        return r.isOk() ? r.value() : nullptr;
    }();
    return dev;
}

/// A random geometry: angles anywhere in [0, 2 pi) (or a limited range), shifted centre with
/// per-projection corrections, voxel size up to @p maxRatio detector pitches, offset grid.
struct Case {
    ParallelGeometry geom;
    VolumeGeometry vol;
};
Case randomCase(std::uint32_t seed, int angles, int detectors, int nx, int ny, int nz,
                double maxRatio) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    ParallelGeometry::Params p;
    const double range = uni(rng) < 0.3 ? 0.6 * kPi : 2.0 * kPi;  // sometimes limited range
    for (int i = 0; i < angles; ++i)
        p.angles.push_back(range * uni(rng));
    p.angles[0] = 0.0;                         // one axis-aligned projection
    if (angles > 1) p.angles[1] = 0.25 * kPi;  // and the widest span
    p.detectorCount = detectors;
    p.detectorPitch = 1.0 + uni(rng);
    p.centerOfRotation = 0.5 * (detectors - 1) + 6.0 * (uni(rng) - 0.5);
    for (int i = 0; i < angles; ++i)
        p.centerCorrection.push_back(uni(rng) - 0.5);
    VolumeGeometry v;
    v.nx = nx;
    v.ny = ny;
    v.nz = nz;
    v.voxelSize = p.detectorPitch * maxRatio * (0.5 + 0.5 * uni(rng));
    v.offsetX = 10.0 * (uni(rng) - 0.5);
    v.offsetY = 10.0 * (uni(rng) - 0.5);
    return {unwrap(ParallelGeometry::create(p)), v};
}

std::vector<float> weights(int n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(0.2f, 1.5f);
    std::vector<float> w(static_cast<std::size_t>(n));
    for (float& x : w)
        x = d(rng);
    return w;
}

Volume runCpuReference(Interpolation mode, const Sinograms& sino, const Case& c,
                       const std::vector<float>& w) {
    Volume out;
    EXPECT_TRUE(
        makeCpuReferenceBackProjector(mode)->backProject(sino, c.geom, c.vol, w, out, {}).isOk());
    return out;
}

Volume runOpenCl(BackProjector& bp, const Sinograms& sino, const Case& c,
                 const std::vector<float>& w) {
    Volume out;
    const Status s = bp.backProject(sino, c.geom, c.vol, w, out, {});
    EXPECT_TRUE(s.isOk()) << bp.info().id << ": " << s.toString();
    return out;
}

/// Largest distance over projections of pixel (ix, iy)'s double-precision u + 0.5 from an
/// integer: where small, float and double may legitimately pick different nearest bins.
double closestTie(const Case& c, int ix, int iy) {
    double best = 1.0;
    for (int p = 0; p < c.geom.angleCount(); ++p) {
        const double u = c.geom.detectorIndex(p, c.vol.x(ix), c.vol.y(iy)) + 0.5;
        best = std::min(best, std::abs(u - std::round(u)));
    }
    return best;
}

/// Exact variants: linear within 1e-5 of the reference's peak (PoCL filters and interpolates
/// in full float, so only float rounding of u and of the sums separates them); nearest equal
/// except at rounding ties.
void expectMatchesReference(const Volume& out, const Volume& ref, Interpolation mode,
                            const Case& c) {
    if (mode == Interpolation::Linear) {
        EXPECT_LE(test::maxRelDiff(out, ref), 1e-5);
        return;
    }
    double peak = 0;
    for (std::size_t r = 0; r < ref.dim(0) * ref.dim(1); ++r)
        for (float v : ref.rows().row(r))
            peak = std::max(peak, double(std::abs(v)));
    int mismatches = 0;
    for (int z = 0; z < c.vol.nz; ++z)
        for (int iy = 0; iy < c.vol.ny; ++iy)
            for (int ix = 0; ix < c.vol.nx; ++ix) {
                if (std::abs(double(out(z, iy, ix)) - ref(z, iy, ix)) <= 1e-5 * peak) continue;
                ++mismatches;
                EXPECT_LT(closestTie(c, ix, iy), 1e-4) << ix << "," << iy;
            }
    EXPECT_LE(mismatches, c.vol.nz * 3);
}

double maxAbsDiff(const Volume& a, const Volume& b) {
    double m = 0;
    for (std::size_t z = 0; z < a.dim(0); ++z)
        for (std::size_t y = 0; y < a.dim(1); ++y)
            for (std::size_t x = 0; x < a.dim(2); ++x)
                m = std::max(m, std::abs(double(a(z, y, x)) - b(z, y, x)));
    return m;
}

BackProjectorRegistry aluRegistry(OpenClRegistration& report) {
    BackProjectorRegistry registry;
    registerAluBackProjectors(registry, report, device(), true);
    return registry;
}

/// IEEE binary16 bits -> float (independent of the kernels' vload_half).
float halfBitsToFloat(std::uint16_t h) {
    const float sign = (h & 0x8000) ? -1.f : 1.f;
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
    if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
    return sign * std::ldexp(static_cast<float>(1024 + mantissa), exponent - 25);
}

/// The oversampling configuration of the tests: cache filled by the ALUs or by the sampler.
AluConfig oversamplingConfig(bool samplerFill) {
    AluConfig c;
    c.family = AluFamily::Oversampling;
    c.projectionsPerBatch = 8;
    c.samplerFill = samplerFill;
    return c;
}

ClBackProjector makeBp(const AluConfig& config, AluLauncher** launcher = nullptr) {
    auto l = std::make_unique<AluLauncher>(config);
    if (launcher) *launcher = l.get();
    BackProjectorInfo info;
    info.id = "test.alu";
    return ClBackProjector(info, device(), std::move(l));
}

// Host mirror of the kernels' index logic: 0 <= h - h_m <= 1.5 n - 2 for every pixel,
// projection and tile on random geometries with voxel size <= detector pitch.
TEST(AluCacheRange, InvariantHoldsOnRandomGeometries) {
    for (std::uint32_t seed = 1; seed <= 12; ++seed) {
        const int nx = 20 + static_cast<int>(seed * 37 % 90),
                  ny = 17 + static_cast<int>(seed * 53 % 80);
        const Case c = randomCase(seed, 24, 40 + static_cast<int>(seed * 29 % 100), nx, ny, 1, 1.0);
        const auto constants = gpuProjectionConstants(c.geom, c.vol, weights(24, seed));
        for (int tile : {32, 64}) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " tile " + std::to_string(tile));
            const AluCacheRange r = aluCacheRange(constants, nx, ny, tile, tile * 3 / 2);
            EXPECT_EQ(r.wideProjections, 0);
            EXPECT_EQ(r.outside, 0);
            EXPECT_GE(r.minPosition, 0.f);
            EXPECT_LE(r.maxPosition, 1.5f * tile - 2.f);
            // The 45-degree projection nearly fills the cache: the bound is tight.
            EXPECT_GT(r.maxPosition, 0.5f * tile);
        }
    }
}

// The same check fails when the cache is too small, and coarse grids are routed around it.
TEST(AluCacheRange, DetectsTooSmallCacheAndWideProjections) {
    Case c = randomCase(3, 24, 80, 64, 64, 1, 1.0);
    c.vol.voxelSize = c.geom.detectorPitch();  // spans up to 31 sqrt(2) bins at 45 degrees
    const auto constants = gpuProjectionConstants(c.geom, c.vol, weights(24, 3));
    EXPECT_GT(aluCacheRange(constants, 64, 64, 32, 40, false).outside, 0);
    Case coarse = c;
    coarse.vol.voxelSize = 2.0 * c.geom.detectorPitch();
    const auto wide = gpuProjectionConstants(coarse.geom, coarse.vol, weights(24, 3));
    const AluCacheRange r = aluCacheRange(wide, 64, 64, 32, 48);
    EXPECT_GT(r.wideProjections, 0);
    EXPECT_EQ(r.outside, 0);
}

// Every registered variant against cpu.reference.* on random data: exact ones within float
// rounding (awkward shapes: tiles cut by the image edge, odd slice counts, shifted centre,
// detector narrower than the image, projections wider than the cache).
TEST(AluBackProjectors, MatchReferenceOnRandomData) {
    if (!device()) TOMO_DEVICE_SKIP("no OpenCL device");
    OpenClRegistration report;
    const BackProjectorRegistry registry = aluRegistry(report);
    ASSERT_FALSE(report.registered.empty());
    for (const auto& [id, why] : report.skipped)
        std::printf("skipped %s: %s\n", id.c_str(), why.c_str());
    for (double ratio : {1.0, 1.6}) {  // all cached; some projections wide
        const Case c = randomCase(ratio > 1 ? 7 : 5, 19, 45, 70, 37, 3, ratio);
        Sinograms sino(3, 19, 45);
        test::fillRandom(sino, 11);
        const std::vector<float> w = weights(19, 12);
        double weightSum = 0;
        for (float x : w)
            weightSum += x;
        const Volume ref[2] = {runCpuReference(Interpolation::Linear, sino, c, w),
                               runCpuReference(Interpolation::Nearest, sino, c, w)};
        for (const BackProjectorInfo& info : registry.list()) {
            SCOPED_TRACE(info.id + " ratio " + std::to_string(ratio));
            auto bp = unwrap(registry.make(info.id));
            const Volume out = runOpenCl(*bp, sino, c, w);
            const Volume& r = ref[info.interpolation == Interpolation::Linear ? 0 : 1];
            if (info.exact)
                expectMatchesReference(out, r, info.interpolation, c);
            else  // oversampling: each sample is within 1/8 bin of the linear one, and
                  // neighbouring bins differ by at most 2: |error| <= 0.25 sum(w)
                EXPECT_LE(maxAbsDiff(out, r), 0.25 * weightSum);
        }
    }
}

// The hybrid's two paths, each alone (ratio 0:1 and 1:0) and interleaved 1:1, match the
// reference: work-group ids pick the path, so every tile is checked on both.
TEST(AluBackProjectors, HybridPathsMatchReference) {
    if (!device()) TOMO_DEVICE_SKIP("no OpenCL device");
    const Case c = randomCase(41, 17, 90, 100, 70, 2, 1.0);
    Sinograms sino(2, 17, 90);
    test::fillRandom(sino, 42);
    const std::vector<float> w = weights(17, 43);
    for (Interpolation mode : {Interpolation::Linear, Interpolation::Nearest}) {
        const Volume ref = runCpuReference(mode, sino, c, w);
        for (auto [alu, tex] : {std::pair{0, 1}, std::pair{1, 0}, std::pair{1, 1}}) {
            SCOPED_TRACE(std::to_string(alu) + ":" + std::to_string(tex));
            AluConfig config;
            config.family = AluFamily::Hybrid;
            config.interpolation = mode;
            config.slices = 2;
            config.ratioAlu = alu;
            config.ratioTex = tex;
            if (!aluSupport(device()->traits(), config).empty()) GTEST_SKIP() << "no images";
            ClBackProjector bp = makeBp(config);
            expectMatchesReference(runOpenCl(bp, sino, c, w), ref, mode, c);
        }
    }
}

// The kernels' own range check (CHECK_RANGE build counts cache indices outside the h_m range)
// on random geometries, for the three cache layouts.
TEST(AluBackProjectors, KernelRangeCheckFindsNoViolation) {
    if (!device()) TOMO_DEVICE_SKIP("no OpenCL device");
    AluConfig lin32;
    lin32.checkRange = true;
    AluConfig nn64 = lin32;
    nn64.tile = 64;
    nn64.projectionsPerBatch = 8;
    nn64.interpolation = Interpolation::Nearest;
    AluConfig ovs = lin32;
    ovs.family = AluFamily::Oversampling;
    ovs.projectionsPerBatch = 8;
    AluConfig half = nn64;
    half.interpolation = Interpolation::Linear;
    half.cacheHalf = true;
    AluConfig ovsSampler = ovs;
    ovsSampler.samplerFill = true;
    for (AluConfig config : {lin32, nn64, ovs, half, ovsSampler}) {
        if (!aluSupport(device()->traits(), config).empty()) continue;  // no float images
        AluLauncher* launcher = nullptr;
        ClBackProjector bp = makeBp(config, &launcher);
        for (std::uint32_t seed : {21u, 22u, 23u}) {
            const Case c = randomCase(seed, 16, 60, 75, 66, 1, 1.0);
            Sinograms sino(1, 16, 60);
            test::fillRandom(sino, seed);
            runOpenCl(bp, sino, c, weights(16, seed));
        }
        EXPECT_EQ(unwrap(launcher->violationCount(*device())), 0u);
    }
}

// FP rounding (the 2^23 trick with the tie correction) gives the plain build's results.
TEST(AluBackProjectors, FpRoundingEqualsPlain) {
    if (!device()) TOMO_DEVICE_SKIP("no OpenCL device");
    const Case c = randomCase(31, 24, 64, 64, 64, 2, 1.0);
    Sinograms sino(2, 24, 64);
    test::fillRandom(sino, 32);
    const std::vector<float> w = weights(24, 33);
    for (Interpolation mode : {Interpolation::Linear, Interpolation::Nearest}) {
        AluConfig plain;
        plain.interpolation = mode;
        plain.slices = 2;
        AluConfig fp = plain;
        fp.fpRounding = true;
        ClBackProjector a = makeBp(plain), b = makeBp(fp);
        const Volume va = runOpenCl(a, sino, c, w), vb = runOpenCl(b, sino, c, w);
        EXPECT_LE(test::maxRelDiff(vb, va), 1e-6) << interpolationName(mode);
    }
}

// The paper's ordering (section 7.2, Figs. 18-19) on the ramp-filtered analytic Shepp-Logan
// sinogram: the oversampled reconstruction is closer to linear interpolation than nearest is.
TEST(AluBackProjectors, OversamplingCloserToLinearThanNearest) {
    if (!device()) TOMO_DEVICE_SKIP("no OpenCL device");
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.0, kPi, 90);
    p.detectorCount = 96;
    const ParallelGeometry geom = unwrap(ParallelGeometry::create(p));
    const Case c{geom, VolumeGeometry::forDetector(geom, 96)};
    Sinograms sino;
    ASSERT_TRUE(Phantom::sheppLogan2d(40.0).project(geom, sino).isOk());
    const RampFilter filter = unwrap(RampFilter::create(96, 1.0));
    ASSERT_TRUE(filter.apply(sino.rows(), {}).isOk());
    std::vector<float> w;
    for (double x : geom.angularWeights())
        w.push_back(static_cast<float>(x));
    const Volume linear = runCpuReference(Interpolation::Linear, sino, c, w);
    AluConfig nnConfig;
    nnConfig.interpolation = Interpolation::Nearest;
    ClBackProjector nnBp = makeBp(nnConfig);
    const Volume nn = runOpenCl(nnBp, sino, c, w);
    auto rms = [&](const Volume& v) {
        double s = 0;
        for (int iy = 0; iy < c.vol.ny; ++iy)
            for (int ix = 0; ix < c.vol.nx; ++ix)
                s += std::pow(double(v(0, iy, ix)) - linear(0, iy, ix), 2);
        return std::sqrt(s / (c.vol.nx * c.vol.ny));
    };
    const double eNn = rms(nn);
    for (bool samplerFill : {false, true}) {
        AluConfig ovsConfig = oversamplingConfig(samplerFill);
        if (!aluSupport(device()->traits(), ovsConfig).empty()) continue;  // no float images
        ClBackProjector ovsBp = makeBp(ovsConfig);
        const double eOvs = rms(runOpenCl(ovsBp, sino, c, w));
        std::printf("Shepp-Logan 96x96, RMS vs linear: nearest %.4g, oversampling (%s fill) %.4g\n",
                    eNn, samplerFill ? "sampler" : "ALU", eOvs);
        EXPECT_GT(eOvs, 0.0) << samplerFill;  // approximate, not linear itself
        EXPECT_LT(eOvs, 0.5 * eNn) << samplerFill;
    }
}

// The sampler-filled cache holds the same quarter-bin samples as the ALU-filled one (k/4 is
// exact in any filter's weights), so both reconstructions agree to float rounding, including
// wide projections (ratio 1.6, read through the same sampler) and the detector edges.
TEST(AluBackProjectors, OversamplingSamplerFillEqualsAluFill) {
    if (!device()) TOMO_DEVICE_SKIP("no OpenCL device");
    AluConfig samplerConfig = oversamplingConfig(true);
    if (const std::string why = aluSupport(device()->traits(), samplerConfig); !why.empty())
        GTEST_SKIP() << why;
    for (double ratio : {1.0, 1.6}) {
        const Case c = randomCase(ratio > 1 ? 51 : 52, 21, 50, 70, 45, 1, ratio);
        Sinograms sino(1, 21, 50);
        test::fillRandom(sino, 53);
        const std::vector<float> w = weights(21, 54);
        ClBackProjector aluBp = makeBp(oversamplingConfig(false)),
                        samplerBp = makeBp(samplerConfig);
        const Volume a = runOpenCl(aluBp, sino, c, w), b = runOpenCl(samplerBp, sino, c, w);
        EXPECT_LE(test::maxRelDiff(b, a), 1e-5) << "ratio " << ratio;
        // And both differ from linear interpolation (approximate).
        EXPECT_GT(test::maxRelDiff(b, runCpuReference(Interpolation::Linear, sino, c, w)), 1e-4);
    }
}

// The binary16 cache: with unit weights the cached bins are the sinogram rounded to binary16
// (round to nearest even), so the kernel equals the float reference on the host-rounded
// sinogram to float rounding, and differs from the unrounded one by about the half precision.
TEST(AluBackProjectors, HalfCacheEqualsReferenceOnRoundedSinogram) {
    if (!device()) TOMO_DEVICE_SKIP("no OpenCL device");
    const Case c = randomCase(61, 18, 56, 70, 40, 3, 1.0);
    Sinograms sino(3, 18, 56);
    test::fillRandom(sino, 62);
    Sinograms rounded = sino.clone();
    for (std::size_t r = 0; r < rounded.dim(0) * rounded.dim(1); ++r)
        for (float& v : rounded.rows().row(r))
            v = halfBitsToFloat(floatToHalf(v));
    const std::vector<float> w(18, 1.0f);
    const Volume refRounded = runCpuReference(Interpolation::Linear, rounded, c, w);
    const Volume ref = runCpuReference(Interpolation::Linear, sino, c, w);
    for (int slices : {1, 4}) {
        AluConfig config;
        config.tile = 64;
        config.projectionsPerBatch = 8;
        config.slices = slices;
        config.cacheHalf = true;
        ClBackProjector bp = makeBp(config);
        const Volume out = runOpenCl(bp, sino, c, w);
        EXPECT_LE(test::maxRelDiff(out, refRounded), 1e-5) << slices;
        const double err = test::maxRelDiff(out, ref);
        EXPECT_GT(err, 1e-5) << slices;  // really stored in binary16
        EXPECT_LT(err, 2e-3) << slices;  // 2^-11 relative per bin
    }
}

}  // namespace
}  // namespace tomo::opencl
