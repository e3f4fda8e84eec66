// The workstation's workflow driven as a user drives it (issue 28): mouse clicks and keys on the
// real widgets, values read back from labels and views. A beamline scan in DXchange with its
// rotation axis 3.5 px off the detector centre and detector gain errors: Estimate, Apply to
// dataset, a ring filter, Apply and reload: the centre stays and the rings go; a new centre keeps
// the preprocessing; an image size keeps both; Cancel keeps the previous result. One journey
// from the file to the saved result: the centre set once survives a preview, Ctrl+R, the save
// and the reopened file.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>

#include "core/io/ImageIO.h"
#include "tests/ui/BeamlineFixture.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/panels/CenterPanel.h"
#include "ui/panels/PreprocessPanel.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/VolumeBrowser.h"

namespace tomo::ui {
namespace {

using test::BeamlineFixture;
using test::click;
using test::typeInto;
using test::waitFor;

#if TOMO_WITH_HDF5

TEST(Workflow, ApplyAndReloadKeepsTheCentreOfRotation) {
    BeamlineFixture f;
    const double atDetectorCentre = f.shownError();
    EXPECT_TRUE(f.header().contains(QStringLiteral("centre 64.00 px (as read)")))
        << f.header().toStdString();

    CenterPanel* center = f.window->centerPanel();
    QSignalSpy estimated(center, &CenterPanel::estimated);
    click(test::child<QPushButton>(center, QStringLiteral("estimateCenter")));
    ASSERT_TRUE(waitFor(estimated, 1, 30000));
    const double found = center->center();
    EXPECT_NEAR(found, f.scan.trueCenter, 0.3);

    // Apply to dataset reconstructs at once with the new centre.
    f.clickAndWait(test::child<QPushButton>(center, QStringLiteral("applyCenter")), 1);
    const QString centre = QStringLiteral("centre %1 px (set)").arg(found, 0, 'f', 2);
    EXPECT_TRUE(f.header().contains(centre)) << f.header().toStdString();
    const double atFoundCentre = f.shownError();
    EXPECT_LT(atFoundCentre, 0.6 * atDetectorCentre);

    // Rings: sorting (Vo), Apply and reload. The centre must survive the reload.
    PreprocessPanel* pre = f.window->preprocessPanel();
    test::choose(test::child<QComboBox>(pre, QStringLiteral("ringMethod")),
                 QStringLiteral("sorting"));
    f.clickAndWait(test::child<QPushButton>(pre, QStringLiteral("applyPreprocessing")), 2);
    EXPECT_TRUE(f.header().contains(centre)) << f.header().toStdString();
    EXPECT_TRUE(f.header().contains(QStringLiteral("rings vo"))) << f.header().toStdString();
    EXPECT_NEAR(center->center(), found, 1e-9);
    EXPECT_NEAR(f.session.dataset()->geometry.centerOfRotation(), found, 1e-9);
    EXPECT_LT(f.shownError(), atFoundCentre);  // and the stripes are gone

    // A new centre keeps the ring filter.
    typeInto(test::child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
             QString::number(found + 0.5, 'f', 2));
    f.clickAndWait(test::child<QPushButton>(center, QStringLiteral("applyCenter")), 1);
    EXPECT_TRUE(f.header().contains(QStringLiteral("rings vo"))) << f.header().toStdString();
    EXPECT_TRUE(
        f.header().contains(QStringLiteral("centre %1 px (set)").arg(found + 0.5, 0, 'f', 2)))
        << f.header().toStdString();
}

TEST(Workflow, ACropKeepsTheCentreOnTheDetectorAsStored) {
    BeamlineFixture f;
    CenterPanel* center = f.window->centerPanel();
    test::typeInto(test::child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
                   QStringLiteral("67.50"));
    f.clickAndWait(test::child<QPushButton>(center, QStringLiteral("applyCenter")), 1);
    // Columns 10.. kept: the same axis is 57.5 px from the first kept column.
    PreprocessPanel* pre = f.window->preprocessPanel();
    test::typeInto(test::child<QSpinBox>(pre, QStringLiteral("columnFirst")), QStringLiteral("10"));
    f.clickAndWait(test::child<QPushButton>(pre, QStringLiteral("applyPreprocessing")), 2);
    EXPECT_TRUE(f.header().contains(QStringLiteral("centre 57.50 px (set)")))
        << f.header().toStdString();
    EXPECT_NEAR(center->center(), 57.5, 1e-9);
}

TEST(Workflow, TheCentreSetOnceSurvivesPreviewReconstructSaveAndReopen) {
    BeamlineFixture f;
    CenterPanel* center = f.window->centerPanel();
    QSignalSpy estimated(center, &CenterPanel::estimated);
    click(test::child<QPushButton>(center, QStringLiteral("estimateCenter")));
    ASSERT_TRUE(waitFor(estimated, 1, 30000));
    const double found = center->center();
    f.clickAndWait(test::child<QPushButton>(center, QStringLiteral("applyCenter")), 1);
    const QString centre = QStringLiteral("centre %1 px (set)").arg(found, 0, 'f', 2);
    ASSERT_TRUE(f.header().contains(centre)) << f.header().toStdString();
    const double atFound = f.shownError();

    // Preview another centre without applying it: the dataset keeps the one applied.
    QSignalSpy previewed(center, &CenterPanel::previewUpdated);
    typeInto(test::child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
             QString::number(found + 2.0, 'f', 2));
    ASSERT_TRUE(waitFor(previewed, 1, 30000));
    EXPECT_NEAR(center->lastPreviewCenter(), found + 2.0, 1e-9);
    EXPECT_TRUE(f.header().contains(centre)) << f.header().toStdString();
    EXPECT_NEAR(f.session.dataset()->geometry.centerOfRotation(), found, 1e-9);

    // Ctrl+R reconstructs the dataset as applied: the same centre, the same image.
    QSignalSpy finished(&f.session, &Session::jobFinished);
    QTest::keyClick(f.window->reconstructionView(), Qt::Key_R, Qt::ControlModifier);
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    EXPECT_TRUE(f.header().contains(centre)) << f.header().toStdString();
    EXPECT_NEAR(f.shownError(), atFound, 1e-6);

    // Saved and reopened (Ctrl+O on the app's own .h5): the provenance names the centre.
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("rec.h5")).toStdString();
    ASSERT_TRUE(f.window->fileActions()->saveReconstruction(file).isOk());
    EXPECT_FALSE(f.window->fileActions()->askAndOpen(file));
    VolumeBrowser* browser = f.window->fileActions()->lastBrowser();
    ASSERT_NE(browser, nullptr);
    const QString provenance = browser->provenanceLabel()->text();
    EXPECT_TRUE(provenance.contains(QStringLiteral("centre %1 px;").arg(found, 0, 'f', 2)))
        << provenance.toStdString();
    // The open dataset is still the scan at its centre.
    EXPECT_TRUE(f.header().contains(centre)) << f.header().toStdString();
}

#endif  // TOMO_WITH_HDF5

}  // namespace
}  // namespace tomo::ui
