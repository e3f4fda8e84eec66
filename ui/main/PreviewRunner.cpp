#include "ui/main/PreviewRunner.h"

#include <QDateTime>

namespace tomo::ui {

PreviewRunner::PreviewRunner(int debounceMs, int threads, QObject* parent) : QObject(parent) {
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(debounceMs);
    m_runner.setThreads(threads);
    connect(&m_debounce, &QTimer::timeout, this, &PreviewRunner::start);
    connect(&m_runner, &app::JobRunner::finished, this, &PreviewRunner::onFinished);
}

void PreviewRunner::request(Job job, Done done, Kind kind) {
    m_pending = Request{std::move(job), std::move(done), kind};
    m_debounce.start();
}

void PreviewRunner::runNow(Job job, Done done, Kind kind) {
    m_pending = Request{std::move(job), std::move(done), kind};
    m_debounce.stop();
    start();
}

void PreviewRunner::cancel() {
    m_pending.reset();
    m_debounce.stop();
    m_runningDone = nullptr;  // a job that finished before the cancel is not shown either
    m_runner.cancel();
}

void PreviewRunner::start() {
    if (!m_pending) return;
    if (m_runner.isRunning()) {
        // Superseded: an interruptible job stops now, any other one runs to its end; the
        // newest request starts from onFinished either way.
        if (m_runningKind == Kind::Interruptible) m_runner.cancel();
        return;
    }
    Request next = *std::exchange(m_pending, std::nullopt);
    m_runningDone = std::move(next.done);
    m_runningKind = next.kind;
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    m_runner.start(std::move(next.job), QStringLiteral("preview"));
}

void PreviewRunner::onFinished(bool ok, const QString& message) {
    Done done = std::exchange(m_runningDone, nullptr);
    const double seconds =
        static_cast<double>(QDateTime::currentMSecsSinceEpoch() - m_startedMs) / 1000.0;
    // A job superseded while it ran is not shown (unless it ran to its end: its result stands).
    const bool superseded = m_pending.has_value();
    if (done && (!superseded || (m_runningKind == Kind::RunsToEnd && ok)))
        done(ok, message, seconds);
    if (superseded) {
        m_debounce.stop();
        start();
    }
}

}  // namespace tomo::ui
