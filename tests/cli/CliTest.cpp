// End-to-end tests of the tomo CLI: the phantom -> recon -> compare workflow, and every bad-input
// case exits non-zero with a one-line message naming the cause and leaves no output file.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "CliTestSupport.h"
#include "core/io/ImageIO.h"
#include "core/metrics/Metrics.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {
namespace fs = std::filesystem;

using test::CliRun;

/// A CLI test: the shared fixture plus `tomo(ARGS)`.
class Cli : public test::CliTest {
  protected:
    static CliRun tomo(const std::string& args) { return test::runTomo(args); }
};

TEST_F(Cli, PhantomReconCompareEndToEnd) {
    CliRun p = tomo("phantom -o " + path("sino.raw") + " --truth " + path("truth.raw") +
                    " --size 128 --angles 0:180:200 --detectors 185 --quiet");
    ASSERT_EQ(p.code, 0) << p.output;
    EXPECT_EQ(fs::file_size(path("sino.raw")), 200u * 185u * 4u);
    CliRun r =
        tomo("recon " + path("sino.raw") + " --shape 200x185 --angles 0:180:200 --size 128 -o " +
             path("rec.raw") + " --truth " + path("truth.raw") + " --truth-shape 128x128 --quiet");
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("RMSE"), std::string::npos);
    ASSERT_EQ(fs::file_size(path("rec.raw")), 128u * 128u * 4u);

    // Check the result independently of the CLI's own metric.
    auto rec = readRawFloat32(path("rec.raw"), {1, 128, 128});
    auto truth = readRawFloat32(path("truth.raw"), {1, 128, 128});
    ASSERT_TRUE(rec.isOk() && truth.isOk());
    auto err = rmse(rec->plane(0), truth->plane(0));
    EXPECT_LT(*err, 0.07);
    CliRun c =
        tomo("compare " + path("rec.raw") + " " + path("truth.raw") + " --shape 128x128 --json");
    ASSERT_EQ(c.code, 0) << c.output;
    char expected[32];
    std::snprintf(expected, sizeof expected, "%.4g", *err);
    EXPECT_NE(c.output.find(std::string("\"rmse\": ") + expected), std::string::npos)
        << c.output << expected;
}

TEST_F(Cli, ThePhantomsHintReconstructsWithItsAxis) {
    // An axis 6 px off the detector's centre: the printed command must carry it, or following
    // the hint gives a doubled image.
    CliRun p = tomo("phantom -o " + path("off.raw") + " --truth " + path("off-truth.raw") +
                    " --size 96 --angles 0:180:150 --detectors 129 --center 70 --quiet");
    ASSERT_EQ(p.code, 0) << p.output;
    const std::string lead = "reconstruct with: tomo ";
    const auto at = p.output.find(lead);
    ASSERT_NE(at, std::string::npos) << p.output;
    std::string hint = p.output.substr(at + lead.size());
    hint = hint.substr(0, hint.find('\n'));
    EXPECT_NE(hint.find("--center 70"), std::string::npos) << hint;
    const auto out = hint.find("-o rec.raw");
    ASSERT_NE(out, std::string::npos) << hint;
    hint.replace(out, 10, "-o " + path("off-rec.raw") + " --quiet");
    CliRun r = tomo(hint);
    ASSERT_EQ(r.code, 0) << r.output;
    auto rec = readRawFloat32(path("off-rec.raw"), {1, 96, 96});
    auto truth = readRawFloat32(path("off-truth.raw"), {1, 96, 96});
    ASSERT_TRUE(rec.isOk() && truth.isOk());
    EXPECT_LT(*rmse(rec->plane(0), truth->plane(0)), 0.08);
}

TEST_F(Cli, TiffInputAndOutputAndPng) {
    if (!TOMO_WITH_TIFF_BUILD) GTEST_SKIP() << "no TIFF in this build";
    ASSERT_EQ(tomo("phantom -o " + path("sino.tif") +
                   " --size 64 --angles 0:180:100 --detectors 91 --slices 2 --quiet")
                  .code,
              0);
    CliRun r =
        tomo("recon " + path("sino.tif") + " --angles 0:180:100 --size 64 -o " + path("rec.tif") +
             " --png " + path("rec.png") + " --filter hann --interp nearest --quiet");
    ASSERT_EQ(r.code, 0) << r.output;
    auto rec = readTiff(path("rec.tif"));
    ASSERT_TRUE(rec.isOk());
    EXPECT_EQ(rec->dim(0), 2u);
    EXPECT_EQ(rec->dim(1), 64u);
    EXPECT_GT(fs::file_size(path("rec.png")), 64u * 64u);
}

TEST_F(Cli, ConvertTo16BitTiffKeepsValuesWithinQuantisation) {
    if (!TOMO_WITH_TIFF_BUILD) GTEST_SKIP() << "no TIFF in this build";
    ASSERT_EQ(
        tomo("phantom -o " + path("s.raw") + " --size 32 --angles 0:180:40 --detectors 47 --quiet")
            .code,
        0);
    CliRun r =
        tomo("convert " + path("s.raw") + " " + path("s16.tif") + " --shape 40x47 --uint16 auto");
    ASSERT_EQ(r.code, 0) << r.output;
    auto original = readRawFloat32(path("s.raw"), {1, 40, 47});
    auto counts = readTiff(path("s16.tif"));  // the stored scale is applied on reading
    ASSERT_TRUE(original.isOk() && counts.isOk()) << counts.status().message();
    double lo = 1e30, hi = -1e30, maxErr = 0;
    for (std::size_t a = 0; a < 40; ++a)
        for (std::size_t d = 0; d < 47; ++d) {
            lo = std::min<double>(lo, (*original)(0, a, d));
            hi = std::max<double>(hi, (*original)(0, a, d));
        }
    for (std::size_t a = 0; a < 40; ++a)
        for (std::size_t d = 0; d < 47; ++d)
            maxErr = std::max(maxErr, std::abs(double((*counts)(0, a, d)) - (*original)(0, a, d)));
    const double step = (hi - lo) / 65535.0;
    EXPECT_LE(maxErr, 0.5 * step * 1.001 + 1e-6);
    EXPECT_GT(maxErr, 0.0);  // really quantised
    CliRun bad =
        tomo("convert " + path("s.raw") + " " + path("x.tif") + " --shape 40x47 --uint16 -1");
    expectOneLineError(bad, "--uint16");
    EXPECT_FALSE(fs::exists(path("x.tif")));
}

TEST_F(Cli, MissingInputFile) {
    CliRun r = tomo("recon " + path("nope.raw") + " --shape 10x10 --angles 0:180:10 -o " +
                    path("out.raw"));
    expectOneLineError(r, "no such file");
    EXPECT_EQ(r.code, 3);
    expectOnly({});
}

TEST_F(Cli, SizeNotMatchingShape) {
    std::ofstream(path("sino.raw"), std::ios::binary)
        .write(std::string(400, '\0').data(), 400);  // 100 floats
    CliRun r = tomo("recon " + path("sino.raw") + " --shape 10x11 --angles 0:180:10 -o " +
                    path("out.raw"));
    expectOneLineError(r, "sino.raw");
    EXPECT_EQ(r.code, 3);
    expectOnly({"sino.raw"});
}

TEST_F(Cli, NanInInput) {
    std::vector<float> v(100, 1.0f);
    v[42] = std::numeric_limits<float>::quiet_NaN();
    std::ofstream(path("sino.raw"), std::ios::binary)
        .write(reinterpret_cast<const char*>(v.data()), 400);
    CliRun r = tomo("recon " + path("sino.raw") + " --shape 10x10 --angles 0:180:10 -o " +
                    path("out.raw"));
    expectOneLineError(r, "NaN");
    expectOnly({"sino.raw"});
}

TEST_F(Cli, BadAngleSpecs) {
    std::vector<float> v(100, 1.0f);
    std::ofstream(path("sino.raw"), std::ios::binary)
        .write(reinterpret_cast<const char*>(v.data()), 400);
    for (const std::string spec : {"0:180", "0:abc:10", "0:180:-3", "5:5:10"}) {
        CliRun r = tomo("recon " + path("sino.raw") + " --shape 10x10 --angles " + spec + " -o " +
                        path("out.raw"));
        expectOneLineError(r, "angle");
        EXPECT_EQ(r.code, 2) << spec;
    }
    CliRun r = tomo("recon " + path("sino.raw") + " --shape 10x10 --angles 0:180:12 -o " +
                    path("out.raw"));
    expectOneLineError(r, "12 angles");
    expectOnly({"sino.raw"});
}

TEST_F(Cli, BadRegionOfInterest) {
    std::vector<float> v(100, 1.0f);
    std::ofstream(path("sino.raw"), std::ios::binary)
        .write(reinterpret_cast<const char*>(v.data()), 400);
    const std::pair<std::string, std::string> cases[] = {{"--roi-center 5", "expected X,Y"},
                                                         {"--roi-center 1,x", "expected X,Y"},
                                                         {"--roi-center 50,0", "field of view"},
                                                         {"--pixel-size -1", "pixel-size"}};
    for (const auto& [option, message] : cases) {
        CliRun r = tomo("recon " + path("sino.raw") + " --shape 10x10 --angles 0:180:10 " + option +
                        " -o " + path("out.raw"));
        expectOneLineError(r, message);
        EXPECT_EQ(r.code, 2) << option;
    }
    expectOnly({"sino.raw"});
}

TEST_F(Cli, UnwritableOutput) {
    std::vector<float> v(100, 1.0f);
    std::ofstream(path("sino.raw"), std::ios::binary)
        .write(reinterpret_cast<const char*>(v.data()), 400);
    CliRun r = tomo("recon " + path("sino.raw") + " --shape 10x10 --angles 0:180:10 -o " +
                    path("missing/out.raw"));
    expectOneLineError(r, "does not exist");
    EXPECT_EQ(r.code, 4);
    fs::create_directories(dir / "ro");
    fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    if (::geteuid() != 0) {  // root may write anywhere
        CliRun ro = tomo("recon " + path("sino.raw") + " --shape 10x10 --angles 0:180:10 -o " +
                         path("ro/out.raw"));
        expectOneLineError(ro, "not writable");
    }
    // An output path that is a directory: the atomic write fails and leaves nothing behind.
    CliRun d =
        tomo("recon " + path("sino.raw") + " --shape 10x10 --angles 0:180:10 -o " + path("ro"));
    expectOneLineError(d, "directory");
    fs::permissions(dir / "ro", fs::perms::owner_all);
    EXPECT_TRUE(fs::is_empty(dir / "ro"));
    expectOnly({"sino.raw", "ro"});
}

TEST_F(Cli, CorruptCompressedMetaImageIsInvalidDataNotOutOfMemory) {
    if (!TOMO_WITH_ITK_BUILD) GTEST_SKIP() << "built without ITK";
    // The fuzz find of issue 11: MetaIO asked for 2^63 bytes; now exit 3 before ITK allocates.
    fs::copy_file(fs::path(TOMO_SOURCE_DIR) / "fuzz/known/mha-compressed-size-bomb",
                  path("bomb.mha"));
    CliRun r = tomo("convert " + path("bomb.mha") + " " + path("out.tif"));
    EXPECT_EQ(r.code, 3) << r.output;
    expectOneLineError(r, "bomb.mha");
    expectOnly({"bomb.mha"});
}

TEST_F(Cli, UsageErrors) {
    expectOneLineError(tomo("recon"), "missing INPUT");
    expectOneLineError(tomo("recon x.raw --bogus 1 -o y.raw"), "unknown option '--bogus'");
    std::vector<float> v(100, 1.0f);
    std::ofstream(path("sino.raw"), std::ios::binary)
        .write(reinterpret_cast<const char*>(v.data()), 400);
    expectOneLineError(
        tomo("recon " + path("sino.raw") + " --shape 10 --angles 0:180:10 -o " + path("y.raw")),
        "--shape");
    expectOneLineError(tomo("recon " + path("sino.raw") + " --angles 0:180:10 -o " + path("y.raw")),
                       "needs --shape");
    expectOneLineError(tomo("recon " + path("sino.raw") +
                            " --shape 10x10 --angles 0:180:10 --filter box -o " + path("y.raw")),
                       "box");
    expectOneLineError(tomo("phantom -o " + path("p.raw") + " --size abc"),
                       "--size expects a number");
    expectOneLineError(tomo("phantom -o " + path("p.raw") + " --phantom teapot"), "teapot");
    EXPECT_EQ(tomo("frobnicate").code, 2);
    expectOnly({"sino.raw"});
}

TEST_F(Cli, HelpForEveryCommand) {
    for (const std::string cmd :
         {"phantom", "recon", "compare", "bench", "devices", "demo", "project"}) {
        CliRun r = tomo(cmd + " --help");
        EXPECT_EQ(r.code, 0) << cmd;
        EXPECT_NE(r.output.find("usage: tomo " + cmd), std::string::npos) << r.output;
    }
    CliRun top = tomo("--help");
    EXPECT_EQ(top.code, 0);
    EXPECT_NE(top.output.find("recon"), std::string::npos);
}

TEST_F(Cli, BenchJsonHasTheContractFields) {
    CliRun r = tomo("bench --quick --json");
    ASSERT_EQ(r.code, 0) << r.output;
    for (const char* field :
         {"\"backend\"", "\"device\"", "\"variant\"", "\"family\"", "\"interp\"", "\"slices\"",
          "\"precision\"", "\"exact\"", "\"workload\"", "\"gups\"", "\"seconds\"",
          "\"max_rel_error\"", "\"selected\": true", "cpu.simd.lin"})
        EXPECT_NE(r.output.find(field), std::string::npos) << field << "\n" << r.output;
    // Every linear variant agrees with the double-precision reference. Nearest-neighbour variants
    // compute the detector index in float, so where it falls within rounding of a half-integer
    // (frequent on symmetric grids) they may pick the other bin than the double reference: their
    // error is bounded by one bin's contribution, not by float rounding.
    std::size_t rows = 0;
    for (std::size_t pos = 0; (pos = r.output.find("\"variant\": ", pos)) != std::string::npos;
         ++rows) {
        const std::size_t end = r.output.find('}', r.output.find("max_rel_error", pos));
        const std::string row = r.output.substr(pos, end - pos);
        const double err = std::stod(row.substr(row.find("\"max_rel_error\": ") + 17));
        const bool linear = row.find("\"interp\": \"linear\"") != std::string::npos;
        EXPECT_LT(err, linear ? 1e-4 : 0.15) << row;
        pos = end;
    }
    EXPECT_GE(rows, 4u);
}

TEST_F(Cli, DevicesListsTheCpu) {
    CliRun r = tomo("devices");
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("cpu.simd.lin"), std::string::npos);
    CliRun j = tomo("devices --json");
    ASSERT_EQ(j.code, 0);
    EXPECT_NE(j.output.find("\"backend\": \"cpu\", \"available\": true"), std::string::npos)
        << j.output;
}

TEST_F(Cli, DemoWritesResultsAndReportsError) {
    CliRun r = tomo("demo --size 64 --quiet --out " + path("demo"));
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("error against the phantom: RMSE"), std::string::npos) << r.output;
    EXPECT_TRUE(fs::exists(dir / "demo" / "reconstruction.png"));
    EXPECT_TRUE(fs::exists(dir / "demo" / "sinogram.png"));
}

}  // namespace
}  // namespace tomo
