// The centre-of-rotation panel on the 64x64 demo (true centre = detector centre 47.5): moving
// the control changes the preview, and the preview is the FBP slice at that centre computed
// independently here; the sweep produces N trial slices at evenly spaced centres, each equal to
// the independent FBP at its centre, and its sharpness minimum lies near the true centre.
#include <gtest/gtest.h>

#include <cmath>

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalSpy>

#include "app/jobs/CenterJob.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/panels/CenterPanel.h"
#include "ui/views/ImageView.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

double meanAbsDifference(const app::SliceImage& a, const app::SliceImage& b) {
    double sum = 0;
    for (std::size_t i = 0; i < a.values.size(); ++i)
        sum += std::fabs(static_cast<double>(a.values[i]) - b.values[i]);
    return sum / static_cast<double>(a.values.size());
}

TEST(CenterPanel, MovingTheControlChangesThePreview) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    CenterPanel* panel = f.window->centerPanel();
    panel->setDebounceMs(10);
    auto data = f.session.dataset();
    const double c0 = data->geometry.centerOfRotation();
    ASSERT_DOUBLE_EQ(panel->center(), c0);
    QSignalSpy updated(panel, &CenterPanel::previewUpdated);

    panel->setCenter(c0);  // no change: no preview
    panel->setCenter(c0 + 0.1);
    ASSERT_TRUE(waitFor(updated, 1, 10000));
    auto first = panel->lastPreview();
    ASSERT_NE(first, nullptr);
    EXPECT_NEAR(panel->lastPreviewCenter(), c0 + 0.1, 1e-9);

    panel->setCenter(c0 + 3.0);
    ASSERT_TRUE(waitFor(updated, 2, 10000));
    auto second = panel->lastPreview();
    EXPECT_NEAR(panel->lastPreviewCenter(), c0 + 3.0, 1e-9);
    // A 3 px wrong centre smears every edge: the images differ clearly.
    const double change = meanAbsDifference(*first, *second);
    std::printf("mean |preview(c0+3) - preview(c0+0.1)| = %.4f\n", change);
    EXPECT_GT(change, 0.01);  // the phantom's values span 0..1

    // The preview is the FBP slice at that centre (independent call, same bits).
    Result<app::SliceImage> expected = app::reconstructSliceAtCenter(
        f.session.engine(), *data, 0, c0 + 3.0, {}, "", ExecContext{});
    ASSERT_TRUE(expected.isOk()) << expected.status().toString();
    EXPECT_EQ(second->values, expected->values);
    EXPECT_EQ(panel->previewView()->valueAt(20, 33), expected->view()(33, 20));

    // Dragging through many values yields at most a few previews, ending at the last value.
    const int before = static_cast<int>(updated.count());
    for (int i = 1; i <= 20; ++i)
        panel->setCenter(c0 - 0.1 * i);
    ASSERT_TRUE(waitFor(updated, before + 1, 10000));
    while (std::fabs(panel->lastPreviewCenter() - (c0 - 2.0)) > 1e-9)
        ASSERT_TRUE(updated.wait(10000));
    EXPECT_LE(updated.count() - before, 3);
}

TEST(CenterPanel, SweepYieldsNTrialSlices) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    CenterPanel* panel = f.window->centerPanel();
    auto data = f.session.dataset();
    const double c0 = data->geometry.centerOfRotation();
    panel->setSweepCount(5);
    panel->setSweepRadius(4.0);
    QSignalSpy done(panel, &CenterPanel::sweepFinished);
    panel->runSweep();
    ASSERT_TRUE(waitFor(done, 1, 20000));
    EXPECT_EQ(done.at(0).at(0).toInt(), 5);
    const app::CenterSweep& sweep = panel->sweep();
    ASSERT_EQ(sweep.slices.size(), 5u);
    ASSERT_EQ(sweep.centers.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_NEAR(sweep.centers[i], c0 - 4.0 + 2.0 * static_cast<double>(i), 1e-12);
        Result<app::SliceImage> expected = app::reconstructSliceAtCenter(
            f.session.engine(), *data, 0, sweep.centers[i], {}, "", ExecContext{});
        ASSERT_TRUE(expected.isOk());
        EXPECT_EQ(sweep.slices[i].values, expected->values) << "trial " << i;
    }
    // The sharpness curve has the coarse trials and finds the true centre of the demo.
    EXPECT_GE(sweep.curve.trialCenters.size(), 5u);
    std::printf("sweep estimate %.3f (true %.1f)\n", sweep.curve.center, c0);
    EXPECT_NEAR(sweep.curve.center, c0, 0.5);

    // Each thumbnail shows its whole slice (not clipped), and a click on one takes its centre.
    f.window->showPanel(QStringLiteral("center"));
    auto* trial = panel->findChild<SliceView*>(QStringLiteral("sweepTrial4"));
    ASSERT_NE(trial, nullptr);
    QApplication::processEvents();
    EXPECT_GE(trial->width(), 100);
    EXPECT_GE(trial->height(), 100);
    const QPointF middle(trial->width() / 2.0, trial->height() / 2.0);
    QMouseEvent press(QEvent::MouseButtonPress, middle, trial->mapToGlobal(middle), Qt::LeftButton,
                      Qt::LeftButton, Qt::NoModifier);
    QMouseEvent release(QEvent::MouseButtonRelease, middle, trial->mapToGlobal(middle),
                        Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(trial, &press);
    QApplication::sendEvent(trial, &release);
    EXPECT_DOUBLE_EQ(panel->center(), sweep.centers[4]);
}

TEST(CenterPanel, SweepAndPreviewUseTheChosenProjector) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(48));
    CenterPanel* panel = f.window->centerPanel();
    auto data = f.session.dataset();
    test::choose(test::child<QComboBox>(f.window.get(), QStringLiteral("fbpProjector")),
                 QStringLiteral("Joseph"));
    panel->setSweepCount(5);
    panel->setSweepRadius(2.0);
    QSignalSpy done(panel, &CenterPanel::sweepFinished);
    panel->runSweep();
    ASSERT_TRUE(waitFor(done, 1, 20000))
        << test::child<QLabel>(panel, QStringLiteral("centerStatus"))->text().toStdString();
    const app::CenterSweep& sweep = panel->sweep();
    ASSERT_EQ(sweep.slices.size(), 5u);
    app::AnalyticMethod joseph;
    joseph.parameters["projector"] = "joseph";
    for (std::size_t i = 0; i < 5; ++i) {
        auto expected = app::reconstructSliceAtCenter(f.session.engine(), *data, 0,
                                                      sweep.centers[i], {}, "", {}, joseph);
        auto pixel = app::reconstructSliceAtCenter(f.session.engine(), *data, 0, sweep.centers[i],
                                                   {}, "", {});
        ASSERT_TRUE(expected.isOk() && pixel.isOk());
        EXPECT_EQ(sweep.slices[i].values, expected->values) << "trial " << i;
        EXPECT_NE(sweep.slices[i].values, pixel->values) << "trial " << i;  // was pixel-driven
    }
    // The curve is the back-projector variant's; the panel says so.
    const QString status = test::child<QLabel>(panel, QStringLiteral("centerStatus"))->text();
    EXPECT_TRUE(status.contains(QStringLiteral("pixel-driven"))) << status.toStdString();
}

}  // namespace
}  // namespace tomo::ui
