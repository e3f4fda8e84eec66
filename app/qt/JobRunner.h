#pragma once
/// @file JobRunner.h
/// @brief Runs one plain C++ job at a time on a worker thread and reports it through Qt signals.
///
/// The job layer (app/jobs, core) knows nothing of Qt: a job is a function
/// `Status(const ExecContext&)` that advances `ctx.progress` and checks `ctx.stop`. JobRunner is
/// the thin QtCore adapter that the GUI uses to run such a function without blocking the event
/// loop (STYLE.md rules 15, 17 and 18):
///
///  - The job runs on its own `std::jthread`. Its stop token is the ExecContext's `stop`;
///    `cancel()` requests a stop, and a job that checks its token every few milliseconds
///    returns `Cancelled` promptly (the runner itself adds no latency).
///  - Progress reported by the job's `Progress` tree reaches `progress(fraction, stage)` at most
///    every `progressInterval()` (100 ms by default, i.e. ~10 Hz), plus the final 1.0.
///  - Every signal is emitted on the thread the JobRunner lives in (normally the GUI thread): the
///    worker posts queued calls to the runner; it never touches widgets and never calls
///    `processEvents()`. Calls posted by a job that has been superseded or whose runner has been
///    destroyed are dropped.
///  - `finished(ok, message)` is emitted after the job function has returned; anything the job
///    wrote before returning (see `JobOutput`) is visible to the slot. Results are handed over as
///    immutable shared data (`std::shared_ptr<const T>`), never as references into the worker.
///  - An exception escaping the job cannot be allowed to end the process (it would, from a
///    thread): it becomes `finished(false, ...)`, OutOfMemory for std::bad_alloc.
///  - Two ways to stop (STYLE.md #14, Tomviz's "cancel" vs "finish early"): `cancel()` fires the
///    stop token and the job returns Cancelled (its partial result is discarded by the caller);
///    `finishEarly()` only raises a flag that a controlled job (`ControlledJob`) reads through
///    `JobControl::finishEarlyRequested()` at its next safe point, e.g. after an iteration, and
///    then returns OK with what it has ("stop and keep").
///  - A controlled job may hand intermediate results to the GUI with `JobControl::post(fn)`:
///    `fn` runs on the runner's thread, in posting order, before `finished`. Throttling is the
///    job's business (previews at 5-10 Hz; see app/jobs/IterativeJob.h).
///
/// Threading: create, start, cancel and destroy the runner on one thread (the one it lives in).
/// The destructor cancels a running job and waits for it to return.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <utility>

#include <QObject>
#include <QString>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"

namespace tomo::app {

/// @brief A one-shot hand-over slot for a job's result. The worker calls `set()` once before the
/// job returns; after `JobRunner::finished` the GUI thread calls `take()` and owns an immutable,
/// shareable value. Capture it in the job by `std::shared_ptr<JobOutput<T>>`.
template <class T>
class JobOutput {
  public:
    void set(T value) { m_value = std::make_shared<const T>(std::move(value)); }
    /// The value (null when the job failed before setting it); empties the slot.
    std::shared_ptr<const T> take() { return std::exchange(m_value, nullptr); }

  private:
    std::shared_ptr<const T> m_value;
};

class JobRunner;

/// @brief What a controlled job gets besides its ExecContext: the "finish early" flag and a way
/// to post work to the runner's (GUI) thread. Cheap to copy; thread-safe; valid while the job
/// runs (posts made after the runner is destroyed or the job superseded are dropped).
class JobControl {
  public:
    /// True once JobRunner::finishEarly() was called for this job (relaxed atomic read).
    bool finishEarlyRequested() const {
        return m_finishEarly && m_finishEarly->load(std::memory_order_relaxed);
    }
    /// Queues @p fn to run on the runner's thread (never blocks the worker). Dropped when the
    /// job has finished or been superseded by then.
    void post(std::function<void()> fn) const;

  private:
    friend class JobRunner;
    JobRunner* m_runner = nullptr;
    std::uint64_t m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_finishEarly;
};

/// @brief Runs `Status(const ExecContext&)` jobs on a worker thread; see the file comment.
class JobRunner : public QObject {
    Q_OBJECT

  public:
    using Job = std::function<Status(const ExecContext&)>;
    using ControlledJob = std::function<Status(const ExecContext&, const JobControl&)>;

    explicit JobRunner(QObject* parent = nullptr);
    /// Cancels a running job and waits for it to return (its signals are dropped).
    ~JobRunner() override;

    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    /// Starts @p job on a new worker thread. Returns false (and does nothing) when a job is
    /// still running or @p job is empty. @p name appears in log-style messages ("reconstruction
    /// cancelled").
    bool start(Job job, QString name = QStringLiteral("job"));
    /// As start(Job), for a job that reads the finish-early flag and posts results.
    bool startControlled(ControlledJob job, QString name = QStringLiteral("job"));

    /// True from a successful start() until just before finished() is emitted.
    bool isRunning() const { return m_running; }

    /// Worker threads passed to the job as ExecContext::threads (0 = all hardware threads).
    void setThreads(int threads) { m_threads = threads; }
    int threads() const { return m_threads; }

    /// Minimum time between two progress signals (the final 1.0 is always delivered).
    void setProgressInterval(std::chrono::milliseconds interval) { m_interval = interval; }
    std::chrono::milliseconds progressInterval() const { return m_interval; }

  public slots:
    /// Asks the running job to stop (no-op when idle). finished(false, "<name> cancelled")
    /// follows once the job has returned.
    void cancel();
    /// Asks a controlled job to stop at its next safe point and keep its result (no-op when
    /// idle). finished(true, "") follows once it has returned.
    void finishEarly();

  signals:
    /// The job has started on the worker thread.
    void started();
    /// Overall progress in [0, 1], non-decreasing, with the innermost stage's label.
    void progress(double fraction, const QString& stage);
    /// The job returned. @p ok is false on error or cancellation; @p message is empty on success
    /// and otherwise the error's message for the user (Status::message(), without the code's
    /// name), or "<name> cancelled".
    void finished(bool ok, const QString& message);

  private:
    friend class JobControl;
    class Sink;
    void finish(std::uint64_t generation, const Status& status, const QString& name);

    std::jthread m_worker;
    bool m_running = false;
    int m_threads = 0;
    std::chrono::milliseconds m_interval{100};
    /// Incremented per start(); queued calls from an older job are ignored.
    std::uint64_t m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_finishEarly;
};

}  // namespace tomo::app
