#pragma once
/// @file MainWindow.h
/// @brief The TomoStation main window. Centre: a "Reconstruction" tab (sinogram,
/// reconstruction, ground truth and difference views, made by ui/views' createSliceView: VTK
/// when available), "Compare" and "Volume" tabs (ResultViews.h) and a "Teaching" tab. Docks:
/// Line profile, Parameters
/// (algorithm, FBP settings, the schema-built form for iterative methods, presets, metrics),
/// Convergence (live norms and L-curve), Centre of rotation, Devices, Cone geometry
/// (ConeActions.h: cone-beam data reconstruct by FDK, their slices are the axial planes). Status
/// bar: progress with ETA, Cancel and Stop-and-keep.
///
/// The window holds no application state of its own: it observes the injected Session (dataset,
/// reconstruction, jobs) and asks it to start jobs; file actions live in FileActions, the
/// session <-> widgets mapping in SessionBinding. While a job runs, the parameter form and the
/// file actions are disabled; nothing blocks the event loop. Live previews of an iterative job
/// reach the reconstruction view at the Session's throttled rate (~7 Hz).
///
/// Destructive actions (opening other data over an unsaved result, applying a new centre,
/// loading a session, quitting during a job) ask first unless confirmations are switched off
/// (setConfirmations(false): tests and --screenshot).
///
/// Threading: GUI thread only.

#include <filesystem>
#include <map>

#include <QMainWindow>

#include "app/qt/EtaEstimator.h"
#include "ui/main/HelpWindow.h"
#include "ui/main/Session.h"
#include "ui/views/ColorMap.h"

class QAction;
class QDockWidget;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSettings;
class QTabWidget;

namespace tomo::ui {

class AlgorithmPanel;
class CenterPanel;
class ConeActions;
class ConvergenceDock;
class DevicesPanel;
class LivePreview;
class MbirRestart;
class PreprocessPanel;
class FileActions;
class MetricsPanel;
class ResultViews;
class SamplingBox;
class SliceView;
class ReconParamsPanel;
class ReconstructionTab;
class ConeTeachingPanel;
class TeachingPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    /// @p session and @p settings must outlive the window.
    MainWindow(Session& session, QSettings& settings, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads (or generates) the demo dataset, then reconstructs it with the panel's settings.
    void startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder = {});
    /// Reads the open data file again with the Preprocessing panel's steps, then reconstructs.
    /// False when no data file is open or a job runs.
    bool applyPreprocessing();
    /// Centre panel > Apply to dataset: asks (when a result would be superseded), sets the
    /// centre in the dataset's record and reconstructs. False when nothing was applied.
    bool applyCenter(double center);
    /// Opens a data file or a dataset folder (FileActions::openPath), then reconstructs it.
    /// False (the reason shown) when nothing started.
    bool openAndReconstruct(const std::filesystem::path& path);
    /// Opens a cone-beam dataset (ConeActions::openCone), then reconstructs it by FDK.
    bool openConeAndReconstruct(const app::ConeOpenRequest& request);

    ReconstructionTab* reconstructionTab() const { return m_reconTab; }
    SliceView* sinogramView() const { return m_sinogram; }
    SliceView* reconstructionView() const { return m_recon; }
    SliceView* truthView() const { return m_truth; }
    SliceView* differenceView() const { return m_difference; }
    MetricsPanel* metricsPanel() const { return m_metrics; }
    ReconParamsPanel* paramsPanel() const;
    AlgorithmPanel* algorithmPanel() const { return m_algorithm; }
    ConvergenceDock* convergenceDock() const { return m_convergence; }
    CenterPanel* centerPanel() const { return m_center; }
    DevicesPanel* devicesPanel() const { return m_devices; }
    PreprocessPanel* preprocessPanel() const { return m_preprocess; }
    SamplingBox* samplingBox() const { return m_sampling; }
    LivePreview* livePreview() const { return m_live; }
    TeachingPanel* teachingPanel() const { return m_teaching; }
    ConeTeachingPanel* coneTeachingPanel() const { return m_coneTeaching; }
    FileActions* fileActions() const { return m_files; }
    /// Cone-beam data: the open dialog, the Cone geometry dock and its preview, FDK.
    ConeActions* coneActions() const { return m_cone; }
    /// The Parameters dock's description of the data.
    QLabel* datasetLabel() const { return m_datasetLabel; }
    /// The run bar under the Parameters dock's form (always in view): what Reconstruct runs,
    /// and the button (Ctrl+R anywhere in the window).
    QLabel* runSummary() const { return m_runSummary; }
    QPushButton* runButton() const { return m_runButton; }
    /// Compare and Volume tabs and the line-profile dock (ui/views).
    ResultViews* resultViews() const { return m_results; }
    QTabWidget* centralTabs() const { return m_tabs; }
    Session& session() const { return m_session; }
    QSettings& settings() const { return m_settings; }

    /// The named dock's widget ("parameters", "convergence", "center", "devices") or null.
    QDockWidget* dock(const QString& name) const;
    /// Raises and shows the named dock or tab ("teaching", "teaching-cone", "reconstruction").
    void showPanel(const QString& name);
    /// The dock or tab in front (as showPanel names it).
    QString currentPanel() const;

    void setColorMap(ColorMap map);
    ColorMap colorMap() const { return m_colorMap; }

    void setConfirmations(bool on) { m_confirm = on; }
    bool confirmations() const { return m_confirm; }
    /// Asks "@p question" with Yes/No; true without asking when confirmations are off.
    bool confirm(const QString& title, const QString& question);
    /// Shows the message of a failed @p status in the status bar and, with confirmations on, in
    /// a window-modal (non-blocking) message box titled @p title; nothing when it is ok.
    void report(const QString& title, const Status& status);
    /// Shows @p text in the status bar.
    void showStatus(const QString& text);

    /// Opens Help > User guide or Help > Keyboard and mouse (non-modal, deleted on close).
    HelpWindow* showHelp(HelpWindow::Page page);

    /// MBIR's warm restart on the Sharpness and SNR sliders (MbirRestart.h).
    MbirRestart* mbirRestart() const { return m_mbirRestart; }
    /// Starts the selected iterative algorithm with the panel's parameters from @p initial
    /// (null: its own start); false when nothing started.
    bool startIterative(std::shared_ptr<const Volume> initial = nullptr);

    /// Starts the selected FBP or gridrec of the active dataset streamed to @p file a slab at a
    /// time instead of held (the result shown stays); false when nothing started (an iterative
    /// method or cone beam: the status bar says to use the CLI).
    bool reconstructToFile(const std::filesystem::path& file);

  public slots:
    /// Starts a reconstruction of the active dataset with the selected algorithm.
    void reconstruct();

  protected:
    void closeEvent(QCloseEvent* event) override;

  private slots:
    void showAbout();
    void onBusyChanged(bool busy);
    void onProgress(double fraction, const QString& stage);
    void onDatasetChanged();
    void onReconstructionChanged();
    void onIteration(int iteration);
    void onPreview();
    void onJobFinished(tomo::ui::Session::JobKind kind, bool ok, const QString& message);

  private:
    /// A setting changed: the result is marked out of date and, for FBP, a live preview of
    /// the current slice is asked for (LivePreview.h).
    void settingsChanged();
    void onLivePreview(std::shared_ptr<const tomo::app::SliceImage> image, int slice,
                       double seconds, const QString& description);
    /// The Parameters dock's description of @p data: source, shape, centre, the record's
    /// decisions (preprocessing, sampling), the first warning.
    QString datasetText(const app::Dataset& data) const;
    /// Why the shown result is not of the current settings ("" when it is).
    QString staleNote() const;
    /// Metrics of @p image against the current slice's truth (none without one).
    std::optional<ImageMetrics> metricsOf(View2<const float> image) const;
    /// Where metricsOf measures: the dataset's field of view.
    QString measuredOver() const;
    void createMenus();
    /// The run bar's line: the method and what it runs with ("FBP, ramp 1.00, Automatic").
    void updateRunBar();
    void createDocks();
    void createStatusBar();

    Session& m_session;
    QSettings& m_settings;
    bool m_reconstructWhenLoaded = false;
    bool m_confirm = true;
    std::filesystem::path m_shownSource;  ///< the data file of the shown dataset (empty: none)
    std::uint64_t m_shownSerial = 0;      ///< Session::loadSerial() of the shown dataset
    ColorMap m_colorMap = ColorMap::Grey;
    app::EtaEstimator m_eta;

    QTabWidget* m_tabs = nullptr;
    ReconstructionTab* m_reconTab = nullptr;
    SliceView* m_sinogram = nullptr;
    SliceView* m_recon = nullptr;
    SliceView* m_truth = nullptr;
    SliceView* m_difference = nullptr;
    ResultViews* m_results = nullptr;
    AlgorithmPanel* m_algorithm = nullptr;
    MetricsPanel* m_metrics = nullptr;
    ConvergenceDock* m_convergence = nullptr;
    CenterPanel* m_center = nullptr;
    DevicesPanel* m_devices = nullptr;
    PreprocessPanel* m_preprocess = nullptr;
    SamplingBox* m_sampling = nullptr;
    LivePreview* m_live = nullptr;
    MbirRestart* m_mbirRestart = nullptr;
    TeachingPanel* m_teaching = nullptr;
    ConeTeachingPanel* m_coneTeaching = nullptr;
    QTabWidget* m_teachingTab = nullptr;  ///< the lessons: parallel beam, cone beam
    FileActions* m_files = nullptr;
    ConeActions* m_cone = nullptr;
    std::map<QString, QDockWidget*> m_docks;
    QLabel* m_datasetLabel = nullptr;
    QLabel* m_runSummary = nullptr;
    QPushButton* m_runButton = nullptr;
    QAction* m_runAction = nullptr;

    QLabel* m_statusLabel = nullptr;
    QLabel* m_hoverLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_etaLabel = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_keep = nullptr;
};

}  // namespace tomo::ui
