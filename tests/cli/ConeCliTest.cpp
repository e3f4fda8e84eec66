// Cone-beam FDK end to end (issue 14): `tomo phantom --cone` writes exact projections and RTK's
// geometry file, `tomo recon --geometry` reconstructs them through the reconstruction service.

#include <cmath>
#include <string>

#include "CliTestSupport.h"
#include "app/data/DataFormats.h"
#include "core/cone/ConePhantom.h"
#include "core/hdf5io/Hdf5Writer.h"
#include "core/io/ImageIO.h"

namespace tomo::test {
namespace {

class ConeCli : public CliTest {
  protected:
    /// 48^3 Shepp-Logan, 90 views: proj.<ext>, geometry.xml, truth.<ext>.
    void makeData(const std::string& ext) {
        const CliRun r = runTomo("phantom --cone -o " + path("proj" + ext) + " --geometry " +
                                 path("geometry.xml") + " --truth " + path("truth" + ext) +
                                 " --size 48 --views 90 --quiet");
        ASSERT_EQ(r.code, 0) << r.output;
    }
    Array3<float> read(const std::string& name) {
        auto formats = app::makeFormatRegistry();
        auto v = formats->readVolume(path(name), {});
        EXPECT_TRUE(v.isOk()) << v.status().message();
        return v.isOk() ? std::move(*v) : Array3<float>();
    }
    /// RMSE over the 8 axial planes (constant y) around the central one.
    static double centralRmse(const Array3<float>& a, const Array3<float>& b) {
        double sum = 0;
        std::size_t n = 0;
        const std::size_t ny = a.dim(1);
        for (std::size_t k = 0; k < a.dim(0); ++k)
            for (std::size_t j = ny / 2 - 4; j < ny / 2 + 4; ++j)
                for (std::size_t i = 0; i < a.dim(2); ++i, ++n)
                    sum += std::pow(double(a.row(k, j)[i]) - b.row(k, j)[i], 2);
        return std::sqrt(sum / double(n));
    }
    static bool same(const Array3<float>& a, const Array3<float>& b) {
        if (a.dim(0) != b.dim(0) || a.dim(1) != b.dim(1) || a.dim(2) != b.dim(2)) return false;
        for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r)
            for (std::size_t i = 0; i < a.dim(2); ++i)
                if (a.rows().row(r)[i] != b.rows().row(r)[i]) return false;
        return true;
    }
};

#if TOMO_WITH_ITK_BUILD
TEST_F(ConeCli, PhantomAndRtkGeometryReconstructToTheTruthWithRtksGrid) {
    makeData(".mha");
    const CliRun r = runTomo("recon " + path("proj.mha") + " --geometry " + path("geometry.xml") +
                             " --size 48 -o " + path("rec.mha"));
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("cpu.fdk.symmetric"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("full scan"), std::string::npos) << r.output;
    const Array3<float> rec = read("rec.mha"), truth = read("truth.mha");
    ASSERT_EQ(rec.dim(0), 48u);
    // Measured 0.05 (the skull's thin shell at 1 mm voxels); a wrong weight or frame gives > 0.1.
    EXPECT_LT(centralRmse(rec, truth), 0.07);
    auto formats = app::makeFormatRegistry();
    auto d = formats->describe(path("rec.mha"), {});
    ASSERT_TRUE(d.isOk() && d->frame);
    EXPECT_DOUBLE_EQ(d->frame->spacing[1], 1.0);
    EXPECT_DOUBLE_EQ(d->frame->origin[0], -23.5);  // centred on the isocentre, as RTK's grid
}

TEST_F(ConeCli, FlagsAndRawInputsGiveTheSameBitsAsTheXmlFile) {
    makeData(".mha");
    ASSERT_EQ(runTomo("recon " + path("proj.mha") + " --geometry " + path("geometry.xml") +
                      " --size 48 -o " + path("xml.raw") + " --quiet")
                  .code,
              0);
    // The same projections as raw, the pitch given on the command line.
    const CliRun convert = runTomo("convert " + path("proj.mha") + " " + path("proj.raw"));
    ASSERT_EQ(convert.code, 0) << convert.output;
    const Array3<float> proj = read("proj.mha");
    const std::string shape = std::to_string(proj.dim(0)) + "x" + std::to_string(proj.dim(1)) +
                              "x" + std::to_string(proj.dim(2));
    const CliRun flags = runTomo("recon " + path("proj.raw") + " --shape " + shape +
                                 " --sid 1000 --sdd 1500 --angles 0:360:90 --detector-pitch 1.5 "
                                 "--size 48 -o " +
                                 path("flags.raw") + " --quiet");
    ASSERT_EQ(flags.code, 0) << flags.output;
    auto formats = app::makeFormatRegistry();
    ReadOptions raw;
    raw.shape = std::array<std::size_t, 3>{48, 48, 48};
    auto a = formats->readVolume(path("flags.raw"), raw),
         b = formats->readVolume(path("xml.raw"), raw);
    ASSERT_TRUE(a.isOk() && b.isOk());
    EXPECT_TRUE(same(*a, *b));
}
#endif

TEST_F(ConeCli, StreamedSlabsEqualOneVolume) {
    makeData(".tif");
    ASSERT_EQ(runTomo("recon " + path("proj.tif") + " --geometry " + path("geometry.xml") +
                      " --detector-pitch 1.5 --size 48 -o " + path("whole.tif") + " --quiet")
                  .code,
              0);
    const CliRun slabs = runTomo("recon " + path("proj.tif") + " --geometry " +
                                 path("geometry.xml") + " --detector-pitch 1.5 --size 48 -o " +
                                 path("slabs.tif") + " --memory-budget 1 --quiet");
    ASSERT_EQ(slabs.code, 0) << slabs.output;
    EXPECT_NE(slabs.output.find("slab(s)"), std::string::npos);
    EXPECT_EQ(slabs.output.find(" 1 slab(s)"), std::string::npos) << slabs.output;
    EXPECT_TRUE(same(read("slabs.tif"), read("whole.tif")));
}

// A DXchange acquisition (counts, flats, darks, angles in the file) reconstructs like the line
// integrals it was made from: flat/dark and -log as for parallel beam, the file's angles used.
TEST_F(ConeCli, ADxchangeAcquisitionWithFlatsAndDarks) {
    auto g =
        ConeGeometry::circular(1000, 1500, 60, 0, 360, DetectorGrid::centred(64, 48, 1.5, 1.5));
    ASSERT_TRUE(g.isOk());
    auto p = ConePhantom::sheppLogan(16.0).project(*g, 1);
    ASSERT_TRUE(p.isOk());
    ProjectionData data;
    data.projections = Array3<float>::create(60, 48, 64).value();
    data.flats = Array3<float>::create(2, 48, 64).value();
    data.darks = Array3<float>::create(1, 48, 64).value();
    data.flats.fill(1000.f + 100.f);
    data.darks.fill(100.f);
    for (std::size_t k = 0; k < 60; ++k) {
        data.angles.push_back(g->view(int(k)).gantryAngle);
        for (std::size_t v = 0; v < 48; ++v)
            for (std::size_t u = 0; u < 64; ++u)
                data.projections.row(k, v)[u] = 100.f + 1000.f * std::exp(-p->row(k, v)[u]);
    }
    ASSERT_TRUE(writeDxchange(path("scan.h5"), data).isOk());
    ASSERT_TRUE(writeVolume(path("lines.tif"), *p).isOk());
    const std::string common = " --sid 1000 --sdd 1500 --detector-pitch 1.5 --size 32 --quiet -o ";
    const CliRun a = runTomo("recon " + path("scan.h5") + common + path("a.tif"));
    ASSERT_EQ(a.code, 0) << a.output;
    EXPECT_NE(a.output.find("angles from the file (60 views)"), std::string::npos) << a.output;
    ASSERT_EQ(
        runTomo("recon " + path("lines.tif") + " --angles 0:360:60" + common + path("b.tif")).code,
        0);
    const Array3<float> ra = read("a.tif"), rb = read("b.tif");
    double num = 0, den = 0;
    for (std::size_t r = 0; r < ra.dim(0) * ra.dim(1); ++r)
        for (std::size_t i = 0; i < ra.dim(2); ++i) {
            num += std::pow(double(ra.rows().row(r)[i]) - rb.rows().row(r)[i], 2);
            den += std::pow(double(rb.rows().row(r)[i]), 2);
        }
    EXPECT_LT(std::sqrt(num / den), 1e-4);  // float rounding of exp and log only
}

TEST_F(ConeCli, BadInputsAreOneLineErrorsAndLeaveNoOutput) {
    makeData(".tif");
    expectOneLineError(runTomo("recon " + path("proj.tif") + " --geometry " + path("missing.xml") +
                               " -o " + path("rec.tif")),
                       "missing.xml");
    expectOneLineError(runTomo("recon " + path("proj.tif") +
                               " --sid 1000 --sdd 1500 --angles "
                               "0:360:45 -o " +
                               path("rec.tif")),
                       "90 views but the geometry 45");
    expectOneLineError(runTomo("recon " + path("proj.tif") + " --geometry " + path("geometry.xml") +
                               " --short-scan maybe -o " + path("rec.tif")),
                       "--short-scan");
    expectOneLineError(runTomo("recon " + path("proj.tif") + " --sid 1000 -o " + path("rec.tif")),
                       "--sdd");
    expectOnly({"proj.tif", "truth.tif", "geometry.xml"});
}

}  // namespace
}  // namespace tomo::test

namespace tomo::test {
namespace {

TEST_F(ConeCli, BenchReportsEveryCpuVariantPerStageWithTheModel) {
    const CliRun r = runTomo("bench --suite fdk --quick --json");
    ASSERT_EQ(r.code, 0) << r.output;
    for (const char* part :
         {"\"variant\": \"cpu.fdk.standard\"", "\"variant\": \"cpu.fdk.symmetric\"", "\"filter_s\"",
          "\"backprojection_s\"", "\"model\"", "\"gups\""})
        EXPECT_NE(r.output.find(part), std::string::npos) << part << "\n" << r.output;
    EXPECT_EQ(r.output.find("null"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace tomo::test
