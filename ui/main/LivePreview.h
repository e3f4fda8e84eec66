#pragma once
/// @file LivePreview.h
/// @brief The live preview: one slice reconstructed by FBP (or gridrec, FBP in Fourier space)
/// with the Parameters dock's settings on every change, without pressing Reconstruct (the full
/// run still is Reconstruct).
///
/// request() restarts a debounce timer (kDebounceMs); when it fires, the slice is reconstructed
/// on this object's own JobRunner (app/jobs CenterJob's reconstructSliceAtCenter: the front
/// door's FBP of one slice at the dataset's centre), so the session's runner stays free. A
/// request while a preview runs cancels it and starts the newest when it has stopped: a
/// superseded preview is never shown. Measured on the 2-core development machine: one 1024^2
/// slice from 1609 angles in 0.275-0.295 s with cpu.simd.lin (docs/performance.md).
///
/// Threading: GUI thread only; the job runs on the runner's worker.

#include <memory>
#include <optional>
#include <string>

#include <QObject>
#include <QTimer>

#include "app/jobs/DemoJob.h"
#include "app/jobs/SliceImage.h"
#include "app/qt/JobRunner.h"
#include "core/recon/Fbp.h"

namespace tomo::ui {

class Session;

class LivePreview : public QObject {
    Q_OBJECT

  public:
    static constexpr int kDebounceMs = 150;

    explicit LivePreview(Session& session, QObject* parent = nullptr);

    /// Asks for a preview of slice @p slice with @p options and @p variantId (debounced).
    void request(const FbpOptions& options, const std::string& variantId, int slice,
                 const app::AnalyticMethod& method = {});
    /// Drops a pending request and cancels a running preview, whose image is then never shown
    /// (a new dataset, or Reconstruct: the full run supersedes it).
    void cancel();
    void setDebounceMs(int ms) { m_debounce.setInterval(ms); }
    bool isBusy() const { return m_runner.isRunning() || m_debounce.isActive(); }

  signals:
    /// A preview of @p slice finished in @p seconds with the options of its request.
    void ready(std::shared_ptr<const tomo::app::SliceImage> image, int slice, double seconds,
               const QString& description);
    /// A preview failed (not when it was superseded or cancelled).
    void failed(const QString& message);

  private:
    struct Request {
        FbpOptions options;
        std::string variantId;
        int slice = 0;
        app::AnalyticMethod method;
    };
    void start();
    void onFinished(bool ok, const QString& message);

    Session& m_session;
    app::JobRunner m_runner;
    QTimer m_debounce;
    std::optional<Request> m_pending;
    Request m_running;
    std::shared_ptr<app::JobOutput<app::SliceImage>> m_out;
    double m_startedAt = 0.0;
};

}  // namespace tomo::ui
