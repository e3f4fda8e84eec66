// The one debounced preview runner and the one frame player (issue 28, point 15): superseded
// previews are never shown, a job the user asked for runs to its end, and both lessons of
// Teaching play with the same player (Play clicked, Space pressed, the slider dragged).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>

#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/PreviewRunner.h"
#include "ui/teaching/ConeTeachingPanel.h"
#include "ui/teaching/TeachingPanel.h"
#include "ui/widgets/FramePlayer.h"

namespace tomo::ui {
namespace {

/// A job that takes @p ms milliseconds (stopping early when asked) and records @p value.
PreviewRunner::Job sleeper(int ms, int value, std::shared_ptr<std::atomic<int>> last) {
    return [ms, value, last](const ExecContext& ctx) -> Status {
        for (int t = 0; t < ms; t += 5) {
            if (ctx.stop.stop_requested()) return cancelled("stopped");
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        last->store(value);
        return Status::ok();
    };
}

bool waitUntil(const std::function<bool()>& done, int ms) {
    for (int t = 0; t < ms && !done(); t += 10)
        QTest::qWait(10);
    return done();
}

TEST(PreviewRunner, OnlyTheNewestRequestIsShown) {
    PreviewRunner runner(20);
    auto last = std::make_shared<std::atomic<int>>(0);
    std::vector<int> shown;
    for (int i = 1; i <= 5; ++i) {
        runner.request(sleeper(80, i, last), [&shown, i](bool ok, const QString&, double) {
            if (ok) shown.push_back(i);
        });
        QTest::qWait(i == 2 ? 60 : 5);  // the second one starts and is then superseded
    }
    ASSERT_TRUE(waitUntil([&] { return !runner.isBusy(); }, 5000));
    EXPECT_EQ(shown, std::vector<int>{5});
    EXPECT_EQ(last->load(), 5);
}

TEST(PreviewRunner, AnEstimateRunsToItsEndAndThePreviewFollows) {
    PreviewRunner runner(10);
    auto last = std::make_shared<std::atomic<int>>(0);
    std::vector<int> shown;
    runner.runNow(sleeper(100, 1, last), [&](bool ok, const QString&, double seconds) {
        EXPECT_TRUE(ok);
        EXPECT_GE(seconds, 0.09);
        shown.push_back(1);
    });
    QTest::qWait(20);
    runner.request(sleeper(10, 2, last), [&](bool ok, const QString&, double) {
        if (ok) shown.push_back(2);
    });
    ASSERT_TRUE(waitUntil([&] { return !runner.isBusy(); }, 5000));
    EXPECT_EQ(shown, (std::vector<int>{1, 2}));
}

TEST(PreviewRunner, CancelShowsNothing) {
    PreviewRunner runner(10);
    auto last = std::make_shared<std::atomic<int>>(0);
    bool called = false;
    runner.runNow(sleeper(200, 1, last), [&](bool, const QString&, double) { called = true; });
    QTest::qWait(20);
    runner.cancel();
    ASSERT_TRUE(waitUntil([&] { return !runner.isBusy(); }, 5000));
    QTest::qWait(50);
    EXPECT_FALSE(called);
}

/// Play by a click, pause by Space, a frame by the slider's keys: the lesson follows.
template <class Panel>
void playsWithTheOnePlayer(Panel& panel) {
    const QList<FramePlayer*> players = panel.template findChildren<FramePlayer*>();
    ASSERT_EQ(players.size(), 1);
    FramePlayer* player = players.front();
    QPushButton* play = player->playButton();
    EXPECT_EQ(play->text(), QStringLiteral("Play"));
    QTest::mouseClick(play, Qt::LeftButton);
    EXPECT_TRUE(panel.isPlaying());
    EXPECT_EQ(play->text(), QStringLiteral("Pause"));
    const int before = panel.frame();
    ASSERT_TRUE(waitUntil([&] { return panel.frame() != before; }, 3000));
    panel.activateWindow();
    panel.setFocus();
    QTest::keyClick(&panel, Qt::Key_Space);
    EXPECT_FALSE(panel.isPlaying());
    EXPECT_EQ(play->text(), QStringLiteral("Play"));
    QTest::keyClick(player->slider(), Qt::Key_Home);
    EXPECT_EQ(panel.frame(), 0);
    QTest::keyClick(player->slider(), Qt::Key_Right);
    EXPECT_EQ(panel.frame(), 1);
    EXPECT_EQ(player->slider()->value(), 1);
}

TEST(FramePlayer, BothLessonsPlayWithTheSamePlayer) {
    const app::Engine engine;
    TeachingPanel parallel(engine);
    parallel.resize(1200, 800);
    parallel.show();
    parallel.setAngles(24);
    QSignalSpy computed(&parallel, &TeachingPanel::computed);
    parallel.recompute();
    ASSERT_TRUE(test::waitFor(computed, 1, 60000));
    playsWithTheOnePlayer(parallel);

    ConeTeachingPanel cone(engine);
    cone.resize(1200, 800);
    cone.show();
    QSignalSpy coneComputed(&cone, &ConeTeachingPanel::computed);
    cone.recompute();
    ASSERT_TRUE(test::waitFor(coneComputed, 1, 60000));
    playsWithTheOnePlayer(cone);
}

}  // namespace
}  // namespace tomo::ui
