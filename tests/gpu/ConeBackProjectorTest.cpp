// Every cone-beam (FDK) variant of the executable's GPU backend (OpenCL in tomo_gpu_tests, CUDA
// in tomo_gpu_cuda_tests; GpuTestSupport.h) through runFdk on the analytic case of
// tests/core/cone (ConeTestSupport.h: 48^3 voxels, detector 96 x 80, 60 views): the
// double-precision reference within paper 003's criterion (relative RMSE 1e-5) on mirror,
// column (vertical detector offset) and tilted geometries; slabs bit-identical to one whole
// run; the symmetric kernels equal to the standard one; tilted geometries refused by the
// symmetric kernels; a slab beyond the device's memory is OutOfMemory; CUDA's device stages
// (upload, kernels, transpose, download) timed. The same source for every
// backend: the variants come from coneBackendRegistry(). Skips at run time without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <utility>
#include <vector>

#include "ConeTestSupport.h"
#include "GpuTestSupport.h"
#include "core/cone/Fdk.h"

namespace tomo {
namespace {

using test::ConeCase;

std::string backend() {
    return test::backendSetup().backend;
}

std::vector<ConeBackProjectorInfo> coneVariants() {
    return test::coneBackendRegistry().list();
}

/// Runs variant @p id on @p c (fails the test and returns an empty volume on error).
Volume run(const ConeCase& c, const std::string& id, int slabPlanes = 0) {
    auto bp = test::coneBackendRegistry().create(id);
    if (!bp.isOk()) {
        ADD_FAILURE() << id << ": " << bp.status().message();
        return {};
    }
    auto out = test::runToVolume(c, **bp, slabPlanes);
    if (!out.isOk()) {
        ADD_FAILURE() << id << ": " << out.status().message();
        return {};
    }
    return std::move(out).value();
}

Volume reference(const ConeCase& c) {
    return referenceFdk(c.geometry, c.projections, c.grid, c.options).value();
}

bool sameBits(const Volume& a, const Volume& b) {
    if (a.dims() != b.dims()) return false;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r)
        if (std::memcmp(a.rows().row(r).data(), b.rows().row(r).data(), a.dim(2) * sizeof(float)) !=
            0)
            return false;
    return true;
}

/// Every variant applicable to @p c's geometry against the reference; prints the errors.
void expectAllMatchReference(const ConeCase& c, const std::string& label) {
    const Volume ref = reference(c);
    const ConeSymmetry has = c.geometry.symmetry(c.grid);
    int checked = 0;
    for (const ConeBackProjectorInfo& info : coneVariants()) {
        if (!handles(info.needs, has)) continue;
        const Volume out = run(c, info.id);
        if (out.empty()) continue;
        const double err = test::relativeRmse(out, ref);
        std::cout << "  " << label << "  " << info.id << ": relative RMSE " << err << "\n";
        EXPECT_LT(err, 1e-5) << info.id << " on " << label;
        ++checked;
    }
    EXPECT_GE(checked, 1) << label;
}

TEST(GpuCone, RegistersAStandardAndASymmetricVariant) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const ConeBackProjectorRegistry& registry = test::coneBackendRegistry();
    ASSERT_FALSE(registry.list().empty());
    for (const ConeBackProjectorInfo& info : registry.list()) {
        std::cout << "  " << info.id << ": " << info.description << "\n";
        EXPECT_EQ(info.backend, backend());
        EXPECT_EQ(info.id.rfind(backend() + ".fdk.", 0), 0u) << info.id;
        if (info.family == "standard") {
            EXPECT_EQ(info.needs, ConeSymmetry::General) << info.id;
        } else {
            EXPECT_EQ(info.family, "symmetric") << info.id;
            EXPECT_EQ(info.needs, ConeSymmetry::Column) << info.id;
        }
    }
    EXPECT_EQ(registry.choose(ConeSymmetry::General, backend()).value(),
              backend() + ".fdk.standard");
    const std::string mirror = registry.choose(ConeSymmetry::Mirror, backend()).value();
    EXPECT_EQ(registry.create(mirror).value()->info().family, "symmetric");
}

TEST(GpuCone, EveryVariantMatchesTheDoublePrecisionReference) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const ConeCase mirror = test::coneCase("shepp-logan", 360, 60);
    ASSERT_EQ(mirror.geometry.symmetry(mirror.grid), ConeSymmetry::Mirror);
    expectAllMatchReference(mirror, "mirror");
    // A vertical detector offset of 6 mm (5 pixels) breaks the mirror, not the columns.
    const ConeCase column = test::coneCase("shepp-logan", 360, 60, 6.0);
    ASSERT_EQ(column.geometry.symmetry(column.grid), ConeSymmetry::Column);
    expectAllMatchReference(column, "column");
    // Tall columns (301 and 300 voxels along y): several voxels per thread or work-item of the
    // tile kernels and several y chunks; 10 x 8 columns: a part-filled block of 8 columns.
    ConeCase tall = test::coneCase("shepp-logan", 360, 60);
    tall.grid = ConeVolumeGrid::centred(10, 301, 8, 0.2);
    ASSERT_EQ(tall.geometry.symmetry(tall.grid), ConeSymmetry::Mirror);
    expectAllMatchReference(tall, "tall mirror");
    ConeCase tallColumn = test::coneCase("shepp-logan", 360, 60, 6.0);
    tallColumn.grid = ConeVolumeGrid::centred(10, 300, 8, 0.2);
    ASSERT_EQ(tallColumn.geometry.symmetry(tallColumn.grid), ConeSymmetry::Column);
    expectAllMatchReference(tallColumn, "tall column");
}

TEST(GpuCone, PartialAndLongBatchesMatchTheReference) {
    TOMO_SKIP_WITHOUT_BACKEND();
    ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60);
    for (int batch : {7, 45}) {  // a batch smaller than a warp; one over two launches of 32
        c.options.batch = batch;
        expectAllMatchReference(c, "batch " + std::to_string(batch));
    }
}

// FDK on a device runs through core's pipeline (issue 27): its report carries the uploads and
// kernels of the batches (the pipeline's events) and the back-projector's transposes and
// read-back of the slab; the timeline report shows them.
TEST(GpuCone, TheDeviceStagesOfASlabAreTimed) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60);
    for (const ConeBackProjectorInfo& info : coneVariants()) {
        auto bp = test::coneBackendRegistry().create(info.id);
        ASSERT_TRUE(bp.isOk()) << bp.status().message();
        FdkReport report;
        ASSERT_TRUE(test::runToVolume(c, **bp, 0, &report).isOk()) << info.id;
        // Paper 003's T_H2D, T_bp, T_trans, T_D2H.
        const ConeDeviceTimes t = report.timings.device;
        const TimelineReport timeline = fdkTimeline(report.timings);
        std::cout << "  " << info.id << ": " << formatTimeline(timeline) << "\n";
        EXPECT_GT(timeline.busyOf(TimelineStage::Upload), 0) << info.id;
        EXPECT_GT(timeline.busyOf(TimelineStage::Kernels), 0) << info.id;
        std::cout << "  " << info.id << ": upload " << t.upload << " s, kernels " << t.kernel
                  << " s, transpose " << t.transpose << " s, download " << t.download << " s\n";
        EXPECT_GT(t.upload, 0) << info.id;
        EXPECT_GT(t.kernel, 0) << info.id;
        EXPECT_GT(t.download, 0) << info.id;
        if (info.family == "symmetric") {
            EXPECT_GT(t.transpose, 0) << info.id;  // y-contiguous slab to [z][y][x]
        } else {
            EXPECT_EQ(t.transpose, 0) << info.id;
        }
    }
}

TEST(GpuCone, SlabsGiveTheSameBitsAsOneVolume) {
    TOMO_SKIP_WITHOUT_BACKEND();
    for (double offsetY : {0.0, 6.0}) {
        const ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60, offsetY);
        for (const ConeBackProjectorInfo& info : coneVariants()) {
            const Volume whole = run(c, info.id), slabs = run(c, info.id, 7);  // 6 x 7 + 6
            EXPECT_TRUE(!whole.empty() && sameBits(whole, slabs)) << info.id << " " << offsetY;
        }
    }
}

// Issue 27: the slab leaves the device written once, straight from the download's staging
// into the volume (core/pipeline/SlabDownload.h). Into NaN-filled memory (what uninitialised
// memory may hold), on a grid whose rows have padding, finishInto() writes every stored float:
// the bits of finish() and zeros in the padding, whatever the slab's place in the grid; a
// volume of other dims is refused and the object stays usable.
TEST(GpuCone, FinishIntoNanFilledMemoryWritesEveryStoredFloat) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60);
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(45, 41, 48, 1.0);  // pitch 48
    const int first = 5, planes = 37;
    const ConeSymmetry has = c.geometry.symmetry(grid);
    int checked = 0;
    for (const ConeBackProjectorInfo& info : coneVariants()) {
        if (!handles(info.needs, has)) continue;
        auto bp = test::coneBackendRegistry().create(info.id).value();
        const ExecContext ctx;
        ASSERT_TRUE(bp->begin(c.geometry, grid, first, planes, ctx).isOk()) << info.id;
        ASSERT_TRUE(bp->add(0, c.projections, ctx).isOk()) << info.id;
        auto fresh = bp->finish(ctx);
        ASSERT_TRUE(fresh.isOk()) << info.id << ": " << fresh.status().message();
        Volume wrong = Volume::create(planes, 41, 44).value();
        ASSERT_TRUE(bp->begin(c.geometry, grid, first, planes, ctx).isOk()) << info.id;
        EXPECT_EQ(bp->finishInto(wrong, ctx).code(), ErrorCode::InvalidArgument) << info.id;
        Volume into = Volume::createUninitialised(planes, 41, 45).value();
        const std::size_t stored = std::size_t(planes) * 41 * into.pitch();
        ASSERT_GT(into.pitch(), 45u);
        std::fill(into.data(), into.data() + stored, std::numeric_limits<float>::quiet_NaN());
        ASSERT_TRUE(bp->begin(c.geometry, grid, first, planes, ctx).isOk()) << info.id;
        ASSERT_TRUE(bp->add(0, c.projections, ctx).isOk()) << info.id;
        const Status done = bp->finishInto(into, ctx);
        ASSERT_TRUE(done.isOk()) << info.id << ": " << done.message();
        EXPECT_TRUE(sameBits(*fresh, into)) << info.id;
        std::size_t bad = 0;
        for (std::size_t r = 0; r < std::size_t(planes) * 41; ++r)
            for (std::size_t x = 0; x < into.pitch(); ++x) {
                const float v = into.data()[r * into.pitch() + x];
                bad += x < 45 ? std::isnan(v) : (v != 0.0f || std::signbit(v));
                bad += x >= 45 && fresh->data()[r * into.pitch() + x] != 0.0f;
            }
        EXPECT_EQ(bad, 0u) << info.id;
        ++checked;
    }
    EXPECT_GE(checked, 2);
}

TEST(GpuCone, TheSymmetricKernelsEqualTheStandardOne) {
    TOMO_SKIP_WITHOUT_BACKEND();
    ConeCase odd = test::coneCase("ellipsoids:6:3", 360, 60);
    odd.grid = ConeVolumeGrid::centred(48, 47, 48, 1.0);  // a middle voxel without a mirror
    ConeCase tall = test::coneCase("ellipsoids:6:3", 360, 60);
    tall.grid = ConeVolumeGrid::centred(10, 301, 8, 0.2);  // several voxels per tile thread
    std::vector<std::pair<std::string, ConeCase>> cases;
    cases.emplace_back("mirror", test::coneCase("ellipsoids:6:3", 360, 60));
    cases.emplace_back("column", test::coneCase("ellipsoids:6:3", 360, 60, 6.0));
    cases.emplace_back("mirror, odd ny", std::move(odd));
    cases.emplace_back("mirror, tall odd ny", std::move(tall));
    for (const auto& [label, c] : cases) {
        ASSERT_NE(c.geometry.symmetry(c.grid), ConeSymmetry::General);
        const Volume standard = run(c, backend() + ".fdk.standard");
        for (const ConeBackProjectorInfo& info : coneVariants()) {
            if (info.family != "symmetric") continue;
            const double err = test::relativeRmse(run(c, info.id), standard);
            std::cout << "  " << label << "  " << info.id << " vs standard: " << err << "\n";
            EXPECT_LT(err, 5e-6) << info.id << " on " << label;
        }
    }
}

TEST(GpuCone, TiltedGeometriesAreRefusedBySymmetricVariants) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60, 0.0, 0.04);
    ASSERT_EQ(c.geometry.symmetry(c.grid), ConeSymmetry::General);
    for (const ConeBackProjectorInfo& info : coneVariants()) {
        if (info.family != "symmetric") continue;
        auto bp = test::coneBackendRegistry().create(info.id).value();
        const Status s = bp->begin(c.geometry, c.grid, 0, c.grid.nz, {});
        EXPECT_EQ(s.code(), ErrorCode::InvalidArgument) << info.id << ": " << s.message();
    }
    expectAllMatchReference(c, "tilted");
}

TEST(GpuCone, ASlabBeyondTheDeviceIsOutOfMemoryAndTheObjectStaysUsable) {
    TOMO_SKIP_WITHOUT_BACKEND();
    const ConeCase c = test::coneCase("ball", 360, 60);
    const ConeVolumeGrid huge = ConeVolumeGrid::centred(65536, 65536, 64, 0.01);  // 1 TiB
    for (const ConeBackProjectorInfo& info : coneVariants()) {
        auto bp = test::coneBackendRegistry().create(info.id).value();
        const Status s = bp->begin(c.geometry, huge, 0, huge.nz, {});
        EXPECT_EQ(s.code(), ErrorCode::OutOfMemory) << info.id << ": " << s.message();
        auto out = test::runToVolume(c, *bp);
        ASSERT_TRUE(out.isOk()) << info.id << ": " << out.status().message();
        EXPECT_NEAR(test::centreMean(*out, 4), 1.0, 0.01) << info.id;
    }
}

}  // namespace
}  // namespace tomo
