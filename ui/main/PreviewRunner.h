#pragma once
/// @file PreviewRunner.h
/// @brief The one debounced preview runner of the GUI: every "recompute while the user tunes"
/// (the FBP live preview, the cone-beam central plane, the centre-of-rotation preview, estimate
/// and sweep, the two lessons of Teaching) runs its job through one of these, so the debounce,
/// the cancelling of a superseded job, the threads and the timing are written once.
///
/// request() remembers the newest job and restarts the debounce timer; when it fires the job
/// starts on this runner's own JobRunner (never the Session's, so a long reconstruction does not
/// block a preview), with the Session runner's thread count. A request while a job runs cancels
/// it when that job is interruptible (a preview) and otherwise waits for it (an estimate or a
/// sweep that the user asked for); either way the newest request runs as soon as the job has
/// returned, and only the newest job's `done` is called: a superseded result is never shown.
/// runNow() is request() without the debounce (a button press). cancel() drops both.
///
/// Threading: GUI thread only; the jobs run on the runner's worker.

#include <functional>
#include <optional>

#include <QObject>
#include <QTimer>

#include "app/qt/JobRunner.h"

namespace tomo::ui {

class PreviewRunner : public QObject {
    Q_OBJECT

  public:
    using Job = std::function<Status(const ExecContext&)>;
    /// Called on the GUI thread for the newest job: @p ok, the error (or "... cancelled")
    /// otherwise, and the job's wall-clock seconds.
    using Done = std::function<void(bool ok, const QString& message, double seconds)>;
    enum class Kind { Interruptible, RunsToEnd };

    /// @p debounceMs: the quiet time before a request starts; @p threads: the job's threads.
    explicit PreviewRunner(int debounceMs, int threads = 0, QObject* parent = nullptr);

    /// Asks for @p job (debounced); @p done follows when it is still the newest.
    void request(Job job, Done done, Kind kind = Kind::Interruptible);
    /// As request(), starting at once.
    void runNow(Job job, Done done, Kind kind = Kind::RunsToEnd);
    /// Drops a pending request and cancels the running job; no `done` follows for either.
    void cancel();

    void setDebounceMs(int ms) { m_debounce.setInterval(ms); }
    void setThreads(int threads) { m_runner.setThreads(threads); }
    int threads() const { return m_runner.threads(); }
    /// True while a request waits for the debounce or a job runs.
    bool isBusy() const { return m_runner.isRunning() || m_debounce.isActive() || m_pending; }
    bool isRunning() const { return m_runner.isRunning(); }

  private:
    struct Request {
        Job job;
        Done done;
        Kind kind = Kind::Interruptible;
    };
    void start();
    void onFinished(bool ok, const QString& message);

    app::JobRunner m_runner;
    QTimer m_debounce;
    std::optional<Request> m_pending;
    Done m_runningDone;
    Kind m_runningKind = Kind::Interruptible;
    qint64 m_startedMs = 0;
};

}  // namespace tomo::ui
