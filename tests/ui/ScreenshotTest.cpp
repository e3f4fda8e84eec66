// `tomostation --demo --screenshot FILE --view NAME --screenshot-size WxH` for every view name:
// exit code 0, a PNG of exactly WxH, and not blank (many distinct colours, not one flat fill).
// Runs the real executable on the 64x64 demo; one test per view keeps each well under 2 s.
// `tomostation scan.h5` (a DXchange file given on the command line) opens and reconstructs it.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include "app/jobs/DemoJob.h"
#include "tests/ui/UiTestSupport.h"
#include "tomo/config.h"
#include "ui/main/ScreenshotMode.h"
#if TOMO_WITH_HDF5
#include "core/hdf5io/Hdf5Writer.h"
#endif

namespace tomo::ui {
namespace {

class Screenshot : public ::testing::TestWithParam<const char*> {};

TEST_P(Screenshot, ProducesANonBlankImageOfTheRequestedSize) {
    QTemporaryDir dir;
    const QString view = QString::fromLatin1(GetParam());
    const QString file = dir.filePath(view + QStringLiteral(".png"));
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral(TOMOSTATION_EXE),
                  {QStringLiteral("--demo"), QStringLiteral("--size"), QStringLiteral("64"),
                   QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--screenshot"),
                   file, QStringLiteral("--view"), view, QStringLiteral("--screenshot-size"),
                   QStringLiteral("1024x768")});
    ASSERT_TRUE(process.waitForFinished(60000)) << "tomostation did not finish";
    EXPECT_EQ(process.exitCode(), 0) << process.readAll().toStdString();
    QImage image(file);
    ASSERT_FALSE(image.isNull()) << "no PNG written for --view " << GetParam();
    EXPECT_EQ(image.width(), 1024);
    EXPECT_EQ(image.height(), 768);
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    EXPECT_GT(colours.size(), 20u) << "the image is (nearly) blank";
}

INSTANTIATE_TEST_SUITE_P(EveryView, Screenshot,
                         ::testing::Values("main", "sinogram", "slice", "truth", "difference",
                                           "parameters", "convergence", "lcurve", "center", "sweep",
                                           "devices", "teaching", "compare", "volume", "profile",
                                           "preprocessing", "teaching-cone", "mbir", "gridrec"));

#if TOMO_WITH_HDF5
TEST(Screenshot, ADxchangeFileOnTheCommandLineIsOpenedAndReconstructed) {
    QTemporaryDir dir;
    app::DemoSpec spec = app::demoSpecForSize(48);
    spec.incidentCount = 0;
    auto demo = app::makeDemoDataset(spec, ExecContext{});
    ASSERT_TRUE(demo.isOk());
    for (std::size_t a = 0; a < demo->sinograms.dim(1); ++a)
        for (std::size_t d = 0; d < demo->sinograms.dim(2); ++d)
            demo->sinograms(0, a, d) *= 0.02f;  // line integrals of at most ~0.5
    const QString scan = dir.filePath(QStringLiteral("scan.h5"));
    ASSERT_TRUE(writeDxchange(scan.toStdString(),
                              test::acquisitionOf(demo->sinograms, demo->geometry.angles()))
                    .isOk());
    const QString file = dir.filePath(QStringLiteral("slice.png"));
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(
        QStringLiteral(TOMOSTATION_EXE),
        {scan, QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--screenshot"),
         file, QStringLiteral("--view"), QStringLiteral("slice"),
         QStringLiteral("--screenshot-size"), QStringLiteral("300x300")});
    ASSERT_TRUE(process.waitForFinished(60000)) << "tomostation did not finish";
    const std::string output = process.readAll().toStdString();
    EXPECT_EQ(process.exitCode(), 0) << output;
    QImage image(file);
    ASSERT_FALSE(image.isNull()) << output;
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    EXPECT_GT(colours.size(), 20u) << "the reconstruction is (nearly) blank";
}
#endif

TEST(Screenshot, TheTestCoversEveryViewName) {
    // 19 here, "cone" and "open-cone" in ConeBeamTest (they need cone-beam data).
    EXPECT_EQ(screenshotViews().size(), 21);
}

}  // namespace
}  // namespace tomo::ui
