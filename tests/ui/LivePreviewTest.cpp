// The live preview as a user meets it: after a filter change (no Reconstruct pressed) the
// reconstruction view shows the slice with the new filter, captioned as a preview, and the
// result is marked out of date; the preview is bit-identical to slice 1 of the full run with
// the same settings (one path); and a superseded request is never shown.
#include <gtest/gtest.h>

#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include "tests/ui/UiTestSupport.h"
#include "ui/main/LivePreview.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/MetricsPanel.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {
namespace {

using test::waitFor;

TEST(LivePreview, AFilterChangeUpdatesThePreviewWithoutReconstruct) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    MainWindow& window = *f.window;
    SliceView* view = window.reconstructionView();
    auto ramp = f.session.reconstruction();
    const float before = view->valueAt(32, 20);
    ASSERT_EQ(before, ramp->image(0, 20, 32));

    QSignalSpy ready(window.livePreview(), &LivePreview::ready);
    ASSERT_TRUE(window.paramsPanel()->setFilter(QStringLiteral("hann")));
    ASSERT_TRUE(waitFor(ready, 1, 20000)) << "no preview after the filter change";
    EXPECT_FALSE(f.session.isBusy());
    EXPECT_EQ(f.session.reconstruction(), ramp);  // the result is unchanged...
    auto* shown = window.metricsPanel()->findChild<QLabel*>(QStringLiteral("shownValue"));
    ASSERT_NE(shown, nullptr);
    EXPECT_TRUE(shown->text().startsWith(QStringLiteral("preview of slice 1")))
        << shown->text().toStdString();
    // ...and the view shows the Hann slice: smoother than the ramp one.
    EXPECT_NE(view->valueAt(32, 20), before);
    std::vector<float> preview(view->image().rows() * view->image().cols());
    copyDense(view->image(), preview.data());

    // Reconstruct with the same settings: slice 1 equals the preview bit for bit.
    QSignalSpy finished(&f.session, &Session::jobFinished);
    window.reconstruct();
    ASSERT_TRUE(waitFor(finished, 1, 20000));
    auto hann = f.session.reconstruction();
    ASSERT_NE(hann, ramp);
    View2<const float> full = hann->image.plane(0);
    for (std::size_t r = 0; r < full.rows(); ++r)
        for (std::size_t c = 0; c < full.cols(); ++c)
            ASSERT_EQ(full(r, c), preview[r * full.cols() + c]) << r << "," << c;
    EXPECT_TRUE(shown->text().startsWith(QStringLiteral("the result")));

    // A later change marks that result out of date at once.
    window.paramsPanel()->setCutoff(0.5);
    EXPECT_TRUE(shown->text().contains(QStringLiteral("out of date")));
}

TEST(LivePreview, ASupersededRequestIsNeverShown) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    LivePreview& live = *f.window->livePreview();
    live.setDebounceMs(0);
    QSignalSpy ready(&live, &LivePreview::ready);
    FbpOptions options;
    const std::string variant = f.window->paramsPanel()->variantId();
    for (double cutoff : {0.3, 0.5, 0.7, 0.9}) {
        options.filter.cutoff = cutoff;
        live.request(options, variant, 0);
    }
    ASSERT_TRUE(waitFor(ready, 1, 20000));
    QTest::qWait(300);  // nothing else arrives
    ASSERT_EQ(ready.count(), 1);
    EXPECT_TRUE(ready.at(0).at(3).toString().contains(QStringLiteral("cutoff 0.9")))
        << ready.at(0).at(3).toString().toStdString();
}

}  // namespace
}  // namespace tomo::ui
