#include "app/qt/JobRunner.h"

#include <exception>
#include <mutex>
#include <new>
#include <string>

#include <QMetaObject>

#include "core/base/Progress.h"

namespace tomo::app {

/// Forwards a job's progress to the runner's thread, at most once per interval (plus the final
/// 1.0). Called from any worker thread; the lock keeps fractions in order.
class JobRunner::Sink final : public ProgressSink {
  public:
    Sink(JobRunner* runner, std::uint64_t generation, std::chrono::milliseconds interval)
        : m_runner(runner), m_generation(generation), m_interval(interval) {}

    void onProgress(double fraction, std::string_view stage) override {
        std::lock_guard lock(m_mutex);
        auto now = std::chrono::steady_clock::now();
        bool isFinal = fraction >= 1.0;
        if (!isFinal && m_sent && now - m_last < m_interval) return;
        if (isFinal && m_sentFinal) return;
        m_last = now;
        m_sent = true;
        m_sentFinal = isFinal;
        QString label = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
        JobRunner* runner = m_runner;
        std::uint64_t generation = m_generation;
        QMetaObject::invokeMethod(
            runner,
            [runner, generation, fraction, label] {
                if (runner->m_generation == generation && runner->m_running)
                    emit runner->progress(fraction, label);
            },
            Qt::QueuedConnection);
    }

  private:
    JobRunner* m_runner;
    std::uint64_t m_generation;
    std::chrono::milliseconds m_interval;
    std::mutex m_mutex;
    std::chrono::steady_clock::time_point m_last{};
    bool m_sent = false;
    bool m_sentFinal = false;
};

JobRunner::JobRunner(QObject* parent) : QObject(parent) {}

JobRunner::~JobRunner() {
    // Join before QObject's destructor runs: calls the worker posted until now are then
    // discarded together with this object's pending events.
    if (m_worker.joinable()) {
        m_worker.request_stop();
        m_worker.join();
    }
}

void JobControl::post(std::function<void()> fn) const {
    JobRunner* runner = m_runner;
    std::uint64_t generation = m_generation;
    if (runner == nullptr || !fn) return;
    QMetaObject::invokeMethod(
        runner,
        [runner, generation, fn = std::move(fn)] {
            if (runner->m_generation == generation && runner->m_running) fn();
        },
        Qt::QueuedConnection);
}

bool JobRunner::start(Job job, QString name) {
    if (!job) return false;
    return startControlled(
        [job = std::move(job)](const ExecContext& ctx, const JobControl&) { return job(ctx); },
        std::move(name));
}

bool JobRunner::startControlled(ControlledJob job, QString name) {
    if (m_running || !job) return false;
    if (m_worker.joinable()) m_worker.join();  // the previous job has returned already
    m_running = true;
    std::uint64_t generation = ++m_generation;
    int threads = m_threads;
    std::chrono::milliseconds interval = m_interval;
    m_finishEarly = std::make_shared<std::atomic<bool>>(false);
    JobControl control;
    control.m_runner = this;
    control.m_generation = generation;
    control.m_finishEarly = m_finishEarly;
    m_worker = std::jthread([this, generation, threads, interval, job = std::move(job),
                             name = std::move(name), control](std::stop_token stop) {
        QMetaObject::invokeMethod(
            this,
            [this, generation] {
                if (m_generation == generation) emit started();
            },
            Qt::QueuedConnection);
        Sink sink(this, generation, interval);
        Progress root(&sink);
        ExecContext ctx;
        ctx.threads = threads;
        ctx.stop = stop;
        ctx.progress = &root;
        Status status;
        // Exceptions must not escape a thread (std::terminate); turn them into values here.
        try {
            status = job(ctx, control);
        } catch (const std::bad_alloc&) {
            status = outOfMemory("out of memory in " + name.toStdString());
        } catch (const std::exception& e) {
            status = internalError(name.toStdString() + " threw: " + e.what());
        }
        QMetaObject::invokeMethod(
            this, [this, generation, status, name] { finish(generation, status, name); },
            Qt::QueuedConnection);
    });
    return true;
}

void JobRunner::cancel() {
    if (m_running) m_worker.request_stop();
}

void JobRunner::finishEarly() {
    if (m_running && m_finishEarly) m_finishEarly->store(true, std::memory_order_relaxed);
}

void JobRunner::finish(std::uint64_t generation, const Status& status, const QString& name) {
    if (generation != m_generation || !m_running) return;
    m_running = false;
    if (status.isOk()) {
        emit finished(true, QString());
    } else if (status.code() == ErrorCode::Cancelled) {
        emit finished(false, name + QStringLiteral(" cancelled"));
    } else {
        // The message names the cause for the user; the code's name ("invalid-data") is for
        // logs and exit codes, not for a dialog.
        emit finished(false, QString::fromStdString(status.message()));
    }
}

}  // namespace tomo::app
