// Iterative reconstructions from the main window on the 64x64 demo: the convergence chart gains
// one point per iteration with the numbers the solver reported; Cancel returns within a second
// and leaves the previous result (pointer and pixels); Stop and keep makes the current iterate
// the result and shows it.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include <QElapsedTimer>
#include <QSignalSpy>

#include "tests/ui/UiTestSupport.h"
#include "ui/charts/ConvergenceDock.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ParameterForm.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

/// Selects @p algorithm with @p iterations in the form and starts it from the window.
void startIterative(MainWindow& window, const std::string& algorithm, int iterations) {
    AlgorithmPanel* panel = window.algorithmPanel();
    ASSERT_TRUE(panel->setAlgorithm(algorithm));
    // stop=none: these tests count iterations (cgls stops by the discrepancy principle by
    // default).
    ASSERT_TRUE(panel->form()
                    ->setValues({{"iterations", std::to_string(iterations)}, {"stop", "none"}})
                    .empty());
    window.reconstruct();
}

TEST(IterativeJob, ConvergenceChartGainsOnePointPerIteration) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    QSignalSpy iterations(&f.session, &Session::iterationReported);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    startIterative(*f.window, "sirt", 12);
    ASSERT_TRUE(f.session.isBusy());
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    EXPECT_EQ(finished.at(0).at(0).value<Session::JobKind>(), Session::JobKind::Iterate);

    ConvergenceDock* dock = f.window->convergenceDock();
    ASSERT_EQ(iterations.count(), 12);
    ASSERT_EQ(dock->pointCount(), 12);
    const SolverSummary& summary = f.session.lastSummary();
    ASSERT_EQ(summary.iterations, 12);
    ASSERT_EQ(summary.history.size(), 12u);
    for (int k = 0; k < 12; ++k) {
        const LCurvePoint& p = dock->points()[static_cast<std::size_t>(k)];
        EXPECT_EQ(iterations.at(k).at(0).toInt(), k + 1);
        EXPECT_EQ(p.parameter, k + 1);
        EXPECT_DOUBLE_EQ(p.residualNorm, summary.history[static_cast<std::size_t>(k)].residualNorm);
        EXPECT_DOUBLE_EQ(p.solutionNorm, summary.history[static_cast<std::size_t>(k)].solutionNorm);
        ASSERT_TRUE(p.error.has_value()) << "the demo has a ground truth";
    }
    // SIRT from zero: the residual falls and the error against the phantom falls.
    EXPECT_LT(dock->points().back().residualNorm, 0.5 * dock->points().front().residualNorm);
    EXPECT_LT(*dock->points().back().error, *dock->points().front().error);

    // The result is shown, and clicking a point shows that iterate's kept snapshot.
    auto recon = f.session.reconstruction();
    ASSERT_NE(recon, nullptr);
    EXPECT_EQ(f.window->reconstructionView()->valueAt(30, 31), recon->image(0, 31, 30));
    QSignalSpy selected(dock, &ConvergenceDock::iterateSelected);
    dock->selectIteration(3);
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(selected.at(0).at(0).toInt(), 3);
    auto third = f.session.iterations()[2].slice;
    ASSERT_NE(third, nullptr);
    EXPECT_EQ(f.window->reconstructionView()->valueAt(30, 31), third->view()(31, 30));
}

TEST(IterativeJob, CancelReturnsWithinOneSecondAndKeepsTheOldResult) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    auto before = f.session.reconstruction();
    const float shownBefore = f.window->reconstructionView()->valueAt(32, 32);
    QSignalSpy iterations(&f.session, &Session::iterationReported);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    startIterative(*f.window, "sirt", 100000);  // minutes of work
    ASSERT_TRUE(waitFor(iterations, 2, 20000));
    QElapsedTimer timer;
    timer.start();
    f.session.cancel();
    ASSERT_TRUE(waitFor(finished, 1, 5000));
    const qint64 ms = timer.elapsed();
    std::printf("cancel -> finished: %lld ms\n", static_cast<long long>(ms));
    // A responsiveness promise (issue 11: 1 s), so a bound; measured 6-7 ms on the 2-core VM
    // at load 6-7, so 1 s is over 100x (tests/ui/CancelLatencyTest.cpp times the long phases).
    EXPECT_LT(ms, 1000);
    EXPECT_FALSE(finished.at(0).at(1).toBool());
    EXPECT_TRUE(finished.at(0).at(2).toString().endsWith(QStringLiteral("cancelled")));
    EXPECT_EQ(f.session.reconstruction(), before) << "the previous result must stay";
    EXPECT_EQ(f.window->reconstructionView()->valueAt(32, 32), shownBefore)
        << "the view must go back to the previous result, not keep a preview";
    EXPECT_EQ(shownBefore, before->image(0, 32, 32));
}

TEST(IterativeJob, StopAndKeepShowsTheCurrentIterate) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    auto fbp = f.session.reconstruction();
    QSignalSpy iterations(&f.session, &Session::iterationReported);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    startIterative(*f.window, "cgls", 100000);
    ASSERT_TRUE(waitFor(iterations, 3, 20000));
    f.session.stopAndKeep();
    ASSERT_TRUE(waitFor(finished, 1, 5000));
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    const SolverSummary& summary = f.session.lastSummary();
    EXPECT_EQ(summary.reason, TerminationReason::StoppedByCaller);
    ASSERT_GE(summary.iterations, 3);
    // Stopped before its 100000 iterations. How many ran between the third report and the stop
    // depends on how busy the machine is (a fresh-clone run under ctest -j2 saw 1328 of these
    // 64^2 iterations go by while the GUI thread caught up), so no tighter bound is asserted;
    // the 5 s from stop to finished above is the promptness check.
    EXPECT_LT(summary.iterations, 100000);
    auto kept = f.session.reconstruction();
    ASSERT_NE(kept, fbp);
    // The kept result is the last reported iterate, pixel for pixel, and it is what is shown.
    ASSERT_EQ(static_cast<int>(f.session.iterations().size()), summary.iterations);
    auto last = f.session.iterations().back().slice;
    ASSERT_NE(last, nullptr);
    for (std::size_t y : {5u, 20u, 32u, 60u})
        for (std::size_t x : {3u, 31u, 44u})
            EXPECT_EQ(kept->image(0, y, x), last->view()(y, x));
    EXPECT_EQ(f.window->reconstructionView()->valueAt(31, 32), kept->image(0, 32, 31));
    EXPECT_EQ(f.window->convergenceDock()->pointCount(), summary.iterations);
}

}  // namespace
}  // namespace tomo::ui
