// `tomostation --demo --screenshot FILE --view NAME --screenshot-size WxH` for every view name:
// exit code 0, a PNG of exactly WxH, and not blank (many distinct colours, not one flat fill).
// Runs the real executable on the 64x64 demo; one test per view keeps each well under 2 s.
#include <gtest/gtest.h>

#include <set>

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include "ui/main/ScreenshotMode.h"

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
                                           "devices", "teaching", "compare", "volume", "profile"));

TEST(Screenshot, TheTestCoversEveryViewName) {
    EXPECT_EQ(screenshotViews().size(), 15);
}

}  // namespace
}  // namespace tomo::ui
