// File > Copy as Python (issue 30): a GUI session opens a file, sets a sampling and a grid,
// reconstructs (FBP, SIRT); the script the action puts on the clipboard, run with the
// tomostation module of this build, writes the same bits. The journey of `./scripts/run`
// (the bundled demo folder, a centre set by hand, FBP with the Joseph projector, SIRT with
// edited parameters) is driven by clicks and keys, and its scripts give the GUI's bits too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGuiApplication>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QXYSeries>

#include "app/jobs/DatasetState.h"
#include "app/jobs/DemoJob.h"
#include "core/io/ImageIO.h"
#include "core/projectors/JosephTranspose.h"
#include "tests/ui/SameBits.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/charts/ConvergenceDock.h"
#include "ui/main/CopyAsPython.h"
#include "ui/main/FileActions.h"
#include "ui/panels/CenterPanel.h"
#include "ui/panels/PreprocessPanel.h"

namespace tomo::ui::test {
namespace {

constexpr int kSize = 40;
constexpr int kSlices = 2;

/// Runs File > Copy as Python's script and compares its image with the GUI's.
class CopiedScript : public ::testing::Test {
  protected:
    void SetUp() override {
#ifndef TOMO_PYTHON_EXE
        GTEST_SKIP() << "this build has no Python module (python3-dev, pybind11-dev)";
#endif
        auto made = app::makeDemoDataset(app::demoSpecForSize(kSize), ExecContext{});
        ASSERT_TRUE(made.isOk());
        demo.emplace(std::move(*made));
    }

    /// Triggers File > Copy as Python, runs the clipboard's script in the temporary folder and
    /// returns its reconstruction.tif.
    Array3<float> runCopiedScript() {
        auto* action = f.window->findChild<QAction*>(QStringLiteral("copyAsPython"));
        EXPECT_TRUE(action && action->isEnabled());
        if (!action) return {};
        // A refusal would open a modal message box: say it here instead.
        const auto* copy = f.window->findChild<CopyAsPython*>();
        const Result<std::string> expected = copy ? copy->script() : invalidArgument("no action");
        EXPECT_TRUE(expected.isOk()) << expected.status().message();
        if (!expected) return {};
        QGuiApplication::clipboard()->clear();
        action->trigger();
        script = QGuiApplication::clipboard()->text().toStdString();
        EXPECT_NE(script.find("import tomostation"), std::string::npos) << script;
        const std::string path = dir.filePath(QStringLiteral("copied.py")).toStdString();
        std::ofstream(path) << script;
        const std::string command = "cd '" + dir.path().toStdString() + "' && PYTHONPATH='" +
                                    TOMO_PYTHON_PATH + "' '" + TOMO_PYTHON_EXE + "' copied.py 2>&1";
        std::string output;
        FILE* pipe = ::popen(command.c_str(), "r");
        char buffer[4096];
        for (std::size_t n; pipe && (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
            output.append(buffer, n);
        EXPECT_EQ(pipe ? ::pclose(pipe) : -1, 0) << output << "\n" << script;
        auto image = readTiff(dir.filePath(QStringLiteral("reconstruction.tif")).toStdString());
        EXPECT_TRUE(image.isOk()) << output;
        return image.isOk() ? std::move(*image) : Array3<float>{};
    }

    void expectSameBits(const Array3<float>& fromScript) {
        const Volume& gui = f.session.reconstruction()->image;
        ASSERT_EQ(fromScript.dims(), gui.dims());
        EXPECT_EQ(differingVoxels(fromScript, gui), 0u);
    }

    QTemporaryDir dir;
    WindowFixture f;
    std::optional<app::Dataset> demo;  ///< the kSize demo (one slice)
    std::string script;                ///< the last copied script
};

/// A sinogram file opened, seen through a sampling and a grid.
class CopyAsPythonTest : public CopiedScript {
  protected:
    void SetUp() override {
        CopiedScript::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        const std::size_t angles = demo->sinograms.dim(1), detectors = demo->sinograms.dim(2);
        auto stack = Sinograms::create(kSlices, angles, detectors);
        ASSERT_TRUE(stack.isOk());
        for (std::size_t k = 0; k < kSlices; ++k)
            for (std::size_t a = 0; a < angles; ++a)
                for (std::size_t d = 0; d < detectors; ++d)
                    (*stack)(k, a, d) = demo->sinograms(0, a, d) * (1.0f + 0.5f * float(k));
        const std::string input = dir.filePath(QStringLiteral("sino.tif")).toStdString();
        ASSERT_TRUE(writeVolume(input, *stack).isOk());
        app::LoadRequest request;
        request.path = input;
        request.endDegrees = 180.0;
        QSignalSpy finished(&f.session, &Session::jobFinished);
        ASSERT_TRUE(f.session.startLoadFile(request, QStringLiteral("sino.tif")));
        ASSERT_TRUE(waitFor(finished, 1, 60000));
        ASSERT_TRUE(finished.at(0).at(1).toBool());
        // Every second projection, a 32^2 region of 1.25 px off the axis.
        app::Sampling sampling;
        sampling.angleStep = 2;
        sampling.grid.size = 32;
        sampling.grid.pixelSize = 1.25;
        sampling.grid.centerX = 3.5;
        sampling.grid.centerY = -2.0;
        ASSERT_TRUE(f.session.setSampling(sampling).isOk());
    }
};

TEST_F(CopyAsPythonTest, TheFbpScriptGivesTheGuisBits) {
    FbpOptions options;
    options.filter.window = FilterWindow::Hann;
    options.filter.cutoff = 0.8;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startReconstruct(options, "cpu.simd.lin"));
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    expectSameBits(runCopiedScript());
}

TEST_F(CopyAsPythonTest, TheSirtScriptGivesTheGuisBits) {
    app::IterativeJobSpec spec;
    spec.algorithm = "sirt";
    spec.parameters = {{"iterations", "6"}, {"relaxation", "0.8"}};
    spec.backend = "cpu";
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startIterative(spec));
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    expectSameBits(runCopiedScript());
}

/// `./scripts/run`'s journey: the bundled demo is a dataset folder (sinogram, truth,
/// geometry.txt) that tomostation --demo opens; here one of 40^2 written the same way.
class CopyAsPythonJourney : public CopiedScript {
  protected:
    void SetUp() override {
        CopiedScript::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        const std::filesystem::path folder = dir.filePath(QStringLiteral("demo")).toStdString();
        ASSERT_TRUE(app::saveDataset(*demo, folder).isOk());
        QSignalSpy finished(&f.session, &Session::jobFinished);
        f.window->startDemo(app::DemoSpec{}, folder);  // as GuiApp does for --demo
        ASSERT_TRUE(waitFor(finished, 2, 60000));      // loaded, then reconstructed
        ASSERT_TRUE(finished.at(1).at(1).toBool());
    }

    /// Clicks @p button and waits for one job, which must succeed.
    void clickAndWait(QAbstractButton* button) {
        QSignalSpy finished(&f.session, &Session::jobFinished);
        click(button);
        ASSERT_TRUE(waitFor(finished, 1, 120000)) << button->objectName().toStdString();
        ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    }
};

TEST_F(CopyAsPythonJourney, CentreJosephFbpAndEditedSirtGiveTheScriptsBits) {
    // A centre typed and applied: every later step and script uses it.
    CenterPanel* center = f.window->centerPanel();
    const double centre = f.session.dataset()->geometry.centerOfRotation() + 0.25;
    typeInto(child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
             QString::number(centre, 'f', 2));
    clickAndWait(child<QPushButton>(center, QStringLiteral("applyCenter")));
    ASSERT_DOUBLE_EQ(f.session.dataset()->geometry.centerOfRotation(), centre);
    const std::string centreKeyword = "center=" + QString::number(centre, 'g', 17).toStdString();

    // FBP's parameters: the projector that reproduces ASTRA's CPU FBP; the variant box then
    // does not apply.
    auto* projector = child<QComboBox>(f.window.get(), QStringLiteral("fbpProjector"));
    ASSERT_NE(projector, nullptr);
    EXPECT_TRUE(projector->toolTip().contains(QStringLiteral("ASTRA")));
    choose(projector, QStringLiteral("Joseph"));
    EXPECT_EQ(child<QLabel>(f.window.get(), QStringLiteral("runSummary"))->text(),
              QStringLiteral("FBP, filter ramp 1.00, Joseph projector"));
    EXPECT_FALSE(child<QComboBox>(f.window.get(), QStringLiteral("backProjector"))->isEnabled());
    clickAndWait(f.window->runButton());
    EXPECT_EQ(f.session.reconstruction()->variant, kJosephTransposeId);
    const QString status = child<QLabel>(f.window.get(), QStringLiteral("statusLabel"))->text();
    EXPECT_TRUE(status.startsWith(QStringLiteral("FBP cpu.joseph, ramp 1.00:")))
        << status.toStdString();  // was "cpu.joseph on : 0 iterations (max-iterations)", then
                                  // "ram-lak" where the filter box says "ramp"
    expectSameBits(runCopiedScript());
    EXPECT_NE(script.find("ts.read_dataset("), std::string::npos) << script;
    EXPECT_NE(script.find("projector=\"joseph\""), std::string::npos) << script;
    EXPECT_NE(script.find(centreKeyword), std::string::npos) << script;
    // The copy says so in the status line, and the action sits above Quit in the File menu.
    EXPECT_TRUE(child<QLabel>(f.window.get(), QStringLiteral("statusLabel"))
                    ->text()
                    .startsWith(QStringLiteral("Copied a tomostation script")));
    const QList<QAction*> file = f.window->menuBar()->actions().front()->menu()->actions();
    const auto named = [&file](const QString& text) {
        for (qsizetype i = 0; i < file.size(); ++i)
            if (file[i]->text() == text) return i;
        return qsizetype(-1);
    };
    EXPECT_GE(named(QStringLiteral("Copy as &Python")), 0);
    EXPECT_LT(named(QStringLiteral("Copy as &Python")), named(QStringLiteral("&Quit")));

    // SIRT with edited parameters, every iterate drawn.
    choose(child<QComboBox>(f.window.get(), QStringLiteral("algorithm")), QStringLiteral("SIRT"));
    typeInto(child<QSpinBox>(f.window.get(), QStringLiteral("iterations")), QStringLiteral("150"));
    choose(child<QComboBox>(f.window.get(), QStringLiteral("stop")), QStringLiteral("none"));
    clickAndWait(f.window->runButton());
    expectSameBits(runCopiedScript());
    EXPECT_NE(script.find("\"iterations\": \"150\""), std::string::npos) << script;
    // Only what differs from the defaults (the script resolves the same schema).
    EXPECT_EQ(script.find("\"relaxation\""), std::string::npos) << script;
    EXPECT_EQ(script.find("\"stop-tau\""), std::string::npos) << script;
    EXPECT_NE(script.find(centreKeyword), std::string::npos) << script;

    // The L-curve's points read in the line's colour where they crowd (they were drawn with
    // the theme's white outline, a white band over the curve).
    ConvergenceDock& dock = *f.window->convergenceDock();
    ASSERT_EQ(dock.pointCount(), 150);
    reveal(dock.lcurveView());
    QChart* chart = dock.lcurveView()->chart();
    auto* line = qobject_cast<QXYSeries*>(chart->series().front());
    ASSERT_NE(line, nullptr);
    const QImage image = dock.lcurveView()->grab().toImage();
    int washedOut = 0, checked = 0;
    for (int k = 100; k < 150; k += 5) {  // late iterates lie close together
        const LCurvePoint& p = dock.points()[std::size_t(k)];
        const QPoint at = dock.lcurveView()->mapFromScene(
                              chart->mapToPosition(QPointF(p.residualNorm, p.solutionNorm), line)) *
                          image.devicePixelRatio();
        if (!image.rect().contains(at)) continue;
        const QColor c = image.pixelColor(at);
        ++checked;
        washedOut += std::min({c.red(), c.green(), c.blue()}) > 200;
    }
    EXPECT_GT(checked, 5);
    EXPECT_EQ(washedOut, 0) << "L-curve points drawn near-white";

    // Other data opened (File > Open dataset folder): the charts start empty and readable,
    // and nothing of the SIRT run is said about them (its axes kept a base of about 1.2 and
    // drew dozens of elided labels over six decades; its corner note stayed).
    auto other = app::makeDemoDataset(app::demoSpecForSize(32), ExecContext{});
    ASSERT_TRUE(other.isOk());
    const std::filesystem::path folder = dir.filePath(QStringLiteral("other")).toStdString();
    ASSERT_TRUE(app::saveDataset(*other, folder).isOk());
    QSignalSpy loaded(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->fileActions()->openPath(folder));
    ASSERT_TRUE(waitFor(loaded, 1, 60000));
    EXPECT_EQ(dock.pointCount(), 0);
    for (QChartView* view : {dock.normsView(), dock.lcurveView()}) {
        const QStringList texts = chartTexts(view, QSize(420, 260));
        int numbers = 0;
        for (const QString& t : texts) {
            EXPECT_FALSE(t.contains(QStringLiteral("...")) || t.contains(QChar(0x2026)))
                << "elided label '" << t.toStdString() << "' in " << texts.join('|').toStdString();
            bool ok = false;
            t.toDouble(&ok);
            numbers += ok;
        }
        EXPECT_GE(numbers, 6) << texts.join('|').toStdString();
        EXPECT_LE(numbers, 20) << texts.join('|').toStdString();
    }
    EXPECT_EQ(child<QLabel>(&dock, QStringLiteral("convergenceStatus"))->text(),
              QStringLiteral("Run an iterative algorithm to see its convergence."));
}

TEST_F(CopyAsPythonJourney, RingRemovalOnTheDemoThenCentreAndFbpGiveTheScriptsBits) {
    // The demo's sinogram with a stripe (a miscalibrated detector column) and two zingers.
    app::Dataset striped = app::withoutSinograms(*demo);
    striped.sinograms = demo->sinograms.clone();
    const std::size_t angles = striped.sinograms.dim(1), column = striped.sinograms.dim(2) / 2 + 6;
    float peak = 0;
    for (std::size_t a = 0; a < angles; ++a)
        for (std::size_t d = 0; d < striped.sinograms.dim(2); ++d)
            peak = std::max(peak, striped.sinograms(0, a, d));
    for (std::size_t a = 0; a < angles; ++a)
        striped.sinograms(0, a, column) += 0.05f * peak;
    // Two zingers: detector pixels 20 times as bright, ln 20 = 3.0 below in line integrals.
    const float zinger = std::log(20.0f);
    striped.sinograms(0, angles / 3, column - 9) -= zinger;
    striped.sinograms(0, angles / 2, column + 4) -= zinger;
    const std::filesystem::path folder = dir.filePath(QStringLiteral("striped")).toStdString();
    ASSERT_TRUE(app::saveDataset(striped, folder).isOk());
    QSignalSpy loaded(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->fileActions()->openPath(folder));
    ASSERT_TRUE(waitFor(loaded, 1, 60000));

    // Preprocessing: ring and zinger removal apply to the sinogram stack; the rest is greyed.
    PreprocessPanel* panel = f.window->preprocessPanel();
    auto* apply = child<QPushButton>(panel, QStringLiteral("applyPreprocessing"));
    ASSERT_TRUE(apply->isEnabled());
    EXPECT_FALSE(child<QCheckBox>(panel, QStringLiteral("minusLog"))->isEnabled());
    EXPECT_TRUE(child<QLabel>(panel, QStringLiteral("preprocessingApplied"))
                    ->text()
                    .contains(QStringLiteral("ring and zinger removal apply")));
    choose(child<QComboBox>(panel, QStringLiteral("ringMethod")), QStringLiteral("sorting"));
    click(child<QCheckBox>(panel, QStringLiteral("removeZingers")));
    typeInto(child<QDoubleSpinBox>(panel, QStringLiteral("zingerThreshold")),
             QStringLiteral("0.20"));  // a fraction: ln 1.2 below the median
    QSignalSpy reloaded(&f.session, &Session::jobFinished);
    click(apply);
    ASSERT_TRUE(waitFor(reloaded, 2, 120000));  // read again, then reconstructed
    ASSERT_TRUE(reloaded.at(0).at(1).toBool()) << reloaded.at(0).at(2).toString().toStdString();
    const Sinograms& seen = f.session.loadedDataset()->sinograms;
    double stripe = 0, worst = 0;
    for (std::size_t a = 0; a < angles; ++a) {
        stripe += double(seen(0, a, column)) - demo->sinograms(0, a, column);
        for (std::size_t d = 0; d < seen.dim(2); ++d)
            if (d != column)
                worst =
                    std::max(worst, std::fabs(double(seen(0, a, d)) - demo->sinograms(0, a, d)));
    }
    EXPECT_LT(std::fabs(stripe / double(angles)), 0.1 * 0.05 * peak);  // 5% of the peak planted
    EXPECT_LT(worst, 0.5 * peak);  // ring removal moves the rest by less than half the peak
    for (const auto& [a, d] :
         {std::pair{angles / 3, column - 9}, std::pair{angles / 2, column + 4}})
        EXPECT_LT(std::fabs(double(seen(0, a, d)) - demo->sinograms(0, a, d)), 0.5 * zinger)
            << a << " " << d;  // the zingers replaced by their median
    EXPECT_NE(f.session.loadedDataset()->preprocessing.find("rings vo"), std::string::npos);

    // A centre typed and applied after the ring removal keeps it, and FBP and the script use both.
    CenterPanel* center = f.window->centerPanel();
    const double centre = f.session.dataset()->geometry.centerOfRotation() + 0.5;
    typeInto(child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
             QString::number(centre, 'f', 2));
    clickAndWait(child<QPushButton>(center, QStringLiteral("applyCenter")));
    ASSERT_DOUBLE_EQ(f.session.dataset()->geometry.centerOfRotation(), centre);
    EXPECT_NE(f.session.loadedDataset()->preprocessing.find("rings vo"), std::string::npos);
    clickAndWait(f.window->runButton());
    expectSameBits(runCopiedScript());
    EXPECT_NE(script.find("sinograms=True, rings=\"vo\""), std::string::npos) << script;
    EXPECT_NE(script.find("zinger="), std::string::npos) << script;
}

TEST(CopyAsPythonMessages, AGeneratedDemoSaysWhatToDo) {
    WindowFixture f;
    ASSERT_TRUE(f.startDemo(48));
    QMenu menu;
    CopyAsPython copy(f.session, &menu, f.window.get());
    auto script = copy.script();
    if (f.session.dataFolder().empty()) {
        ASSERT_FALSE(script.isOk());
        EXPECT_NE(script.status().message().find("open a data file or a dataset folder"),
                  std::string::npos);
    } else {
        ASSERT_TRUE(script.isOk());  // the bundled demo folder is read by read_dataset
        EXPECT_NE(script->find("ts.read_dataset("), std::string::npos);
    }
}

}  // namespace
}  // namespace tomo::ui::test
