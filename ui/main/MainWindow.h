#pragma once
/// @file MainWindow.h
/// @brief The TomoStation main window: sinogram, reconstruction, ground truth and difference
/// views, the FBP parameter panel, metrics and timings, and a progress bar with Cancel.
///
/// The window holds no application state of its own: it observes the injected Session (the
/// dataset and reconstruction live there) and asks it to start jobs. While a job runs, the
/// parameter form and the file actions are disabled and the status bar shows progress and a
/// Cancel button; nothing blocks the event loop.
///
/// Threading: GUI thread only.

#include <filesystem>

#include <QMainWindow>

#include "ui/main/Session.h"
#include "ui/views/ColorMap.h"

class QAction;
class QLabel;
class QProgressBar;
class QPushButton;

namespace tomo::ui {

class ImageView;
class MetricsPanel;
class ReconParamsPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    /// @p session must outlive the window.
    explicit MainWindow(Session& session, QWidget* parent = nullptr);

    /// Loads (or generates) the demo dataset, then reconstructs it with the panel's settings.
    void startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder = {});
    /// Loads a dataset folder, then reconstructs it.
    void openDatasetAndReconstruct(const std::filesystem::path& folder);

    ImageView* sinogramView() const { return m_sinogram; }
    ImageView* reconstructionView() const { return m_recon; }
    ImageView* truthView() const { return m_truth; }
    ImageView* differenceView() const { return m_difference; }
    MetricsPanel* metricsPanel() const { return m_metrics; }
    ReconParamsPanel* paramsPanel() const { return m_params; }

  public slots:
    /// Starts a reconstruction of the active dataset with the panel's settings.
    void reconstruct();

  private slots:
    void openDatasetFolder();
    void saveReconstruction();
    void showAbout();
    void onBusyChanged(bool busy);
    void onProgress(double fraction, const QString& stage);
    void onDatasetChanged();
    void onReconstructionChanged();
    void onJobFinished(tomo::ui::Session::JobKind kind, bool ok, const QString& message);

  private:
    void createMenus();
    QWidget* createCentralViews();
    QWidget* createSidePanel();
    void createStatusBar();
    void setColorMap(ColorMap map);

    Session& m_session;
    bool m_reconstructWhenLoaded = false;

    ImageView* m_sinogram = nullptr;
    ImageView* m_recon = nullptr;
    ImageView* m_truth = nullptr;
    ImageView* m_difference = nullptr;
    ReconParamsPanel* m_params = nullptr;
    MetricsPanel* m_metrics = nullptr;
    QLabel* m_datasetLabel = nullptr;

    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QLabel* m_statusLabel = nullptr;
    QLabel* m_hoverLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
};

}  // namespace tomo::ui
