#pragma once
/// @file ConePreview.h
/// @brief The central-plane preview of a cone-beam dataset while its geometry, volume or filter
/// is tuned: the plane of the source orbit reconstructed by FDK from the detector rows it
/// reaches (app/jobs/ConePlane.h), without pressing Reconstruct.
///
/// As LivePreview: request() restarts a debounce timer (kDebounceMs); when it fires the plane
/// is reconstructed on this object's own JobRunner (the session's stays free). A request while
/// a preview runs cancels it and runs the newest when it has stopped, so a superseded preview
/// is never shown, and cancel() (a new dataset, Reconstruct) drops both.
///
/// Threading: GUI thread only; the job runs on the runner's worker.

#include <memory>
#include <optional>

#include <QObject>
#include <QTimer>

#include "app/jobs/ConePlane.h"
#include "app/qt/JobRunner.h"

namespace tomo::ui {

class Session;

class ConePreview : public QObject {
    Q_OBJECT

  public:
    static constexpr int kDebounceMs = 150;

    explicit ConePreview(Session& session, QObject* parent = nullptr);

    /// Asks for the central plane of the session's cone-beam dataset with @p spec (debounced).
    void request(const app::ConeJobSpec& spec);
    /// Drops a pending request and cancels a running preview, which is then never shown.
    void cancel();
    void setDebounceMs(int ms) { m_debounce.setInterval(ms); }
    bool isBusy() const { return m_runner.isRunning() || m_debounce.isActive(); }
    /// The spec of the last preview shown.
    const app::ConeJobSpec& shownSpec() const { return m_running; }

  signals:
    /// The plane of the newest request, made in @p seconds (wall clock, queue excluded).
    void ready(std::shared_ptr<const tomo::app::ConePlane> plane, double seconds);
    /// A preview failed (not when it was superseded or cancelled).
    void failed(const QString& message);

  private:
    void start();
    void onFinished(bool ok, const QString& message);

    Session& m_session;
    app::JobRunner m_runner;
    QTimer m_debounce;
    std::optional<app::ConeJobSpec> m_pending;
    app::ConeJobSpec m_running;
    std::shared_ptr<app::JobOutput<app::ConePlane>> m_out;
    double m_startedAt = 0.0;
};

}  // namespace tomo::ui
