// Nothing stale, nothing bare (issue 28, point 10): after opening other data the centre panel's
// sweep strip and curve are gone and its preview is windowed for the new slice (not the old
// one's window, under which a slice of other values looks like binary noise); a reconstruction
// saved as 16-bit TIFF carries the calibration ImageJ and Fiji read (value = c0 + c1 * count).
#include <gtest/gtest.h>

#include <QChartView>
#include <QFile>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>

#include "core/io/ImageIO.h"
#include "core/io/TiffFormat.h"
#include "core/phantom/Phantom.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/panels/CenterPanel.h"
#include "ui/views/ImageView.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

/// Points on the centre panel's sharpness curve.
int curvePoints(const CenterPanel* panel) {
    int n = 0;
    for (QAbstractSeries* s : panel->chartView()->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s)) n += static_cast<int>(line->count());
    return n;
}

TEST(StaleData, NewDataClearTheSweepAndGiveThePreviewAFreshWindow) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    CenterPanel* panel = f.window->centerPanel();
    panel->setSweepCount(5);
    QSignalSpy swept(panel, &CenterPanel::sweepFinished);
    test::click(test::child<QPushButton>(f.window.get(), QStringLiteral("sweepCenter")));
    ASSERT_TRUE(waitFor(swept, 1, 30000));
    EXPECT_NE(panel->findChild<SliceView*>(QStringLiteral("sweepTrial0")), nullptr);
    EXPECT_GT(curvePoints(panel), 0);

    // Other data: a 96-pixel scan whose values are 40 times the demo's.
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, 120);
    params.detectorCount = 96;
    auto geometry = ParallelGeometry::create(params);
    ASSERT_TRUE(geometry.isOk());
    Sinograms sino;
    ASSERT_TRUE(Phantom::fromName("shepp-logan", 48)->project(*geometry, sino, 4, {}).isOk());
    for (std::size_t r = 0; r < sino.dim(1); ++r)
        for (float& v : sino.row(0, r))
            v *= 40.f;
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("other.tif")).toStdString();
    ASSERT_TRUE(writeVolume(file, sino).isOk());
    QSignalSpy previewed(panel, &CenterPanel::previewUpdated);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    app::LoadRequest request;
    request.path = file;
    ASSERT_TRUE(f.window->fileActions()->openDataFile(request));
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    ASSERT_TRUE(waitFor(previewed, 1, 30000));
    QApplication::processEvents();

    EXPECT_EQ(panel->findChild<SliceView*>(QStringLiteral("sweepTrial0")), nullptr);
    EXPECT_EQ(curvePoints(panel), 0);
    // The preview's window holds the new slice: most pixels between its black and white.
    const ImageView* preview = panel->previewView();
    const WindowLevel wl = preview->windowLevel();
    const View2<const float> image = preview->image();
    const std::size_t count = image.rows() * image.cols();
    ASSERT_EQ(count, 96u * 96u);
    std::size_t inside = 0;
    for (std::size_t y = 0; y < image.rows(); ++y)
        for (std::size_t x = 0; x < image.cols(); ++x)
            if (std::abs(image(y, x) - wl.level) <= 0.5 * wl.width) ++inside;
    EXPECT_GT(static_cast<double>(inside) / static_cast<double>(count), 0.9)
        << "window " << wl.level << " +- " << 0.5 * wl.width;
}

TEST(StaleData, SixteenBitTiffCarriesTheCalibrationImageJReads) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    const QString path = f.dir.filePath(QStringLiteral("rec16.tif"));
    ASSERT_TRUE(f.window->fileActions()->saveReconstruction(path.toStdString(), true).isOk());
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const qsizetype at = bytes.indexOf("ImageJ=1.11a\ncf=0\nc0=");
    ASSERT_GE(at, 0);
    // ImageJ's properties: c0 (the value of count 0), c1 (per count), vunit (needed to apply).
    const QList<QByteArray> lines = bytes.mid(at, 200).split('\n');
    ASSERT_GE(lines.size(), 5);
    const double c0 = lines[2].mid(3).toDouble();
    const double c1 = lines[3].mid(3).toDouble();
    EXPECT_TRUE(lines[4].startsWith("vunit=")) << lines[4].toStdString();
    auto info = probeTiff(path.toStdString());
    ASSERT_TRUE(info.isOk());
    EXPECT_DOUBLE_EQ(c0, info->offset);
    EXPECT_DOUBLE_EQ(c1, info->scale);
    // Values read through that map are the reconstruction's within half a count.
    auto back = readTiff(path.toStdString());
    ASSERT_TRUE(back.isOk());
    const View2<const float> shown = f.window->reconstructionView()->image();
    double worst = 0;
    for (std::size_t y = 0; y < shown.rows(); ++y)
        for (std::size_t x = 0; x < shown.cols(); ++x)
            worst = std::max(worst, std::abs(double((*back)(0, y, x)) - shown(y, x)));
    EXPECT_LE(worst, 0.5 * c1 + 1e-6);
}

}  // namespace
}  // namespace tomo::ui
