// Cone-beam data in the GUI as a user meets them: File > Open cone-beam dataset's dialog checks
// the files (projections and an RTK XML geometry made with core's analytic phantom), the
// dataset loads, Reconstruct runs FDK with progress through the session, the Reconstruction
// view shows the central axial plane close to the truth, the orthogonal and volume views get
// the volume, the scan's notes are shown and the result saves in RTK's order; a change of sid in
// the Cone geometry dock previews the central plane, which equals that plane of the full
// reconstruction with the new geometry; an arc too short is warned about; Cancel keeps the
// previous result; bad files give one-line errors and the window keeps working; and
// `tomostation proj.mha --geometry geometry.xml --screenshot` captures the cone views.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>

#include "tests/ui/ConeTestData.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/main/ConeActions.h"
#include "ui/main/ConeOpenDialog.h"
#include "ui/main/ConePreview.h"
#include "ui/main/FileActions.h"
#include "ui/main/ResultViews.h"
#include "ui/main/SessionBinding.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ConeGeometryPanel.h"
#include "ui/session/SessionFile.h"
#include "ui/teaching/ConeTeachingPanel.h"
#include "ui/views/OrthoSliceView.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/ConeVolumeBox.h"
#include "ui/widgets/MetricsPanel.h"

namespace tomo::ui {
namespace {

using test::waitFor;

app::ConeOpenRequest requestOf(const test::ConeFiles& files, bool truth = true) {
    app::ConeOpenRequest r;
    r.projections = files.projections;
    r.geometry = files.geometry;
    if (truth) r.truth = files.truth;
    return r;
}

/// Opens @p request as the dialog's Open does and waits; the jobFinished arguments.
QList<QVariant> openCone(test::WindowFixture& f, const app::ConeOpenRequest& request) {
    QSignalSpy finished(&f.session, &Session::jobFinished);
    EXPECT_TRUE(f.window->coneActions()->openCone(request));
    EXPECT_TRUE(waitFor(finished, 1, 30000)) << "the load did not finish";
    return finished.isEmpty() ? QList<QVariant>{} : finished.at(0);
}

/// Reconstruct as the button does, and wait.
bool reconstruct(test::WindowFixture& f) {
    QSignalSpy finished(&f.session, &Session::jobFinished);
    QSignalSpy progress(&f.session, &Session::progress);
    f.window->reconstruct();
    if (!f.session.isBusy()) return false;
    return waitFor(finished, 1, 60000) && finished.at(0).at(1).toBool() && progress.count() > 0;
}

std::vector<float> shownImage(SliceView* view) {
    std::vector<float> out(view->image().rows() * view->image().cols());
    copyDense(view->image(), out.data());
    return out;
}

QString labelText(QWidget* root, const char* name) {
    auto* label = root->findChild<QLabel*>(QString::fromLatin1(name));
    return label ? label->text() : QString();
}

class ConeBeam : public ::testing::Test {
  protected:
    test::WindowFixture f;
    test::ConeData data = test::coneData(90);
    test::ConeFiles files = test::writeConeFiles(data, f.dir.path().toStdString());
};

TEST_F(ConeBeam, TheDialogChecksTheFiles) {
    ConeOpenDialog dialog;
    dialog.setRequest(requestOf(files));
    EXPECT_TRUE(dialog.isValid()) << dialog.checkText().toStdString();
    EXPECT_TRUE(dialog.checkText().startsWith(QStringLiteral("90 views of 96 x 80 px")))
        << dialog.checkText().toStdString();
    EXPECT_FALSE(dialog.asksPitch());  // the MetaImage's spacing gives it
    EXPECT_EQ(dialog.request().truth, files.truth);

    // A TIFF stack has no spacing: the pitch is asked.
    const auto tif = std::filesystem::path(f.dir.path().toStdString()) / "proj.tif";
    ASSERT_TRUE(app::makeFormatRegistry()->writeVolume(tif, data.projections, {}).isOk());
    app::ConeOpenRequest r = requestOf(files);
    r.projections = tif;
    dialog.setRequest(r);
    EXPECT_TRUE(dialog.isValid());
    EXPECT_TRUE(dialog.asksPitch());
    ASSERT_TRUE(dialog.request().pitch.has_value());
}

TEST_F(ConeBeam, OpensReconstructsAndShowsTheCentralPlane) {
    const QList<QVariant> loaded = openCone(f, requestOf(files));
    ASSERT_TRUE(loaded.value(1).toBool()) << loaded.value(2).toString().toStdString();
    ASSERT_NE(f.session.coneDataset(), nullptr);
    EXPECT_EQ(f.session.dataset(), nullptr);
    EXPECT_TRUE(labelText(f.window.get(), "datasetLabel").contains(QStringLiteral("Cone beam")));
    EXPECT_FALSE(f.window->dock(QStringLiteral("cone"))->visibleRegion().isEmpty());

    ASSERT_TRUE(reconstruct(f));
    auto result = f.session.coneResult();
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(result->centralPlane, 24);
    // The view shows the central axial plane (x across, z down) of the result...
    SliceView* view = f.window->reconstructionView();
    ASSERT_EQ(view->image().rows(), 48u);
    ASSERT_EQ(view->image().cols(), 48u);
    View2<const float> plane = result->recon.image.plane(24);
    EXPECT_EQ(test::relativeRmse(view->image(), plane), 0.0);
    // ...close to the truth's plane y = 0.5 mm: RMSE measured 0.056 inside 0.45 of the width
    // (densities 0.2 inside a skull of 1; 90 views of a 48^3 grid leave streaks and edges).
    Volume truth = app::axialPlanes(data.truth).value();
    const double rmse = test::discRmse(view->image(), truth.plane(24));
    std::printf("[ cone ] central plane RMSE against the truth %.4f\n", rmse);
    EXPECT_LT(rmse, 0.07);
    EXPECT_NE(labelText(f.window->metricsPanel(), "rmseValue"), QStringLiteral("no ground truth"));
    // The notes: the scan kind in the dock and the status bar.
    EXPECT_TRUE(f.window->coneActions()->panel()->notesText().contains(QStringLiteral("full scan")))
        << f.window->coneActions()->panel()->notesText().toStdString();
    EXPECT_TRUE(labelText(f.window.get(), "statusLabel").contains(QStringLiteral("full scan")));
    // The orthogonal and volume views hold the volume (axial planes first).
    auto volume = f.window->resultViews()->orthoView()->volume();
    ASSERT_NE(volume, nullptr);
    EXPECT_EQ(volume->dims(), (std::array<std::size_t, 3>{48, 48, 48}));

    // Saved in RTK's order [z][y][x] with the grid's spacing and origin, as tomo recon writes.
    const std::filesystem::path saved =
        std::filesystem::path(f.dir.path().toStdString()) / "rec.mha";
    ASSERT_TRUE(f.window->fileActions()->saveReconstruction(saved).isOk());
    FormatRegistry formats = app::makeFormatRegistry().value();
    auto back = formats.readVolume(saved, {});
    ASSERT_TRUE(back.isOk());
    EXPECT_EQ(back->dims(), (std::array<std::size_t, 3>{48, 48, 48}));
    EXPECT_EQ((*back)(10, 24, 30), result->recon.image(24, 10, 30));
    auto frame = formats.describe(saved, {})->frame;
    ASSERT_TRUE(frame.has_value());
    EXPECT_DOUBLE_EQ(frame->origin[1], -23.5);
    EXPECT_DOUBLE_EQ(frame->spacing[0], 1.0);
    // The algorithm box names the method that ran; the Teaching tab's cone lesson offers the
    // dataset.
    auto* box = f.window->algorithmPanel()->findChild<QComboBox*>(QStringLiteral("algorithm"));
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->currentText(), QStringLiteral("FDK (cone beam)"));
    EXPECT_TRUE(f.window->coneTeachingPanel()->usesDataset());
}

TEST_F(ConeBeam, ASessionAndOpenRecentReopenTheDatasetAndItsGrid) {
    ASSERT_TRUE(openCone(f, requestOf(files)).value(1).toBool());
    f.window->coneActions()->volumeBox()->setGrid(32, 30, 28, 1.5);
    const std::filesystem::path dir = f.dir.path().toStdString();
    ASSERT_TRUE(f.window->fileActions()->saveSession(dir / "s.json").isOk());
    Result<SessionState> saved = loadSessionFile(dir / "s.json");
    ASSERT_TRUE(saved.isOk()) << saved.status().toString();
    ASSERT_TRUE(saved->cone.has_value());
    EXPECT_EQ(saved->cone->projections, files.projections.string());
    EXPECT_EQ(saved->cone->truth, files.truth.string());
    EXPECT_EQ(saved->cone->grid, (std::array<int, 3>{32, 30, 28}));
    EXPECT_EQ(saved->cone->gridSpacing, 1.5);
    EXPECT_EQ(saved->algorithm, "fbp");
    // Open recent lists the projections as a cone-beam entry.
    const QString entry = QString::fromStdString(files.projections.string());
    EXPECT_TRUE(f.window->fileActions()->recent().list().contains(entry));
    EXPECT_FALSE(f.window->fileActions()->recent().coneRequest(entry).isEmpty());

    // Other data, then the session: the cone-beam dataset and its grid come back.
    ASSERT_TRUE(f.startDemo(32));
    ASSERT_EQ(f.session.coneDataset(), nullptr);
    QSignalSpy loaded(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->fileActions()->openSession(dir / "s.json").isOk());
    ASSERT_TRUE(waitFor(loaded, 1, 30000));
    auto cone = f.session.coneDataset();
    ASSERT_NE(cone, nullptr);
    EXPECT_EQ(cone->request.geometry, files.geometry);
    const ConeVolumeGrid g = f.window->coneActions()->volumeBox()->grid();
    EXPECT_EQ((std::array<int, 3>{g.nx, g.ny, g.nz}), (std::array<int, 3>{32, 30, 28}));
    EXPECT_EQ(g.spacingX, 1.5);
    EXPECT_EQ(captureSessionState(*f.window).cone, saved->cone);

    // Other data, then the Open recent entry.
    ASSERT_TRUE(f.startDemo(32));
    ASSERT_EQ(f.session.coneDataset(), nullptr);
    QAction* recent = nullptr;
    for (QAction* a : f.window->findChildren<QAction*>())
        if (a->text() == entry + QStringLiteral(" (cone beam)")) recent = a;
    ASSERT_NE(recent, nullptr);
    QSignalSpy reopened(&f.session, &Session::jobFinished);
    recent->trigger();
    ASSERT_TRUE(waitFor(reopened, 1, 30000));
    ASSERT_NE(f.session.coneDataset(), nullptr);
    EXPECT_EQ(f.session.coneDataset()->request.truth, files.truth);
}

TEST_F(ConeBeam, ASidChangePreviewsThePlaneOfTheFullRun) {
    ASSERT_TRUE(openCone(f, requestOf(files, false)).value(1).toBool());
    ConePreview* preview = f.window->coneActions()->preview();
    QSignalSpy ready(preview, &ConePreview::ready);
    ASSERT_TRUE(waitFor(ready, 1, 20000)) << "no preview after opening";
    ConeGeometryPanel* panel = f.window->coneActions()->panel();
    EXPECT_EQ(panel->sidBox()->value(), 300.0);
    panel->sidBox()->setValue(306.0);  // as typed: one change
    ASSERT_TRUE(waitFor(ready, 2, 20000)) << "no preview after the sid change";
    EXPECT_FALSE(f.session.isBusy());  // Reconstruct was not pressed
    EXPECT_EQ(f.session.coneResult(), nullptr);
    EXPECT_TRUE(labelText(f.window->metricsPanel(), "shownValue")
                    .startsWith(QStringLiteral("preview of the central plane")));
    EXPECT_TRUE(panel->previewText().contains(QStringLiteral("Central plane")));
    const std::vector<float> shown = shownImage(f.window->reconstructionView());
    auto plane = ready.at(1).at(0).value<std::shared_ptr<const app::ConePlane>>();
    ASSERT_EQ(shown, plane->image.values);
    std::printf("[ cone ] preview of 48^2 from rows %d-%d: %.3f s\n", plane->firstRow,
                plane->firstRow + plane->rows - 1, ready.at(1).at(1).toDouble());

    ASSERT_TRUE(reconstruct(f));
    auto result = f.session.coneResult();
    ASSERT_NE(result, nullptr);
    EXPECT_TRUE(QString::fromStdString(result->geometry).contains(QStringLiteral("sid 306")));
    const View2<const float> full = result->recon.image.plane(std::size_t(result->centralPlane));
    const double rel = test::relativeRmse(plane->image.view(), full);
    std::printf("[ cone ] preview against the full run's plane: %.2e relative\n", rel);
    EXPECT_LT(rel, 1e-5);
}

TEST_F(ConeBeam, BadFilesGiveOneLineErrorsAndTheWindowKeepsWorking) {
    ASSERT_TRUE(openCone(f, requestOf(files, false)).value(1).toBool());
    auto before = f.session.coneDataset();
    const std::filesystem::path dir = f.dir.path().toStdString();
    std::ofstream(dir / "bad.xml") << "<?xml version=\"1.0\"?>\n<RTK><Projection><GantryAngle>";
    app::ConeOpenRequest bad = requestOf(files, false);
    bad.geometry = dir / "bad.xml";
    ConeOpenDialog dialog;
    dialog.setRequest(bad);
    EXPECT_FALSE(dialog.isValid());
    EXPECT_FALSE(dialog.checkText().isEmpty());
    QList<QVariant> failed = openCone(f, bad);
    ASSERT_FALSE(failed.value(1).toBool());
    const QString message = labelText(f.window.get(), "statusLabel");
    EXPECT_FALSE(message.isEmpty());
    EXPECT_FALSE(message.contains(QLatin1Char('\n'))) << message.toStdString();
    EXPECT_EQ(f.session.coneDataset(), before);  // the previous data stay

    // 60 views in the geometry for 90 projections.
    const test::ConeData sixty = test::coneData(60, 360, {}, 16, 8, 8);
    ASSERT_TRUE(writeConeGeometryFile(dir / "sixty.xml", sixty.geometry).isOk());
    app::ConeOpenRequest mismatch = requestOf(files, false);
    mismatch.geometry = dir / "sixty.xml";
    dialog.setRequest(mismatch);
    EXPECT_FALSE(dialog.isValid());
    EXPECT_EQ(dialog.checkText().toStdString(), "proj.mha holds 90 views but the geometry 60");
    failed = openCone(f, mismatch);
    ASSERT_FALSE(failed.value(1).toBool());
    EXPECT_EQ(labelText(f.window.get(), "statusLabel").toStdString(),
              "proj.mha holds 90 views but the geometry 60");

    // Still working: the open dataset reconstructs.
    ASSERT_TRUE(reconstruct(f));
    EXPECT_NE(f.session.coneResult(), nullptr);
}

TEST(ConeBeamNotes, AnArcTooShortIsWarnedAbout) {
    test::WindowFixture f;
    // 150 degrees: less than 180 plus the fan angle.
    const test::ConeData data = test::coneData(50, 150);
    const test::ConeFiles files = test::writeConeFiles(data, f.dir.path().toStdString());
    ASSERT_TRUE(openCone(f, requestOf(files)).value(1).toBool());
    ASSERT_TRUE(reconstruct(f));
    const QString notes = f.window->coneActions()->panel()->notesText();
    EXPECT_TRUE(notes.contains(QStringLiteral("Warning:")) &&
                notes.contains(QStringLiteral("insufficient data")))
        << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("short scan"))) << notes.toStdString();
    EXPECT_TRUE(labelText(f.window.get(), "statusLabel")
                    .contains(QStringLiteral("Warning: insufficient data")));
}

TEST_F(ConeBeam, CancelKeepsThePreviousResult) {
    ASSERT_TRUE(openCone(f, requestOf(files, false)).value(1).toBool());
    ASSERT_TRUE(reconstruct(f));
    auto first = f.session.coneResult();
    // The first result: the XML's default grid, 96 x 80 x 96 voxels. Then a volume that takes
    // long enough to cancel: 256^3 from 90 views.
    ASSERT_EQ(first->recon.image.dims(), (std::array<std::size_t, 3>{80, 96, 96}));
    f.window->coneActions()->volumeBox()->setGrid(256, 256, 256, 0.2);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    f.window->reconstruct();
    ASSERT_TRUE(f.session.isBusy());
    f.session.cancel();  // what the status bar's Cancel does
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    EXPECT_FALSE(finished.at(0).at(1).toBool());
    EXPECT_TRUE(finished.at(0).at(2).toString().endsWith(QStringLiteral("cancelled")))
        << finished.at(0).at(2).toString().toStdString();
    EXPECT_EQ(f.session.coneResult(), first);
    EXPECT_EQ(f.window->reconstructionView()->image().rows(), first->recon.image.dim(1));
}

#ifdef TOMOSTATION_EXE
/// `tomostation proj.mha --geometry geometry.xml --screenshot FILE --view NAME`: opened,
/// reconstructed by FDK and captured; a PNG of the size asked, not blank.
class ConeScreenshot : public ::testing::TestWithParam<const char*> {};

TEST_P(ConeScreenshot, TheCommandLineOpensAndReconstructs) {
    QTemporaryDir dir;
    const test::ConeFiles files =
        test::writeConeFiles(test::coneData(60), dir.path().toStdString());
    const QString view = QString::fromLatin1(GetParam());
    const QString file = dir.filePath(view + QStringLiteral(".png"));
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(
        QStringLiteral(TOMOSTATION_EXE),
        {QString::fromStdString(files.projections.string()), QStringLiteral("--geometry"),
         QString::fromStdString(files.geometry.string()), QStringLiteral("--threads"),
         QStringLiteral("2"), QStringLiteral("--screenshot"), file, QStringLiteral("--view"), view,
         QStringLiteral("--screenshot-size"), QStringLiteral("1000x700")});
    ASSERT_TRUE(process.waitForFinished(60000)) << "tomostation did not finish";
    EXPECT_EQ(process.exitCode(), 0) << process.readAll().toStdString();
    QImage image(file);
    ASSERT_FALSE(image.isNull()) << "no PNG written for --view " << GetParam();
    EXPECT_EQ(image.size(), QSize(1000, 700));
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    EXPECT_GT(colours.size(), 20u) << "the image is (nearly) blank";
}

INSTANTIATE_TEST_SUITE_P(ConeViews, ConeScreenshot,
                         ::testing::Values("main", "cone", "open-cone", "volume"));

TEST(ConeCommandLine, ABadGeometryIsAnError) {
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    std::ofstream(bad.toStdString()) << "{\"type\": \"tomostation-cone-geometry\", \"sdd\": }";
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral(TOMOSTATION_EXE),
                  {dir.filePath(QStringLiteral("proj.mha")), QStringLiteral("--geometry"), bad,
                   QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("x.png"))});
    ASSERT_TRUE(process.waitForFinished(30000));
    EXPECT_EQ(process.exitCode(), 1);
    const QString output = QString::fromUtf8(process.readAll());
    EXPECT_TRUE(output.contains(QStringLiteral("bad.json"))) << output.toStdString();
}
#endif

}  // namespace
}  // namespace tomo::ui
