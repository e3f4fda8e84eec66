// The reconstruction tab as a user drives it (mouse and key events on the real widgets): right
// drag changes the window (and the bar's numbers follow), a left drag draws no profile line
// until the tool is switched on, PageUp/PageDown and the slider change the slice and its label,
// the histogram bar moves the window, and a second dataset resets every panel.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDoubleSpinBox>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSlider>

#include "tests/ui/UiTestSupport.h"
#include "ui/charts/ConvergenceDock.h"
#include "ui/main/ReconstructionTab.h"
#include "ui/main/ResultViews.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/WindowLevelBar.h"

namespace tomo::ui {
namespace {

using test::waitFor;

void mouse(QWidget* to, QEvent::Type type, QPointF pos, Qt::MouseButton button,
           Qt::MouseButtons held) {
    QMouseEvent e(type, pos, to->mapToGlobal(pos), button, held, Qt::NoModifier);
    QApplication::sendEvent(to, &e);
}

void drag(QWidget* to, QPointF from, QPointF towards, Qt::MouseButton button) {
    mouse(to, QEvent::MouseButtonPress, from, button, button);
    mouse(to, QEvent::MouseMove, (from + towards) / 2, Qt::NoButton, button);
    mouse(to, QEvent::MouseMove, towards, Qt::NoButton, button);
    mouse(to, QEvent::MouseButtonRelease, towards, button, Qt::NoButton);
}

void key(QWidget* to, int k) {
    QKeyEvent press(QEvent::KeyPress, k, Qt::NoModifier);
    QApplication::sendEvent(to, &press);
}

/// Largest |a - b| over two images of one shape (infinity when the shapes differ).
double maxDifference(View2<const float> a, View2<const float> b) {
    if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
    double worst = 0;
    for (std::size_t r = 0; r < a.rows(); ++r)
        for (std::size_t c = 0; c < a.cols(); ++c)
            worst = std::max(worst, std::fabs(static_cast<double>(a(r, c)) - b(r, c)));
    return worst;
}

/// Sets a four-slice dataset (slice z = demo x (1 + z)) and reconstructs it by FBP.
bool reconstructFourSlices(test::WindowFixture& f) {
    f.session.setDataset(test::demoStack(48, 4, 1.0f), QStringLiteral("four slices"));
    QSignalSpy finished(&f.session, &Session::jobFinished);
    f.window->reconstruct();
    return waitFor(finished, 1, 30000) && finished.at(0).at(1).toBool();
}

TEST(ReconstructionTab, PageKeysAndTheSliderChangeTheSliceAndItsLabel) {
    test::WindowFixture f;
    ASSERT_TRUE(reconstructFourSlices(f));
    ReconstructionTab& tab = *f.window->reconstructionTab();
    SliceView* view = tab.reconstructionView();
    auto recon = f.session.reconstruction();
    ASSERT_EQ(recon->image.dim(0), 4u);
    EXPECT_EQ(tab.sliceLabel()->text(), QStringLiteral("Slice 1 / 4"));
    EXPECT_EQ(maxDifference(view->image(), recon->image.plane(0)), 0.0);

    key(view, Qt::Key_PageUp);
    EXPECT_EQ(tab.currentSlice(), 1);
    EXPECT_EQ(tab.sliceLabel()->text(), QStringLiteral("Slice 2 / 4"));
    EXPECT_EQ(tab.sliceSlider()->value(), 2);
    EXPECT_EQ(maxDifference(view->image(), recon->image.plane(1)), 0.0);
    // The sinogram and the truth follow: slice 2 is twice slice 1.
    EXPECT_EQ(maxDifference(tab.sinogramView()->image(), f.session.dataset()->sinograms.plane(1)),
              0.0);
    EXPECT_EQ(maxDifference(tab.truthView()->image(), f.session.dataset()->truth.plane(1)), 0.0);

    key(view, Qt::Key_PageDown);
    EXPECT_EQ(tab.currentSlice(), 0);
    tab.sliceSlider()->setValue(4);
    EXPECT_EQ(tab.currentSlice(), 3);
    EXPECT_EQ(tab.sliceLabel()->text(), QStringLiteral("Slice 4 / 4"));
    EXPECT_EQ(maxDifference(view->image(), recon->image.plane(3)), 0.0);
    key(view, Qt::Key_PageUp);  // past the last slice: stays
    EXPECT_EQ(tab.currentSlice(), 3);
}

TEST(ReconstructionTab, RightDragSetsTheWindowAndLeftDragDrawsNoProfileUntilAsked) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(48));
    ReconstructionTab& tab = *f.window->reconstructionTab();
    SliceView* view = tab.reconstructionView();
    WindowLevelBar* bar = tab.windowBar();
    const WindowLevel before = view->windowLevel();
    const QString readoutBefore = bar->readout();

    const QPointF centre(view->width() / 2.0, view->height() / 2.0);
    drag(view, centre, centre + QPointF(64, 32), Qt::RightButton);
    const WindowLevel after = view->windowLevel();
    EXPECT_GT(after.width, before.width);
    EXPECT_GT(after.level, before.level);
    EXPECT_FALSE(view->profileLine().has_value());
    EXPECT_NE(bar->readout(), readoutBefore);
    auto* low = bar->findChild<QDoubleSpinBox*>(QStringLiteral("windowLow"));
    auto* high = bar->findChild<QDoubleSpinBox*>(QStringLiteral("windowHigh"));
    ASSERT_TRUE(low && high);
    EXPECT_NEAR(low->value(), after.low(), 1e-5);  // five decimals shown
    EXPECT_NEAR(high->value(), after.high(), 1e-5);

    // Typed numbers reach the view.
    low->setValue(0.0);
    high->setValue(0.02);
    EXPECT_NEAR(view->windowLevel().low(), 0.0, 1e-9);
    EXPECT_NEAR(view->windowLevel().high(), 0.02, 1e-9);

    // Left drag pans; with View > Line profile tool on it draws the line.
    drag(view, centre, centre + QPointF(40, 0), Qt::LeftButton);
    EXPECT_FALSE(view->profileLine().has_value());
    view->setProfileToolEnabled(true);
    drag(view, centre, centre + QPointF(40, 0), Qt::LeftButton);
    EXPECT_TRUE(view->profileLine().has_value());
}

TEST(ReconstructionTab, HistogramDragMovesTheNearerWindowEdge) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(48));
    ReconstructionTab& tab = *f.window->reconstructionTab();
    WindowLevelBar* bar = tab.windowBar();
    SliceView* view = tab.reconstructionView();
    QWidget* strip = bar->histogramWidget();
    ASSERT_GT(strip->width(), 20);
    int counted = 0;
    for (int c : bar->histogram())
        counted += c;
    EXPECT_EQ(counted, view->imageWidth() * view->imageHeight());
    // Press at the right end: the high edge moves to the data maximum.
    const double before = view->windowLevel().low();
    mouse(strip, QEvent::MouseButtonPress, QPointF(strip->width() - 1, 10), Qt::LeftButton,
          Qt::LeftButton);
    mouse(strip, QEvent::MouseButtonRelease, QPointF(strip->width() - 1, 10), Qt::LeftButton,
          Qt::NoButton);
    const double span = bar->rangeHigh() - bar->rangeLow();
    EXPECT_NEAR(view->windowLevel().high(), bar->rangeHigh(), span / strip->width() * 1.01);
    EXPECT_NEAR(view->windowLevel().low(), before, 1e-9 * span);
    // A preset: full range.
    bar->applyPreset(3);
    EXPECT_NEAR(view->windowLevel().low(), bar->rangeLow(), 1e-6 * span);
    EXPECT_NEAR(view->windowLevel().high(), bar->rangeHigh(), 1e-6 * span);
}

TEST(ReconstructionTab, ASecondDatasetResetsEveryPanel) {
    test::WindowFixture f;
    ASSERT_TRUE(reconstructFourSlices(f));
    MainWindow& window = *f.window;
    ReconstructionTab& tab = *window.reconstructionTab();
    SliceView* view = tab.reconstructionView();
    // A state a user leaves behind: slice 3, a profile line, a narrow window, convergence points.
    tab.setSlice(2);
    view->setProfileLine(QLineF(1, 1, 20, 20));
    view->setWindowLevel({1e-4, 0.5});
    app::IterationReport report;
    report.info.iteration = 1;
    report.info.residualNorm = 2.0;
    report.info.solutionNorm = 1.0;
    window.convergenceDock()->addIteration(report);
    ASSERT_EQ(window.convergenceDock()->pointCount(), 1);

    f.session.setDataset(test::demoStack(32, 1), QStringLiteral("second"));
    EXPECT_EQ(tab.currentSlice(), 0);
    EXPECT_EQ(tab.sliceLabel()->text(), QStringLiteral("Slice 1 / 1"));
    EXPECT_FALSE(tab.sliceSlider()->isEnabled());
    EXPECT_FALSE(view->hasImage());
    // The greyed Black/White boxes show no number (they kept the old data's window).
    for (const char* name : {"windowLow", "windowHigh"}) {
        auto* box = tab.windowBar()->findChild<QDoubleSpinBox*>(QString::fromLatin1(name));
        ASSERT_NE(box, nullptr);
        EXPECT_FALSE(box->isEnabled());
        EXPECT_EQ(box->text(), QStringLiteral("none")) << name;
    }
    EXPECT_FALSE(view->profileLine().has_value());
    EXPECT_TRUE(window.resultViews()->profileView()->samples().value.empty());
    EXPECT_EQ(window.convergenceDock()->pointCount(), 0);
    EXPECT_EQ(tab.sinogramView()->imageWidth(),
              static_cast<int>(f.session.dataset()->sinograms.dim(2)));

    // The first result on the new data gets an automatic window, not the old narrow one.
    QSignalSpy finished(&f.session, &Session::jobFinished);
    window.reconstruct();
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    std::vector<float> values(view->image().rows() * view->image().cols());
    copyDense(view->image(), values.data());
    const WindowLevel automatic = percentileWindow(values);
    EXPECT_DOUBLE_EQ(view->windowLevel().width, automatic.width);
    EXPECT_DOUBLE_EQ(view->windowLevel().level, automatic.level);
}

TEST(ReconstructionTab, AResultAfterIteratesTakesItsOwnAutomaticWindow) {
    test::WindowFixture f;
    f.session.setDataset(test::demoStack(32, 1), QStringLiteral("noisy"));
    ReconstructionTab& tab = *f.window->reconstructionTab();
    SliceView* view = tab.reconstructionView();
    // CGLS from zeros: the first iterate spans a small part of the result's range.
    std::vector<float> first(32 * 32), result(32 * 32);
    for (std::size_t i = 0; i < first.size(); ++i) {
        first[i] = 0.05f + 0.001f * float(i % 97);
        result[i] = -0.6f + 1.7f * float((i * 37) % 101) / 100.f;
    }
    tab.showIterate(View2<const float>(first.data(), 32, 32, 32), QStringLiteral("iterate 1"));
    EXPECT_NEAR(view->windowLevel().width, percentileWindow(first).width, 1e-12);
    auto outcome = std::make_shared<app::ReconOutcome>();
    outcome->image = Volume(1, 32, 32);
    for (std::size_t y = 0; y < 32; ++y)
        for (std::size_t x = 0; x < 32; ++x)
            outcome->image(0, y, x) = result[y * 32 + x];
    tab.showReconstruction(outcome, QString());
    // The result's own window (the iterate's made it almost binary).
    EXPECT_DOUBLE_EQ(view->windowLevel().width, percentileWindow(result).width);
    // A window the user set is kept for the next result.
    tab.showIterate(View2<const float>(first.data(), 32, 32, 32), QStringLiteral("iterate 1"));
    view->setWindowLevel({0.3, 0.2});
    tab.showReconstruction(outcome, QString());
    EXPECT_DOUBLE_EQ(view->windowLevel().width, 0.3);
}

}  // namespace
}  // namespace tomo::ui
