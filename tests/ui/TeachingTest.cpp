// Teaching mode: the angle-by-angle frames add up to the full back-projections (the unfiltered
// one equals one back-projection of all angles with FBP's weights; the filtered one equals
// core's FBP), FBP/SIRT/CGLS come with their RMSE, and the panel's sliders recompute at once
// with the current angle marked on the sinogram and on the Fourier slice picture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

#include "app/Backends.h"
#include "app/jobs/FourierSlice.h"
#include "app/jobs/TeachingJob.h"
#include "core/metrics/Metrics.h"
#include "core/recon/Fbp.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/teaching/FourierSliceView.h"
#include "ui/teaching/MarkedSinogramView.h"
#include "ui/teaching/TeachingPanel.h"
#include "ui/teaching/TeachingPlots.h"

namespace tomo::ui {
namespace {

using test::chartTexts;
using test::waitFor;

float maxAbsDiff(View2<const float> a, View2<const float> b) {
    float m = 0;
    for (std::size_t r = 0; r < a.rows(); ++r)
        for (std::size_t c = 0; c < a.cols(); ++c)
            m = std::max(m, std::fabs(a(r, c) - b(r, c)));
    return m;
}

TEST(TeachingJob, FramesAddUpToTheFullBackProjections) {
    app::TeachingSpec spec;
    spec.size = 32;
    spec.angles = 30;
    spec.maxFrames = 12;
    spec.iterative = false;
    const app::Engine engine;
    Result<app::TeachingResult> r = app::runTeachingJob(engine, spec, ExecContext{});
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    ASSERT_EQ(r->filtered.size(), 12u);
    ASSERT_EQ(r->unfiltered.size(), 12u);
    EXPECT_EQ(r->frameEndAngle.front(), 2);  // 30 angles in 12 groups of 2 or 3
    EXPECT_EQ(r->frameEndAngle.back(), 30);
    EXPECT_TRUE(std::is_sorted(r->frameEndAngle.begin(), r->frameEndAngle.end()));

    // The same data, rebuilt here, reconstructed in one call each way.
    app::DemoSpec demo = app::demoSpecForSize(32);
    demo.angles = 30;
    demo.incidentCount = 0;
    demo.raysPerBin = 2;
    Result<app::Dataset> data = app::makeDemoDataset(demo, ExecContext{});
    ASSERT_TRUE(data.isOk());
    auto bp = engine.registry().make(engine.defaultVariant());
    ASSERT_TRUE(bp.isOk());
    const std::vector<double> w = data->geometry.angularWeights();
    const std::vector<float> weights(w.begin(), w.end());
    Volume simple;
    ASSERT_TRUE((*bp)
                    ->backProject(data->sinograms, data->geometry, data->grid, weights, simple,
                                  ExecContext{})
                    .isOk());
    Volume fbp;
    ASSERT_TRUE(reconstructFbp(data->sinograms, data->geometry, data->grid, **bp, FbpOptions{}, fbp,
                               ExecContext{})
                    .isOk());
    // Sums of 12 partial back-projections against one: float rounding only.
    float simpleScale = 0, fbpScale = 0;
    for (float v : r->unfiltered.back().values)
        simpleScale = std::max(simpleScale, std::fabs(v));
    for (float v : r->fbp.values)
        fbpScale = std::max(fbpScale, std::fabs(v));
    EXPECT_LT(maxAbsDiff(r->unfiltered.back().view(), simple.plane(0)), 1e-5f * simpleScale);
    EXPECT_LT(maxAbsDiff(r->fbp.view(), fbp.plane(0)), 1e-5f * fbpScale);
    // Back-projecting fewer angles gives less: the first frame is far from the full one.
    EXPECT_GT(maxAbsDiff(r->unfiltered.front().view(), simple.plane(0)), 0.5f * simpleScale);
    EXPECT_GT(r->fbpRmse, 0.0);
    EXPECT_TRUE(r->sirt.empty());
}

TEST(TeachingPanel, SlidersRecomputeAndTheCurrentAngleIsMarked) {
    const app::Engine engine;
    TeachingPanel panel(engine);
    panel.resize(900, 600);
    panel.show();
    QSignalSpy computed(&panel, &TeachingPanel::computed);
    panel.setAngles(24);
    ASSERT_TRUE(waitFor(computed, 1, 30000)) << "the debounced recompute did not happen";
    const app::TeachingResult* r = panel.result();
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->sinogram.rows, 24u);
    EXPECT_EQ(r->frameEndAngle.back(), 24);
    ASSERT_FALSE(r->sirt.empty());
    ASSERT_FALSE(r->cgls.empty());
    // On the noiseless phantom every method gets close; RMSE is against the phantom (0..1).
    EXPECT_LT(r->fbpRmse, 0.2);
    EXPECT_LT(r->sirtRmse, 0.2);
    EXPECT_LT(r->cglsRmse, 0.2);
    panel.showFrame(5);
    EXPECT_EQ(panel.sinogramView()->marker(), r->frameEndAngle[5]);
    EXPECT_EQ(panel.frame(), 5);
    panel.setPlaying(true);
    EXPECT_TRUE(panel.isPlaying());
    // Until the first step (a frame every 80 ms; the limit is a hang guard, not a speed).
    for (int ms = 0; ms < 10000 && panel.frame() == 5; ms += 10)
        QTest::qWait(10);
    EXPECT_NE(panel.frame(), 5) << "the animation advances";
    panel.setPlaying(false);

    const double noiselessFbp = r->fbpRmse;  // r is replaced by the next result
    panel.setNoiseLevel(4);
    ASSERT_TRUE(waitFor(computed, 2, 30000));
    std::printf("teaching RMSE noiseless FBP %.4f, noisy FBP %.4f\n", noiselessFbp,
                panel.result()->fbpRmse);
    EXPECT_GT(panel.result()->fbpRmse, noiselessFbp) << "noise must raise the FBP error";
}

TEST(TeachingPanel, ReadoutPlotsAndIterationCountsFollowTheControls) {
    const app::Engine engine;
    TeachingPanel panel(engine);
    panel.resize(900, 700);
    panel.show();
    QSignalSpy computed(&panel, &TeachingPanel::computed);
    panel.setAngles(30);
    ASSERT_TRUE(waitFor(computed, 1, 30000));
    const app::TeachingResult* r = panel.result();
    ASSERT_NE(r, nullptr);
    // The readout names the angles back-projected so far (6 degrees apart).
    panel.showFrame(4);
    const int done = r->frameEndAngle[4];
    EXPECT_EQ(panel.angleReadout(),
              QStringLiteral("Angles 0-%1\u00b0 back-projected: %2 of 30 projections")
                  .arg((done - 1) * 6.0, 0, 'f', 1)
                  .arg(done));
    // The projection plot is that sinogram row.
    QLineSeries* projection = panel.plots()->projectionSeries();
    ASSERT_EQ(projection->count(), static_cast<int>(r->sinogram.cols));
    for (int d = 0; d < projection->count(); d += 7)
        EXPECT_FLOAT_EQ(static_cast<float>(projection->at(d).y()),
                        r->sinogram.values[static_cast<std::size_t>(done - 1) * r->sinogram.cols +
                                           static_cast<std::size_t>(d)]);
    // The response plot is |f| times the window: the ramp filter has gain 0.5 at Nyquist.
    QLineSeries* response = panel.plots()->responseSeries();
    ASSERT_EQ(response->count(), TeachingPlots::kResponseSamples);
    EXPECT_DOUBLE_EQ(response->at(100).y(), 0.5);  // ramp at Nyquist, window 1
    // The iteration counts go into the job: one SIRT iteration is far from the phantom.
    const double sirt30 = r->sirtRmse;
    panel.setIterations(1, 12);
    ASSERT_TRUE(waitFor(computed, 2, 30000));
    EXPECT_EQ(panel.spec().sirtIterations, 1);
    EXPECT_GT(panel.result()->sirtRmse, sirt30);
}

TEST(TeachingJob, OnStrongNoiseStoppedIterationsBeatFbpAndTheTvPriorBeatsAll) {
    // The guide's lesson, on the strongest noise with the Hann filter: SIRT and CGLS stopped
    // at the noise level (discrepancy principle) beat FBP; TV beats them all; CGLS run on to
    // its maximum fits the noise and loses to FBP.
    const app::Engine engine;
    app::TeachingSpec spec;
    spec.incidentCount = 3e3;  // the panel's strongest level
    spec.filter = "hann";
    auto stopped = app::runTeachingJob(engine, spec, ExecContext{2, {}, nullptr});
    ASSERT_TRUE(stopped.isOk()) << stopped.status().toString();
    std::printf("noise %.4f: FBP %.4f, SIRT %.4f (%d it), CGLS %.4f (%d it), TV %.4f\n",
                stopped->noiseLevel, stopped->fbpRmse, stopped->sirtRmse, stopped->sirtIterations,
                stopped->cglsRmse, stopped->cglsIterations, stopped->tvRmse);
    EXPECT_GT(stopped->noiseLevel, 0.01);
    EXPECT_LT(stopped->sirtIterations, spec.sirtIterations);  // stopped by the rule
    EXPECT_LT(stopped->cglsIterations, spec.cglsIterations);
    EXPECT_LT(stopped->sirtRmse, stopped->fbpRmse);
    EXPECT_LT(stopped->cglsRmse, stopped->fbpRmse);
    EXPECT_LT(stopped->tvRmse, std::min(stopped->sirtRmse, stopped->cglsRmse));
    spec.stopAtNoise = false;
    auto fitted = app::runTeachingJob(engine, spec, ExecContext{2, {}, nullptr});
    ASSERT_TRUE(fitted.isOk());
    EXPECT_EQ(fitted->cglsIterations, spec.cglsIterations);
    EXPECT_GT(fitted->cglsRmse, stopped->fbpRmse);
}

TEST(TeachingJob, SingleStepArtGrowsTheImageOneProjectionAtATime) {
    const app::Engine engine;
    app::TeachingSpec spec;
    spec.angles = 30;
    spec.maxFrames = 10;
    auto r = app::runTeachingJob(engine, spec, ExecContext{2, {}, nullptr});
    ASSERT_TRUE(r.isOk()) << r.status().toString();
    ASSERT_EQ(r->art.size(), r->frameEndAngle.size());
    // Each frame is SART's iterate after that many single-projection updates: the error against
    // the phantom falls as projections are added, and after one projection the image is a
    // smear along that one direction (every row equal for the first angle, 0 degrees).
    auto error = [&](std::size_t k) {
        Result<double> e = rmse(r->art[k].view(), r->truth.view());
        return e ? *e : 1e9;
    };
    EXPECT_LT(error(r->art.size() - 1), 0.7 * error(0));  // measured 0.10 vs 0.18
    EXPECT_LT(error(r->art.size() - 1), error(r->art.size() / 2));
    app::TeachingSpec one = spec;
    one.maxFrames = spec.angles;  // a frame per projection
    auto single = app::runTeachingJob(engine, one, ExecContext{2, {}, nullptr});
    ASSERT_TRUE(single.isOk());
    const app::SliceImage& first = single->art.front();
    double spread = 0;
    for (std::size_t y = 1; y < first.rows; ++y)
        for (std::size_t x = 0; x < first.cols; ++x)
            spread = std::max(
                spread,
                static_cast<double>(std::fabs(first.values[y * first.cols + x] - first.values[x])));
    double peak = 0;
    for (float v : first.values)
        peak = std::max(peak, static_cast<double>(std::fabs(v)));
    EXPECT_GT(peak, 0.0);
    EXPECT_LT(spread, 1e-3 * peak) << "one projection at 0 degrees is constant along y";
}

TEST(TeachingPanel, SpacePlaysAndPauses) {
    const app::Engine engine;
    TeachingPanel panel(engine);
    panel.resize(900, 600);
    panel.show();
    QSignalSpy computed(&panel, &TeachingPanel::computed);
    panel.setAngles(20);
    ASSERT_TRUE(waitFor(computed, 1, 30000));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    panel.activateWindow();
    panel.setFocus();
    QTest::keyClick(&panel, Qt::Key_Space);
    EXPECT_TRUE(panel.isPlaying());
    QTest::keyClick(&panel, Qt::Key_Space);
    EXPECT_FALSE(panel.isPlaying());
    EXPECT_TRUE(panel.resultCaptions()[3].startsWith(QStringLiteral("TV (lambda 5)")))
        << panel.resultCaptions()[3].toStdString();
}

/// The magnitudes a series plots (y of each point).
std::vector<double> plotted(const QLineSeries* series) {
    std::vector<double> y;
    for (const QPointF& p : series->points())
        y.push_back(p.y());
    return y;
}

/// @p chart's axes are titled and numbered and nothing is elided, laid out at @p size.
void expectFourierPlotReadable(QChartView* chart, QSize size) {
    const QStringList texts = chartTexts(chart, size);
    const std::string all = texts.join('|').toStdString();
    for (const QString& title :
         {QStringLiteral("frequency (cycles/px)"), QStringLiteral("|FT| (log)")})
        EXPECT_TRUE(texts.contains(title)) << size.width() << "x" << size.height() << ": " << all;
    int numbers = 0;
    for (const QString& t : texts) {
        EXPECT_FALSE(t.contains(QStringLiteral("...")) || t.contains(QChar(0x2026)))
            << "elided '" << t.toStdString() << "' at " << size.width() << "x" << size.height();
        bool ok = false;
        t.toDouble(&ok);
        numbers += ok ? 1 : 0;
    }
    EXPECT_GE(numbers, 6) << all;
}

TEST(TeachingPanel, FourierSliceViewFollowsTheFrameSlider) {
    const app::Engine engine;
    TeachingPanel panel(engine);
    panel.resize(1000, 860);  // the user guide's screenshot
    panel.show();
    QSignalSpy computed(&panel, &TeachingPanel::computed);
    panel.setAngles(30);  // 6 degrees apart, a frame per angle
    ASSERT_TRUE(waitFor(computed, 1, 30000));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    const app::TeachingResult* r = panel.result();
    ASSERT_NE(r, nullptr);
    FourierSliceView* fourier = panel.fourierView();
    ASSERT_NE(fourier, nullptr);
    EXPECT_TRUE(fourier->isVisible());
    EXPECT_TRUE(fourier->spectrumView()->isVisible());
    EXPECT_GE(fourier->spectrumView()->width(), 140);
    const QLabel* caption = fourier->caption();
    EXPECT_TRUE(caption->isVisible());
    EXPECT_TRUE(caption->text().startsWith(QStringLiteral("Fourier slice theorem:")));
    EXPECT_GE(caption->height(), caption->heightForWidth(caption->width())) << "caption cut off";
    // As laid out in the panel and at the chart's minimum size.
    QChartView* chart = fourier->chartView();
    expectFourierPlotReadable(chart, chart->size());
    expectFourierPlotReadable(chart, chart->minimumSize());

    // The user takes the frame slider to the start (0 degrees) and pages on (10 frames: 60).
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("teachingFrame"));
    ASSERT_NE(slider, nullptr);
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_Home);
    ASSERT_EQ(panel.frame(), 0);
    const int first = r->frameEndAngle[0] - 1;
    EXPECT_DOUBLE_EQ(fourier->spectrumView()->markedAngle(),
                     r->angles[static_cast<std::size_t>(first)]);
    const QLineF atZero = fourier->spectrumView()->markedLine();
    EXPECT_GT(atZero.dx(), 10.0) << "0 degrees: along +u, to the right";
    EXPECT_NEAR(atZero.dy(), 0.0, 1e-9);
    const std::vector<double> projectionAtZero = plotted(fourier->projectionSeries());
    const std::vector<double> imageAtZero = plotted(fourier->imageSeries());

    QTest::keyClick(slider, Qt::Key_PageUp);
    ASSERT_EQ(panel.frame(), slider->pageStep());
    const auto angle =
        static_cast<std::size_t>(r->frameEndAngle[static_cast<std::size_t>(panel.frame())] - 1);
    EXPECT_NEAR(r->angles[angle] * 180.0 / kPi, 60.0, 1e-9);
    EXPECT_DOUBLE_EQ(fourier->spectrumView()->markedAngle(), r->angles[angle]);
    const QLineF at60 = fourier->spectrumView()->markedLine();
    EXPECT_NEAR(at60.dx(), 0.5 * at60.length(), 1e-6);               // cos 60
    EXPECT_NEAR(-at60.dy(), std::sqrt(0.75) * at60.length(), 1e-6);  // up: v > 0
    EXPECT_EQ(chart->chart()->title(), QStringLiteral("Fourier slice at 60.0\u00b0"));
    // The curves are those of the projection at 60 degrees and of the image along that line.
    const std::vector<double> projection = plotted(fourier->projectionSeries());
    const std::vector<double> image = plotted(fourier->imageSeries());
    ASSERT_EQ(projection.size(), projectionAtZero.size());
    EXPECT_NE(projection, projectionAtZero);
    EXPECT_NE(image, imageAtZero);
    const std::span<const float> row(r->sinogram.values.data() + angle * r->sinogram.cols,
                                     r->sinogram.cols);
    Result<app::FourierSlice> expected =
        app::fourierSlice(r->truth.view(), row, r->center, r->angles[angle]);
    ASSERT_TRUE(expected.isOk());
    for (std::size_t k = 0; k < 40; k += 3) {  // above the plot's floor (4 decades down)
        EXPECT_NEAR(projection[k], std::abs(expected->projection[k]), 1e-9 * projection[0]);
        EXPECT_NEAR(image[k], std::abs(expected->image[k]), 1e-9 * image[0]);
    }
}

}  // namespace
}  // namespace tomo::ui
