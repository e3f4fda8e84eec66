// The one debounced preview runner and the one frame player (issue 28, point 15): superseded
// previews are never shown, a job the user asked for runs to its end, and both lessons of
// Teaching play with the same player (Play clicked, Space pressed, the slider dragged).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

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

/// A job that records @p value and returns at once (stopping first when asked).
PreviewRunner::Job quick(int value, std::shared_ptr<std::atomic<int>> last) {
    return [value, last](const ExecContext& ctx) -> Status {
        if (ctx.stop.stop_requested()) return cancelled("stopped");
        last->store(value);
        return Status::ok();
    };
}

/// The test's hold on a gated job: the job says when it has started and runs until the test
/// releases it (then records its value) or it is stopped. No order here depends on timing.
struct Gate {
    std::atomic<bool> started{false}, released{false}, stopped{false};
};

PreviewRunner::Job gated(int value, std::shared_ptr<Gate> gate,
                         std::shared_ptr<std::atomic<int>> last) {
    return [value, gate, last](const ExecContext& ctx) -> Status {
        gate->started = true;
        while (!gate->released.load()) {
            if (ctx.stop.stop_requested()) {
                gate->stopped = true;
                return cancelled("stopped");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        last->store(value);
        return Status::ok();
    };
}

/// Spins the event loop until @p done (the limit is a hang guard, not a speed).
bool waitUntil(const std::function<bool()>& done, int ms = 10000) {
    for (int t = 0; t < ms && !done(); t += 5)
        QTest::qWait(5);
    return done();
}

TEST(PreviewRunner, OnlyTheNewestRequestIsShown) {
    PreviewRunner runner(20);
    auto last = std::make_shared<std::atomic<int>>(0);
    std::vector<int> shown;
    auto show = [&shown](int i) {
        return [&shown, i](bool ok, const QString&, double) {
            if (ok) shown.push_back(i);
        };
    };
    auto one = std::make_shared<Gate>(), two = std::make_shared<Gate>();
    runner.request(gated(1, one, last), show(1));
    runner.request(gated(2, two, last), show(2));  // before the debounce: 1 never starts
    ASSERT_TRUE(waitUntil([&] { return two->started.load(); }));
    EXPECT_FALSE(one->started.load());
    // 2 runs; three newer requests come in at once: the newest supersedes 2, which is stopped
    // (a preview), and 3 and 4, which never start.
    for (int i = 3; i <= 5; ++i)
        runner.request(quick(i, last), show(i));
    ASSERT_TRUE(waitUntil([&] { return !runner.isBusy(); }));
    EXPECT_TRUE(two->stopped.load()) << "a superseded preview is cancelled";
    EXPECT_EQ(shown, std::vector<int>{5});
    EXPECT_EQ(last->load(), 5);
}

TEST(PreviewRunner, AnEstimateRunsToItsEndAndThePreviewFollows) {
    PreviewRunner runner(10);
    auto last = std::make_shared<std::atomic<int>>(0);
    auto estimate = std::make_shared<Gate>();
    std::vector<int> shown;
    runner.runNow(gated(1, estimate, last), [&](bool ok, const QString&, double seconds) {
        EXPECT_TRUE(ok);
        EXPECT_GE(seconds, 0.09);  // it ran at least the 100 ms it was held below
        shown.push_back(1);
    });
    ASSERT_TRUE(waitUntil([&] { return estimate->started.load(); }));
    runner.request(quick(2, last), [&](bool ok, const QString&, double) {
        if (ok) shown.push_back(2);
    });
    QTest::qWait(100);  // past the debounce: the request waits for the estimate, not stopping it
    EXPECT_TRUE(runner.isRunning());
    estimate->released = true;
    ASSERT_TRUE(waitUntil([&] { return !runner.isBusy(); }));
    EXPECT_FALSE(estimate->stopped.load());
    EXPECT_EQ(shown, (std::vector<int>{1, 2}));
}

TEST(PreviewRunner, CancelShowsNothing) {
    PreviewRunner runner(10);
    auto last = std::make_shared<std::atomic<int>>(0);
    auto gate = std::make_shared<Gate>();
    bool called = false;
    runner.runNow(gated(1, gate, last), [&](bool, const QString&, double) { called = true; });
    ASSERT_TRUE(waitUntil([&] { return gate->started.load(); }));
    runner.cancel();
    ASSERT_TRUE(waitUntil([&] { return !runner.isBusy(); }));
    QTest::qWait(50);
    EXPECT_TRUE(gate->stopped.load());
    EXPECT_FALSE(called);
    EXPECT_EQ(last->load(), 0);
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
