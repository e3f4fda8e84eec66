// Cone beam after FBP work (issue 28, point 12): FDK does not inherit the filter tuned for FBP
// (each keeps its own, the run bar says which), and the Volume tab counts planes as the
// Reconstruction tab does.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSlider>

#include "tests/ui/ConeTestData.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/ConeActions.h"
#include "ui/main/ReconstructionTab.h"
#include "ui/main/ResultViews.h"
#include "ui/views/OrthoSliceView.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {
namespace {

using test::waitFor;

TEST(ConeWorkflow, FdkKeepsItsOwnFilterAndTheVolumeTabCountsAsTheSliceLabel) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    // FBP work: Hann at half the Nyquist frequency, typed in as a user does.
    auto* filter = test::child<QComboBox>(f.window.get(), QStringLiteral("fbpFilter"));
    auto* cutoff = test::child<QDoubleSpinBox>(f.window.get(), QStringLiteral("fbpCutoff"));
    test::choose(filter, QStringLiteral("hann"));
    test::typeInto(cutoff, QStringLiteral("0.5"));
    EXPECT_EQ(f.window->runSummary()->text(), QStringLiteral("FBP, filter hann 0.50"));

    test::ConeData data = test::coneData(90);
    test::ConeFiles files = test::writeConeFiles(data, f.dir.path().toStdString());
    app::ConeOpenRequest request;
    request.projections = files.projections;
    request.geometry = files.geometry;
    request.truth = files.truth;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->openConeAndReconstruct(request));
    ASSERT_TRUE(waitFor(finished, 2, 60000));
    ASSERT_TRUE(finished.at(1).at(1).toBool()) << finished.at(1).at(2).toString().toStdString();
    EXPECT_EQ(filter->currentText(), QStringLiteral("ramp"));
    EXPECT_EQ(cutoff->value(), 1.0);
    EXPECT_EQ(f.window->runSummary()->text(), QStringLiteral("FDK, filter ramp 1.00"));

    // The same plane is numbered alike in both tabs.
    const QString label =
        f.window->reconstructionTab()->sliceLabel()->text();       // "Plane 25 / 48 ..."
    const QString number = label.section(QLatin1Char(' '), 1, 3);  // "25 / 48"
    f.window->showPanel(QStringLiteral("volume"));
    QApplication::processEvents();
    const QString axial =
        f.window->resultViews()->orthoView()->pane(OrthoSliceView::Axial)->caption();
    EXPECT_EQ(axial, QStringLiteral("y ") + number) << label.toStdString();

    // Back to parallel beam: FBP's Hann 0.5 again.
    f.window->showPanel(QStringLiteral("reconstruction"));
    ASSERT_TRUE(f.startDemo(64));
    EXPECT_EQ(filter->currentText(), QStringLiteral("hann"));
    EXPECT_DOUBLE_EQ(cutoff->value(), 0.5);
}

}  // namespace
}  // namespace tomo::ui
