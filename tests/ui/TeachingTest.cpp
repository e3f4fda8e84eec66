// Teaching mode: the angle-by-angle frames add up to the full back-projections (the unfiltered
// one equals one back-projection of all angles with FBP's weights; the filtered one equals
// core's FBP), FBP/SIRT/CGLS come with their RMSE, and the panel's sliders recompute at once
// with the current angle marked on the sinogram.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <QLineSeries>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

#include "app/Backends.h"
#include "app/jobs/TeachingJob.h"
#include "core/metrics/Metrics.h"
#include "core/recon/Fbp.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/teaching/MarkedSinogramView.h"
#include "ui/teaching/TeachingPanel.h"
#include "ui/teaching/TeachingPlots.h"

namespace tomo::ui {
namespace {

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
    QTest::qWait(250);
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
                stopped->noiseLevel, stopped->fbpRmse, stopped->sirtRmse,
                stopped->sirtIterations, stopped->cglsRmse, stopped->cglsIterations,
                stopped->tvRmse);
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
            spread = std::max(spread, static_cast<double>(std::fabs(
                                          first.values[y * first.cols + x] - first.values[x])));
    double peak = 0;
    for (float v : first.values) peak = std::max(peak, static_cast<double>(std::fabs(v)));
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

}  // namespace
}  // namespace tomo::ui
