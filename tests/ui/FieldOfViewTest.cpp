// Numbers that do not mislead (issue 28, point 2): a parameter tuner's case, a 90-view noisy
// sinogram on a detector as wide as the image (the grid's corners lie outside every projection's
// reach). The Result panel's RMSE is measured over the field of view and says so, the images
// shade what lies outside it and the readout says when the cursor is there, the automatic window
// comes from the values inside, and SIRT's default leaves nothing wild in the corners.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QSignalSpy>

#include "tests/ui/ScanData.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

TEST(FieldOfView, MetricsAreMeasuredAndLabelledOverTheFieldOfView) {
    test::WindowFixture f;
    // 96 x 96 Shepp-Logan on 96 detectors, 90 views, Poisson noise: a TIFF sinogram stack.
    const int n = 96;
    const test::TiffScan scan = test::writeTiffScan(f.dir.path().toStdString(), n, n, 90, 2e4, 7);
    app::LoadRequest request;
    request.path = scan.sino;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->fileActions()->openDataFile(request));
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    ASSERT_TRUE(f.window->fileActions()->openReference(scan.truthFile).isOk());

    test::choose(test::child<QComboBox>(f.window.get(), QStringLiteral("algorithm")),
                 QStringLiteral("SIRT"));
    test::click(f.window->runButton());
    ASSERT_TRUE(waitFor(finished, 2, 60000));
    ASSERT_TRUE(finished.at(1).at(1).toBool());

    // Over the disc of radius 48 px about the axis (detector centre 47.5, 96 px wide).
    const QString over = test::labelText(f.window.get(), QStringLiteral("overValue"));
    EXPECT_TRUE(over.contains(QStringLiteral("field of view"))) << over.toStdString();
    EXPECT_TRUE(over.contains(QStringLiteral("48.0 px"))) << over.toStdString();
    SliceView* view = f.window->reconstructionView();
    const double expected = test::discRmse(view->image(), scan.truth.plane(0), 48.0);
    const double shown = test::labelText(f.window.get(), QStringLiteral("rmseValue")).toDouble();
    EXPECT_NEAR(shown, expected, 1e-3 * expected);

    // SIRT's default leaves the corners near the object's range (no -7..5 there).
    float lo = 0, hi = 0;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            if (std::hypot(x - 47.5, y - 47.5) > 48.0) {
                lo = std::min(lo, view->valueAt(x, y));
                hi = std::max(hi, view->valueAt(x, y));
            }
    EXPECT_GT(lo, -0.5f);
    EXPECT_LT(hi, 1.5f);

    // Marked on the image; the readout says where the cursor is; the window is from inside.
    EXPECT_TRUE(view->showsFieldOfView());
    QStringList hovered;
    QObject::connect(view, &SliceView::pixelHovered, [&](const QString& t) { hovered << t; });
    for (QPointF at : {QPointF(2.5, 2.5), QPointF(48.5, 48.5)}) {
        const QPointF p = view->imageToWidget(at);
        QMouseEvent move(QEvent::MouseMove, p, view->mapToGlobal(p), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(view, &move);
    }
    ASSERT_EQ(hovered.size(), 2);
    EXPECT_TRUE(hovered[0].contains(QStringLiteral("outside the field of view")));
    EXPECT_FALSE(hovered[1].contains(QStringLiteral("outside")));
    QTest::keyClick(view, Qt::Key_A);  // automatic window
    std::vector<float> inside;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            if (std::hypot(x - 47.5, y - 47.5) <= 48.0) inside.push_back(view->valueAt(x, y));
    const WindowLevel fromInside = percentileWindow(inside);
    EXPECT_DOUBLE_EQ(view->windowLevel().width, fromInside.width);
    EXPECT_DOUBLE_EQ(view->windowLevel().level, fromInside.level);
}

}  // namespace
}  // namespace tomo::ui
