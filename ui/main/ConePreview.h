#pragma once
/// @file ConePreview.h
/// @brief The central-plane preview of a cone-beam dataset while its geometry, volume or filter
/// is tuned: the plane of the source orbit reconstructed by FDK from the detector rows it
/// reaches (app/jobs/ConePlane.h), without pressing Reconstruct.
///
/// As LivePreview, through the GUI's one debounced preview runner (PreviewRunner.h,
/// kDebounceMs): the session's runner stays free, a superseded preview is cancelled and never
/// shown, and cancel() (a new dataset, Reconstruct) drops both.
///
/// Threading: GUI thread only; the job runs on the runner's worker.

#include <memory>
#include <optional>

#include <QObject>

#include "app/jobs/ConePlane.h"
#include "ui/main/PreviewRunner.h"

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
    void setDebounceMs(int ms) { m_runner.setDebounceMs(ms); }
    bool isBusy() const { return m_runner.isBusy(); }
    /// The spec of the last preview shown.
    const app::ConeJobSpec& shownSpec() const { return m_shown; }

  signals:
    /// The plane of the newest request, made in @p seconds (wall clock, queue excluded).
    void ready(std::shared_ptr<const tomo::app::ConePlane> plane, double seconds);
    /// A preview failed (not when it was superseded or cancelled).
    void failed(const QString& message);

  private:
    Session& m_session;
    PreviewRunner m_runner;
    app::ConeJobSpec m_shown;
};

}  // namespace tomo::ui
