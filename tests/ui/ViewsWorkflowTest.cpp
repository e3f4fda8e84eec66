// The views as a user drives them (issue 28, point 9): the line-profile panel opens tall enough
// for its axes, a short run's iteration axis puts whole numbers at their ticks, and PageDown
// after using the slice slider steps one slice.
#include <gtest/gtest.h>

#include <QAction>
#include <QChartView>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>

#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/charts/ConvergenceDock.h"
#include "ui/main/ReconstructionTab.h"
#include "ui/main/ResultViews.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

TEST(ViewsWorkflow, TheProfilePanelOpensTallEnoughForItsAxes) {
    test::WindowFixture f;
    f.window->resize(1507, 800);
    ASSERT_TRUE(f.startDemo(64));
    auto* tool = f.window->findChild<QAction*>(QStringLiteral("lineProfileTool"));
    ASSERT_NE(tool, nullptr);
    tool->trigger();  // View > Line profile tool
    QApplication::processEvents();
    // A drag on the reconstruction draws the line.
    SliceView* view = f.window->reconstructionView();
    QTest::mousePress(view, Qt::LeftButton, {}, QPoint(view->width() / 4, view->height() / 2));
    QTest::mouseMove(view, QPoint(3 * view->width() / 4, view->height() / 2));
    QTest::mouseRelease(view, Qt::LeftButton, {},
                        QPoint(3 * view->width() / 4, view->height() / 2));
    QDockWidget* dock = f.window->dock(QStringLiteral("profile"));
    ASSERT_TRUE(dock->isVisible());
    QChartView* chart = f.window->resultViews()->profileView()->chartView();
    EXPECT_GE(chart->height(), 180) << "the profile chart is " << chart->height() << " px tall";
    const QStringList texts = test::chartTexts(chart, chart->size());
    EXPECT_TRUE(texts.contains(QStringLiteral("distance (px)"))) << texts.join(' ').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("value"))) << texts.join(' ').toStdString();
    for (const QString& t : texts)
        EXPECT_FALSE(t.endsWith(QStringLiteral("...")) || t.endsWith(QChar(0x2026)))
            << "elided label " << t.toStdString();
}

TEST(ViewsWorkflow, AShortRunLabelsWholeIterationsAtTheirTicks) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(32));
    test::choose(test::child<QComboBox>(f.window.get(), QStringLiteral("algorithm")),
                 QStringLiteral("SIRT"));
    test::typeInto(test::child<QSpinBox>(f.window->algorithmPanel(), QStringLiteral("iterations")),
                   QStringLiteral("4"));
    QSignalSpy finished(&f.session, &Session::jobFinished);
    test::click(f.window->runButton());
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    f.window->showPanel(QStringLiteral("convergence"));
    QStringList texts = test::chartTexts(f.window->convergenceDock()->normsView(), QSize(500, 260));
    for (const char* tick : {"0", "2", "4", "6", "8", "10"})
        EXPECT_TRUE(texts.contains(QString::fromLatin1(tick)))
            << tick << ": " << texts.join(' ').toStdString();
    for (const char* wrong : {"5", "7"})  // 2.5 and 7.5 printed as integers
        EXPECT_FALSE(texts.contains(QString::fromLatin1(wrong))) << texts.join(' ').toStdString();
}

TEST(ViewsWorkflow, PageDownAfterTheSliderStepsOneSlice) {
    test::WindowFixture f;
    f.session.setDataset(test::demoStack(32, 10), QStringLiteral("ten slices"));
    ReconstructionTab* tab = f.window->reconstructionTab();
    QSlider* slider = tab->sliceSlider();
    test::reveal(slider);
    QTest::keyClick(slider, Qt::Key_End);
    QTest::keyClick(slider, Qt::Key_Left);
    QTest::keyClick(slider, Qt::Key_Left);
    EXPECT_EQ(tab->sliceLabel()->text(), QStringLiteral("Slice 8 / 10"));
    QTest::keyClick(slider, Qt::Key_PageDown);
    EXPECT_EQ(tab->sliceLabel()->text(), QStringLiteral("Slice 7 / 10"));
    QTest::keyClick(f.window->sinogramView(), Qt::Key_PageUp);
    EXPECT_EQ(tab->sliceLabel()->text(), QStringLiteral("Slice 8 / 10"));
    EXPECT_EQ(slider->value(), 8);
}

}  // namespace
}  // namespace tomo::ui
