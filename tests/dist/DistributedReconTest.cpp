// Reconstruction across MPI ranks (issue 16), run by ctest under `mpirun -np 2` and `-np 4`
// (tests/dist/CMakeLists.txt): every rank runs every test. The reference is the same request on
// one process (ReconService without ranks), computed on every rank.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "DistTestEnvironment.h"
#include "app/Engine.h"
#include "app/data/DataFormats.h"
#include "app/recon/RankOutput.h"
#include "app/recon/ReconService.h"
#include "core/dist/RankAgreement.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {
namespace fs = std::filesystem;

constexpr int kSlices = 12, kAngles = 60, kDetectors = 48, kSize = 32;

std::shared_ptr<const Sinograms> sinograms() {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, kAngles);
    p.detectorCount = kDetectors;
    p.rows = kSlices;
    auto geometry = ParallelGeometry::create(p);
    Sinograms s;
    EXPECT_TRUE(Phantom::sheppLogan3d(20.0).project(*geometry, s).isOk());
    EXPECT_TRUE(addPoissonNoise(s, 2e4, 7, 0.05).isOk());
    return std::make_shared<const Sinograms>(std::move(s));
}

/// Fails reading any slice from kBadSlice on (which only ranks past 0 hold).
class FailingSource final : public app::SinogramSource {
  public:
    static constexpr std::size_t kBadSlice = 10;
    explicit FailingSource(std::shared_ptr<const Sinograms> s) : m_all(app::memorySource(s)) {}
    std::array<std::size_t, 3> shape() const override { return m_all->shape(); }
    Result<Sinograms> read(std::size_t first, std::size_t count,
                           const ExecContext& ctx) const override {
        if (first + count > kBadSlice) return ioError("slice 10: corrupt block");
        return m_all->read(first, count, ctx);
    }

  private:
    std::unique_ptr<app::SinogramSource> m_all;
};

app::ReconRequest request(std::shared_ptr<const app::SinogramSource> source) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, kAngles);
    p.detectorCount = kDetectors;
    p.rows = kSlices;
    VolumeGeometry grid{kSize, kSize, kSlices, double(kDetectors) / kSize};
    return app::ReconRequest(std::move(source), *ParallelGeometry::create(p), grid);
}

std::string bytesOfFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class AcrossRanks : public ::testing::Test {
  protected:
    Communicator& world() { return test::DistEnvironment::world(); }
    bool root() { return world().rank() == 0; }
    /// A folder every rank sees (the ranks share this machine), made by rank 0.
    fs::path folder() {
        const fs::path dir = fs::path(TOMO_TEST_BINARY_DIR) / "dist-test" /
                             (std::to_string(world().size()) + "-ranks");
        if (root()) fs::create_directories(dir);
        RankAgreement(world()).agree(Status::ok()).isOk();
        return dir;
    }
    /// The request run alone and across the ranks.
    std::pair<Result<app::ReconReport>, Result<app::ReconReport>> both(app::ReconRequest r) {
        const app::ReconService alone(m_engine), across(m_engine, &world());
        auto one = alone.run(r, {}, ExecContext{1});
        auto all = across.run(r, {}, ExecContext{1});
        return {std::move(one), std::move(all)};
    }
    app::Engine m_engine;
};

TEST_F(AcrossRanks, FbpIsBitIdenticalToOneProcess) {
    app::ReconRequest r = request(app::memorySource(sinograms()));
    r.slabSlices = 2;  // several slabs per rank
    r.backend = "cpu";
    auto [one, all] = both(r);
    ASSERT_TRUE(one.isOk()) << one.status().message();
    ASSERT_TRUE(all.isOk()) << all.status().message();
    if (!root()) return;  // rank 0 holds the output
    ASSERT_EQ(all->image.dims(), one->image.dims());
    for (std::size_t z = 0; z < one->image.dim(0); ++z)
        for (std::size_t y = 0; y < one->image.dim(1); ++y)
            for (std::size_t x = 0; x < one->image.dim(2); ++x)
                ASSERT_EQ(all->image(z, y, x), one->image(z, y, x)) << z << " " << y << " " << x;
}

TEST_F(AcrossRanks, FbpStreamsOneFileInOrder) {
    const fs::path dir = folder();
    app::ReconRequest r = request(app::memorySource(sinograms()));
    r.slabSlices = 2;
    r.backend = "cpu";
    r.output.path = dir / "across.tif";  // multi-page TIFF: pages only in order
    const app::ReconService across(m_engine, &world());
    ASSERT_TRUE(across.run(r, {}, ExecContext{1}).isOk());
    if (!root()) return;
    r.output.path = dir / "alone.tif";
    ASSERT_TRUE(app::ReconService(m_engine).run(r, {}, ExecContext{1}).isOk());
    EXPECT_EQ(bytesOfFile(dir / "across.tif"), bytesOfFile(dir / "alone.tif"));
}

bool hasNote(const app::ReconReport& report, const std::string& text) {
    for (const std::string& n : report.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

Array3<float> readBack(const fs::path& path) {
    ReadOptions o;
    o.shape = std::array<std::size_t, 3>{kSlices, kSize, kSize};
    auto v = app::makeFormatRegistry().value().readVolume(path, o);
    EXPECT_TRUE(v.isOk()) << path << ": " << v.status().message();
    return v ? std::move(*v) : Array3<float>();
}

/// Raw and HDF5 lay their planes out at fixed places: every rank writes its own planes into the
/// one file (RankOutput.h), FBP and chunked SIRT alike, and the file holds one process's bits.
TEST_F(AcrossRanks, EveryRankWritesItsPlanesIntoOneFile) {
    const fs::path dir = folder();
    for (const char* algo : {"fbp", "sirt"})
        for (const char* ext : {".raw", ".h5"}) {
            SCOPED_TRACE(std::string(algo) + " " + ext);
            app::ReconRequest r = request(app::memorySource(sinograms()));
            r.algorithm = algo;
            r.parameters = algo == std::string("sirt")
                               ? std::map<std::string, std::string>{{"iterations", "3"}}
                               : std::map<std::string, std::string>{};
            r.slabSlices = 2;
            r.backend = "cpu";
            r.output.path = dir / (std::string("shared-") + algo + ext);
            auto all = app::ReconService(m_engine, &world()).run(r, {}, ExecContext{1});
            ASSERT_TRUE(all.isOk()) << all.status().message();
            if (!root()) continue;
            EXPECT_TRUE(hasNote(*all, app::detail::RankOutput::kParallelNote));
            const fs::path across = r.output.path;
            r.output.path = dir / (std::string("alone-") + algo + ext);
            ASSERT_TRUE(app::ReconService(m_engine).run(r, {}, ExecContext{1}).isOk());
            EXPECT_TRUE(test::sameBits(readBack(across), readBack(r.output.path)));
            if (ext == std::string(".raw")) {
                EXPECT_EQ(bytesOfFile(across), bytesOfFile(r.output.path));
            }
        }
}

/// Rank 0 may ask for the ordered scheme (TOMO_ORDERED_OUTPUT=1), and a rank that cannot open
/// the file being written (here: another working folder, where the relative path leads
/// nowhere) makes every rank send its planes to rank 0 instead: the same file either way.
TEST_F(AcrossRanks, OrderedWritesWhenAskedOrWhenARankCannotReachTheFile) {
    const fs::path dir = folder();
    app::ReconRequest r = request(app::memorySource(sinograms()));
    r.slabSlices = 2;
    r.backend = "cpu";
    r.output.path = dir / "alone-ordered.raw";
    if (root()) {
        ASSERT_TRUE(app::ReconService(m_engine).run(r, {}, ExecContext{1}).isOk());
    }
    const std::string alone = root() ? bytesOfFile(r.output.path) : std::string();

    if (root()) ::setenv("TOMO_ORDERED_OUTPUT", "1", 1);
    r.output.path = dir / "asked-ordered.raw";
    auto asked = app::ReconService(m_engine, &world()).run(r, {}, ExecContext{1});
    if (root()) ::unsetenv("TOMO_ORDERED_OUTPUT");
    ASSERT_TRUE(asked.isOk()) << asked.status().message();
    if (root()) {
        EXPECT_FALSE(hasNote(*asked, app::detail::RankOutput::kParallelNote));
        EXPECT_EQ(bytesOfFile(r.output.path), alone);
    }

    const fs::path home = fs::current_path();
    const fs::path mine = dir / ("cwd-" + std::to_string(world().rank()));
    fs::create_directories(mine);
    fs::current_path(mine);
    r.output.path = "unreachable.raw";  // relative: rank 0's folder, not the others'
    auto fallback = app::ReconService(m_engine, &world()).run(r, {}, ExecContext{1});
    fs::current_path(home);
    ASSERT_TRUE(fallback.isOk()) << fallback.status().message();
    if (!root()) return;
    EXPECT_FALSE(hasNote(*fallback, app::detail::RankOutput::kParallelNote));
    EXPECT_TRUE(hasNote(*fallback, "cannot open")) << fallback->notes.size();
    EXPECT_EQ(bytesOfFile(mine / "unreachable.raw"), alone);
}

/// Relative RMS difference of two volumes.
double relativeDifference(const Volume& a, const Volume& b) {
    double d = 0, n = 0;
    for (std::size_t z = 0; z < a.dim(0); ++z)
        for (std::size_t y = 0; y < a.dim(1); ++y)
            for (std::size_t x = 0; x < a.dim(2); ++x) {
                d += std::pow(double(a(z, y, x)) - b(z, y, x), 2);
                n += std::pow(double(b(z, y, x)), 2);
            }
    return std::sqrt(d / n);
}

/// One solve across the ranks: within rounding of one process (reductions in another order),
/// the same iterations, and the same bits when run again (rank order is fixed).
TEST_F(AcrossRanks, IterativeSolversMatchOneProcess) {
    for (const char* algo : {"cgls", "sirt", "os-sirt", "tv", "memxct"}) {
        SCOPED_TRACE(algo);
        app::ReconRequest r = request(app::memorySource(sinograms()));
        r.algorithm = algo;
        r.parameters = {{"iterations", "6"}};
        auto [one, all] = both(r);
        ASSERT_TRUE(one.isOk()) << one.status().message();
        ASSERT_TRUE(all.isOk()) << all.status().message();
        auto again = app::ReconService(m_engine, &world()).run(r, {}, ExecContext{1});
        ASSERT_TRUE(again.isOk());
        if (!root()) continue;
        EXPECT_EQ(all->iterations, one->iterations);
        EXPECT_LT(relativeDifference(all->image, one->image), 1e-5);
        ASSERT_EQ(all->curve.size(), one->curve.size());
        for (std::size_t k = 0; k < one->curve.size(); ++k)
            EXPECT_NEAR(all->curve[k].residualNorm, one->curve[k].residualNorm,
                        1e-6 * one->curve[k].residualNorm);
        EXPECT_EQ(relativeDifference(again->image, all->image), 0.0);
    }
}

/// The stopping rules see the whole stack's numbers: every rank stops at one process's iteration.
TEST_F(AcrossRanks, StoppingRulesDecideAsOneProcess) {
    app::ReconRequest r = request(app::memorySource(sinograms()));
    r.algorithm = "cgls";
    r.parameters = {{"iterations", "40"}, {"stop", "rel-change"}, {"stop-tol", "0.02"}};
    auto [one, all] = both(r);
    ASSERT_TRUE(one.isOk() && all.isOk());
    if (!root()) return;
    EXPECT_LT(one->iterations, 40);
    EXPECT_EQ(all->iterations, one->iterations);
    EXPECT_EQ(all->keptIterations.front(), one->keptIterations.front());
}

TEST_F(AcrossRanks, ChunksSolvedOnTheirOwnAreBitIdentical) {
    for (const char* algo : {"sirt", "mbir"}) {
        SCOPED_TRACE(algo);
        app::ReconRequest r = request(app::memorySource(sinograms()));
        r.algorithm = algo;
        r.parameters = {{"iterations", "3"}};
        r.slabSlices = 3;
        auto [one, all] = both(r);
        ASSERT_TRUE(one.isOk()) << one.status().message();
        ASSERT_TRUE(all.isOk()) << all.status().message();
        if (root()) {
            EXPECT_EQ(relativeDifference(all->image, one->image), 0.0);
        }
    }
}

/// MemXCT on one slice with its matrix partitioned over the ranks: CGLS within rounding of one
/// process (the adjoint's partial sums are added in another order; CGLS carries that through
/// its iterations; 5 iterations here: CGLS in float amplifies rounding once it fits the noise,
/// by iteration 8 of this noisy 32^2 case the residuals of any two summation orders differ by
/// 2e-4).
TEST_F(AcrossRanks, MemxctPartitionedSpmvMatchesOneProcess) {
    auto sino = sinograms();
    Sinograms one(1, sino->dim(1), sino->dim(2));
    for (std::size_t a = 0; a < sino->dim(1); ++a)
        std::copy(sino->row(5, a).begin(), sino->row(5, a).end(), one.row(0, a).begin());
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, kAngles);
    p.detectorCount = kDetectors;
    app::ReconRequest r(app::memorySource(std::make_shared<const Sinograms>(std::move(one))),
                        *ParallelGeometry::create(p),
                        VolumeGeometry{kSize, kSize, 1, double(kDetectors) / kSize});
    r.algorithm = "memxct";
    r.parameters = {{"iterations", "5"}, {"kernel", "csr"}, {"tile", "8"}};
    auto [alone, all] = both(r);
    ASSERT_TRUE(alone.isOk()) << alone.status().message();
    ASSERT_TRUE(all.isOk()) << all.status().message();
    if (!root()) return;
    EXPECT_NE(all->variant.find("partitioned"), std::string::npos) << all->variant;
    EXPECT_EQ(all->iterations, alone->iterations);
    for (std::size_t k = 0; k < alone->curve.size(); ++k)
        EXPECT_NEAR(all->curve[k].residualNorm, alone->curve[k].residualNorm,
                    1e-6 * alone->curve[k].residualNorm);
    EXPECT_LT(relativeDifference(all->image, alone->image), 1e-4);
}

/// A rank that cannot read its slices stops every rank with its message; no file is left.
TEST_F(AcrossRanks, AFailingRankStopsAllAndLeavesNoOutput) {
    const fs::path dir = folder();
    for (const char* algo : {"fbp", "cgls"}) {
        SCOPED_TRACE(algo);
        const auto sino = sinograms();
        app::ReconRequest r = request(std::make_shared<FailingSource>(sino));
        r.algorithm = algo;
        r.slabSlices = algo == std::string("fbp") ? 2 : 0;
        r.output.path = dir / (std::string(algo) + "-failed.h5");
        auto all = app::ReconService(m_engine, &world()).run(r, {}, ExecContext{1});
        ASSERT_FALSE(all.isOk());
        EXPECT_EQ(all.status().code(), ErrorCode::IoError);
        EXPECT_NE(all.status().message().find("slice 10: corrupt block"), std::string::npos)
            << all.status().message();
        EXPECT_EQ(all.status().message().rfind("rank ", 0), 0u) << all.status().message();
        RankAgreement(world()).agree(Status::ok()).isOk();
        EXPECT_FALSE(fs::exists(r.output.path));
        for (const auto& entry : fs::directory_iterator(dir))
            EXPECT_EQ(entry.path().string().find("failed"), std::string::npos) << entry.path();
    }
}

}  // namespace
}  // namespace tomo
