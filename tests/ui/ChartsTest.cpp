// The charts as a user reads them: after a CGLS run, a centre sweep and a drawn profile, every
// chart has its axis titles and several numeric labels per axis, and no label is elided
// ("..."), read from the chart's own text items. The L-curve corner (or the reason there is
// none) is the one `tomo recon --lcurve` reports, the lowest error is marked, and clicking an
// iterate marks it and shows its own metrics and difference.
#include <gtest/gtest.h>

#include <cmath>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QSignalSpy>
#include <QXYSeries>

#include "core/iterative/AlgorithmSchema.h"
#include "core/metrics/Metrics.h"
#include "core/solvers/IterationCorner.h"
#include "core/solvers/LCurve.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/charts/ConvergenceDock.h"
#include "ui/main/ReconstructionTab.h"
#include "ui/main/ResultViews.h"
#include "ui/panels/CenterPanel.h"
#include "ui/teaching/TeachingPlots.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/MetricsPanel.h"

namespace tomo::ui {
namespace {

using test::chartTexts;
using test::waitFor;

int numericCount(const QStringList& texts) {
    int n = 0;
    for (const QString& t : texts) {
        bool ok = false;
        t.toDouble(&ok);
        n += ok ? 1 : 0;
    }
    return n;
}

void expectReadable(QChartView* view, const QStringList& titles, int minNumbers,
                    QSize size = QSize(420, 260)) {
    const QStringList texts = chartTexts(view, size);
    for (const QString& t : texts) {
        EXPECT_FALSE(t.contains(QStringLiteral("...")) || t.contains(QChar(0x2026)))
            << "elided label '" << t.toStdString() << "' in " << texts.join('|').toStdString();
    }
    for (const QString& title : titles)
        EXPECT_TRUE(texts.contains(title))
            << title.toStdString() << " missing from " << texts.join('|').toStdString();
    EXPECT_GE(numericCount(texts), minNumbers) << texts.join('|').toStdString();
}

TEST(Charts, AxesAreLabelledAndTheCornerMatchesTheCli) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    MainWindow& window = *f.window;
    app::IterativeJobSpec spec;
    spec.algorithm = "cgls";
    spec.parameters["iterations"] = "30";
    spec.parameters["stop"] = "none";  // 30 points (cgls stops by the discrepancy by default)
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startIterative(spec));
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    ConvergenceDock& dock = *window.convergenceDock();
    ASSERT_EQ(dock.pointCount(), 30);

    // Norms span under two decades here: the log axes must still carry several labels.
    const QStringList normTitles{QStringLiteral("iteration"), QStringLiteral("norm")};
    const QStringList lcurveTitles{QStringLiteral("residual ||Ax-b||"),
                                   QStringLiteral("solution ||x||")};
    expectReadable(dock.normsView(), normTitles, 6);
    expectReadable(dock.lcurveView(), lcurveTitles, 6);
    // At the charts' minimum size too, as in a low dock.
    expectReadable(dock.normsView(), normTitles, 6, dock.normsView()->minimumSize());
    expectReadable(dock.lcurveView(), lcurveTitles, 6, dock.lcurveView()->minimumSize());

    // The corner is core's iterationCornerOf on the same points, as tomo recon --lcurve
    // reports it.
    Result<std::size_t> corner = iterationCornerOf(*findAlgorithm("cgls"), dock.points());
    EXPECT_EQ(dock.corner().has_value(), corner.isOk());
    if (corner)
        EXPECT_EQ(*dock.corner(), *corner);
    else
        EXPECT_EQ(dock.cornerNote().toStdString(), corner.status().message());
    auto* status = dock.findChild<QLabel*>(QStringLiteral("convergenceStatus"));
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(status->text().contains(corner ? QStringLiteral("corner at iteration")
                                               : QStringLiteral("no L-curve corner")))
        << status->text().toStdString();
    // The lowest error against the truth is marked and named.
    ASSERT_TRUE(dock.lowestError().has_value());
    double lowest = 1e300;
    for (const LCurvePoint& p : dock.points())
        lowest = std::min(lowest, *p.error);
    EXPECT_EQ(*dock.points()[*dock.lowestError()].error, lowest);
    EXPECT_TRUE(status->text().contains(QStringLiteral("Lowest RMSE")));

    // An iterate shown: marked in the charts, its own metrics and difference.
    dock.selectIteration(5);
    EXPECT_EQ(dock.shownIteration(), std::optional<int>(5));
    auto* shown = window.metricsPanel()->findChild<QLabel*>(QStringLiteral("shownValue"));
    auto* rmse = window.metricsPanel()->findChild<QLabel*>(QStringLiteral("rmseValue"));
    ASSERT_TRUE(shown && rmse);
    EXPECT_TRUE(shown->text().startsWith(QStringLiteral("iterate 5")))
        << shown->text().toStdString();
    auto iterate =
        compareImages(window.reconstructionView()->image(), f.session.dataset()->truth.plane(0));
    ASSERT_TRUE(iterate.isOk());
    EXPECT_EQ(rmse->text(), QString::number(iterate->rmse, 'g', 4));
    const float d = window.differenceView()->valueAt(30, 30);
    EXPECT_FLOAT_EQ(d, window.reconstructionView()->valueAt(30, 30) -
                           f.session.dataset()->truth.plane(0)(30, 30));
}

// Issue 28: TV reported an L-curve corner at iteration 3 (RMSE 0.062 against 0.021 at
// iteration 100). TV converges to a regularised minimum: the dock draws no corner and says why,
// the same words as `tomo recon --lcurve` (ReconService's report, AlgorithmSpec::cornerWhyNot).
TEST(Charts, TvAndMbirRunsDrawNoCornerAndSayWhy) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    ConvergenceDock& dock = *f.window->convergenceDock();
    for (const std::string algorithm : {"tv", "mbir"}) {
        app::IterativeJobSpec spec;
        spec.algorithm = algorithm;
        spec.parameters["iterations"] = "12";
        QSignalSpy finished(&f.session, &Session::jobFinished);
        ASSERT_TRUE(f.session.startIterative(spec));
        ASSERT_TRUE(waitFor(finished, 1, 60000)) << algorithm;
        ASSERT_TRUE(finished.at(0).at(1).toBool()) << algorithm;
        ASSERT_GE(dock.pointCount(), 5) << algorithm;
        EXPECT_FALSE(dock.corner().has_value()) << algorithm;
        const std::string why = findAlgorithm(algorithm)->cornerWhyNot;
        EXPECT_EQ(dock.cornerNote().toStdString(), why);
        auto* status = dock.findChild<QLabel*>(QStringLiteral("convergenceStatus"));
        ASSERT_NE(status, nullptr);
        EXPECT_TRUE(status->text().startsWith(QString::fromStdString(why)))
            << status->text().toStdString();
        // The old rule on the same points would have drawn a corner for TV (issue 28).
        const bool oldCorner = lcurveCorner(dock.points()).isOk();
        if (algorithm == "tv") {
            EXPECT_TRUE(oldCorner);
        }
    }
}

// A solver on a tiny problem reports thousands of iterations: the dock keeps every point but
// draws at most 2000 per curve (every k-th and the last), refreshed on a timer and at the end of
// the run, so that a report does not cost a redraw of every point (the GUI fell behind the
// solver and Stop waited behind the backlog).
TEST(Charts, LongRunsKeepEveryPointAndDrawABoundedCurve) {
    ConvergenceDock dock;
    const int n = 5001;
    for (int k = 1; k <= n; ++k) {
        app::IterationReport report;
        report.info.iteration = k;
        report.info.residualNorm = 10.0 / k + 1.0;
        report.info.solutionNorm = 1.0 + std::log(double(k));
        report.info.error = 0.1 + std::abs(k - 1200) * 1e-5;
        dock.addIteration(report);
    }
    ASSERT_EQ(dock.pointCount(), n);
    ASSERT_TRUE(dock.lowestError().has_value());
    EXPECT_EQ(dock.points()[*dock.lowestError()].parameter, 1200);
    dock.finishRun();
    const auto series = dock.normsView()->chart()->series();
    ASSERT_FALSE(series.empty());
    auto* residual = qobject_cast<QXYSeries*>(series.front());
    ASSERT_NE(residual, nullptr);
    EXPECT_LE(residual->count(), 2001);
    EXPECT_GE(residual->count(), 1000);
    EXPECT_EQ(residual->at(residual->count() - 1).x(), n);  // the last point is drawn
    Result<std::size_t> corner = iterationCorner(dock.points());
    EXPECT_EQ(dock.corner().has_value(), corner.isOk());
    if (corner) {
        EXPECT_EQ(*dock.corner(), *corner);
    }
}

TEST(Charts, SweepAndProfileAxesAreLabelled) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    MainWindow& window = *f.window;
    CenterPanel& center = *window.centerPanel();
    QSignalSpy swept(&center, &CenterPanel::sweepFinished);
    center.runSweep();
    ASSERT_TRUE(waitFor(swept, 1, 60000));
    expectReadable(center.chartView(), {QStringLiteral("centre (px)"), QStringLiteral("sharpness")},
                   6, center.chartView()->minimumSize());

    window.showPanel(QStringLiteral("profile"));
    SliceView* view = window.reconstructionView();
    view->setProfileLine(QLineF(5, 32, 58, 32));
    LineProfileView* profile = window.resultViews()->profileView();
    ASSERT_FALSE(profile->samples().value.empty());
    expectReadable(profile->chartView(), {QStringLiteral("distance (px)"), QStringLiteral("value")},
                   6, QSize(300, 220));
}

TEST(Charts, TeachingPlotsAreLabelled) {
    TeachingPlots plots;
    plots.resize(640, 240);
    plots.show();
    app::SliceImage sinogram;
    sinogram.rows = 4;
    sinogram.cols = 64;
    sinogram.values.resize(4 * 64);
    for (std::size_t i = 0; i < sinogram.values.size(); ++i)
        sinogram.values[i] = static_cast<float>(i % 64) * 0.5f;
    plots.showProjection(sinogram, 2, 90.0);
    FilterOptions hann;
    hann.window = FilterWindow::Hann;
    plots.showFilter(hann, QStringLiteral("hann"));
    expectReadable(plots.projectionView(),
                   {QStringLiteral("detector (px)"), QStringLiteral("integral")}, 6,
                   QSize(300, 220));
    expectReadable(plots.responseView(),
                   {QStringLiteral("frequency (cycles/px)"), QStringLiteral("gain")}, 6,
                   QSize(300, 220));
}

}  // namespace
}  // namespace tomo::ui
