#pragma once
/// @file MetricsPanel.h
/// @brief Shows the outcome of a reconstruction: error metrics against the ground truth (RMSE
/// and maximum error in image units, PSNR in dB, SSIM), wall-clock timings per stage and the
/// back-projector variant, and what is shown (the result or an iterate of the last run) and where
/// the metrics were measured (the field of view, FieldOfView.h). Value labels carry object names
/// ("shownValue", "overValue", "rmseValue", "psnrValue",
/// "ssimValue", "maxErrorValue", "filterTimeValue", "backProjectTimeValue", "totalTimeValue",
/// "variantValue") so that tests and scripts can find them.
///
/// Threading: GUI thread only.

#include <optional>

#include <QString>
#include <QWidget>

#include "app/jobs/DemoJob.h"

class QFormLayout;
class QLabel;

namespace tomo::ui {

/// One line for the status bar: "FBP cpu.simd.lin ramp 1.00: 0.123 s  RMSE 0.0123 ...".
QString reconSummary(const app::ReconOutcome& outcome, const FbpOptions& options);

class MetricsPanel : public QWidget {
    Q_OBJECT

  public:
    explicit MetricsPanel(QWidget* parent = nullptr);

    /// @p shown: what the metrics are of (default "the result (slice 1)").
    void showOutcome(const app::ReconOutcome& outcome, const QString& shown = QString());
    /// Another image than the result is shown (@p shown says which: "iterate 12", "preview"):
    /// its metrics against the truth (none when unknown), no timings.
    /// @p over: where they were measured ("" = the whole image).
    void showImage(const QString& shown, const std::optional<ImageMetrics>& metrics,
                   const QString& over = QString());
    /// Slice @p slice (0-based) of the result is shown: its metrics against its truth (none when
    /// unknown); the timings and variant stay.
    void showResultSlice(int slice, const std::optional<ImageMetrics>& metrics);
    /// The settings changed since the shown result: the panel says it is out of date.
    void markOutOfDate();
    /// Dashes everywhere (no reconstruction yet).
    void clear();

  private:
    QLabel* addValue(const QString& label, const char* objectName);

    QFormLayout* m_form = nullptr;
    void showMetrics(const std::optional<ImageMetrics>& metrics);

    QLabel* m_shown = nullptr;
    QLabel* m_over = nullptr;
    QLabel* m_rmse = nullptr;
    QLabel* m_psnr = nullptr;
    QLabel* m_ssim = nullptr;
    QLabel* m_maxError = nullptr;
    QLabel* m_filterTime = nullptr;
    QLabel* m_backProjectTime = nullptr;
    QLabel* m_totalTime = nullptr;
    QLabel* m_variant = nullptr;
};

}  // namespace tomo::ui
