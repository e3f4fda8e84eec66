// Large data as a user meets them (issue 28, point 14): a reopened reconstruction browsed with
// PageUp/PageDown on its image, its values, window/level bar and provenance shown; the app's own
// .h5 opened by Ctrl+O as a reconstruction; a raw file's shape read from its size; Cancel keeps
// the previous result after a new image size; SIGTERM ends the GUI within 2 s.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>

#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>

#include "app/jobs/RawShape.h"
#include "app/recon/Preflight.h"
#include "core/io/ImageIO.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "tomo/config.h"
#include "ui/main/FileActions.h"
#include "ui/main/OpenDataDialog.h"
#include "ui/main/ReconstructionTab.h"
#include "ui/views/ImageView.h"
#include "ui/widgets/SamplingBox.h"
#include "ui/widgets/VolumeBrowser.h"
#include "ui/widgets/WindowLevelBar.h"

namespace tomo::ui {
namespace {

using test::waitFor;

#if TOMO_WITH_HDF5
TEST(LargeData, AReopenedReconstructionIsBrowsedOnItsImageWithValuesAndProvenance) {
    test::WindowFixture f;
    f.session.setDataset(test::demoStack(32, 6, 0.5f), QStringLiteral("six slices"));
    QSignalSpy finished(&f.session, &Session::jobFinished);
    f.window->reconstruct();
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("rec.h5")).toStdString();
    ASSERT_TRUE(f.window->fileActions()->saveReconstruction(file).isOk());

    // Ctrl+O on the app's own reconstruction opens it as one (File > Open data file).
    EXPECT_FALSE(f.window->fileActions()->askAndOpen(file));
    VolumeBrowser* browser = f.window->fileActions()->lastBrowser();
    ASSERT_NE(browser, nullptr);
    EXPECT_EQ(browser->slice(), 3);
    EXPECT_TRUE(browser->provenanceLabel()->text().contains(QStringLiteral("algorithm")));
    EXPECT_TRUE(browser->provenanceLabel()->text().contains(QStringLiteral("fbp")));
    EXPECT_EQ(browser->windowBar()->attachedView(), browser->view());

    // PageDown and Ctrl+wheel on the image, without touching the slider.
    ImageView* view = browser->view();
    QTest::keyClick(view, Qt::Key_PageDown);
    EXPECT_EQ(browser->slice(), 2);
    EXPECT_TRUE(browser->sliceLabel()->text().startsWith(QStringLiteral("slice 3 of 6")))
        << browser->sliceLabel()->text().toStdString();
    QWheelEvent wheel(QPointF(10, 10), view->mapToGlobal(QPointF(10, 10)), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
    EXPECT_EQ(browser->slice(), 3);
    // The value under the cursor.
    QMouseEvent move(QEvent::MouseMove, QPointF(view->rect().center()),
                     view->mapToGlobal(QPointF(view->rect().center())), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(view, &move);
    EXPECT_TRUE(browser->valueLabel()->text().contains(QStringLiteral("value")))
        << browser->valueLabel()->text().toStdString();
    // The window set by the user stays from slice to slice.
    view->setWindowLevel({0.25, 0.125});
    QTest::keyClick(view, Qt::Key_PageUp);
    EXPECT_DOUBLE_EQ(view->windowLevel().width, 0.25);
}
#endif

TEST(LargeData, TheRawShapeFollowsTheFileSize) {
    // 256 slices of 1024^2 floats: what the size allows, the square stack.
    auto shape = app::squareStackShape(std::uintmax_t(1024) * 1024 * 256);
    ASSERT_TRUE(shape.has_value());
    EXPECT_EQ(*shape, (std::array<std::size_t, 3>{256, 1024, 1024}));
    EXPECT_EQ(app::squareStackShape(7), (std::array<std::size_t, 3>{1, 1, 7}));

    // The Open dialog of a raw sinogram file: 3 slices of 90 x 64.
    QTemporaryDir dir;
    const std::filesystem::path file = dir.filePath(QStringLiteral("sino.raw")).toStdString();
    Array3<float> stack(3, 90, 64);
    stack.fill(0.5f);
    ASSERT_TRUE(writeRawFloat32(file, stack).isOk());
    OpenDataDialog dialog(file, true);
    auto* angles = test::child<QSpinBox>(&dialog, QStringLiteral("rawAngles"));
    auto* detectors = test::child<QSpinBox>(&dialog, QStringLiteral("rawDetectors"));
    auto* slices = test::child<QSpinBox>(&dialog, QStringLiteral("rawSlices"));
    test::typeInto(angles, QStringLiteral("90"));
    test::typeInto(detectors, QStringLiteral("64"));
    EXPECT_EQ(slices->value(), 3);  // from the file's size
    EXPECT_EQ(dialog.request().shape, (std::array<std::size_t, 3>{3, 90, 64}));
    test::typeInto(detectors, QStringLiteral("65"));
    EXPECT_TRUE(test::labelText(&dialog, QStringLiteral("rawSizeCheck"))
                    .contains(QStringLiteral("holds 17280")));
    auto* open = dialog.findChild<QPushButton*>();
    bool anyOpenEnabled = false;
    for (QPushButton* b : dialog.findChildren<QPushButton*>())
        if (b->text().remove(QLatin1Char('&')) == QStringLiteral("Open"))
            anyOpenEnabled = b->isEnabled();
    EXPECT_NE(open, nullptr);
    EXPECT_FALSE(anyOpenEnabled);
}

TEST(LargeData, CancelAfterANewImageSizeKeepsThePreviousResult) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    // SIRT with many iterations: the run after the new size is long enough to cancel.
    test::choose(test::child<QComboBox>(f.window.get(), QStringLiteral("algorithm")),
                 QStringLiteral("SIRT"));
    test::typeInto(test::child<QSpinBox>(f.window.get(), QStringLiteral("iterations")),
                   QStringLiteral("100000"));
    auto previous = f.session.reconstruction();
    ASSERT_NE(previous, nullptr);
    // A new image size, applied (it reconstructs), then Cancel at once.
    test::typeOnly(test::child<QSpinBox>(f.window->samplingBox(), QStringLiteral("imageSize")),
                   QStringLiteral("96"));
    QSignalSpy finished(&f.session, &Session::jobFinished);
    test::click(test::child<QPushButton>(f.window->samplingBox(), QStringLiteral("applySampling")));
    ASSERT_TRUE(f.session.isBusy());
    f.session.cancel();
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    EXPECT_EQ(f.session.reconstruction(), previous);
    EXPECT_FALSE(f.session.resultIsCurrent());
    // The view still shows it, marked as made with the earlier settings.
    EXPECT_TRUE(f.window->reconstructionView()->hasImage());
    EXPECT_TRUE(f.window->reconstructionView()->caption().contains(QStringLiteral("made before")))
        << f.window->reconstructionView()->caption().toStdString();
    EXPECT_TRUE(test::labelText(f.window.get(), QStringLiteral("samplingState"))
                    .contains(QStringLiteral("96 x 96")))
        << test::labelText(f.window.get(), QStringLiteral("samplingState")).toStdString();
}

/// The process's peak resident set (VmHWM) in bytes; 0 when /proc is not there.
std::size_t peakResidentBytes() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return 0;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toULongLong() * 1024;
    return 0;
}

TEST(LargeData, AJobTooBigForTheMachineIsRefusedBeforeItAllocates) {
    // 256 slices on a 6000 x 6000 grid: a 36.9 GB result, more than this machine has (on a
    // machine with more, 16384 x 16384: 275 GB). The GUI runs it through the CLI's front door,
    // whose preflight refuses it before anything is allocated; the user reads why.
    const std::size_t memory = app::MachineResources::probe().physicalMemory;
    const int size = memory == 0 || memory > (std::size_t{30} << 30) ? 16384 : 6000;
    test::WindowFixture f;
    f.session.setDataset(test::demoStack(32, 256), QStringLiteral("256 slices"));
    QApplication::processEvents();
    test::typeOnly(test::child<QSpinBox>(f.window->samplingBox(), QStringLiteral("imageSize")),
                   QString::number(size));
    const std::size_t peakBefore = peakResidentBytes();
    QSignalSpy finished(&f.session, &Session::jobFinished);
    // Apply (which reconstructs with the new size), then Reconstruct, then Ctrl+R: each refused.
    test::click(test::child<QPushButton>(f.window->samplingBox(), QStringLiteral("applySampling")));
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    ASSERT_EQ(f.session.dataset()->grid.nx, size);
    test::click(f.window->runButton());
    ASSERT_TRUE(waitFor(finished, 2, 30000));
    f.window->activateWindow();
    QApplication::setActiveWindow(f.window.get());
    f.window->reconstructionView()->setFocus();
    QTest::keyClick(f.window->reconstructionView(), Qt::Key_R, Qt::ControlModifier);
    ASSERT_TRUE(waitFor(finished, 3, 30000));
    const QString status = test::labelText(f.window.get(), QStringLiteral("statusLabel"));
    EXPECT_EQ(finished.at(2).at(2).toString(), status);  // the status bar says the last one
    for (int run = 0; run < 3; ++run) {
        EXPECT_FALSE(finished.at(run).at(1).toBool());
        const QString message = finished.at(run).at(2).toString();
        if (run == 0) RecordProperty("message", message.toStdString());
        EXPECT_TRUE(message.contains(QStringLiteral("256 slice(s) of %1x%1").arg(size)))
            << message.toStdString();
        EXPECT_TRUE(message.contains(QStringLiteral("of memory available")))
            << message.toStdString();
        // The advice names this window's controls and the CLI's streamed output, not the
        // CLI's options, which the GUI does not have.
        EXPECT_TRUE(message.contains(
            QStringLiteral("a smaller Image size in Region and sampling and press Apply")))
            << message.toStdString();
        EXPECT_TRUE(message.contains(QStringLiteral("tomo recon <data> ... -o result.h5")))
            << message.toStdString();
        EXPECT_TRUE(message.contains(QStringLiteral("Reconstruction > Reconstruct to file")))
            << message.toStdString();
        EXPECT_FALSE(message.contains(QStringLiteral("--chunk"))) << message.toStdString();
        EXPECT_FALSE(message.contains(QStringLiteral("write the result to a streamed file")))
            << message.toStdString();
    }
    // Nothing big was allocated: the peak grew by less than 256 MiB (the result is 36.9 GB).
    EXPECT_LT(peakResidentBytes(), peakBefore + (std::size_t{256} << 20));
    EXPECT_EQ(f.session.reconstruction(), nullptr);
}

#ifdef TOMOSTATION_EXE
TEST(LargeData, SigtermEndsTheGuiWithinTwoSeconds) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    QTemporaryDir home;
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(TOMOSTATION_EXE),
                  {QStringLiteral("--size"), QStringLiteral("512")});
    ASSERT_TRUE(process.waitForStarted(10000));
    QTest::qWait(1500);  // the demo is being made or reconstructed
    ASSERT_EQ(process.state(), QProcess::Running);
    QElapsedTimer clock;
    clock.start();
    process.terminate();  // SIGTERM
    // A responsiveness promise, so a bound: 2 s, over 10x what it takes (SIGTERM -> exit
    // measured 34-75 ms on the 2-core VM at load 6-8; printed below).
    EXPECT_TRUE(process.waitForFinished(2000)) << "still running 2 s after SIGTERM";
    std::printf("SIGTERM -> exit: %lld ms\n", static_cast<long long>(clock.elapsed()));
    EXPECT_LT(clock.elapsed(), 2000);
    if (process.state() != QProcess::NotRunning) process.kill();
}
#endif

}  // namespace
}  // namespace tomo::ui
