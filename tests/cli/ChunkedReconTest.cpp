// End-to-end tests of `tomo recon --chunk-rows`: an HDF5 acquisition reconstructed a block of
// detector rows at a time gives the same bytes as reading it whole (the reference is the
// whole-frame path), with zinger removal (whose 2-D window spans chunk boundaries), ring removal,
// cropping and binning of rows, and the Paganin fallback to whole frames.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "CliTestSupport.h"
#include "core/dataset/ProjectionData.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/hdf5io/Hdf5Writer.h"
#include "core/io/ImageIO.h"

namespace tomo {
namespace {
namespace fs = std::filesystem;

using test::CliRun;
using test::runTomo;

std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

constexpr std::size_t kAngles = 48, kRows = 20, kDetectors = 40;

class ChunkedRecon : public test::CliTest {
  protected:
    void SetUp() override {
        test::CliTest::SetUp();
        ASSERT_TRUE(writeDxchange(path("scan.h5"), scan()).isOk());
    }

    /// Counts of a disc whose radius and density change from row to row (so that a row mixed
    /// up with another changes the result), with random noise, zingers on rows that chunk
    /// boundaries cut, and one hot detector column (a ring); 3 flats and 2 darks.
    static ProjectionData scan() {
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> noise(-20.f, 20.f);
        ProjectionData d;
        d.angles = uniformAngles(0, kPi, static_cast<int>(kAngles));
        d.projections = Array3<float>(kAngles, kRows, kDetectors);
        for (std::size_t a = 0; a < kAngles; ++a)
            for (std::size_t r = 0; r < kRows; ++r) {
                const double radius = 6.0 + 0.6 * static_cast<double>(r);
                const double mu = 0.02 + 0.002 * static_cast<double>(r);
                for (std::size_t c = 0; c < kDetectors; ++c) {
                    const double t = static_cast<double>(c) - 19.5 + 2.0 * std::cos(d.angles[a]);
                    const double chord =
                        std::fabs(t) < radius ? 2 * std::sqrt(radius * radius - t * t) : 0;
                    d.projections(a, r, c) =
                        static_cast<float>(100 + 10000 * std::exp(-mu * chord)) + noise(rng);
                }
                d.projections(a, r, 23) *= 1.05f;  // a stripe in every sinogram
            }
        for (std::size_t a = 0; a < kAngles; a += 5)
            d.projections(a, a % kRows, (a * 7) % kDetectors) *= 3.f;  // zingers
        d.flats = Array3<float>(3, kRows, kDetectors);
        d.darks = Array3<float>(2, kRows, kDetectors);
        for (std::size_t r = 0; r < kRows; ++r)
            for (std::size_t c = 0; c < kDetectors; ++c) {
                for (std::size_t k = 0; k < 3; ++k)
                    d.flats(k, r, c) = 10100.f + noise(rng);
                for (std::size_t k = 0; k < 2; ++k)
                    d.darks(k, r, c) = 100.f + noise(rng);
            }
        return d;
    }

    /// Reconstructs scan.h5 into @p output with @p options; expects success.
    void recon(const std::string& output, const std::string& options) {
        CliRun r =
            runTomo("recon " + path("scan.h5") + " -o " + path(output) + " --quiet " + options);
        ASSERT_EQ(r.code, 0) << options << "\n" << r.output;
        lastOutput = r.output;
    }
    std::string lastOutput;
};

TEST_F(ChunkedRecon, ChunksOfRowsGiveTheWholeVolumeBitForBit) {
    const std::string pre = "--zinger 0.2 --zinger-size 5 --rings vo --ring-size 5";
    recon("whole.raw", pre);
    const std::string whole = fileBytes(path("whole.raw"));
    ASSERT_EQ(whole.size(), kRows * kDetectors * kDetectors * sizeof(float));
    // The reference is a real reconstruction: slices differ (the disc grows row by row).
    auto vol = readRawFloat32(path("whole.raw"), {kRows, kDetectors, kDetectors});
    ASSERT_TRUE(vol.isOk());
    EXPECT_NE((*vol)(0, 20, 11), (*vol)(19, 20, 11));
    EXPECT_GT((*vol)(3, 20, 20), 0.01f);
    // Chunks are rounded up to whole FBP batches (8 slices here by default): 8 + 8 + 4 rows.
    for (const char* chunk : {"1", "9", "20"}) {
        recon("chunked.raw", pre + " --chunk-rows " + chunk);
        EXPECT_TRUE(fileBytes(path("chunked.raw")) == whole) << "--chunk-rows " << chunk;
    }
    // Single-slice FBP batches allow single-row chunks: 20 reads of 1 row (+ 2 halo rows).
    recon("whole1.raw", pre + " --chunk 1");
    for (const char* chunk : {"1", "3"}) {
        recon("chunked.raw", pre + " --chunk 1 --chunk-rows " + chunk);
        EXPECT_TRUE(fileBytes(path("chunked.raw")) == fileBytes(path("whole1.raw")))
            << "--chunk 1 --chunk-rows " << chunk;
    }
    // Without zinger removal (no halo rows) as well.
    recon("plain.raw", "");
    recon("plain1.raw", "--chunk-rows 1");
    EXPECT_TRUE(fileBytes(path("plain1.raw")) == fileBytes(path("plain.raw")));
    EXPECT_FALSE(fileBytes(path("plain.raw")) == whole);  // the zingers and stripe mattered
}

TEST_F(ChunkedRecon, CroppedAndBinnedRowsChunkTheSame) {
    const std::string pre = "--crop 1:19,0:40 --bin 2 --zinger 0.2";
    // Rows 1..18 binned by 2: 9 slices of 20x20.
    for (const char* fbp : {"", " --chunk 2"}) {
        recon("whole.raw", pre + fbp);
        const std::string whole = fileBytes(path("whole.raw"));
        ASSERT_EQ(whole.size(), 9 * 20 * 20 * sizeof(float));
        recon("chunked.raw", pre + fbp + " --chunk-rows 1");
        EXPECT_TRUE(fileBytes(path("chunked.raw")) == whole) << fbp;
    }
}

TEST_F(ChunkedRecon, PaganinReadsWholeFramesWithANote) {
    const std::string pre = "--paganin 20,100,1,100";
    recon("whole.raw", pre);
    EXPECT_EQ(lastOutput.find("whole frames"), std::string::npos) << lastOutput;
    recon("chunked.raw", pre + " --chunk-rows 2");
    EXPECT_NE(lastOutput.find("Paganin"), std::string::npos) << lastOutput;
    EXPECT_NE(lastOutput.find("whole frames are read"), std::string::npos) << lastOutput;
    EXPECT_TRUE(fileBytes(path("chunked.raw")) == fileBytes(path("whole.raw")));
}

TEST_F(ChunkedRecon, BadChunkOptionsAreRejected) {
    CliRun zero =
        runTomo("recon " + path("scan.h5") + " -o " + path("x.raw") + " --quiet --chunk-rows 0");
    EXPECT_NE(zero.code, 0);
    EXPECT_NE(zero.output.find("chunk-rows"), std::string::npos) << zero.output;
    CliRun budget = runTomo("recon " + path("scan.h5") + " -o " + path("x.raw") +
                            " --quiet --memory-budget abc");
    EXPECT_NE(budget.code, 0);
    EXPECT_NE(budget.output.find("memory-budget"), std::string::npos) << budget.output;
    EXPECT_FALSE(fs::exists(path("x.raw")));
}

}  // namespace
}  // namespace tomo
