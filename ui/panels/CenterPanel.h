#pragma once
/// @file CenterPanel.h
/// @brief Centre-of-rotation tuning: a slider and spin box (0.1 px steps) with a live preview
/// of one slice reconstructed at that centre, the automatic estimate (Vo's Fourier metric,
/// core/centering), and a sweep showing a strip of N trial slices with the sharpness metric
/// plotted against the centre (app/jobs/CenterJob.h). "Apply to dataset" asks the window to make
/// the value the dataset's centre (applyRequested: the window confirms, sets it in the dataset's
/// record by Session::setCenterOfRotation and reconstructs again); a value that is the dataset's
/// centre already applies nothing and says so.
///
/// Jobs: the preview, the estimate and the sweep run through the GUI's one debounced preview
/// runner (PreviewRunner.h; 120 ms after a value change, a button at once), off the Session's
/// runner so a long reconstruction does not block them: dragging the slider cancels a running
/// preview and never queues more than one, an estimate or a sweep runs to its end. New data clear
/// the sweep's strip and curve and give the preview a fresh window. Centre convention: pixels from
/// the centre of detector pixel 0 (docs/geometry.md).
///
/// Threading: GUI thread; the jobs run on the panel's runner.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QWidget>

#include "app/jobs/CenterJob.h"
#include "ui/main/PreviewRunner.h"

class QChartView;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineSeries;
class QPushButton;
class QScatterSeries;
class QSlider;
class QSpinBox;

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

    /// How the preview and the sweep's trials are reconstructed: the Parameters panel's FBP
    /// (filter, back-projector, projector) or gridrec.
    struct Method {
        FilterOptions filter;
        std::string variant;  ///< "" = the engine's default
        app::AnalyticMethod method;
    };
    /// Where the panel reads its Method when a job starts (unset: FBP with the defaults).
    void setMethodSource(std::function<Method()> source) { m_methodSource = std::move(source); }

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
    /// Shows why an apply failed (nothing when @p status is ok).
    void showApplied(const Status& status);
    /// Reads the dataset's centre into the controls (called when the dataset changes).
    void syncFromDataset();

  signals:
    /// Apply to dataset with a centre other than the dataset's.
    void applyRequested(double center);
    void previewUpdated(double center);
    void estimated(double center);
    void sweepFinished(int slices);

  private:
    /// The sharpness-against-centre chart (m_chart, m_curve, m_best).
    void createChart();
    void onValueChanged(double center);
    void requestPreview();
    /// Empties the sweep's strip and curve (new data).
    void clearSweep();
    void showSweep();
    /// A failed job's message (not for a cancelled one).
    void showFailure(const QString& message);

    Session& m_session;
    PreviewRunner m_jobs;
    std::function<Method()> m_methodSource;
    Method method() const { return m_methodSource ? m_methodSource() : Method{}; }

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

    std::shared_ptr<const app::SliceImage> m_lastPreview;
    bool m_freshWindow = true;        ///< the next preview gets an automatic window (new data)
    std::uint64_t m_shownSerial = 0;  ///< Session::loadSerial() of the data shown
    double m_lastPreviewCenter = 0;
    app::CenterSweep m_sweep;
};

}  // namespace tomo::ui
