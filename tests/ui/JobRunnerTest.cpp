// JobRunner: progress and completion reach the GUI thread as queued signals, throttled; cancel()
// stops a long job within 100 ms; results are handed over through JobOutput.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>

#include "app/qt/JobRunner.h"

namespace tomo::app {
namespace {

using namespace std::chrono_literals;

/// Runs the event loop until @p spy has @p count signals or @p timeoutMs passes.
bool waitFor(QSignalSpy& spy, int count, int timeoutMs) {
    QElapsedTimer timer;
    timer.start();
    while (spy.count() < count && timer.elapsed() < timeoutMs)
        if (!spy.wait(static_cast<int>(timeoutMs - timer.elapsed()))) break;
    return spy.count() >= count;
}

TEST(JobRunner, DeliversThrottledProgressAndFinishedOnTheGuiThread) {
    JobRunner runner;
    std::atomic<std::thread::id> jobThread{};
    std::vector<double> fractions;
    std::vector<bool> onGuiThread;
    QObject::connect(&runner, &JobRunner::progress, [&](double f, const QString& stage) {
        fractions.push_back(f);
        onGuiThread.push_back(QThread::currentThread() == QCoreApplication::instance()->thread());
        EXPECT_EQ(stage, QStringLiteral("steps"));
    });
    QSignalSpy finished(&runner, &JobRunner::finished);
    QSignalSpy started(&runner, &JobRunner::started);

    // 20 steps of 15 ms = 300 ms of work, reported in a child scope covering the whole job.
    ASSERT_TRUE(runner.start([&](const ExecContext& ctx) -> Status {
        jobThread = std::this_thread::get_id();
        Progress steps = ctx.progress->child(0.0, 1.0, "steps");
        steps.setTotal(20);
        for (int i = 0; i < 20; ++i) {
            std::this_thread::sleep_for(15ms);
            steps.advance();
        }
        return Status::ok();
    }));
    EXPECT_TRUE(runner.isRunning());
    EXPECT_FALSE(runner.start([](const ExecContext&) { return Status::ok(); }))
        << "a second job must be refused while one runs";
    ASSERT_TRUE(waitFor(finished, 1, 5000));
    EXPECT_FALSE(runner.isRunning());
    EXPECT_EQ(started.count(), 1);
    EXPECT_TRUE(finished.at(0).at(0).toBool());
    EXPECT_TRUE(finished.at(0).at(1).toString().isEmpty());
    EXPECT_NE(jobThread.load(), std::this_thread::get_id());

    // 100 ms throttle over ~300 ms: the first update, 2-3 more, and the final 1.0 (20 without it).
    ASSERT_GE(fractions.size(), 2u);
    EXPECT_LE(fractions.size(), 6u);
    EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
    for (std::size_t i = 1; i < fractions.size(); ++i)
        EXPECT_GE(fractions[i], fractions[i - 1]);
    for (bool gui : onGuiThread)
        EXPECT_TRUE(gui);
}

TEST(JobRunner, CancelStopsALongJobWithin100Milliseconds) {
    JobRunner runner;
    QSignalSpy started(&runner, &JobRunner::started);
    QSignalSpy finished(&runner, &JobRunner::finished);
    std::atomic<bool> sawStop{false};
    ASSERT_TRUE(runner.start(
        [&](const ExecContext& ctx) -> Status {
            // Would run for 20 s; checks its token every millisecond as jobs must.
            for (int i = 0; i < 20000; ++i) {
                if (ctx.stop.stop_requested()) {
                    sawStop = true;
                    return cancelled();
                }
                std::this_thread::sleep_for(1ms);
            }
            return Status::ok();
        },
        QStringLiteral("long job")));
    ASSERT_TRUE(waitFor(started, 1, 2000));
    QElapsedTimer timer;
    timer.start();
    runner.cancel();
    ASSERT_TRUE(waitFor(finished, 1, 2000));
    qint64 elapsed = timer.elapsed();
    // The requirement is 100 ms (measured 1-5 ms); the bound allows for a loaded 2-core CI
    // machine running other test processes at the same time.
    EXPECT_LT(elapsed, 250) << "finished arrived " << elapsed << " ms after cancel()";
    EXPECT_TRUE(sawStop.load());
    EXPECT_FALSE(finished.at(0).at(0).toBool());
    EXPECT_EQ(finished.at(0).at(1).toString(), QStringLiteral("long job cancelled"));

    // The runner is reusable after a cancellation.
    ASSERT_TRUE(runner.start([](const ExecContext&) { return Status::ok(); }));
    ASSERT_TRUE(waitFor(finished, 2, 2000));
    EXPECT_TRUE(finished.at(1).at(0).toBool());
}

TEST(JobRunner, ErrorsAndExceptionsBecomeFailedFinishedWithTheCause) {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    ASSERT_TRUE(
        runner.start([](const ExecContext&) { return invalidData("x.raw: 3 NaN values"); }));
    ASSERT_TRUE(waitFor(finished, 1, 2000));
    EXPECT_FALSE(finished.at(0).at(0).toBool());
    // The message as the user reads it: no internal code name in front.
    EXPECT_EQ(finished.at(0).at(1).toString(), QStringLiteral("x.raw: 3 NaN values"));

    ASSERT_TRUE(runner.start([](const ExecContext&) -> Status { throw std::runtime_error("boom"); },
                             "thrower"));
    ASSERT_TRUE(waitFor(finished, 2, 2000));
    EXPECT_FALSE(finished.at(1).at(0).toBool());
    EXPECT_TRUE(finished.at(1).at(1).toString().contains(QStringLiteral("thrower threw: boom")));
}

TEST(JobRunner, ResultIsHandedOverAsImmutableSharedData) {
    JobRunner runner;
    runner.setThreads(3);
    auto output = std::make_shared<JobOutput<std::vector<int>>>();
    int seenThreads = -1;
    QSignalSpy finished(&runner, &JobRunner::finished);
    ASSERT_TRUE(runner.start([output, &seenThreads](const ExecContext& ctx) -> Status {
        seenThreads = ctx.threads;
        std::vector<int> squares;
        for (int i = 0; i < 5; ++i)
            squares.push_back(i * i);
        output->set(std::move(squares));
        return Status::ok();
    }));
    ASSERT_TRUE(waitFor(finished, 1, 2000));
    std::shared_ptr<const std::vector<int>> result = output->take();
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(*result, (std::vector<int>{0, 1, 4, 9, 16}));
    EXPECT_EQ(seenThreads, 3);
    EXPECT_EQ(output->take(), nullptr) << "take() empties the slot";
}

TEST(JobRunner, DestructorCancelsAndJoinsARunningJob) {
    std::atomic<bool> returned{false};
    QElapsedTimer timer;
    {
        JobRunner runner;
        QSignalSpy started(&runner, &JobRunner::started);
        ASSERT_TRUE(runner.start([&](const ExecContext& ctx) -> Status {
            while (!ctx.stop.stop_requested())
                std::this_thread::sleep_for(1ms);
            returned = true;
            return cancelled();
        }));
        ASSERT_TRUE(waitFor(started, 1, 2000));
        timer.start();
    }
    EXPECT_TRUE(returned.load()) << "the job must have returned when the runner is gone";
    EXPECT_LT(timer.elapsed(), 250);  // 100 ms required; margin for a loaded CI machine
    // Calls the worker posted before the runner died must be dropped, not delivered to a dead
    // object: spinning the event loop here would crash otherwise.
    QTest::qWait(20);
}

}  // namespace
}  // namespace tomo::app
