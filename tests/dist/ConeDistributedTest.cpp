// Distributed cone-beam FDK (app/recon/ConeDistributed.h) under mpirun: every R x C grid of the
// world's ranks against the one-process service's volume computed on rank 0 (bit-identical for
// R x 1, relative RMSE below 1e-6 for C > 1), full and short scans, the symmetric and the
// general back-projector, and a rank whose reads fail (every rank returns that rank's error,
// no output file). Run as `mpirun -np N tomo_cone_dist_tests` (N = 1 without mpirun).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "DistTestEnvironment.h"
#include "app/Engine.h"
#include "app/data/DataFormats.h"
#include "app/recon/ConeDistributed.h"
#include "app/recon/RankOutput.h"
#include "app/recon/ReconService.h"
#include "core/cone/ConePhantom.h"

namespace tomo {
namespace {

struct Case {
    ConeGeometry geometry;
    ConeVolumeGrid grid;
    std::shared_ptr<const Array3<float>> projections;
};

/// @p count views (50: batches of 16, 16, 16, 2) of 48 x 40 over @p arcDeg, 24 x 20 x 26
/// voxels: no size divides evenly by 4.
Case makeCase(double arcDeg, double tilt, int count = 50) {
    const DetectorGrid det = DetectorGrid::centred(48, 40, 1, 1);
    auto views = ConeGeometry::circular(600, 900, count, 0, arcDeg, det).value().views();
    for (ConeView& v : views)
        v.outOfPlaneAngle = tilt;
    ConeGeometry g = ConeGeometry::create(views, det).value();
    auto p = ConePhantom::fromName("ellipsoids:5:2", 12.0).value().project(g, 1).value();
    return {std::move(g), ConeVolumeGrid::centred(24, 20, 26, 1.0),
            std::make_shared<const Array3<float>>(std::move(p))};
}

app::ConeReconRequest request(const Case& c) {
    app::ConeReconRequest r(app::memoryProjections(c.projections), c.geometry, c.grid);
    r.backend = "cpu";
    return r;
}

/// Every grid R x C of the world's ranks.
std::vector<std::pair<int, int>> grids(int ranks) {
    std::vector<std::pair<int, int>> out;
    for (int r = 1; r <= ranks; ++r)
        if (ranks % r == 0) out.emplace_back(r, ranks / r);
    return out;
}

double relativeRmse(const Volume& a, const Volume& b) {
    double num = 0, den = 0;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r) {
        auto x = a.rows().row(r), y = b.rows().row(r);
        for (std::size_t i = 0; i < x.size(); ++i) {
            num += (double(x[i]) - y[i]) * (double(x[i]) - y[i]);
            den += double(y[i]) * y[i];
        }
    }
    return std::sqrt(num / den);
}

void expectEveryGridMatchesOneProcess(double arcDeg, double tilt, const std::string& variant,
                                      int views = 50) {
    Communicator& world = test::DistEnvironment::world();
    const app::Engine engine;
    const Case c = makeCase(arcDeg, tilt, views);
    Volume single;
    if (world.rank() == 0) {
        auto one = app::ReconService(engine).run(request(c), {}, {});
        ASSERT_TRUE(one.isOk()) << one.status().message();
        EXPECT_EQ(one->variant, variant);
        single = std::move(one->image);
    }
    for (auto [rows, columns] : grids(world.size())) {
        SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(columns));
        app::ConeReconRequest r = request(c);
        r.rankRows = rows;
        r.rankColumns = columns;
        ExecContext ctx;
        ctx.threads = 1;
        auto report = app::runConeDistributed(engine, world, r, {}, ctx);
        ASSERT_TRUE(report.isOk()) << report.status().message();
        ASSERT_TRUE(report->fdk.has_value());
        EXPECT_EQ(report->variant, variant);
        // The bench's ablation (no overlap) adds the same views in the same order.
        app::ConeDistributedOptions sequential;
        sequential.overlap = false;
        auto unlapped = app::runConeDistributed(engine, world, r, {}, ctx, sequential);
        ASSERT_TRUE(unlapped.isOk()) << unlapped.status().message();
        if (world.rank() != 0) {
            EXPECT_TRUE(report->image.empty());
            continue;
        }
        ASSERT_EQ(report->image.dims(), single.dims());
        EXPECT_TRUE(test::sameBits(unlapped->image, report->image));
        if (columns == 1) {
            EXPECT_TRUE(test::sameBits(report->image, single));
        } else {
            const double e = relativeRmse(report->image, single);
            std::printf("%d x %d: relative RMSE against one process %.3g\n", rows, columns, e);
            EXPECT_LT(e, 1e-6);
            EXPECT_GT(e, 0.0);  // C partial sums: the rounding differs (else the test is idle)
        }
    }
}

TEST(ConeDistributed, FullScanSymmetricEveryGridAgreesWithOneProcess) {
    expectEveryGridMatchesOneProcess(360, 0, "cpu.fdk.symmetric");
}

TEST(ConeDistributed, ShortScanTiltedEveryGridAgreesWithOneProcess) {
    // Parker weights index views in the whole geometry; the tilt needs the general kernel.
    expectEveryGridMatchesOneProcess(220, 0.05, "cpu.fdk.standard");
}

TEST(ConeDistributed, RanksAndColumnsWithoutViewsAddNothing) {
    // 20 views are 2 batches (16 + 4): on 4 ranks some ranks, and in 1 x 4 some columns, get none.
    expectEveryGridMatchesOneProcess(360, 0, "cpu.fdk.symmetric", 20);
}

/// Every rank a row, so every rank holds a slab to store: raw and HDF5 files written by every
/// row root itself (RankOutput.h), and with TOMO_ORDERED_OUTPUT=1 sent to rank 0, which
/// writes them in plane order; one process's bits in every case.
TEST(ConeDistributed, EveryRowsSlabReachesTheFileInParallelOrInOrder) {
    Communicator& world = test::DistEnvironment::world();
    const app::Engine engine;
    const Case c = makeCase(360, 0);
    Volume single;
    if (world.rank() == 0) single = app::ReconService(engine).run(request(c), {}, {}).value().image;
    for (const char* ext : {".raw", ".h5"})
        for (bool ordered : {false, true}) {
            SCOPED_TRACE(std::string(ext) + (ordered ? " ordered" : " parallel"));
            const std::filesystem::path path =
                std::filesystem::path(TOMO_TEST_BINARY_DIR) /
                ("cone_dist_" + std::to_string(world.size()) + (ordered ? "_ordered" : "") + ext);
            if (world.rank() == 0) {
                std::filesystem::remove(path);
                if (ordered) ::setenv("TOMO_ORDERED_OUTPUT", "1", 1);
            }
            app::ConeReconRequest r = request(c);
            r.output.path = path;
            r.rankRows = world.size();
            auto report = app::runConeDistributed(engine, world, r, {}, {});
            if (world.rank() == 0) ::unsetenv("TOMO_ORDERED_OUTPUT");
            ASSERT_TRUE(report.isOk()) << report.status().message();
            if (world.rank() != 0) continue;
            EXPECT_TRUE(report->streamed);
            bool parallel = false;
            for (const std::string& n : report->notes)
                parallel |= n == app::detail::RankOutput::kParallelNote;
            EXPECT_EQ(parallel, world.size() > 1 && !ordered);
            ReadOptions o;
            o.shape = single.dims();
            auto back = app::makeFormatRegistry().value().readVolume(path, o);
            ASSERT_TRUE(back.isOk()) << back.status().message();
            EXPECT_TRUE(test::sameBits(*back, single));
        }
}

/// Projections whose reads fail on one rank.
class FailingOn final : public app::ProjectionSource {
  public:
    FailingOn(std::shared_ptr<const Array3<float>> views, int failing, int me)
        : m_inner(app::memoryProjections(std::move(views))), m_failing(failing), m_me(me) {}
    std::array<std::size_t, 3> shape() const override { return m_inner->shape(); }
    Result<Array3<float>> read(std::size_t first, std::size_t count) const override {
        if (m_me == m_failing)
            return ioError("cannot read view " + std::to_string(first) + " (test)");
        return m_inner->read(first, count);
    }

  private:
    std::unique_ptr<app::ProjectionSource> m_inner;
    int m_failing, m_me;
};

TEST(ConeDistributed, AFailingReadStopsEveryRankWithItsErrorAndNoFile) {
    Communicator& world = test::DistEnvironment::world();
    const app::Engine engine;
    const Case c = makeCase(360, 0);
    const int failing = world.size() - 1;
    const std::filesystem::path dir = std::filesystem::path(TOMO_TEST_BINARY_DIR) /
                                      ("cone_dist_fail_" + std::to_string(world.size()));
    if (world.rank() == 0) {
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    for (auto [rows, columns] : grids(world.size())) {
        app::ConeReconRequest r(std::make_shared<FailingOn>(c.projections, failing, world.rank()),
                                c.geometry, c.grid);
        r.backend = "cpu";
        r.output.path = dir / "volume.raw";
        r.rankRows = rows;
        r.rankColumns = columns;
        auto report = app::runConeDistributed(engine, world, r, {}, {});
        ASSERT_FALSE(report.isOk());
        EXPECT_EQ(report.status().code(), ErrorCode::IoError);
        const std::string expected =
            (world.size() > 1 ? "rank " + std::to_string(failing) + ": " : std::string()) +
            "cannot read view ";
        EXPECT_EQ(report.status().message().rfind(expected, 0), 0u) << report.status().message();
        if (world.rank() == 0) {
            EXPECT_FALSE(std::filesystem::exists(r.output.path));
            EXPECT_TRUE(std::filesystem::is_empty(dir));  // no temporary left either
        }
    }
}

TEST(ConeDistributed, ARefusedGridIsEveryRanksError) {
    Communicator& world = test::DistEnvironment::world();
    const app::Engine engine;
    const Case c = makeCase(360, 0);
    app::ConeReconRequest r = request(c);
    r.rankRows = world.size() + 1;  // never divides the ranks
    auto report = app::runConeDistributed(engine, world, r, {}, {});
    ASSERT_FALSE(report.isOk());
    EXPECT_EQ(report.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(report.status().message().find("does not divide"), std::string::npos)
        << report.status().message();
}

}  // namespace
}  // namespace tomo
