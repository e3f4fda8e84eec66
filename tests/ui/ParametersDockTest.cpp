// The Parameters dock as a user meets it (issue 28, point 5): after MBIR -> FBP no gap is left
// under the short FBP form, Reconstruct stays in view at the default window size and at
// 1280x720, clicking it neither scrolls the form nor selects a field, and Ctrl+R runs it.
#include <gtest/gtest.h>

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>

#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/ReconParamsPanel.h"
#include "ui/widgets/SamplingBox.h"

namespace tomo::ui {
namespace {

using test::waitFor;

/// True when @p w is shown and lies wholly inside @p window's visible area.
bool inView(const QWidget* w, const QWidget* window) {
    if (!w->isVisible() || w->visibleRegion().isEmpty()) return false;
    const QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
    return window->rect().contains(r) && w->visibleRegion().boundingRect().size() == w->size();
}

class ParametersDock : public ::testing::TestWithParam<QSize> {};

TEST_P(ParametersDock, ReconstructStaysInViewAndLeavesNoGapAfterMbir) {
    test::WindowFixture f;
    f.window->resize(GetParam());
    ASSERT_TRUE(f.startDemo(64));
    QApplication::processEvents();
    QPushButton* run = f.window->runButton();
    EXPECT_TRUE(inView(run, f.window.get()))
        << "at " << GetParam().width() << "x" << GetParam().height();

    auto* algorithm = test::child<QComboBox>(f.window.get(), QStringLiteral("algorithm"));
    test::choose(algorithm, QStringLiteral("MBIR"));
    QApplication::processEvents();
    EXPECT_TRUE(inView(run, f.window.get()));
    EXPECT_EQ(f.window->runSummary()->text().left(4), QStringLiteral("MBIR"));
    // Gridrec reads its filter from its own form, and the summary says so (not FBP's).
    test::choose(algorithm, QStringLiteral("Gridrec (Fourier)"));
    QApplication::processEvents();
    EXPECT_TRUE(f.window->runSummary()->text().startsWith(QStringLiteral("Gridrec, filter ")))
        << f.window->runSummary()->text().toStdString();
    test::choose(algorithm, QStringLiteral("FBP"));
    QApplication::processEvents();
    // The sampling box follows the FBP form closely (no room left for MBIR's form).
    auto* last = test::child<QComboBox>(f.window->paramsPanel(), QStringLiteral("backProjector"));
    SamplingBox* sampling = f.window->samplingBox();
    const int gap = sampling->mapTo(f.window.get(), QPoint(0, 0)).y() -
                    last->mapTo(f.window.get(), QPoint(0, last->height())).y();
    EXPECT_LT(gap, 30) << "a blank gap of " << gap << " px under the FBP form";
    EXPECT_TRUE(inView(run, f.window.get()));
    EXPECT_TRUE(f.window->runSummary()->text().startsWith(QStringLiteral("FBP, filter ramp")))
        << f.window->runSummary()->text().toStdString();

    // A click on Reconstruct runs it and leaves the form where it was, no field selected.
    auto* scroll = qobject_cast<QScrollArea*>(
        f.window->dock(QStringLiteral("parameters"))->widget()->findChild<QScrollArea*>());
    ASSERT_NE(scroll, nullptr);
    const int scrolled = scroll->verticalScrollBar()->value();
    QSignalSpy finished(&f.session, &Session::jobFinished);
    test::click(run);
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    EXPECT_TRUE(finished.at(0).at(1).toBool());
    EXPECT_EQ(scroll->verticalScrollBar()->value(), scrolled);
    EXPECT_EQ(qobject_cast<QAbstractSpinBox*>(QApplication::focusWidget()), nullptr);

    // Ctrl+R anywhere in the window.
    f.window->activateWindow();
    QApplication::setActiveWindow(f.window.get());
    f.window->reconstructionView()->setFocus();
    QTest::keyClick(f.window->reconstructionView(), Qt::Key_R, Qt::ControlModifier);
    ASSERT_TRUE(waitFor(finished, 2, 30000));
    EXPECT_TRUE(finished.at(1).at(1).toBool());
}

INSTANTIATE_TEST_SUITE_P(Sizes, ParametersDock,
                         ::testing::Values(QSize(1507, 800), QSize(1280, 720)),
                         [](const auto& size) {
                             return std::to_string(size.param.width()) + "x" +
                                    std::to_string(size.param.height());
                         });

}  // namespace
}  // namespace tomo::ui
