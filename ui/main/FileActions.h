#pragma once
/// @file FileActions.h
/// @brief The File menu of the main window, one small class (STYLE.md #19) so that MainWindow
/// stays a layout: open a data file of any registered format (app/data/DataFormats.h, loaded as
/// `tomo recon` reads it by app/jobs/LoadJob.h, off the GUI thread with progress and Cancel),
/// open a dataset folder, open a cone-beam dataset (ConeActions), recent datasets and sessions
/// (RecentFiles in the injected QSettings), open/save a session (JSON, SessionFile.h), save the
/// reconstruction volume (every writer of core/io: .tif, .raw), save the shown slice (PNG as
/// displayed, or TIFF/raw float values), save a screenshot of the window, quit.
///
/// Destructive actions ask first through MainWindow::confirm: opening other data or a session
/// while a reconstruction is shown (it would be replaced), and quitting during a job.
///
/// Threading: GUI thread only.

#include <filesystem>
#include <optional>

#include <QObject>
#include <QPointer>
#include <QString>

#include "app/jobs/LoadJob.h"
#include "core/base/Status.h"
#include "ui/session/RecentFiles.h"
#include "ui/session/SessionState.h"
#include "ui/widgets/VolumeBrowser.h"

class QAction;
class QMenu;

namespace tomo::ui {

class MainWindow;

class FileActions : public QObject {
    Q_OBJECT

  public:
    explicit FileActions(MainWindow& window);

    /// Fills the File menu.
    void populate(QMenu* menu);
    void setBusy(bool busy);
    void setHasResult(bool hasResult);
    /// Called when a dataset has loaded: applies the centre of a session being opened.
    void onDatasetLoaded();

    /// The actions without dialogs (tests, scripts).
    /// Starts loading @p request (what File > Open does after its dialogs). The file joins the
    /// recent files when it has loaded; errors reach MainWindow's message box through
    /// Session::jobFinished and leave the previous dataset. False when a job is running.
    bool openDataFile(const app::LoadRequest& request);
    /// The file dialog's filters, one per registered readable format plus "All data files",
    /// built from the registry's descriptions and extensions; error when it cannot be built.
    static Result<QString> dataFileFilters();
    Status saveSession(const std::filesystem::path& file);
    /// Applies the session in @p file (SessionBinding.h); its data loads as openDataFile /
    /// a folder / the demo does. Error naming what could not be applied (first a data file or
    /// folder that is not there: the rest is applied nonetheless).
    Status openSession(const std::filesystem::path& file);
    /// File > Open data file after its file dialog: checks that @p file exists and that the
    /// build reads its format, asks what the file does not say (OpenDataDialog), then whether
    /// to replace the current result, and starts the load. Errors go to a message box. False
    /// when nothing started.
    bool askAndOpen(const std::filesystem::path& file);
    /// Opens @p path as `tomostation PATH` does: a data file through askAndOpen(), a dataset
    /// folder (one with geometry.txt) as File > Open dataset folder. Errors (no such path, a
    /// folder that is not a dataset) go to a message box. False when nothing started.
    bool openPath(const std::filesystem::path& path);
    /// Ok when @p folder is a dataset folder; otherwise an error that says what to open instead.
    static Status checkDatasetFolder(const std::filesystem::path& folder);
    Status saveSlice(const std::filesystem::path& file) const;
    /// File > Save reconstruction after its dialog (Session::saveReconstruction); says where
    /// it saved in the status bar.
    Status saveReconstruction(const std::filesystem::path& file, bool tiff16 = false);
    Status saveScreenshot(const std::filesystem::path& file) const;
    RecentFiles& recent() { return m_recent; }
    /// Before other data replace the current ones: asks (Yes/No) only while the result has not
    /// been saved since it was made; true to go on.
    bool confirmReplace();

  public slots:
    void openDataFileDialog();
    void openDatasetFolder();
    /// File > Open reconstruction: a stored volume in a VolumeBrowser window, read slice by
    /// slice (so volumes larger than memory open); asks the shape of raw files.
    void openVolumeDialog();
    /// File > Open reference image: a golden image of the loaded dataset (Session::setReference),
    /// for the RMSE per iteration, MBIR's HU curve and the metrics.
    void openReferenceDialog();
    void openSessionDialog();
    void saveSessionDialog();
    void saveVolumeDialog();
    void saveSliceDialog();
    void saveScreenshotDialog();
    /// Reconstruction > Reconstruct to file: the dataset's FBP or gridrec streamed to a file a
    /// slab at a time, with progress and Cancel, for a result too big to hold
    /// (MainWindow::reconstructToFile).
    void reconstructToFileDialog();

    /// Opens @p file in a VolumeBrowser window (openVolumeDialog without the dialogs).
    Status openVolume(const std::filesystem::path& file, const ReadOptions& options = {});
    /// Reads @p file (any volume format) as the loaded dataset's reference.
    Status openReference(const std::filesystem::path& file);
    /// The browser opened last (null when none or closed).
    VolumeBrowser* lastBrowser() const { return m_lastBrowser; }

  private:
    void refreshRecent();
    void openRecent(const QString& path);
    /// Records a cone-beam dataset just loaded in Open recent (with what reopening it needs).
    void addConeRecent(const app::ConeOpenRequest& request);

    MainWindow& m_window;
    RecentFiles m_recent;
    std::optional<SessionState> m_pendingCenter;
    QMenu* m_recentMenu = nullptr;
    QString m_pendingRecent;  ///< the data file being loaded, added to recent when it loads
    QAction* m_openFile = nullptr;
    QAction* m_open = nullptr;
    QAction* m_openCone = nullptr;
    QAction* m_openSession = nullptr;
    QAction* m_openReference = nullptr;
    QAction* m_saveVolume = nullptr;
    QAction* m_saveSlice = nullptr;
    bool m_busy = false;
    bool m_hasResult = false;
    QPointer<VolumeBrowser> m_lastBrowser;
};

}  // namespace tomo::ui
