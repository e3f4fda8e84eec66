#pragma once
/// @file CenterPanel.h
/// @brief Centre-of-rotation tuning: a slider and spin box (0.1 px steps) with a live preview
/// of one slice reconstructed at that centre, the automatic estimate (Vo's Fourier metric,
/// core/centering), and a sweep showing a strip of N trial slices with the sharpness metric
/// plotted against the centre (app/jobs/CenterJob.h). "Apply" makes the value the dataset's
/// centre (Session::setCenterOfRotation), which drops the current reconstruction.
///
/// Debounce: a value change restarts a 120 ms timer; when it fires a preview job starts on the
/// panel's own JobRunner (not the Session's, so a long reconstruction does not block it). If a
/// job is still running, it is cancelled and the newest value runs as soon as it returns, so
/// dragging the slider never queues more than one update. Centre convention: pixels from the
/// centre of detector pixel 0 (docs/geometry.md).
///
/// Threading: GUI thread; the jobs run on the panel's runner.

#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "app/jobs/CenterJob.h"
#include "app/qt/JobRunner.h"

class QChartView;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineSeries;
class QPushButton;
class QScatterSeries;
class QSlider;
class QSpinBox;
class QTimer;

namespace tomo::ui {

class ImageView;
class Session;

class CenterPanel : public QWidget {
    Q_OBJECT

  public:
    /// @p session must outlive the panel.
    explicit CenterPanel(Session& session, QWidget* parent = nullptr);

    double center() const;
    void setCenter(double center);
    /// Debounce delay of the preview (120 ms by default).
    void setDebounceMs(int ms);

    ImageView* previewView() const { return m_preview; }
    /// The last preview slice and the centre it was made at.
    std::shared_ptr<const app::SliceImage> lastPreview() const { return m_lastPreview; }
    double lastPreviewCenter() const { return m_lastPreviewCenter; }
    /// The trial slices of the last sweep.
    const std::vector<app::SliceImage>& sweepSlices() const { return m_sweep.slices; }
    const app::CenterSweep& sweep() const { return m_sweep; }
    /// The sharpness-against-centre chart.
    QChartView* chartView() const { return m_chart; }
    void setSweepCount(int n);
    void setSweepRadius(double pixels);

  public slots:
    void estimate();
    void runSweep();
    void apply();
    /// Reads the dataset's centre into the controls (called when the dataset changes).
    void syncFromDataset();

  signals:
    void previewUpdated(double center);
    void estimated(double center);
    void sweepFinished(int slices);

  private:
    enum class Pending { None, Preview, Estimate, Sweep };
    /// The sharpness-against-centre chart (m_chart, m_curve, m_best).
    void createChart();
    void onValueChanged(double center);
    void startPreview();
    void startNext();
    void onFinished(bool ok, const QString& message);
    void showSweep();

    Session& m_session;
    app::JobRunner m_runner;
    QTimer* m_debounce = nullptr;
    Pending m_running = Pending::None;
    bool m_previewPending = false;
    Pending m_queued = Pending::None;

    QSlider* m_slider = nullptr;
    QDoubleSpinBox* m_spin = nullptr;
    QSpinBox* m_count = nullptr;
    QDoubleSpinBox* m_radius = nullptr;
    QLabel* m_status = nullptr;
    ImageView* m_preview = nullptr;
    QHBoxLayout* m_strip = nullptr;
    QChartView* m_chart = nullptr;
    QLineSeries* m_curve = nullptr;
    QScatterSeries* m_best = nullptr;

    std::shared_ptr<app::JobOutput<app::SliceImage>> m_previewOut;
    std::shared_ptr<app::JobOutput<CenterEstimate>> m_estimateOut;
    std::shared_ptr<app::JobOutput<app::CenterSweep>> m_sweepOut;
    double m_previewCenterRequested = 0;
    std::shared_ptr<const app::SliceImage> m_lastPreview;
    double m_lastPreviewCenter = 0;
    app::CenterSweep m_sweep;
};

}  // namespace tomo::ui
