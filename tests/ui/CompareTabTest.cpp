// The Compare tab as a user meets it: after FBP with ramp and with Hann the panes show the
// newest, the one before and the ground truth, named by algorithm and parameters (not only the
// variant id, which both share); each pane's metrics equal core's against the truth (and an
// independent double-precision RMSE); result panes share one window; a difference pane holds
// pane 1 - pane 2 with a symmetric window; a new dataset empties the history.
#include <gtest/gtest.h>

#include <cmath>

#include <QSignalSpy>

#include "tests/ui/UiTestSupport.h"
#include "ui/main/CompareTab.h"
#include "ui/main/ResultViews.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {
namespace {

using test::waitFor;

TEST(CompareTab, ThreeNamedPanesWithMetricsAgainstTheTruth) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(48));  // ramp
    auto ramp = f.session.reconstruction();
    ASSERT_TRUE(f.window->paramsPanel()->setFilter(QStringLiteral("hann")));
    QSignalSpy finished(&f.session, &Session::jobFinished);
    f.window->reconstruct();
    ASSERT_TRUE(waitFor(finished, 1, 20000));
    auto hann = f.session.reconstruction();
    CompareTab& tab = *f.window->resultViews()->compare();
    ASSERT_EQ(tab.historySize(), 2u);

    const QStringList names = tab.choices();
    ASSERT_EQ(names.size(), 5);  // none, hann, ramp, truth, difference
    // Each named by what differs from the one before it (ResultNames.h).
    EXPECT_EQ(names[1], QStringLiteral("Latest: #2 FBP: filter hann")) << names[1].toStdString();
    EXPECT_EQ(names[2], QStringLiteral("#1 FBP: defaults")) << names[2].toStdString();
    EXPECT_NE(names[1], names[2]);
    EXPECT_EQ(names[3], QStringLiteral("Ground truth"));

    // Defaults: newest, previous, truth.
    const Volume& truth = f.session.dataset()->truth;
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(tab.pane(i)->hasImage()) << i;
    EXPECT_EQ(tab.pane(0)->valueAt(20, 20), hann->image(0, 20, 20));
    EXPECT_EQ(tab.pane(1)->valueAt(20, 20), ramp->image(0, 20, 20));
    EXPECT_EQ(tab.pane(2)->valueAt(20, 20), truth(0, 20, 20));
    for (int i = 0; i < 2; ++i) {
        const Volume& image = i == 0 ? hann->image : ramp->image;
        auto want = compareImages(image.plane(0), truth.plane(0));
        ASSERT_TRUE(want.isOk() && tab.metrics(i).has_value());
        EXPECT_DOUBLE_EQ(tab.metrics(i)->rmse, want->rmse);
        EXPECT_DOUBLE_EQ(tab.metrics(i)->ssim, want->ssim);
        double sum = 0;
        for (std::size_t r = 0; r < 48; ++r)
            for (std::size_t c = 0; c < 48; ++c) {
                const double d = double(image(0, r, c)) - truth(0, r, c);
                sum += d * d;
            }
        EXPECT_NEAR(tab.metrics(i)->rmse, std::sqrt(sum / (48.0 * 48.0)), 1e-9);
    }
    EXPECT_FALSE(tab.metrics(2).has_value());  // the truth is the reference

    // One window for the result panes.
    tab.pane(0)->setWindowLevel({0.5, 0.25});
    EXPECT_DOUBLE_EQ(tab.pane(1)->windowLevel().width, 0.5);
    EXPECT_DOUBLE_EQ(tab.pane(2)->windowLevel().level, 0.25);

    // Pane 3 as the difference of panes 1 and 2.
    tab.choose(2, 4);
    for (int r = 0; r < 48; r += 7)
        for (int c = 0; c < 48; c += 5)
            EXPECT_FLOAT_EQ(tab.pane(2)->valueAt(c, r),
                            hann->image(0, r, c) - ramp->image(0, r, c));
    EXPECT_DOUBLE_EQ(tab.pane(2)->windowLevel().level, 0.0);

    f.session.setDataset(test::demoStack(32, 1), QStringLiteral("other"));
    EXPECT_EQ(tab.historySize(), 0u);
    EXPECT_FALSE(tab.pane(0)->hasImage());
}

TEST(CompareTab, LargeResultsAreKeptWithinTheHistorysMemory) {
    // Results of 64 x 64 floats (16 KiB); the older ones may take 40 KiB together: the two
    // newest older ones stay, the newest always, the oldest goes first (issue 28, point 14).
    CompareTab tab;
    tab.setHistoryBytes(40 << 10);
    std::vector<std::shared_ptr<const app::ReconOutcome>> made;
    for (int i = 0; i < 5; ++i) {
        app::ReconOutcome r;
        r.image = Array3<float>::create(1, 64, 64).value();
        r.image.fill(static_cast<float>(i));
        r.variant = "result " + std::to_string(i);
        made.push_back(std::make_shared<const app::ReconOutcome>(std::move(r)));
        tab.addResult(made.back());
    }
    ASSERT_EQ(tab.historySize(), 3u);
    const QStringList names = tab.choices();
    EXPECT_TRUE(names[1].contains(QStringLiteral("result 4"))) << names[1].toStdString();
    EXPECT_TRUE(names[3].contains(QStringLiteral("result 2"))) << names[3].toStdString();
    // A result larger than the bound alone is still kept while it is the newest.
    tab.setHistoryBytes(1);
    EXPECT_EQ(tab.historySize(), 1u);
    tab.setHistoryBytes(0);  // no bound but the count
    for (int i = 0; i < 10; ++i)
        tab.addResult(made[static_cast<std::size_t>(i % 2)]);
    EXPECT_EQ(tab.historySize(), CompareTab::kHistory);
}

}  // namespace
}  // namespace tomo::ui
