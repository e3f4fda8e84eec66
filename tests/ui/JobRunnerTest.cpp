// JobRunner: progress and completion reach the GUI thread as queued signals, throttled; cancel()
// reaches the job at its next check of the stop token; results are handed over through JobOutput.
// Nothing here is decided by how fast the machine is: the throttle is checked at intervals of
// zero and of an hour, cancellation by counting the job's steps after cancel() (the wait limits
// below only keep a broken runner from hanging the test).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

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

/// What the GUI thread received from a job's progress reports.
struct Delivered {
    std::vector<double> fractions;
    std::vector<bool> onGuiThread;
    bool jobOnAnotherThread = false;
};

/// Runs a job of @p steps progress steps on @p runner (its interval set by the caller) and
/// returns the fractions the GUI thread received and whether each arrived on the GUI thread.
Delivered runSteps(JobRunner& runner, int steps) {
    Delivered d;
    std::atomic<std::thread::id> jobThread{};
    QMetaObject::Connection c =
        QObject::connect(&runner, &JobRunner::progress, [&](double f, const QString& stage) {
            d.fractions.push_back(f);
            d.onGuiThread.push_back(QThread::currentThread() ==
                                    QCoreApplication::instance()->thread());
            EXPECT_EQ(stage, QStringLiteral("steps"));
        });
    QSignalSpy finished(&runner, &JobRunner::finished);
    QSignalSpy started(&runner, &JobRunner::started);
    EXPECT_TRUE(runner.start([&](const ExecContext& ctx) -> Status {
        jobThread = std::this_thread::get_id();
        Progress progress = ctx.progress->child(0.0, 1.0, "steps");
        progress.setTotal(static_cast<std::uint64_t>(steps));
        for (int i = 0; i < steps; ++i)
            progress.advance();
        return Status::ok();
    }));
    const bool ended = waitFor(finished, 1, 10000);  // a hang guard, not a speed
    QObject::disconnect(c);
    if (!ended) {
        ADD_FAILURE() << "the job did not finish";
        return d;
    }
    EXPECT_EQ(started.count(), 1);
    EXPECT_TRUE(finished.at(0).at(0).toBool());
    EXPECT_TRUE(finished.at(0).at(1).toString().isEmpty());
    d.jobOnAnotherThread = jobThread.load() != std::this_thread::get_id();
    return d;
}

TEST(JobRunner, DeliversEveryProgressReportOnTheGuiThreadWithoutAnInterval) {
    JobRunner runner;
    runner.setProgressInterval(std::chrono::milliseconds(0));
    const Delivered d = runSteps(runner, 20);
    EXPECT_TRUE(d.jobOnAnotherThread);
    ASSERT_EQ(d.fractions.size(), 20u) << "every advance() is a report; none may be lost";
    for (std::size_t i = 0; i < d.fractions.size(); ++i)
        EXPECT_DOUBLE_EQ(d.fractions[i], double(i + 1) / 20.0) << "in order";
    for (bool gui : d.onGuiThread)
        EXPECT_TRUE(gui);
    EXPECT_FALSE(runner.isRunning());
}

TEST(JobRunner, ThrottlesProgressToTheFirstAndTheFinalReportWithinAnInterval) {
    // 20 reports inside one interval (an hour: no machine takes that long for 20 steps): the
    // first goes through, the others are dropped, the final 1.0 always goes through.
    JobRunner runner;
    runner.setProgressInterval(std::chrono::hours(1));
    const Delivered d = runSteps(runner, 20);
    EXPECT_EQ(d.fractions, (std::vector<double>{0.05, 1.0}));
    for (bool gui : d.onGuiThread)
        EXPECT_TRUE(gui);
}

TEST(JobRunner, RefusesASecondJobWhileOneRuns) {
    JobRunner runner;
    std::atomic<bool> release{false};
    QSignalSpy finished(&runner, &JobRunner::finished);
    ASSERT_TRUE(runner.start([&](const ExecContext&) -> Status {
        while (!release.load())
            std::this_thread::sleep_for(1ms);
        return Status::ok();
    }));
    EXPECT_TRUE(runner.isRunning());
    EXPECT_FALSE(runner.start([](const ExecContext&) { return Status::ok(); }))
        << "a second job must be refused while one runs";
    release = true;
    ASSERT_TRUE(waitFor(finished, 1, 10000));
    EXPECT_FALSE(runner.isRunning());
    EXPECT_TRUE(finished.at(0).at(0).toBool());
}

/// A job that counts its steps (1 ms each, without an end of its own) and checks its stop
/// token before each, as jobs must; it records the step at which it saw the stop.
struct CountingJob {
    std::atomic<long> steps{0};
    std::atomic<long> stoppedAt{-1};
    Status operator()(const ExecContext& ctx) {
        // 20 s of steps at most, so that a runner that never stops it still lets the test end.
        for (long i = 0; i < 20000; ++i) {
            if (ctx.stop.stop_requested()) {
                stoppedAt = steps.load();
                return cancelled();
            }
            std::this_thread::sleep_for(1ms);
            steps.fetch_add(1);
        }
        return Status::ok();
    }
};

TEST(JobRunner, CancelReachesTheJobAtItsNextCheck) {
    JobRunner runner;
    QSignalSpy started(&runner, &JobRunner::started);
    QSignalSpy finished(&runner, &JobRunner::finished);
    CountingJob job;
    ASSERT_TRUE(
        runner.start([&](const ExecContext& ctx) { return job(ctx); }, QStringLiteral("long job")));
    ASSERT_TRUE(waitFor(started, 1, 10000));
    runner.cancel();
    // cancel() has returned: the stop is requested. The job may be inside one step now; it
    // sees the stop at the check before the next, so at most one more step counts.
    const long atCancel = job.steps.load();
    ASSERT_TRUE(waitFor(finished, 1, 30000));  // a hang guard, not a speed
    ASSERT_GE(job.stoppedAt.load(), 0) << "the job never saw the stop";
    EXPECT_LE(job.stoppedAt.load() - atCancel, 1)
        << "steps after cancel(): the runner must not delay the stop request";
    EXPECT_FALSE(finished.at(0).at(0).toBool());
    EXPECT_EQ(finished.at(0).at(1).toString(), QStringLiteral("long job cancelled"));

    // The runner is reusable after a cancellation.
    ASSERT_TRUE(runner.start([](const ExecContext&) { return Status::ok(); }));
    ASSERT_TRUE(waitFor(finished, 2, 10000));
    EXPECT_TRUE(finished.at(1).at(0).toBool());
}

TEST(JobRunner, ErrorsAndExceptionsBecomeFailedFinishedWithTheCause) {
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    ASSERT_TRUE(
        runner.start([](const ExecContext&) { return invalidData("x.raw: 3 NaN values"); }));
    ASSERT_TRUE(waitFor(finished, 1, 10000));
    EXPECT_FALSE(finished.at(0).at(0).toBool());
    // The message as the user reads it: no internal code name in front.
    EXPECT_EQ(finished.at(0).at(1).toString(), QStringLiteral("x.raw: 3 NaN values"));

    ASSERT_TRUE(runner.start([](const ExecContext&) -> Status { throw std::runtime_error("boom"); },
                             "thrower"));
    ASSERT_TRUE(waitFor(finished, 2, 10000));
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
    ASSERT_TRUE(waitFor(finished, 1, 10000));
    std::shared_ptr<const std::vector<int>> result = output->take();
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(*result, (std::vector<int>{0, 1, 4, 9, 16}));
    EXPECT_EQ(seenThreads, 3);
    EXPECT_EQ(output->take(), nullptr) << "take() empties the slot";
}

TEST(JobRunner, DestructorCancelsAndJoinsARunningJob) {
    std::atomic<bool> returned{false}, sawStop{false};
    {
        JobRunner runner;
        QSignalSpy started(&runner, &JobRunner::started);
        ASSERT_TRUE(runner.start([&](const ExecContext& ctx) -> Status {
            // Sleeps until the stop (20 s at most, so that a runner that never stops it still
            // lets the test end, and fail).
            std::mutex mutex;
            std::condition_variable_any wake;
            std::unique_lock lock(mutex);
            wake.wait_for(lock, ctx.stop, 20s, [] { return false; });
            sawStop = ctx.stop.stop_requested();
            returned = true;
            return cancelled();
        }));
        ASSERT_TRUE(waitFor(started, 1, 10000));
    }
    EXPECT_TRUE(returned.load()) << "the job must have returned when the runner is gone";
    EXPECT_TRUE(sawStop.load()) << "it returned because the destructor stopped it";
    // Calls the worker posted before the runner died must be dropped, not delivered to a dead
    // object: spinning the event loop here would crash otherwise.
    QTest::qWait(20);
}

}  // namespace
}  // namespace tomo::app
