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

    panel.setNoiseLevel(4);
    ASSERT_TRUE(waitFor(computed, 2, 30000));
    std::printf("teaching RMSE noiseless FBP %.4f, noisy FBP %.4f\n", r->fbpRmse,
                panel.result()->fbpRmse);
    EXPECT_GT(panel.result()->fbpRmse, r->fbpRmse) << "noise must raise the FBP error";
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

}  // namespace
}  // namespace tomo::ui
