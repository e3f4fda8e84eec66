// Cone-beam FDK end to end (issue 14): `tomo phantom --cone` writes exact projections and RTK's
// geometry file, `tomo recon --geometry` reconstructs them through the reconstruction service.

#include <cmath>
#include <string>

#include "CliTestSupport.h"
#include "app/data/DataFormats.h"

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
