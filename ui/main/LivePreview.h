#pragma once
/// @file LivePreview.h
/// @brief The live preview: one slice reconstructed by FBP (or gridrec, FBP in Fourier space)
/// with the Parameters dock's settings on every change, without pressing Reconstruct (the full
/// run still is Reconstruct).
///
/// request() goes through the GUI's one debounced preview runner (PreviewRunner.h, kDebounceMs):
/// the slice is reconstructed by app/jobs CenterJob's reconstructSliceAtCenter (the front door's
/// FBP of one slice at the dataset's centre) off the session's runner, a superseded preview is
/// cancelled and never shown. Measured on the 2-core development machine: one 1024^2 slice from
/// 1609 angles in 0.275-0.295 s with cpu.simd.lin (docs/performance.md).
///
/// Threading: GUI thread only; the job runs on the runner's worker.

#include <memory>
#include <optional>
#include <string>

#include <QObject>

#include "app/jobs/DemoJob.h"
#include "app/jobs/SliceImage.h"
#include "core/recon/Fbp.h"
#include "ui/main/PreviewRunner.h"

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
    /// Makes what a preview with these settings needs on its device (FFT plans, programs,
    /// buffers: app prepareSliceAtCenter) on the runner's worker, so that the first preview of
    /// a dataset costs what the next do; a request() arriving first supersedes it.
    void prepare(const FbpOptions& options, const std::string& variantId, int slice,
                 const app::AnalyticMethod& method = {});
    /// Drops a pending request and cancels a running preview, whose image is then never shown
    /// (a new dataset, or Reconstruct: the full run supersedes it).
    void cancel();
    void setDebounceMs(int ms) { m_runner.setDebounceMs(ms); }
    bool isBusy() const { return m_runner.isBusy(); }

  signals:
    /// A preview of @p slice finished in @p seconds with the options of its request.
    void ready(std::shared_ptr<const tomo::app::SliceImage> image, int slice, double seconds,
               const QString& description);
    /// A preview failed (not when it was superseded or cancelled).
    void failed(const QString& message);

  private:
    Session& m_session;
    PreviewRunner m_runner;
};

}  // namespace tomo::ui
